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
// (a 16384 or more, whose merge would not fit a nibble) takes the generic
// path.

// fast4Tables: for each row of four nibbles (cell c at bits 4c), moving
// toward cell 0, one 32-bit entry: the row it becomes (bits 0-15) and a
// quarter of the score its merges gain (bits 16-30: a merge gains at least
// 4, and a row at most 65536). A move toward cell 3 reverses the rows
// around the same table, which so stays small enough (256 KiB) for the
// processor's second-level cache, as nneonneo's row tables do. legal says
// which sides change a row, for the legal moves.
type fast4Tables struct {
	move [1 << 16]uint32
	// legal: bit 0 set when moving toward cell 0 changes the row, bit 1
	// toward cell 3.
	legal [1 << 16]uint8
}

var (
	fast4Once sync.Once
	fast4     *fast4Tables
)

func buildFast4() {
	t := new(fast4Tables)
	for key := 0; key < 1<<16; key++ {
		var in [4]uint16
		for i := range in {
			in[i] = uint16(key>>(4*i)) & 15
		}
		// The rule itself is resolveLine's, the generic table's, which a
		// test checks against slide on real boards.
		row, gain, _ := resolveRow(in)
		t.move[key] = uint32(row) | uint32(gain/4)<<16
		if int(row) != key {
			t.legal[key] |= 1
		}
		rev := [4]uint16{in[3], in[2], in[1], in[0]}
		if row, _, _ := resolveRow(rev); row != uint16(reverseRows(uint64(key))) {
			t.legal[key] |= 2
		}
	}
	fast4 = t
}

// resolveRow moves a row toward its first cell: the row it becomes
// (packed), the score its merges gain and the highest level a merge made
// (0 for none).
func resolveRow(in [4]uint16) (row uint16, gain uint64, top uint16) {
	e := resolveLine(in)
	for i := 0; i < 4; i++ {
		lv := uint16(e>>(5*i)) & 31
		if e>>(20+i)&1 != 0 {
			gain += 1 << lv
			top = max(top, lv)
		}
		row |= (lv & 15) << (4 * i) // a 15 + 15 merge never packs (see pack4)
	}
	return row, gain, top
}

// reverseRows reverses the four cells of each row of a packed board.
func reverseRows(p uint64) uint64 {
	p = p&0x00ff00ff00ff00ff<<8 | p>>8&0x00ff00ff00ff00ff
	return p&0x0f0f0f0f0f0f0f0f<<4 | p>>4&0x0f0f0f0f0f0f0f0f
}

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
	switch d {
	case Left:
		return rows4(p)
	case Right:
		q, gain = rows4(reverseRows(p))
		return reverseRows(q), gain
	case Up:
		q, gain = rows4(nibble.Transpose(p))
		return nibble.Transpose(q), gain
	default:
		q, gain = rows4(reverseRows(nibble.Transpose(p)))
		return nibble.Transpose(reverseRows(q)), gain
	}
}

// toFront turns a packed board so that direction d moves each row toward
// its first cell.
func toFront(p uint64, d Direction) uint64 {
	if d == Up || d == Down {
		p = nibble.Transpose(p)
	}
	if d == Right || d == Down {
		p = reverseRows(p)
	}
	return p
}

// rows4 moves each row toward its first cell.
func rows4(p uint64) (q uint64, gain uint64) {
	m := &fast4.move
	e0, e1, e2, e3 := m[uint16(p)], m[uint16(p>>16)], m[uint16(p>>32)], m[uint16(p>>48)]
	q = uint64(e0&0xffff) | uint64(e1&0xffff)<<16 | uint64(e2&0xffff)<<32 | uint64(e3&0xffff)<<48
	return q, uint64(e0>>16+e1>>16+e2>>16+e3>>16) * 4
}

// topMerge4 is the highest level a merge of the move makes (0 for none),
// by the rule itself: it is asked only when the gain could hold a win.
func topMerge4(p uint64, d Direction) uint16 {
	p = toFront(p, d)
	var top uint16
	for r := 0; r < 4; r++ {
		var in [4]uint16
		for i := range in {
			in[i] = uint16(p>>(16*r+4*i)) & 15
		}
		_, _, t := resolveRow(in)
		top = max(top, t)
	}
	return top
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
		fast4Once.Do(buildFast4)
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
	l := &fast4.legal
	h := l[uint16(p)] | l[uint16(p>>16)] | l[uint16(p>>32)] | l[uint16(p>>48)]
	t := nibble.Transpose(p)
	v := l[uint16(t)] | l[uint16(t>>16)] | l[uint16(t>>32)] | l[uint16(t>>48)]
	var s DirSet
	if h&1 != 0 {
		s = s.With(Left)
	}
	if h&2 != 0 {
		s = s.With(Right)
	}
	if v&1 != 0 {
		s = s.With(Up)
	}
	if v&2 != 0 {
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
