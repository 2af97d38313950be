// Package ai is an expert player: an expectimax search that suggests the
// next move of a game (hints, autoplay, the balance lab's expert policy).
// It has no I/O, no clock and no randomness of its own: the same position
// and settings give the same move.
//
// Classic 4×4 games with no marks and no hooks (mods) play through a bitboard: the board packed
// in 64 bits, four bits a cell, with row tables for the moves and for the
// evaluation, as nneonneo/2048-ai does. The search has chance nodes for
// every empty cell × {2, 4} at the configured odds, a transposition table,
// a depth that grows with the number of distinct tiles, and prunes chance
// branches less likely than a cut-off. Every other game (other sizes,
// cellular, tiles past 32768, marks on the board, a game with mods) is
// searched through the engine's own rules on forks of the game
// (engine.Game.Fork), sampling the spawns from reseeded random sources:
// slower, and as exact as the rules; a fork plays the mods' hooks as a dry
// run where the game's hooks give one (engine.Forker), so the search sees
// the mods as the player does.
package ai

import (
	"errors"
	"sort"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/engine/bitboard"
	"github.com/mod2048/mod2048/engine/internal/nibble"
)

// Player suggests moves. It keeps its transposition table between calls of
// one move only; a Player is not safe for concurrent use.
type Player struct {
	s      Settings
	tables *tables
	tt     transTable
	// The search through the engine's rules, and a line of the board it
	// evaluates.
	search Search
	line   []uint16
	// Stats of the last Best: nodes evaluated, for benchmarks and reports.
	Nodes int
}

// New returns a player with settings s (Defaults() for the tuned ones).
func New(s Settings) (*Player, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &Player{s: s, tables: tablesFor(s.Weights)}, nil
}

// Settings returns the player's settings.
func (p *Player) Settings() Settings { return p.s }

// Suggestion is a suggested move and its value: the expected evaluation
// after it, in the search's units (larger is better; a hint shows it).
type Suggestion struct {
	Dir   engine.Direction
	Value float64
}

// ErrNoMove is returned when no direction of legal can be played.
var ErrNoMove = errors.New("ai: no legal move")

// Best suggests the best of the legal directions of g's current state.
// legal is what the player may play (a session's Legal: a direction a mod
// refuses is left out). g itself is never changed: the search plays forks.
func (p *Player) Best(g *engine.Game, legal engine.DirSet) (Suggestion, error) {
	r, err := p.Rank(g, legal)
	if err != nil {
		return Suggestion{}, err
	}
	return r[0], nil
}

// Rank values every direction of legal that changes the board and
// returns them best first (a direction that changes nothing is left out;
// when none changes anything, the first legal one is returned alone). Ties
// keep the order of engine.Directions.
func (p *Player) Rank(g *engine.Game, legal engine.DirSet) ([]Suggestion, error) {
	if legal == 0 {
		return nil, ErrNoMove
	}
	p.Nodes = 0
	var r []Suggestion
	var err error
	if b, four, ok := packable(g); ok {
		r = p.rankPacked(b, four, legal)
	} else if r, err = p.rankForked(g, legal); err != nil {
		return nil, err
	}
	if len(r) == 0 {
		return []Suggestion{{Dir: legal.List()[0]}}, nil
	}
	sort.SliceStable(r, func(i, j int) bool { return r[i].Value > r[j].Value })
	return r, nil
}

// packable reports whether g is a classic 4×4 game with no marks, no hooks
// (the packed search would not see them) and tiles no larger than 32768,
// and returns its packed board and the odds of a 4.
func packable(g *engine.Game) (board uint64, four float64, ok bool) {
	c, isClassic := g.Rules().(*engine.Classic)
	st := g.State()
	if !isClassic || len(st.Marks) > 0 || g.Hooked() {
		return 0, 0, false
	}
	p, ok := bitboard.Pack(&st.Board)
	return uint64(p), c.FourProbability, ok
}

// The packed board: cell i (row-major from the top left) is the nibble at
// bits 4i; row r is the 16 bits at 16r, its column 0 in the low nibble. The
// search carries each board with its transpose (bitboard.Pair): its moves
// and its evaluation are then row-table lookups only.

func (p *Player) rankPacked(b uint64, four float64, legal engine.DirSet) []Suggestion {
	p.tt.reset()
	depth := max(p.s.MinDepth, distinct(b)-p.s.DepthOffset)
	depth = min(depth, p.s.MaxDepth)
	var out []Suggestion
	pair := bitboard.NewPair(bitboard.Board(b))
	for _, d := range engine.Directions {
		if !legal.Has(d) {
			continue
		}
		np := pair.Slide(d)
		if np.B == pair.B {
			continue
		}
		out = append(out, Suggestion{Dir: d, Value: p.chance(np, four, 1, depth, 1)})
	}
	return out
}

// maxNode is the player's turn: the best value over the moves.
func (p *Player) maxNode(b bitboard.Pair, four float64, level, depth int, prob float64) float64 {
	best := 0.0
	for _, d := range engine.Directions {
		nb := b.Slide(d)
		if nb.B != b.B {
			best = max(best, p.chance(nb, four, level, depth, prob))
		}
	}
	return best
}

// chance is the spawn's turn: the mean value over every empty cell and
// both tiles, at their odds.
func (p *Player) chance(b bitboard.Pair, four float64, level, depth int, prob float64) float64 {
	if level >= depth || prob < p.s.ProbCutoff {
		p.Nodes++
		return p.tables.eval(b)
	}
	if d, v, ok := p.tt.get(uint64(b.B)); ok && int(d) <= level {
		return float64(v)
	}
	empty := nibble.Empty(uint64(b.B))
	if empty == 0 {
		p.Nodes++
		return p.tables.eval(b)
	}
	prob /= float64(empty)
	sum := 0.0
	for i := 0; i < 16; i++ {
		if b.B>>(4*i)&0xf != 0 {
			continue
		}
		two := p.maxNode(b.Place(i, 1), four, level+1, depth, prob*(1-four))
		fourV := p.maxNode(b.Place(i, 2), four, level+1, depth, prob*four)
		sum += two*(1-four) + fourV*four
	}
	v := sum / float64(empty)
	p.tt.put(uint64(b.B), int8(level), float32(v))
	return v
}

// distinct counts the distinct tiles on the board.
func distinct(b uint64) int {
	var seen uint16
	for i := uint(0); i < 16; i++ {
		seen |= 1 << (b >> (4 * i) & 0xf)
	}
	seen &^= 1 // empty is no tile
	n := 0
	for ; seen != 0; seen &= seen - 1 {
		n++
	}
	return n
}
