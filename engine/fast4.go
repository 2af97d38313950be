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
// toward cell 0 (move[0]) or cell 3 (move[1]), one entry: the row it
// becomes (bits 0-15), the score its merges gain (bits 16-39), the number
// of merges (bits 40-43) and the highest level a merge made (bits 48-52,
// 0 for none). One lookup a row; legal says which sides change a row, for
// the legal moves.
type fast4Tables struct {
	move [2][1 << 16]uint64
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
		for side := 0; side < 2; side++ {
			line := in
			if side == 1 {
				line = [4]uint16{in[3], in[2], in[1], in[0]}
			}
			// The rule itself is resolveLine's, the generic table's, which
			// a test checks against slide on real boards.
			e := resolveLine(line)
			var out [4]uint16
			var gain, merges, top uint64
			for i := range out {
				out[i] = uint16(e>>(5*i)) & 31
				if e>>(20+i)&1 != 0 {
					merges++
					gain += 1 << out[i]
					top = max(top, uint64(out[i]))
				}
			}
			if side == 1 {
				out = [4]uint16{out[3], out[2], out[1], out[0]}
			}
			var row uint16
			for i, lv := range out {
				row |= (lv & 15) << (4 * i) // a 15 + 15 merge never packs (see pack4)
			}
			if int(row) != key {
				t.legal[key] |= 1 << side
			}
			t.move[side][key] = uint64(row) | gain<<16 | merges<<40 | top<<48
		}
	}
	fast4 = t
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

// move4 moves a packed board: the board after, the gain, the number of
// merges and the highest level a merge made.
func move4(p uint64, d Direction) (q uint64, gain uint64, merges int, top uint16) {
	side := 0
	if d == Right || d == Down {
		side = 1
	}
	vertical := d == Up || d == Down
	if vertical {
		p = nibble.Transpose(p)
	}
	m := &fast4.move[side]
	e0, e1, e2, e3 := m[uint16(p)], m[uint16(p>>16)], m[uint16(p>>32)], m[uint16(p>>48)]
	q = e0&0xffff | (e1&0xffff)<<16 | (e2&0xffff)<<32 | (e3&0xffff)<<48
	gain = (e0>>16)&0xffffff + (e1>>16)&0xffffff + (e2>>16)&0xffffff + (e3>>16)&0xffffff
	merges = int((e0>>40)&15 + (e1>>40)&15 + (e2>>40)&15 + (e3>>40)&15)
	top = uint16(max(e0>>48, e1>>48, e2>>48, e3>>48))
	if vertical {
		q = nibble.Transpose(q)
	}
	return q, gain, merges, top
}

// tiles4 returns bit 4i set for each cell i that holds a tile.
func tiles4(p uint64) uint64 {
	x := p | p>>1
	x |= x >> 2
	return x & 0x1111111111111111
}

// fastClassic reports whether the game's next move may take the fast
// path, and the packed board if so.
func (g *Game) fastClassic() (uint64, bool) {
	if g.slow || g.hooks != nil || g.tracking || len(g.cur.Marks) != 0 || g.opt.Width != 4 || g.opt.Height != 4 {
		return 0, false
	}
	if _, ok := g.rules.(*Classic); !ok {
		return 0, false
	}
	if g.packedOK {
		return g.packed, true
	}
	p, ok := pack4(g.cur.Board.Cells)
	if ok {
		fast4Once.Do(buildFast4)
		g.packed, g.packedOK = p, true
	}
	return p, ok
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
// second state is for a turn that a hook may fail.
func (g *Game) moveFast(p uint64, d Direction) (Result, bool) {
	if g.queueLeft() || g.opt.ScriptedOnly {
		return Result{}, false
	}
	q, gain, merges, top := move4(p, d)
	if q == p {
		return Result{}, true
	}
	c := g.rules.(*Classic)
	g.push()
	s := g.cur
	var res Result
	res.Changed = true
	res.Merges = merges
	res.Gained.AddUint64(gain)
	s.Score.AddUint64(gain)
	spawn := true
	if top != 0 && s.Status == Playing && top >= c.winLevel() {
		if c.StopOnWin {
			s.Status = Won
			spawn = false
		} else {
			s.Status = WonContinue
		}
	}
	if spawn {
		empty := ^tiles4(q) & 0x1111111111111111
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
	// The cells hold p: write those that differ.
	cells := s.Board.Cells[:16]
	for diff := q ^ p; diff != 0; {
		i := bits.TrailingZeros64(diff) / 4
		cells[i] = classicCell(uint16(q>>(4*i)) & 15)
		diff &^= 15 << (4 * i)
	}
	if s.Turn < math.MaxInt {
		s.Turn++
	}
	s.Tiles, s.NextTile = nil, 0 // a move that tracks no motions drops them
	g.packed, g.packedOK = q, true
	return res, true
}

// queueLeft reports whether spawn-queue entries are left to use.
func (g *Game) queueLeft() bool { return g.cur.Next < len(g.queue) }
