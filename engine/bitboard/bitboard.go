// Package bitboard is classic 4×4 2048 packed in 64 bits: sixteen cells of
// four bits, each a tile's exponent (0 empty, 1 for a 2, up to 15 for
// 32768), with row tables for the moves. A move is four table lookups (and
// two transposes for Up and Down): a few nanoseconds, for search.
//
// It plays the classic rules' slide and merges (engine.Classic.Slide) with
// no spawn; a differential test holds it to them. Boards with a tile past
// 32768 do not pack.
package bitboard

import (
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/engine/internal/nibble"
)

// Board is a packed 4×4 board: cell (row r, column c) is the nibble at
// bits 4(4r+c).
type Board uint64

// Pack packs a 4×4 board of classic tiles up to 32768 (level 15), and
// reports whether it could.
func Pack(b *engine.Board) (Board, bool) {
	if b.Width != 4 || b.Height != 4 || len(b.Cells) != 16 {
		return 0, false
	}
	var p Board
	for i, c := range b.Cells {
		switch {
		case c.Token != 0:
			return 0, false
		case c.Kind == engine.KindEmpty:
		case c.Kind == engine.KindTile && c.Level <= 15:
			p |= Board(c.Level) << (4 * uint(i))
		default:
			return 0, false
		}
	}
	return p, true
}

// Unpack returns the board as the engine's.
func (p Board) Unpack() engine.Board {
	b := engine.NewBoard(4, 4)
	for i := range b.Cells {
		if lv := p.level(i); lv > 0 {
			b.Cells[i] = engine.Cell{Kind: engine.KindTile, Level: uint16(lv)}
		}
	}
	return b
}

func (p Board) level(i int) uint8 { return uint8(p >> (4 * uint(i)) & 0xf) }

// At returns the exponent of the tile at row r, column c (0: empty).
func (p Board) At(r, c int) uint8 { return p.level(4*r + c) }

// Empty counts the empty cells.
func (p Board) Empty() int {
	n := 0
	for i := 0; i < 16; i++ {
		if p.level(i) == 0 {
			n++
		}
	}
	return n
}

// Transpose swaps rows and columns.
func (p Board) Transpose() Board { return Board(nibble.Transpose(uint64(p))) }

// tables: for each row, moving toward its first cell (left) or its last
// (right), the row it becomes and the score its merges gain (apart, so
// that Slide reads only the small row tables).
type tables struct {
	left, right         [1 << 16]uint16
	gainLeft, gainRight [1 << 16]uint32
}

// tbl is built when the package loads (about a millisecond): a move then
// pays no check that it was.
var tbl = build()

func build() *tables {
	t := new(tables)
	for row := 0; row < 1<<16; row++ {
		var line [4]uint8
		for i := range line {
			line[i] = uint8(row >> (4 * i) & 0xf)
		}
		out, gain := slide(line)
		t.left[row], t.gainLeft[row] = pack(out), gain
		rev := [4]uint8{line[3], line[2], line[1], line[0]}
		out, gain = slide(rev)
		t.right[row], t.gainRight[row] = pack([4]uint8{out[3], out[2], out[1], out[0]}), gain
	}
	return t
}

// slide moves a row toward its start, merging equal neighbours once, as
// the classic rules do; a merge of two 32768s would need a fifth bit, so it
// does not happen here (Pack refuses boards past 32768, and a search that
// reaches one stops merging it).
func slide(line [4]uint8) ([4]uint8, uint32) {
	var out [4]uint8
	var gain uint32
	n := 0
	for i := 0; i < 4; i++ {
		v := line[i]
		if v == 0 {
			continue
		}
		j := i + 1
		for j < 4 && line[j] == 0 {
			j++
		}
		if j < 4 && line[j] == v && v < 15 {
			out[n] = v + 1
			gain += 1 << (v + 1)
			n++
			i = j
			continue
		}
		out[n] = v
		n++
	}
	return out, gain
}

func pack(line [4]uint8) uint16 {
	return uint16(line[0]) | uint16(line[1])<<4 | uint16(line[2])<<8 | uint16(line[3])<<12
}

func rows(p Board, table *[1 << 16]uint16) Board {
	return Board(table[p&0xffff]) | Board(table[p>>16&0xffff])<<16 | Board(table[p>>32&0xffff])<<32 | Board(table[p>>48&0xffff])<<48
}

func gains(p Board, table *[1 << 16]uint32) uint32 {
	return table[p&0xffff] + table[p>>16&0xffff] + table[p>>32&0xffff] + table[p>>48&0xffff]
}

// Slide plays direction d (no spawn) and returns the board: the fastest
// move, for a search that needs no score.
func (p Board) Slide(d engine.Direction) Board {
	switch d {
	case engine.Left:
		return rows(p, &tbl.left)
	case engine.Right:
		return rows(p, &tbl.right)
	case engine.Up:
		return rows(p.Transpose(), &tbl.left).Transpose()
	case engine.Down:
		return rows(p.Transpose(), &tbl.right).Transpose()
	}
	return p
}

// Move plays direction d: the board after the slide and merges (no
// spawn), the score they gain, and whether the board changed.
func (p Board) Move(d engine.Direction) (Board, uint32, bool) {
	var gain uint32
	switch d {
	case engine.Left:
		gain = gains(p, &tbl.gainLeft)
	case engine.Right:
		gain = gains(p, &tbl.gainRight)
	case engine.Up:
		gain = gains(p.Transpose(), &tbl.gainLeft)
	case engine.Down:
		gain = gains(p.Transpose(), &tbl.gainRight)
	}
	out := p.Slide(d)
	return out, gain, out != p
}
