// Package bitboard is classic 4×4 2048 packed in 64 bits: sixteen cells of
// four bits, each a tile's exponent (0 empty, 1 for a 2, up to 15 for
// 32768), with row tables for the moves. A move is four table lookups (and
// a transpose for Up and Down): a few nanoseconds, for search. A Pair
// carries the transpose along and needs none.
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
func (p Board) Empty() int { return nibble.Empty(uint64(p)) }

// Transpose swaps rows and columns.
func (p Board) Transpose() Board { return Board(nibble.Transpose(uint64(p))) }

// tables: for each row, moving toward its first cell (left) or its last
// (right), the row it becomes, alone (for Slide, whose small tables stay in
// cache) and with the score its merges gain (for Move).
type tables struct {
	left, right [1 << 16]uint16
	// The rows of left and right spread down a column: nibble i of the
	// row at bits 16i (Pair's moves).
	colLeft, colRight [1 << 16]uint64
	// The row and its gain in one entry (the row in the low 16 bits, the
	// gain above), for Move: one lookup a row.
	moveLeft, moveRight [1 << 16]uint64
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
		out, gainLeft := slide(line)
		t.left[row] = pack(out)
		rev := [4]uint8{line[3], line[2], line[1], line[0]}
		out, gainRight := slide(rev)
		t.right[row] = pack([4]uint8{out[3], out[2], out[1], out[0]})
		t.colLeft[row], t.colRight[row] = spread(t.left[row]), spread(t.right[row])
		t.moveLeft[row] = uint64(t.left[row]) | uint64(gainLeft)<<16
		t.moveRight[row] = uint64(t.right[row]) | uint64(gainRight)<<16
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

// spread puts nibble i of a row at bits 16i: the row as a column.
func spread(row uint16) uint64 {
	var c uint64
	for i := 0; i < 4; i++ {
		c |= uint64(row>>(4*i)&0xf) << (16 * i)
	}
	return c
}

func rows(p Board, table *[1 << 16]uint16) Board {
	return Board(table[p&0xffff]) | Board(table[p>>16&0xffff])<<16 | Board(table[p>>32&0xffff])<<32 | Board(table[p>>48&0xffff])<<48
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
		return cols(p.Transpose(), &tbl.colLeft)
	case engine.Down:
		return cols(p.Transpose(), &tbl.colRight)
	}
	return p
}

// Move plays direction d: the board after the slide and merges (no
// spawn), the score they gain, and whether the board changed.
func (p Board) Move(d engine.Direction) (Board, uint32, bool) {
	var out Board
	var gain uint32
	switch d {
	case engine.Left:
		out, gain = moveRows(p, &tbl.moveLeft)
	case engine.Right:
		out, gain = moveRows(p, &tbl.moveRight)
	case engine.Up:
		t := p.Transpose()
		out, gain = cols(t, &tbl.colLeft), rowGains(t, &tbl.moveLeft)
	case engine.Down:
		t := p.Transpose()
		out, gain = cols(t, &tbl.colRight), rowGains(t, &tbl.moveRight)
	default:
		return p, 0, false
	}
	return out, gain, out != p
}

// rowGains sums the gains of a table of rows and gains.
func rowGains(p Board, table *[1 << 16]uint64) uint32 {
	return uint32(table[p&0xffff]>>16 + table[p>>16&0xffff]>>16 + table[p>>32&0xffff]>>16 + table[p>>48&0xffff]>>16)
}

// moveRows moves each row by a table of rows and gains.
func moveRows(p Board, table *[1 << 16]uint64) (Board, uint32) {
	a, b, c, e := table[p&0xffff], table[p>>16&0xffff], table[p>>32&0xffff], table[p>>48&0xffff]
	out := Board(a&0xffff | (b&0xffff)<<16 | (c&0xffff)<<32 | (e&0xffff)<<48)
	return out, uint32(a>>16 + b>>16 + c>>16 + e>>16)
}

// Pair is a board with its transpose. Each of its moves is eight table
// lookups with no transpose at all (a move's rows make the other board's
// columns), and a search that carries both boards evaluates rows and
// columns alike by row tables.
type Pair struct{ B, T Board }

// NewPair pairs b with its transpose.
func NewPair(b Board) Pair { return Pair{b, b.Transpose()} }

// cols spreads the table rows of p's rows into columns: the transpose of
// rows(p, table).
func cols(p Board, table *[1 << 16]uint64) Board {
	return Board(table[p&0xffff] | table[p>>16&0xffff]<<4 | table[p>>32&0xffff]<<8 | table[p>>48&0xffff]<<12)
}

// Slide plays direction d on both boards (no spawn).
func (p Pair) Slide(d engine.Direction) Pair {
	switch d {
	case engine.Left:
		return Pair{rows(p.B, &tbl.left), cols(p.B, &tbl.colLeft)}
	case engine.Right:
		return Pair{rows(p.B, &tbl.right), cols(p.B, &tbl.colRight)}
	case engine.Up:
		return Pair{cols(p.T, &tbl.colLeft), rows(p.T, &tbl.left)}
	case engine.Down:
		return Pair{cols(p.T, &tbl.colRight), rows(p.T, &tbl.right)}
	}
	return p
}

// Place puts the tile of exponent lv in the empty cell i (row-major) of
// both boards.
func (p Pair) Place(i int, lv uint8) Pair {
	r, c := i/4, i%4
	return Pair{p.B | Board(lv)<<(4*uint(i)), p.T | Board(lv)<<(4*uint(4*c+r))}
}
