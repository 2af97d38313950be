package engine

import (
	"math"
	"math/bits"
	"sync"

	"github.com/mod2048/mod2048/engine/internal/nibble"
)

// The fast path of classic 4×4: a game of the classic rules on the
// original 4×4 board, with no hooks, no marks, no motions tracked and no
// spawn queue left, moves on its board packed into 64 bits (a nibble a
// cell: 0 empty, else the tile's level) through row tables, as
// nneonneo/2048-ai and other fast 2048 engines do. It plays exactly the
// generic path's rules: the same boards, scores, statuses, draws from the
// random source and history (a differential property test holds the two
// together), so callers never choose. A board with a tile above level 14
// (a 32768 or more, whose merge would not fit a nibble) takes the generic
// path, and so does a game from the move that makes its first 32768.

// fast4 is the row table of the packed board (package nibble's, which
// engine/bitboard shares: a row moved toward cell 0 and toward cell 3,
// with its gain), got once the fast path is first taken. Up and Down
// transpose the board around it. Its rule, nibble.Row, is held to
// resolveLine, the generic table's, on every row by a test.
var (
	fast4Once sync.Once
	fast4     *nibble.Table
)

// pack4 packs a classic 4×4 board whose tiles are all at most level 14.
func pack4(cells []Cell) (uint64, bool) {
	if len(cells) != 16 {
		return 0, false
	}
	var p uint64
	var bad uint16
	for i := range 16 {
		lv := cells[i].Level
		bad |= (lv + 1) &^ 15
		p |= uint64(lv) << (4 * i)
	}
	return p, bad == 0
}

// move4 moves a packed board: the board after and the gain. It turns the
// board as toFront does, and back, in one switch: this is the hot path,
// and a second branch on the direction costs a random player 2-3 ns a step.
func move4(p uint64, d Direction) (q uint64, gain uint64) {
	t := fast4
	switch d {
	case Left:
		return t.Move(p)
	case Right:
		return t.MoveLast(p)
	case Up:
		q, gain = t.Move(nibble.Transpose(p))
		return nibble.Transpose(q), gain
	default:
		q, gain = t.MoveLast(nibble.Transpose(p))
		return nibble.Transpose(q), gain
	}
}

// toFront turns a packed board so that direction d moves each row toward
// its first cell.
func toFront(p uint64, d Direction) uint64 {
	if d == Up || d == Down {
		p = nibble.Transpose(p)
	}
	if d == Right || d == Down {
		p = nibble.ReverseRows(p)
	}
	return p
}

// topMerge4 is the highest level a merge of the move makes (0 for none),
// by the rule itself: it is asked only when the gain could hold a win.
func topMerge4(p uint64, d Direction) uint16 {
	p = toFront(p, d)
	var top uint8
	for r := 0; r < 4; r++ {
		_, _, t := nibble.Row(uint16(p >> (16 * r)))
		top = max(top, t)
	}
	return uint16(top)
}

// fastClassic reports whether the game's next move may take the fast
// path, and the packed board if so. Once it has said yes, the answer is
// kept (packedOK) until something drops it.
func (g *Game) fastClassic() (uint64, bool) {
	if g.packedOK {
		return g.packed, true
	}
	if g.slow || g.hooks != nil || g.tracking || len(g.cur.Marks) != 0 || g.opt.Width != 4 || g.opt.Height != 4 {
		return 0, false
	}
	if _, ok := g.rules.(*Classic); !ok {
		return 0, false
	}
	p, ok := pack4(g.cur.Board.Cells)
	if ok {
		fast4Once.Do(func() { fast4 = nibble.Rows() })
		g.packed, g.packedOK = p, true
	}
	return p, ok
}

// sync writes the board of the fast path's moves into the current state's
// cells: those that differ from the board they hold.
func (g *Game) sync() {
	if !g.stale {
		return
	}
	g.stale = false
	cells := g.cur.Board.Cells[:16]
	for diff := g.synced ^ g.packed; diff != 0; {
		i := bits.TrailingZeros64(diff) / 4
		cells[i] = fast4Cells[g.packed>>(4*i)&15]
		diff &^= 15 << (4 * i)
	}
}

