package ai

import (
	"math"
	"testing"

	"github.com/mod2048/mod2048/engine"
)

// emptyCount values a position by its empty cells, negated: a ruleset's
// own evaluation, unlike any the player has.
func emptyCount(g *engine.Game) float64 {
	n := 0
	for _, c := range g.State().Board.Cells {
		if c.Kind == engine.KindEmpty {
			n++
		}
	}
	return -float64(n)
}

// valued is classic with an evaluation of its own (Evaluator).
type valued struct{ *engine.Classic }

func (valued) Evaluation(w []float64) (func(*engine.Game) float64, error) {
	return emptyCount, nil
}

// TestSearchUsesTheRulesetsEvaluation: a ruleset that values its own
// positions is searched by its evaluation, with no switch on its type;
// weights for one that has none are refused.
func TestSearchUsesTheRulesetsEvaluation(t *testing.T) {
	_, r := rankNew(t, valued{engine.NewClassic()}, 4)
	for _, s := range r {
		// Its own evaluation is −(empty cells): never above 0, where the
		// player's row tables value any live board above 0.
		if s.Value > 0 || s.Value < -16 {
			t.Errorf("%v valued %v: not the ruleset's evaluation", s.Dir, s.Value)
		}
	}
	if _, err := EvalFor(engine.NewClassic(), []float64{1}, emptyCount); err == nil {
		t.Error("weights for classic, which has no evaluation of its own, were taken")
	}
}

// rankNew is the expert player's ranking of the moves of a new game of
// rules on a size × size board (seed 4).
func rankNew(t *testing.T, rules engine.Rules, size int) (*engine.Game, []Suggestion) {
	t.Helper()
	g, err := engine.New(rules, engine.Options{Width: size, Height: size, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := New(Defaults())
	r, err := p.Rank(g, g.LegalMoves())
	if err != nil {
		t.Fatal(err)
	}
	return g, r
}

// expertValued is valued with weights of its own for the expert
// (ExpertWeigher); its evaluation says which weights it was made with.
type expertValued struct{ *engine.Classic }

func (expertValued) Evaluation(w []float64) (func(*engine.Game) float64, error) {
	v := -100.0 // no weights: the default
	if w != nil {
		v = w[0]
	}
	return func(*engine.Game) float64 { return v }, nil
}

func (expertValued) ExpertWeights() []float64 { return []float64{-7} }

// TestExpertSearchesWithItsOwnWeights: the expert values a ruleset's
// positions by the ruleset's weights for the expert (its search and
// ExpertEvalFor); given weights, by those; a lookahead's EvalFor keeps the
// ruleset's default.
func TestExpertSearchesWithItsOwnWeights(t *testing.T) {
	g, r := rankNew(t, expertValued{engine.NewClassic()}, 5)
	for _, s := range r {
		if s.Value != -7 {
			t.Errorf("the expert valued %v at %v, want −7: the ruleset's weights for the expert", s.Dir, s.Value)
		}
	}
	for _, c := range []struct {
		name    string
		of      func(engine.Rules, []float64, func(*engine.Game) float64) (func(*engine.Game) float64, error)
		weights []float64
		want    float64
	}{
		{"ExpertEvalFor", ExpertEvalFor, nil, -7},
		{"ExpertEvalFor, given weights", ExpertEvalFor, []float64{3}, 3},
		{"EvalFor", EvalFor, nil, -100},
	} {
		eval, err := c.of(g.Rules(), c.weights, emptyCount)
		if err != nil {
			t.Fatal(err)
		}
		if got := eval(g); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	if eval, err := ExpertEvalFor(engine.NewClassic(), nil, emptyCount); err != nil || eval(g) != emptyCount(g) {
		t.Errorf("classic, which has no evaluation of its own: not the fallback (%v)", err)
	}
}

// TestSearchSchedules pins both seed schedules: one move deep, a move's
// value is the mean of the evaluation over its samples, played on forks
// seeded as each schedule says.
func TestSearchSchedules(t *testing.T) {
	g, _ := engine.New(engine.NewClassic(), engine.Options{Width: 5, Height: 5, Seed: 6})
	d := g.LegalMoves().List()[0]
	const seed, n = 99, 5
	for _, sc := range []Schedule{Chained, Spread} {
		s := Search{Depth: 1, Samples: n, Deep: n, Schedule: sc, Eval: emptyCount}
		sum, prev := 0.0, uint64(seed)
		for i := 0; i < n; i++ {
			child := engine.Mix(prev + uint64(i) + 1)
			if sc == Spread {
				child = engine.Mix(seed + uint64(i+1)*0x9e3779b97f4a7c15)
			}
			prev = child
			f := g.Fork(child)
			if _, err := f.Move(d); err != nil {
				t.Fatal(err)
			}
			sum += emptyCount(f)
		}
		if got, want := s.Value(g, d, seed), sum/n; got != want {
			t.Errorf("schedule %d: value %v, want %v", sc, got, want)
		}
		if s.Evals != n {
			t.Errorf("schedule %d: %d positions evaluated, want %d", sc, s.Evals, n)
		}
	}
	// A move that changes nothing is worth −∞.
	full, _ := engine.New(engine.NewClassic(), engine.Options{Width: 2, Height: 1, Seed: 1})
	if v := (&Search{Depth: 1, Samples: 1, Deep: 1, Eval: emptyCount}).Value(full, engine.Up, 1); !math.IsInf(v, -1) {
		t.Errorf("a move that changes nothing: %v", v)
	}
}

// TestSearchAllocatesNothing: once its forks have grown, a search
// allocates nothing.
func TestSearchAllocatesNothing(t *testing.T) {
	g, _ := engine.New(engine.NewClassic(), engine.Options{Width: 5, Height: 5, Seed: 8})
	s := Search{Depth: 2, Samples: 3, Deep: 2, Schedule: Spread, Eval: emptyCount}
	legal := g.LegalMoves()
	s.Choose(g, legal, 1)
	if a := testing.AllocsPerRun(20, func() { s.Choose(g, legal, 1) }); a != 0 {
		t.Errorf("%v allocations a search", a)
	}
}

// TestSearchWorkIsTheSameWhateverTheValues: the search prunes nothing by
// value, so at a position it evaluates the same positions whatever its
// evaluation: weights fitted anew (cellular.ExpertLearned) leave the
// expert's time a move as it was.
func TestSearchWorkIsTheSameWhateverTheValues(t *testing.T) {
	g, err := engine.New(engine.NewClassic(), engine.Options{Width: 5, Height: 5, Seed: 8})
	if err != nil {
		t.Fatal(err)
	}
	var evals []int
	for _, eval := range []func(*engine.Game) float64{
		emptyCount,
		func(g *engine.Game) float64 { return -emptyCount(g) },
		func(g *engine.Game) float64 { return float64(g.State().Turn % 3) },
	} {
		s := Search{Depth: 3, Samples: 3, Deep: 2, Schedule: Spread, Eval: eval}
		s.Choose(g, g.LegalMoves(), 5)
		evals = append(evals, int(s.Evals))
	}
	if evals[0] == 0 || evals[0] != evals[1] || evals[0] != evals[2] {
		t.Errorf("positions evaluated by three evaluations: %v, want the same", evals)
	}
}
