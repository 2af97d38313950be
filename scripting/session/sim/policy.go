package sim

import (
	"fmt"
	"math"
	"strings"

	"github.com/mod2048/mod2048/cellular"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/engine/ai"
)

// View is what a policy sees of a game: what a player sees. Legal is the
// session's legal moves, in which a mod's refusal counts as illegal. Fork
// copies the game at its state for search (no mods' hooks), its random
// source reseeded.
type View struct {
	State *engine.State
	Rules engine.Rules
	Legal engine.DirSet
	Fork  func(seed uint64) *engine.Game
}

// Policy chooses moves. A policy is used by one game at a time; New makes
// one for each game, from the game's seed, so that ties broken at random
// are the same on every run.
type Policy interface {
	Choose(v View) engine.Direction
}

// PolicyMaker makes a game's policy from its seed.
type PolicyMaker func(seed uint64) (Policy, error)

// PolicyOptions tune the policies that search.
type PolicyOptions struct {
	Depth   int         // lookahead: moves deep
	Samples int         // lookahead: forks a move is sampled on
	AI      ai.Settings // expert: the expert player's settings
}

// Policies lists the policies by name.
func Policies() []string { return []string{"random", "greedy", "lookahead", "expert"} }

// DefaultPolicy is the policy of a run that names none.
const DefaultPolicy = "lookahead"

// The lookahead's defaults: one move deep, each move sampled on four forks.
// The cellular presets' ladder (cellular/RULES.md, "Tuning") is measured
// with them.
const (
	DefaultDepth   = 1
	DefaultSamples = 4
)

// MakePolicy returns the maker of the named policy.
func MakePolicy(name string, o PolicyOptions) (PolicyMaker, error) {
	switch name {
	case "random":
		return func(seed uint64) (Policy, error) { return &randomPolicy{rng: engine.NewRNG(seed)}, nil }, nil
	case "greedy":
		return func(seed uint64) (Policy, error) { return &greedyPolicy{rng: engine.NewRNG(seed)}, nil }, nil
	case "lookahead":
		if o.Depth < 1 || o.Depth > 4 || o.Samples < 1 || o.Samples > 32 {
			return nil, fmt.Errorf("lookahead: depth %d (1 to 4) and samples %d (1 to 32)", o.Depth, o.Samples)
		}
		return func(seed uint64) (Policy, error) {
			return &lookahead{depth: o.Depth, samples: o.Samples, rng: engine.NewRNG(seed)}, nil
		}, nil
	case "expert":
		return func(uint64) (Policy, error) {
			p, err := ai.New(o.AI)
			if err != nil {
				return nil, err
			}
			return &expertPolicy{p: p}, nil
		}, nil
	}
	return nil, fmt.Errorf("unknown policy %q (policies: %s)", name, strings.Join(Policies(), ", "))
}

// randomPolicy plays a legal direction at random.
type randomPolicy struct{ rng engine.RNG }

func (p *randomPolicy) Choose(v View) engine.Direction {
	var legal [4]engine.Direction
	n := 0
	for _, d := range engine.Directions {
		if v.Legal.Has(d) {
			legal[n] = d
			n++
		}
	}
	return legal[p.rng.IntN(n)]
}

// greedyPolicy plays the direction of the best immediate score; ties go to
// one of them at random.
type greedyPolicy struct{ rng engine.RNG }

func (p *greedyPolicy) Choose(v View) engine.Direction {
	var best []engine.Direction
	bestScore := engine.Score{}
	for _, d := range v.Legal.List() {
		f := v.Fork(p.rng.Uint64())
		if _, err := f.Move(d); err != nil {
			continue
		}
		switch c := f.Score().Cmp(bestScore); {
		case len(best) == 0 || c > 0:
			best, bestScore = []engine.Direction{d}, f.Score()
		case c == 0:
			best = append(best, d)
		}
	}
	if len(best) == 0 {
		return v.Legal.List()[0]
	}
	return best[p.rng.IntN(len(best))]
}

// lookahead is a depth-limited expectimax through the engine's own rules:
// each move is played on Samples forks, each reseeded so that their spawns
// sample what chance may bring, and the search looks depth moves deep. It
// never re-implements a rule, so it plays classic, cellular and any board.
// Its evaluation values what wins: for cellular, the stabilize goal's
// progress (the alive energy against the threshold) beside the score.
type lookahead struct {
	depth, samples int
	rng            engine.RNG
}

func (p *lookahead) Choose(v View) engine.Direction {
	seed := p.rng.Uint64()
	best, bestV := v.Legal.List()[0], math.Inf(-1)
	for _, d := range v.Legal.List() {
		val := p.sample(v.Fork, d, seed, p.depth)
		if val > bestV {
			best, bestV = d, val
		}
	}
	return best
}

func (p *lookahead) sample(fork func(uint64) *engine.Game, d engine.Direction, seed uint64, depth int) float64 {
	sum := 0.0
	for i := 0; i < p.samples; i++ {
		f := fork(seed + uint64(i)*0x9e3779b97f4a7c15)
		res, err := f.Move(d)
		if err != nil || !res.Changed {
			return math.Inf(-1)
		}
		sum += p.value(f, seed+uint64(i), depth-1)
	}
	return sum / float64(p.samples)
}

func (p *lookahead) value(g *engine.Game, seed uint64, depth int) float64 {
	if depth == 0 || g.Status().Over() {
		return evaluate(g)
	}
	best := math.Inf(-1)
	for _, d := range g.LegalMoves().List() {
		best = max(best, p.sample(g.Fork, d, seed*31+uint64(d), depth))
	}
	if math.IsInf(best, -1) {
		return evaluate(g)
	}
	return best
}

// evaluate values a position for the lookahead: a win is worth most, a
// loss least; otherwise the score, the empty cells and, for cellular, the
// stabilize goal's progress.
func evaluate(g *engine.Game) float64 {
	st := g.State()
	switch st.Status {
	case engine.Won:
		return 1e15
	case engine.Lost:
		return -1e15
	}
	score, _ := st.Score.Uint64()
	empty := 0
	for _, c := range st.Board.Cells {
		if c.IsEmpty() {
			empty++
		}
	}
	v := float64(score) + 4*float64(empty)
	if r, ok := g.Rules().(*cellular.Rules); ok {
		energy, alive := 0, 0
		for _, c := range st.Board.Cells {
			if c.Kind == cellular.KindAlive {
				energy += int(c.Level)
				alive++
			}
		}
		settings := r.Settings()
		if t := settings.Threshold(); t > 0 {
			// Progress to the goal counts most, then a colony that lives.
			births, deaths := r.Unrest(st)
			v = 1000*math.Min(float64(energy)/float64(t), 1) + 50*float64(alive) - 40*float64(births+deaths) + float64(score)/100
		}
	}
	return v
}

// expertPolicy is the expert player (engine/ai).
type expertPolicy struct{ p *ai.Player }

func (p *expertPolicy) Choose(v View) engine.Direction {
	sug, err := p.p.Best(v.Fork(0), v.Legal)
	if err != nil {
		return v.Legal.List()[0]
	}
	return sug.Dir
}
