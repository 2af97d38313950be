// Package nibble is the 4×4 board of classic 2048 packed in 64 bits, a
// nibble a cell (cell (r, c) at bits 4(4r+c), 0 empty, else the tile's
// level), as the engine's classic 4×4 fast path, package engine/bitboard
// and the expert player's search all hold it, with the one row table
// their moves share.
//
// # The row table
//
// Table has one 64-bit entry for each of the 65536 rows of four nibbles
// (cell c of the row at bits 4c):
//
//	bits 0-15   the row moved toward its first cell
//	bits 16-31  the row moved toward its last cell (in place, not reversed)
//	bits 32-48  the score the merges gain, the same either way (a run of
//	            equal tiles makes the same merges whichever end it starts
//	            from); a row gains at most 65536, two merges of 16384s
//
// A move changes a row when its half is not the row, so the table holds
// the legal moves too. A move along the columns transposes the board
// around it (Transpose). One table, not one for each, so that the fast
// path and the search cannot disagree on a move, and 512 KiB where theirs
// were 2.6 MiB. It serves the four directions of both the fast path (which
// wants the row and its gain in one lookup, and the legal moves) and the
// search (which wants the row alone), with no reversal of the rows for
// Right and Down, and stays well within the processor's second-level
// cache. The search's own column tables spared it the transpose that a
// move of a Pair pays now: a few percent of its time. A table of 32-bit
// entries (one side's row, its gain and a bit for the other side's change,
// 256 KiB) served as well with the rows reversed for the other side, but
// left the search a fifth slower.
//
// # The rule and its cap
//
// Row is the rule the table holds: the classic slide and merge of a row
// toward its first cell. Tiles slide over the empty cells; two equal tiles
// that meet merge into one of the next level, each tile merging at most
// once and the pair nearest the first cell first; the score gains the
// merged tile's value. A nibble holds levels up to 15 (32768): two 15s
// would merge past it, so they do not merge here. Each user keeps its own
// cap by what it packs: the fast path takes boards up to level 14 and
// leaves the fast path when a merge makes a 15 (so the table's cap never
// shows in a game); engine/bitboard packs up to 15, and its search just
// does not merge two 32768s. Package engine's tests hold Row and the table
// to the engine's own rules on every row.
package nibble

import (
	"math/bits"
	"sync"
)

// Transpose swaps the rows and columns of a packed 4×4 board.
func Transpose(p uint64) uint64 {
	a1 := p & 0xF0F00F0FF0F00F0F
	a2 := p & 0x0000F0F00000F0F0
	a3 := p & 0x0F0F00000F0F0000
	a := a1 | a2<<12 | a3>>12
	b1 := a & 0xFF00FF0000FF00FF
	b2 := a & 0x00FF00FF00000000
	b3 := a & 0x00000000FF00FF00
	return b1 | b2>>24 | b3<<24
}

// ReverseRows reverses the four cells of each row of a packed board.
func ReverseRows(p uint64) uint64 {
	p = p&0x00ff00ff00ff00ff<<8 | p>>8&0x00ff00ff00ff00ff
	return p&0x0f0f0f0f0f0f0f0f<<4 | p>>4&0x0f0f0f0f0f0f0f0f
}

// Tiles returns bit 4i set for each cell i that holds a tile (a nibble
// that is not 0).
func Tiles(p uint64) uint64 {
	x := p | p>>1
	x |= x >> 2
	return x & 0x1111111111111111
}

// Fifteens returns bit 4i set for each cell i that holds a 15 (a nibble
// with every bit set).
func Fifteens(p uint64) uint64 {
	x := p & (p >> 1)
	x &= x >> 2
	return x & 0x1111111111111111
}

// Empty counts the empty cells (nibbles that are 0).
func Empty(p uint64) int {
	return 16 - bits.OnesCount64(Tiles(p))
}

// MaxLevel is the highest level a nibble holds; two tiles of it do not
// merge.
const MaxLevel = 15

