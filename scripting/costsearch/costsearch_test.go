package costsearch

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mod2048/mod2048/scripting"
	lua "github.com/mod2048/mod2048/scripting/internal/lua"
	"github.com/mod2048/mod2048/scripting/internal/lua/parse"
)

// enforceBounds: the corpus and the short search fail on a program that
// passes the bounds (MaxNsPerInstruction against the peer, MaxHeapRatio,
// nothing outliving its host). It is on: issue 38 repriced what the
// search found (false logs the violations with their ratios instead).
const enforceBounds = true

// testTurns are the turns a test plays of each program, and
// searchFailsafe the failsafe of the searches' calls: a test runs on a
// loaded machine, which the search's figures, ratios, do not depend on.
const (
	testTurns      = 1
	searchFailsafe = 100 * time.Millisecond
)

// violation fails the test or logs, as enforceBounds says.
func violation(t *testing.T, format string, args ...any) {
	t.Helper()
	if enforceBounds {
		t.Errorf(format, args...)
	} else {
		t.Logf("bound passed (not enforced until the repricing lands): "+format, args...)
	}
}

// newRunner is a runner at the default limits, with the failsafe
// failsafe if it is not 0.
func newRunner(t *testing.T, failsafe time.Duration) *Runner {
	t.Helper()
	l := scripting.DefaultLimits()
	if failsafe > 0 {
		l.FailsafeTime = failsafe
	}
	r, err := NewRunner(l, testTurns)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestGeneratedProgramsParse: what the generator writes is Lua, for every
// genome a seed draws and for their mutations, and the same seed writes
// the same programs, another seed others.
func TestGeneratedProgramsParse(t *testing.T) {
	draw := func(seed uint64) []string {
		rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
		var out []string
		var gs []Genome
		for range 40 {
			gs = append(gs, Random(rng, nil))
		}
		for range 160 {
			gs = append(gs, Mutate(rng, gs[rng.IntN(len(gs))], gs[rng.IntN(len(gs))], nil))
		}
		for _, g := range gs {
			if len(g.Genes) == 0 || len(g.Genes) > MaxGenes || g.Reps < 1 || g.Reps > maxReps {
				t.Fatalf("genome out of bounds: %+v", g)
			}
			out = append(out, g.Source())
		}
		return out
	}
	first := draw(1)
	for i, src := range first {
		chunk, err := parse.Parse(strings.NewReader(src), "main.lua")
		if err == nil {
			_, err = lua.Compile(chunk, "main.lua")
		}
		if err != nil {
			t.Fatalf("program %d does not compile: %v\n%s", i, err, src)
		}
	}
	if !slices.Equal(first, draw(1)) {
		t.Error("seed 1 drew other programs the second time")
	}
	if slices.Equal(first, draw(2)) {
		t.Error("seeds 1 and 2 drew the same programs")
	}
}

// TestEveryOpRuns: a program of each operation, small, loads and plays
// its turns in the real sandbox with no error of its own (a spent budget
// aside), and the host charges its calls.
func TestEveryOpRuns(t *testing.T) {
	r := newRunner(t, 0)
	for i, op := range Ops {
		g := Genome{Reps: 2, Genes: []Gene{{Op: i, N: min(op.NMax, 8), M: min(op.MMax, 3), Keep: true}}}
		res := r.Run(g.Source())
		if res.Err != nil {
			t.Errorf("%s: %v\n%s", op.Name, res.Err, g.Source())
			continue
		}
		if len(res.Reports) > 0 {
			t.Errorf("%s: reports %q\n%s", op.Name, res.Reports, g.Source())
		}
		if res.Instructions < testTurns {
			t.Errorf("%s: %d instructions charged", op.Name, res.Instructions)
		}
	}
}

// TestRunMeasures: the runner's figures track what a program does: a
// program that keeps 8 MiB of strings is weighed and held at about that,
// and one that runs a budget's worth of instructions is charged them.
func TestRunMeasures(t *testing.T) {
	r := newRunner(t, 0)
	res := r.Run(`K = {} for i = 1, 8 do K[i] = string.rep("x", 1048576) .. i end game.on("tick", function() end)`)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	const want = 8 << 20
	if res.Weighed < want || res.Weighed > want*11/10 || res.Held < want || res.Held > want*12/10 {
		t.Errorf("8 MiB kept: weighed %d, held %d", res.Weighed, res.Held)
	}
	if q := res.HeapRatio(); q < 0.9 || q > 1.2 {
		t.Errorf("8 MiB kept: held/weighed %.2f", q)
	}
	res = r.Run(PeerSource)
	if want := int64(testTurns) * scripting.DefaultLimits().HandlerInstructions; res.Instructions != want {
		t.Errorf("the peer was charged %d instructions, want %d (a full budget a turn)", res.Instructions, want)
	}
	if res.Time <= 0 || len(res.Reports) != 1 || !strings.Contains(res.Reports[0], "instruction budget") {
		t.Errorf("the peer: %v, reports %q", res.Time, res.Reports)
	}
	if res := r.Run(`game.on("tick", function(`); res.Err == nil {
		t.Error("a program that does not compile ran")
	}
}

// peerTime measures the peer's ns per instruction, the least of reps.
func peerTime(r *Runner, reps int) float64 {
	best := 0.0
	for i := range reps {
		if ns := r.Run(PeerSource).NsPerInstruction(r.Turns); i == 0 || ns < best {
			best = ns
		}
	}
	return best
}

// checkBounds holds res, a run of the program called name, to the bounds:
// its time per instruction against peer (the peer's ns per instruction),
// its held heap against its weight, and what outlives its host. It
// returns the report's line.
func checkBounds(t *testing.T, name string, res Result, ns, peer float64) string {
	t.Helper()
	heap := res.HeapRatio()
	limit := float64(MaxNsPerInstruction) / PeerNsPerInstruction
	if !raceEnabled && ns/peer > limit {
		violation(t, "%s: %.0f ns per charged instruction, %.1f× the peer's %.0f (the bound is %.2f×: %d ns where the peer runs %d)",
			name, ns, ns/peer, peer, limit, MaxNsPerInstruction, PeerNsPerInstruction)
	}
	// The absolute figure too: a call's whole budget at this time an
	// instruction must take at most a quarter of the failsafe. The time is
	// the CPU time of the thread that played the turns, which other work
	// on the machine does not lengthen much.
	if !raceEnabled && ns > MaxNsPerInstruction {
		violation(t, "%s: %.0f ns per charged instruction, more than %d: a call's budget of %d would take %v, more than a quarter of the failsafe",
			name, ns, MaxNsPerInstruction, scripting.DefaultLimits().HandlerInstructions,
			time.Duration(ns*float64(scripting.DefaultLimits().HandlerInstructions)))
	}
	if heap > MaxHeapRatio {
		violation(t, "%s: the heap holds %d bytes, %.2f× the %d weighed (the bound is %.1f×)", name, res.Held, heap, res.Weighed, MaxHeapRatio)
	}
	if res.Leaked >= HeapFloor {
		violation(t, "%s: %d bytes of the heap outlive its closed host", name, res.Leaked)
	}
	return fmt.Sprintf("| %s | %.0f | %.1f | %.2f | %d | %d | %d |", name, ns, ns/peer, heap, res.Held, res.Weighed, res.Leaked)
}

// TestCostSearchShort runs a short search from a fixed seed and holds the
// worst programs it found to the bounds (enforceBounds): the worst by time
// measured again, interleaved with the peer, the least of three each.
func TestCostSearchShort(t *testing.T) {
	if testing.Short() {
		t.Skip("a search: not under -short")
	}
	r := newRunner(t, searchFailsafe)
	byTime, byHeap, err := Search(Config{Runner: r, Seed: 1, Population: 6, Generations: 3, Keep: 1, Log: func(s string) { t.Log(s) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(byTime) != 1 {
		t.Fatalf("the search returned %d programs by time, want 1", len(byTime))
	}
	w := byTime[0]
	if w.Result.Err != nil || w.Result.Instructions == 0 {
		t.Fatalf("the worst by time did not run: %+v", w.Result)
	}
	ns, peer := w.NsPerInstruction, 0.0
	for i := range 3 {
		if p := peerTime(r, 1); i == 0 || p < peer {
			peer = p
		}
		if i > 0 {
			ns = min(ns, r.Run(w.Source).NsPerInstruction(r.Turns))
		}
	}
	t.Log(checkBounds(t, "worst by time: "+w.Genome.String(), w.Result, ns, peer))
	for _, f := range byHeap {
		t.Log(checkBounds(t, "worst by heap: "+f.Genome.String(), f.Result, f.NsPerInstruction, peer))
	}
}

// priced is a Measurer with a cost model of its own, for the tests of
// the search's logic: each gene of the operation slow costs slowNs an
// instruction, every other cheapNs, and each gene is charged a million
// instructions. It reads the genes back from the program's first line,
// where Source writes the genome.
type priced struct {
	slow            string
	slowNs, cheapNs float64
}

func (p priced) PlayedTurns() int { return 1 }

func (p priced) Run(src string) Result {
	header, _, _ := strings.Cut(src, "\n")
	_, genes, _ := strings.Cut(header, "[")
	var ns, n float64
	for _, g := range strings.Split(strings.TrimSuffix(genes, "]"), "; ") {
		name, _, _ := strings.Cut(g, " N=")
		if name == p.slow {
			ns += p.slowNs
		} else {
			ns += p.cheapNs
		}
		n++
	}
	return Result{Instructions: int64(n * 1e6), Time: time.Duration(ns * 1e6)}
}

// TestSearchRanksSlowWorst: a program slow per instruction among cheap
// ones is ranked the worst by time, and the next worst by its ratio: the
// search's selection, under a cost model that makes one operation a
// hundred times the others (today's sandbox has none such: the corpus
// holds each operation to the bounds instead).
func TestSearchRanksSlowWorst(t *testing.T) {
	tonumber := slices.IndexFunc(Ops, func(op Op) bool { return op.Name == "tonumber" })
	var cheap []int
	for i, op := range Ops {
		if op.Name == "arithmetic" || op.Name == "closures" || op.Name == "small tables" {
			cheap = append(cheap, i)
		}
	}
	if tonumber < 0 || len(cheap) != 3 {
		t.Fatal("the operations are not found")
	}
	slow := Genome{Reps: 1, Genes: []Gene{{Op: tonumber, N: 1 << 20, M: 20}}}
	m := priced{slow: "tonumber", slowNs: 5000, cheapNs: 50}
	byTime, _, err := Search(Config{Runner: m, Seed: 3, Population: 4, Generations: 1, Keep: 2, Seeds: []Genome{slow}, Ops: cheap})
	if err != nil {
		t.Fatal(err)
	}
	w := byTime[0]
	if !slices.ContainsFunc(w.Genome.Genes, func(g Gene) bool { return g.Op == tonumber }) {
		t.Fatalf("the worst by time is %s (%.0f ns/instruction), not the tonumber", w.Genome, w.NsPerInstruction)
	}
	if len(byTime) < 2 || byTime[1].NsPerInstruction > w.NsPerInstruction {
		t.Errorf("the search did not rank by time: %+v", byTime)
	}
}

// TestBlame: of a slow gene and a cheap one, the slow one is blamed for
// the time per instruction, and what is left without it is the cheap
// one's time.
func TestBlame(t *testing.T) {
	op := func(name string) int { return slices.IndexFunc(Ops, func(o Op) bool { return o.Name == name }) }
	g := Genome{Reps: 1, Genes: []Gene{{Op: op("arithmetic"), N: 1, M: 1000}, {Op: op("tonumber"), N: 1 << 20, M: 10}}}
	m := priced{slow: "tonumber", slowNs: 5000, cheapNs: 50}
	res := m.Run(g.Source())
	f := Found{Genome: g, Source: g.Source(), Result: res, NsPerInstruction: res.NsPerInstruction(1)}
	gene, without := Blame(m, f, ByTime)
	if Ops[gene.Op].Name != "tonumber" || without != 50 {
		t.Errorf("blamed %s (%.0f ns/instruction without it, %.0f with)", Ops[gene.Op].Name, without, f.NsPerInstruction)
	}
}

// TestWriteFound: a program written into the corpus reads back as its
// source under a header with its ratios, and the same program is written
// to the same file.
func TestWriteFound(t *testing.T) {
	dir := t.TempDir()
	g := Genome{Reps: 3, Genes: []Gene{{Op: 0, N: 10, M: 2}}}
	f := Found{Genome: g, Source: g.Source(), NsPerInstruction: 1234, HeapRatio: 2.5, Result: Result{Held: 5 << 20, Weighed: 2 << 20, Instructions: 99}}
	p1, err := WriteFound(dir, f, ByTime, 3)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := WriteFound(dir, f, ByTime, 3)
	if err != nil || p1 != p2 {
		t.Fatalf("written again: %s, %v; first %s", p2, err, p1)
	}
	ps, err := ReadCorpus(dir)
	if err != nil || len(ps) != 1 {
		t.Fatalf("read back: %v, %d programs", err, len(ps))
	}
	if !strings.HasSuffix(ps[0].Source, f.Source) || !strings.Contains(ps[0].Source, "1234 ns per charged instruction") || !strings.Contains(ps[0].Source, "held/weighed 2.50") {
		t.Errorf("read back:\n%s", ps[0].Source)
	}
}

// TestOpsWithout: the operations left out are not drawn, and a name no
// operation has is an error.
func TestOpsWithout(t *testing.T) {
	ops, err := OpsWithout([]string{"tonumber", "string <"})
	if err != nil || len(ops) != len(Ops)-2 {
		t.Fatalf("OpsWithout: %d operations, %v", len(ops), err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	g := Random(rng, ops)
	for range 200 {
		g = Mutate(rng, g, Random(rng, ops), ops)
		for _, gn := range g.Genes {
			if n := Ops[gn.Op].Name; n == "tonumber" || n == "string <" {
				t.Fatalf("%s drawn: %s", n, g)
			}
		}
	}
	if _, err := OpsWithout([]string{"no such op"}); err == nil {
		t.Error("OpsWithout took an unknown name")
	}
	if _, _, err := Search(Config{Runner: &Runner{Turns: 1}, Population: 4, Generations: 1, Ops: []int{len(Ops)}}); err == nil {
		t.Error("Search took an operation out of range")
	}
}

// TestCostCorpus replays the corpus: each program loads and runs, and is
// held to the bounds (enforceBounds). A program over a bound is run
// twice more, and its least time and heap kept, so that a moment's load
// on the machine (or a collector's cleanups that have not yet run) does
// not make a violation; the peer is measured before,
// between and after the programs, and its least time kept.
func TestCostCorpus(t *testing.T) {
	ps, err := ReadCorpus(CorpusDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) < 11 {
		t.Fatalf("the corpus holds %d programs, want the 11 known attacks at least", len(ps))
	}
	r := newRunner(t, 0)
	// Each program plays the turns it was found at (a program written by
	// hand, testTurns): what it held there is what it is held to.
	runners := map[int]*Runner{testTurns: r}
	runnerOf := func(p Program) *Runner {
		turns := max(p.Turns, testTurns)
		if runners[turns] == nil {
			rn, err := NewRunner(r.Limits, turns)
			if err != nil {
				t.Fatal(err)
			}
			runners[turns] = rn
		}
		return runners[turns]
	}
	peer := peerTime(r, 2)
	results := make([]Result, len(ps))
	for i, p := range ps {
		results[i] = runnerOf(p).Run(p.Source)
		if res := results[i]; res.Err != nil {
			t.Errorf("%s: %v", p.Name, res.Err)
		} else if res.Instructions == 0 {
			t.Errorf("%s: no instruction charged", p.Name)
		}
		if i == len(ps)/2 {
			peer = min(peer, peerTime(r, 1))
		}
	}
	peer = min(peer, peerTime(r, 1))
	limit := float64(MaxNsPerInstruction) / PeerNsPerInstruction
	t.Logf("the peer: %.0f ns per charged instruction", peer)
	t.Log("| program | ns/instruction | × the peer | held/weighed | held | weighed | outlives its host |")
	for i, p := range ps {
		res := results[i]
		if res.Err != nil {
			continue
		}
		pr := runnerOf(p)
		ns := res.NsPerInstruction(pr.Turns)
		for range 2 {
			if ns/peer <= limit && ns <= MaxNsPerInstruction && res.HeapRatio() <= MaxHeapRatio {
				break
			}
			again := pr.Run(p.Source)
			ns = min(ns, again.NsPerInstruction(pr.Turns))
			if again.HeapRatio() < res.HeapRatio() {
				res.Held, res.Weighed = again.Held, again.Weighed
			}
		}
		t.Log(checkBounds(t, p.Name, res, ns, peer))
		// A program found for its heap is held to the heap's bound only
		// if it holds at least HeapFloor at the turns it was found at.
		if strings.HasPrefix(p.Name, "found-heap-") && res.Held < HeapFloor {
			t.Errorf("%s: holds %d bytes at %d turns, less than the %d the heap's bound asks: it tests nothing", p.Name, res.Held, pr.Turns, HeapFloor)
		}
	}
}
