package costsearch

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
)

// The bounds the sandbox should keep, which the corpus and the search are
// held to. FailsafeTime (2 s) stops a call by the wall clock; a call that
// spends its whole budget (1,000,000 instructions) should take at most a
// quarter of it: MaxNsPerInstruction. PeerNsPerInstruction is what the
// peer program (PeerSource) runs at on the machine the limits were
// measured on (the project's 2-core machine, idle: 42 to 57 ns a charged
// instruction, since the tables it builds are charged by their bytes as
// well as by the VM's instructions), so a ratio to the peer measured on
// the same machine, in the same run (10×), stands for MaxNsPerInstruction
// on any machine, loaded or not.
// What the heap holds of a mod's values should be within MaxHeapRatio of
// what the budget weighs (for a mod that holds at least HeapFloor).
const (
	MaxNsPerInstruction  = 500
	PeerNsPerInstruction = 50
	MaxHeapRatio         = 1.5
)

// PeerSource is the plain reference program: a loop building small
// tables until the call's budget stops it.
const PeerSource = `game.on("tick", function()
  local r
  for i = 1, 1e7 do r = {i, i + 1, x = i} end
end)
`

// OpsWithout returns the indices in Ops of the operations not named in
// names, or an error for a name no operation has.
func OpsWithout(names []string) ([]int, error) {
	for _, n := range names {
		if !slices.ContainsFunc(Ops, func(op Op) bool { return op.Name == n }) {
			return nil, fmt.Errorf("costsearch: no operation %q", n)
		}
	}
	var ops []int
	for i, op := range Ops {
		if !slices.Contains(names, op.Name) {
			ops = append(ops, i)
		}
	}
	return ops, nil
}

// Found is a program the search ran, with its figures.
type Found struct {
	Genome Genome
	Source string
	Result Result
	// NsPerInstruction and HeapRatio: Result's, for the runner's turns.
	NsPerInstruction, HeapRatio float64
	// Note, if not empty, is a line WriteFound writes in its header (how
	// the program was made from what the search found, say).
	Note string
}

// Objective is a ratio the search maximises.
type Objective int

const (
	ByTime Objective = iota // wall time per charged instruction
	ByHeap                  // held heap per weighed byte
)

func (o Objective) String() string {
	if o == ByHeap {
		return "held/weighed"
	}
	return "ns/instruction"
}

// of is f's figure for o.
func (o Objective) of(f *Found) float64 {
	if o == ByHeap {
		return f.HeapRatio
	}
	return f.NsPerInstruction
}

// fitness is what selection maximises for o: o's figure, but for the
// heap a program that holds less than HeapFloor (whose HeapRatio is 0)
// has its ratio scaled down by what it holds, so that the search is led
// towards programs that hold more.
func (o Objective) fitness(f *Found) float64 {
	if o == ByHeap && f.HeapRatio == 0 && f.Result.Err == nil && f.Result.Held > 0 {
		return float64(f.Result.Held) / float64(max(f.Result.Weighed, minWeighed)) * float64(f.Result.Held) / HeapFloor
	}
	return o.of(f)
}

// Measurer runs a program and measures it, at a number of turns: a
// *Runner, in the real sandbox.
type Measurer interface {
	Run(src string) Result
	PlayedTurns() int
}

// Config configures a search.
type Config struct {
	Runner Measurer
	Seed   uint64
	// Population is how many programs each generation holds (at least 4);
	// the search runs Generations generations after the first, or, if
	// Generations is 0, until Deadline.
	Population  int
	Generations int
	Deadline    time.Time
	// Seeds are programs put in the first generation as they are, before
	// the random ones.
	Seeds []Genome
	// Ops, if not nil, are the only operations (indices in Ops) new genes
	// draw from; Seeds and their offspring keep their own.
	Ops []int
	// Keep is how many of the worst programs of each objective Search
	// returns.
	Keep int
	// Log, if not nil, is told of each generation's worst.
	Log func(string)
}

// Search runs a genetic search for the programs with the most time per
// charged instruction and the most heap per weighed byte, and returns the
// worst it found of each (Keep of each, worst first). The programs
// depend only on the seed and on which were selected: the same figures
// select the same programs.
func Search(cfg Config) (byTime, byHeap []Found, err error) {
	if cfg.Runner == nil {
		return nil, nil, fmt.Errorf("costsearch: no runner")
	}
	if cfg.Population < 4 {
		return nil, nil, fmt.Errorf("costsearch: a population of %d: at least 4", cfg.Population)
	}
	for _, op := range cfg.Ops {
		if op < 0 || op >= len(Ops) {
			return nil, nil, fmt.Errorf("costsearch: no operation %d", op)
		}
	}
	if cfg.Generations <= 0 && cfg.Deadline.IsZero() {
		return nil, nil, fmt.Errorf("costsearch: neither generations nor a deadline")
	}
	keep := max(cfg.Keep, 1)
	rng := rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15))
	s := &searcher{cfg: cfg, rng: rng, seen: map[string]*Found{}}
	pop := make([]*Found, 0, cfg.Population)
	for _, g := range cfg.Seeds {
		if len(pop) < cfg.Population {
			pop = append(pop, s.eval(g))
		}
	}
	for len(pop) < cfg.Population {
		pop = append(pop, s.eval(s.random()))
	}
	s.log(0, pop)
	for gen := 1; cfg.Generations <= 0 || gen <= cfg.Generations; gen++ {
		if !cfg.Deadline.IsZero() && time.Now().After(cfg.Deadline) {
			break
		}
		next := make([]*Found, 0, cfg.Population)
		// Elites: the best of each objective goes on as it is.
		for _, o := range []Objective{ByTime, ByHeap} {
			for _, f := range fittest(pop, o, 1) {
				if !slices.Contains(next, f) {
					next = append(next, f)
				}
			}
		}
		for i := 0; len(next) < cfg.Population; i++ {
			o := Objective(i % 2)
			a, b := s.tournament(pop, o), s.tournament(pop, Objective((i+1)%2))
			next = append(next, s.eval(Mutate(rng, a.Genome, b.Genome, cfg.Ops)))
			if !cfg.Deadline.IsZero() && time.Now().After(cfg.Deadline) {
				break
			}
		}
		pop = next
		s.log(gen, pop)
	}
	all := make([]*Found, 0, len(s.seen))
	for _, src := range s.order {
		all = append(all, s.seen[src])
	}
	for _, f := range distinct(worst(all, ByTime, len(all)), keep) {
		byTime = append(byTime, *f)
	}
	for _, f := range distinct(worst(all, ByHeap, len(all)), keep) {
		if f.HeapRatio > 0 {
			byHeap = append(byHeap, *f)
		}
	}
	return byTime, byHeap, nil
}