// legal4 is LegalMoves on the fast path: a row's left and right from the
// board's rows, its up and down from the transposed board's.
func legal4(p uint64) DirSet {
	h, v := fast4.Legal(p), fast4.Legal(nibble.Transpose(p))
	var s DirSet
	if h&nibble.MovesFirst != 0 {
		s = s.With(Left)
	}
	if h&nibble.MovesLast != 0 {
		s = s.With(Right)
	}
	if v&nibble.MovesFirst != 0 {
		s = s.With(Up)
	}
	if v&nibble.MovesLast != 0 {
		s = s.With(Down)
	}
	return s
}

// moveFast plays a move on the fast path (see Move): p is the packed board
// of the current state. It does what the generic path does, in its order:
// the slide and merges; a win (stopping before the spawn with stop on
// win); a spawn from the random source (its value drawn first, then its
// cell among the empty ones, in cell order); a loss when no move is left;
// the turn, the history. Nothing on it can fail, so it works on the current
// state in place, once the history has its copy: the generic path's
// second state is for a turn that a hook may fail. It writes the board
// only packed: the cells wait for sync, which everything that reads them
// or copies the state calls first. It reports false, writing nothing,
// when the move must take the generic path after all.
func (g *Game) moveFast(p uint64, d Direction, res *Result) bool {
	if g.queueLeft() || g.opt.ScriptedOnly {
		return false
	}
	q, gain := move4(p, d)
	if q == p {
		return true
	}
	c := g.rules.(*Classic)
	if g.opt.UndoLimit != 0 || len(g.future) != 0 {
		g.push()
	}
	s := g.cur
	res.Changed = true
	// A merge makes one tile of two.
	res.Merges = bits.OnesCount64(nibble.Tiles(p)) - bits.OnesCount64(nibble.Tiles(q))
	res.Gained = ScoreOf(gain)
	s.Score.AddUint64(gain)
	spawn := true
	// A merge that wins gains at least the win tile: only then is the
	// move's top merge worth finding.
	if s.Status == Playing && gain >= 1<<c.winLevel() && topMerge4(p, d) >= c.winLevel() {
		if c.StopOnWin {
			s.Status = Won
			spawn = false
		} else {
			s.Status = WonContinue
		}
	}
	if spawn {
		empty := ^nibble.Tiles(q) & 0x1111111111111111
		n := bits.OnesCount64(empty)
		lv := uint64(1)
		if s.RNG.Chance(c.FourProbability) {
			lv = 2
		}
		for k := s.RNG.IntN(n); k > 0; k-- {
			empty &= empty - 1
		}
		q |= lv << bits.TrailingZeros64(empty)
		res.Spawns = 1
		if n == 1 && legal4(q) == 0 {
			s.Status = Lost
		}
	}
	if s.Turn < math.MaxInt {
		s.Turn++
	}
	if s.Tiles != nil {
		s.Tiles, s.NextTile = nil, 0 // a move that tracks no motions drops them
	}
	if !g.stale { // the cells hold p until sync
		g.synced, g.stale = p, true
	}
	g.packed = q
	// A merge that makes a 32768 (level 15) gains at least as much: the
	// game then leaves the fast path (pack4 refuses it), whose table would
	// not merge two of them.
	if gain >= 1<<15 && nibble.Fifteens(q) != 0 {
		g.sync()
		g.packedOK = false
	}
	return true
}

// fast4Cells: the cell of each level of the fast path, one copy a cell.
var fast4Cells = func() (c [16]Cell) {
	for lv := range c {
		c[lv] = classicCell(uint16(lv))
	}
	return c
}()

// queueLeft reports whether spawn-queue entries are left to use.
func (g *Game) queueLeft() bool { return g.cur.Next < len(g.queue) }
