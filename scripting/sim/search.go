package sim

import (
	"math"

	"github.com/mod2048/mod2048/cellular"
	"github.com/mod2048/mod2048/engine"
)

// searcher is an expectimax through the engine's own rules, for any
// ruleset and board: a move is played on Samples forks of the position (deep below its root),
// each reseeded so that their spawns sample what chance may bring, and the
// search looks Depth moves deep, valuing the positions it reaches with
// eval. It never re-implements a rule. The forks are games it keeps, one
// for each level of the search, played into again and again
// (engine.Game.ForkInto), so a search allocates nothing once they have
// grown. Its work is counted in nodes, never timed: the same position
// gives the same move on every machine.
type searcher struct {
	depth, samples int
	deep           int // the samples of a move below the root
	eval           func(g *engine.Game) float64
	levels         []*engine.Game
	nodes          int
	// weights value cellular positions (nil: the learned ones); bind
	// sets eval for the rules of the game searched.
	weights *Weights
	rules   engine.Rules
}

// bind makes the searcher value positions of games with rules r: a
// cellular one by its learned chance of a win, any other by evaluate.
func (s *searcher) bind(r engine.Rules) {
	if s.eval != nil && r == s.rules {
		return
	}
	s.rules = r
	if cr, ok := r.(*cellular.Rules); ok {
		w := s.weights
		if w == nil {
			w = &CellularWeights
		}
		s.eval = func(g *engine.Game) float64 { return cellValue(cr, w, g) }
		return
	}
	s.eval = evaluate
}

func newSearcher(depth, samples, deep int, eval func(g *engine.Game) float64) *searcher {
	s := &searcher{depth: depth, samples: samples, deep: deep, eval: eval}
	for i := 0; i < depth; i++ {
		s.levels = append(s.levels, new(engine.Game))
	}
	return s
}

// choose returns the legal move (of legal, the player's legal moves at the
// root) whose sampled value is highest; seed seeds the samples. The same
// samples (seeds) are used for every move at a node, so that the moves
// are compared on the same spawns.
func (s *searcher) choose(root *engine.Game, legal engine.DirSet, seed uint64) (engine.Direction, float64) {
	list := legal.List()
	best, bestV := list[0], math.Inf(-1)
	for _, d := range list {
		v := s.sampled(root, d, seed, 0)
		if v > bestV {
			best, bestV = d, v
		}
	}
	return best, bestV
}

// sampled is the mean value of playing d on the samples' forks of g, at
// the search's level (0 at the root's children).
func (s *searcher) sampled(g *engine.Game, d engine.Direction, seed uint64, level int) float64 {
	sum := 0.0
	f := s.levels[level]
	n := s.samples
	if level > 0 {
		n = s.deep
	}
	for i := 0; i < n; i++ {
		childSeed := engine.Mix(seed + uint64(i+1)*0x9e3779b97f4a7c15)
		g.ForkInto(f, childSeed)
		res, err := f.Move(d)
		s.nodes++
		if err != nil || !res.Changed {
			return math.Inf(-1)
		}
		sum += s.value(f, childSeed, level+1)
	}
	return sum / float64(n)
}

// value is the value of g's position at a level of the search: its
// evaluation at the search's depth or when the game is over, else the
// value of its best move.
func (s *searcher) value(g *engine.Game, seed uint64, level int) float64 {
	if level == s.depth || g.Status().Over() {
		return s.eval(g)
	}
	best := math.Inf(-1)
	for _, d := range engine.Directions {
		if g.Legal(d) {
			best = max(best, s.sampled(g, d, engine.Mix(seed^uint64(d+1)), level))
		}
	}
	if math.IsInf(best, -1) {
		return s.eval(g)
	}
	return best
}