type searcher struct {
	cfg   Config
	rng   *rand.Rand
	seen  map[string]*Found // by source: each program runs once
	order []string          // seen's sources, in the order they ran
}

// random draws a genome, of cfg.Ops if they are given.
func (s *searcher) random() Genome { return Random(s.rng, s.cfg.Ops) }

// eval runs g, once whatever how often it is asked for.
func (s *searcher) eval(g Genome) *Found {
	src := g.Source()
	if f, ok := s.seen[src]; ok {
		return f
	}
	res := s.cfg.Runner.Run(src)
	f := &Found{Genome: g, Source: src, Result: res}
	if res.Err == nil {
		f.NsPerInstruction = res.NsPerInstruction(s.cfg.Runner.PlayedTurns())
		f.HeapRatio = res.HeapRatio()
	}
	s.seen[src] = f
	s.order = append(s.order, src)
	return f
}

// tournament picks the best of three drawn from pop, for o.
func (s *searcher) tournament(pop []*Found, o Objective) *Found {
	best := pop[s.rng.IntN(len(pop))]
	for range 2 {
		if f := pop[s.rng.IntN(len(pop))]; o.fitness(f) > o.fitness(best) {
			best = f
		}
	}
	return best
}

func (s *searcher) log(gen int, pop []*Found) {
	if s.cfg.Log == nil {
		return
	}
	t, h := worst(pop, ByTime, 1)[0], fittest(pop, ByHeap, 1)[0]
	s.cfg.Log(fmt.Sprintf("generation %d (%d programs run): worst %.0f ns/instruction: %s; worst held/weighed %.2f: %s",
		gen, len(s.seen), t.NsPerInstruction, t.Genome, h.HeapRatio, h.Genome))
}

// fittest returns the n programs of fs with the highest fitness for o,
// highest first (ties in the order given).
func fittest(fs []*Found, o Objective, n int) []*Found {
	sorted := slices.Clone(fs)
	slices.SortStableFunc(sorted, func(a, b *Found) int { return cmp.Compare(o.fitness(b), o.fitness(a)) })
	return sorted[:min(n, len(sorted))]
}

// distinct returns the first n programs of fs whose genomes' sets of
// operations differ, so that one finding and its variants do not fill
// the list.
func distinct(fs []*Found, n int) []*Found {
	var out []*Found
	seen := map[string]bool{}
	for _, f := range fs {
		if len(out) == n {
			break
		}
		var ops []string
		for _, g := range f.Genome.Genes {
			ops = append(ops, Ops[g.Op].Name)
		}
		slices.Sort(ops)
		key := strings.Join(slices.Compact(ops), "|")
		if !seen[key] {
			seen[key] = true
			out = append(out, f)
		}
	}
	return out
}

// worst returns the n programs of fs with the highest figure for o,
// highest first (ties in the order given).
func worst(fs []*Found, o Objective, n int) []*Found {
	sorted := slices.Clone(fs)
	slices.SortStableFunc(sorted, func(a, b *Found) int { return cmp.Compare(o.of(b), o.of(a)) })
	return sorted[:min(n, len(sorted))]
}

// Blame names the gene of f's genome that its figure for o owes most to:
// the one whose removal lowers the figure most (each genome without one
// of its genes is run), with the figure without it. A genome of one gene
// blames it, with 0.
func Blame(r Measurer, f Found, o Objective) (Gene, float64) {
	if len(f.Genome.Genes) == 1 {
		return f.Genome.Genes[0], 0
	}
	best, least := 0, 0.0
	for i := range f.Genome.Genes {
		g := f.Genome.Clone()
		g.Genes = append(g.Genes[:i], g.Genes[i+1:]...)
		res := r.Run(g.Source())
		without := &Found{Result: res}
		if res.Err == nil {
			without.NsPerInstruction, without.HeapRatio = res.NsPerInstruction(r.PlayedTurns()), res.HeapRatio()
		}
		if v := o.of(without); i == 0 || v < least {
			best, least = i, v
		}
	}
	return f.Genome.Genes[best], least
}
