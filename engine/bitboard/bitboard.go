// Package bitboard is classic 4×4 2048 packed in 64 bits: sixteen cells of
// four bits, each a tile's exponent (0 empty, 1 for a 2, up to 15 for
// 32768), with a row table for the moves. A move is four table lookups
// (and a transpose for Up and Down): a few nanoseconds, for search. A Pair carries the transpose
// along, and a move of it is four lookups and one transpose.
//
// It plays the classic rules' slide and merges (engine.Classic.Slide) with
// no spawn, through the one row table it shares with the engine's classic
// fast path (package engine/internal/nibble); a differential test holds it
// to them. Boards with a tile past 32768 do not pack.
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
func (p Board) Empty() int { return nibble.Empty(uint64(p)) }

// Transpose swaps rows and columns.
func (p Board) Transpose() Board { return Board(nibble.Transpose(uint64(p))) }

// tbl is the row table the engine's classic fast path shares (package
// nibble's: each row moved toward its first cell and toward its last, with
// its gain), got when the package loads: a move then pays no check that it
// was built. Up and Down transpose the board around it. Two 32768s (15s) do not merge in it: Pack refuses
// boards past 32768, and a search that reaches one stops merging it.
var tbl = nibble.Rows()

// left moves each row toward its first cell, right toward its last.
func left(p Board) Board { return Board(tbl.Slide(uint64(p))) }

func right(p Board) Board { return Board(tbl.SlideLast(uint64(p))) }

// Slide plays direction d (no spawn) and returns the board: the fastest
// move, for a search that needs no score.
func (p Board) Slide(d engine.Direction) Board {
	switch d {
	case engine.Left:
		return left(p)
	case engine.Right:
		return right(p)
	case engine.Up:
		return left(p.Transpose()).Transpose()
	case engine.Down:
		return right(p.Transpose()).Transpose()
	}
	return p
}

// Move plays direction d: the board after the slide and merges (no
// spawn), the score they gain, and whether the board changed.
func (p Board) Move(d engine.Direction) (Board, uint32, bool) {
	b := uint64(p)
	var out, gain uint64
	switch d {
	case engine.Left:
		out, gain = tbl.Move(b)
	case engine.Right:
		out, gain = tbl.MoveLast(b)
	case engine.Up:
		out, gain = tbl.Move(nibble.Transpose(b))
		out = nibble.Transpose(out)
	case engine.Down:
		out, gain = tbl.MoveLast(nibble.Transpose(b))
		out = nibble.Transpose(out)
	default:
		return p, 0, false
	}
	return Board(out), uint32(gain), out != b
}

// Pair is a board with its transpose. A move of either is the other's
// transposed, so each of its moves is four table lookups and one
// transpose whatever the direction, and a search that carries both boards
// evaluates rows and columns alike by row tables.
type Pair struct{ B, T Board }

// NewPair pairs b with its transpose.
func NewPair(b Board) Pair { return Pair{b, b.Transpose()} }

// Slide plays direction d on both boards (no spawn).
func (p Pair) Slide(d engine.Direction) Pair {
	switch d {
	case engine.Left:
		b := left(p.B)
		return Pair{b, b.Transpose()}
	case engine.Right:
		b := right(p.B)
		return Pair{b, b.Transpose()}
	case engine.Up:
		t := left(p.T)
		return Pair{t.Transpose(), t}
	case engine.Down:
		t := right(p.T)
		return Pair{t.Transpose(), t}
	}
	return p
}

// Place puts the tile of exponent lv in the empty cell i (row-major) of
// both boards.
func (p Pair) Place(i int, lv uint8) Pair {
	r, c := i/4, i%4
	return Pair{p.B | Board(lv)<<(4*uint(i)), p.T | Board(lv)<<(4*uint(4*c+r))}
}