// Row moves a row of four nibbles toward its first cell by the classic
// rule (see the package's doc): the row it becomes, the score its merges
// gain and the highest level a merge made (0 for none).
func Row(row uint16) (out uint16, gain uint32, top uint8) {
	n := 0
	var last uint16 // the level of the last tile placed, 0 once it merged
	for i := 0; i < 4; i++ {
		v := row >> (4 * i) & 15
		if v == 0 {
			continue
		}
		if v == last && v < MaxLevel {
			v++
			out += 1 << (4 * (n - 1)) // the tile placed last goes up a level
			gain += 1 << v
			top = max(top, uint8(v))
			last = 0
			continue
		}
		out |= v << (4 * n)
		last = v
		n++
	}
	return out, gain, top
}

// Table is the row table (see the package's doc).
type Table [1 << 16]uint64

// Bits of a Table entry.
const (
	rowMask   = 0xffff
	lastShift = 16 // the row moved toward its last cell
	gainShift = 32
)

var (
	tableOnce sync.Once
	table     *Table
)

// Rows returns the row table, built on the first call (a millisecond or
// so).
func Rows() *Table {
	tableOnce.Do(build)
	return table
}

func build() {
	t := new(Table)
	for key := range 1 << 16 {
		row := uint16(key)
		first, gain, _ := Row(row)
		last, _, _ := Row(reverse(row))
		t[key] = uint64(first) | uint64(reverse(last))<<lastShift | uint64(gain)<<gainShift
	}
	table = t
}

// reverse reverses the four cells of a row.
func reverse(row uint16) uint16 {
	return uint16(ReverseRows(uint64(row)))
}

// Slide moves each row of p toward its first cell: the board after.
func (t *Table) Slide(p uint64) uint64 {
	return uint64(uint16(t[uint16(p)])) | uint64(uint16(t[uint16(p>>16)]))<<16 |
		uint64(uint16(t[uint16(p>>32)]))<<32 | uint64(uint16(t[uint16(p>>48)]))<<48
}

// SlideLast moves each row of p toward its last cell: the board after.
func (t *Table) SlideLast(p uint64) uint64 {
	return uint64(uint16(t[uint16(p)]>>lastShift)) | uint64(uint16(t[uint16(p>>16)]>>lastShift))<<16 |
		uint64(uint16(t[uint16(p>>32)]>>lastShift))<<32 | uint64(uint16(t[uint16(p>>48)]>>lastShift))<<48
}

// Move moves each row of p toward its first cell: the board after and the
// score the merges gain.
func (t *Table) Move(p uint64) (uint64, uint64) {
	e0, e1, e2, e3 := t[uint16(p)], t[uint16(p>>16)], t[uint16(p>>32)], t[uint16(p>>48)]
	return e0&rowMask | e1&rowMask<<16 | e2&rowMask<<32 | e3&rowMask<<48,
		e0>>gainShift + e1>>gainShift + e2>>gainShift + e3>>gainShift
}

// MoveLast moves each row of p toward its last cell: the board after and
// the score the merges gain.
func (t *Table) MoveLast(p uint64) (uint64, uint64) {
	e0, e1, e2, e3 := t[uint16(p)], t[uint16(p>>16)], t[uint16(p>>32)], t[uint16(p>>48)]
	return e0>>lastShift&rowMask | e1&(rowMask<<lastShift) | e2>>lastShift&rowMask<<32 | e3&(rowMask<<lastShift)<<32,
		e0>>gainShift + e1>>gainShift + e2>>gainShift + e3>>gainShift
}

// Legal says which sides the rows of p move toward with a change: the
// result has a bit of MovesFirst set when moving them toward their first
// cells changes the board, a bit of MovesLast when moving them toward
// their last cells does.
func (t *Table) Legal(p uint64) uint32 {
	const both = 1<<lastShift | 1
	return uint32(t[uint16(p)]^uint64(uint16(p))*both) | uint32(t[uint16(p>>16)]^uint64(uint16(p>>16))*both) |
		uint32(t[uint16(p>>32)]^uint64(uint16(p>>32))*both) | uint32(t[uint16(p>>48)]^uint64(uint16(p>>48))*both)
}

// The bits of Legal's result.
const (
	MovesFirst = rowMask
	MovesLast  = rowMask << lastShift
)
