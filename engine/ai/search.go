package ai

import (
	"errors"
	"math"

	"github.com/mod2048/mod2048/engine"
)

// Search is the expectimax through the engine's own rules, for any
// ruleset, board, marks and mods: a move is played on Samples forks of
// the position at the root (Deep below it), each reseeded so that their
// spawns sample what chance may bring, and the search looks Depth moves
// deep, valuing the positions it reaches with Eval. It never
// re-implements a rule, and sees the mods where the game's hooks give its
// forks a dry run (engine.Forker). The forks are games it keeps, one a
// level, played into again and again (engine.Game.ForkInto), so it
// allocates nothing once they have grown. Its work is counted, never
// timed: the same position and seed give the same value on every machine.
type Search struct {
	Depth, Samples, Deep int
	Schedule             Schedule
	// Eval values a position (larger is better); a ruleset may supply its
	// own (Evaluator).
	Eval func(g *engine.Game) float64
	// Evals counts the positions evaluated.
	Evals  int
	levels []*engine.Game
}

// Schedule is how a search derives its samples' seeds from a node's.
// Both are kept because the figures of the players that use them were
// measured with each (config/DESIGNING.md, "The players").
type Schedule uint8

const (
	// Chained: sample i's seed mixes sample i−1's, and every move of a
	// node is sampled from the node's seed (the expert player's).
	Chained Schedule = iota
	// Spread: sample i's seed mixes the node's and i, and each move of a
	// node has a seed of its own (the lab's lookahead and cellular expert).
	Spread
)

func (s Schedule) sample(node, prev uint64, i int) uint64 {
	if s == Chained {
		return engine.Mix(prev + uint64(i) + 1)
	}
	return engine.Mix(node + uint64(i+1)*0x9e3779b97f4a7c15)
}

func (s Schedule) move(node uint64, d engine.Direction) uint64 {
	if s == Chained {
		return node
	}
	return engine.Mix(node ^ uint64(d+1))
}

// An Evaluator is a ruleset that values its own positions for a search
// (cellular: its learned chance of a win). Evaluation returns the value
// by weights, a vector of the ruleset's own (nil: the ruleset's default),
// or an error when weights do not fit it.
type Evaluator interface {
	Evaluation(weights []float64) (func(g *engine.Game) float64, error)
}

// EvalFor is the evaluation of r's positions: r's own where r is an
// Evaluator, else fallback (weights then must be nil).
func EvalFor(r engine.Rules, weights []float64, fallback func(g *engine.Game) float64) (func(g *engine.Game) float64, error) {
	if e, ok := r.(Evaluator); ok {
		return e.Evaluation(weights)
	}
	if weights != nil {
		return nil, errNoWeights
	}
	return fallback, nil
}

var errNoWeights = errors.New("ai: weights for a ruleset with no evaluation of its own")

// An ExpertWeigher is an Evaluator with weights fitted to the expert's
// deeper search (cellular: ExpertLearned): an evaluation fitted to what
// wins a shallow search can mislead a deep one.
type ExpertWeigher interface {
	Evaluator
	ExpertWeights() []float64
}

// ExpertEvalFor is the expert's evaluation of r's positions: EvalFor, with
// r's weights for the expert where weights is nil and r has them
// (ExpertWeigher).
func ExpertEvalFor(r engine.Rules, weights []float64, fallback func(g *engine.Game) float64) (func(g *engine.Game) float64, error) {
	if ew, ok := r.(ExpertWeigher); ok && weights == nil {
		weights = ew.ExpertWeights()
	}
	return EvalFor(r, weights, fallback)
}

// Choose returns the move of legal whose value (Value) is highest, the
// first of legal's order on a tie or when none changes the board.
func (s *Search) Choose(root *engine.Game, legal engine.DirSet, seed uint64) (engine.Direction, float64) {
	best, bestV := engine.Direction(0), math.Inf(-1)
	first := true
	for _, d := range engine.Directions {
		if !legal.Has(d) {
			continue
		}
		if first {
			best, first = d, false
		}
		if v := s.Value(root, d, seed); v > bestV {
			best, bestV = d, v
		}
	}
	return best, bestV
}

// Value is the mean value of playing d on the samples' forks of root,
// seeded from seed; −∞ where d changes nothing. Every move of a root is
// valued on the same seeds, so that they are compared on the same spawns.
func (s *Search) Value(root *engine.Game, d engine.Direction, seed uint64) float64 {
	for len(s.levels) < s.Depth {
		s.levels = append(s.levels, new(engine.Game))
	}
	return s.sampled(root, d, seed, 0)
}

// sampled is the mean value of playing d on forks of g at a level of the
// search (0 at the root's children).
func (s *Search) sampled(g *engine.Game, d engine.Direction, seed uint64, level int) float64 {
	f := s.levels[level]
	n := s.Samples
	if level > 0 {
		n = s.Deep
	}
	sum, child := 0.0, seed
	for i := 0; i < n; i++ {
		child = s.Schedule.sample(seed, child, i)
		g.ForkInto(f, child)
		res, err := f.Move(d)
		if err != nil || !res.Changed {
			return math.Inf(-1)
		}
		sum += s.value(f, child, level+1)
	}
	return sum / float64(n)
}

// value is the value of g's position at a level: its evaluation at the
// search's depth or when the game is over, else its best move's value.
func (s *Search) value(g *engine.Game, seed uint64, level int) float64 {
	if level == s.Depth || g.Status().Over() {
		s.Evals++
		return s.Eval(g)
	}
	best := math.Inf(-1)
	for _, d := range engine.Directions {
		if g.Legal(d) {
			best = max(best, s.sampled(g, d, s.Schedule.move(seed, d), level))
		}
	}
	if math.IsInf(best, -1) {
		s.Evals++
		return s.Eval(g)
	}
	return best
}
