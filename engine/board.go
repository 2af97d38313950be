package engine

import (
	"fmt"
	"math/bits"
	"strings"
)

// Board is a Width × Height grid of cells, stored row by row.
type Board struct {
	Width, Height int
	Cells         []Cell
}

// NewBoard returns an empty board of the given size.
func NewBoard(width, height int) Board {
	return Board{Width: width, Height: height, Cells: make([]Cell, width*height)}
}

// In reports whether p lies on the board.
func (b *Board) In(p Pos) bool {
	return p.Row >= 0 && p.Row < b.Height && p.Col >= 0 && p.Col < b.Width
}

// At returns the cell at p, which must lie on the board.
func (b *Board) At(p Pos) Cell { return b.Cells[p.Row*b.Width+p.Col] }

// Set puts c at p, which must lie on the board.
func (b *Board) Set(p Pos, c Cell) { b.Cells[p.Row*b.Width+p.Col] = c }

// PosOf returns the position of the cell at index i of Cells.
func (b *Board) PosOf(i int) Pos { return Pos{Row: i / b.Width, Col: i % b.Width} }

// Clone returns a copy of the board that shares nothing with it.
func (b Board) Clone() Board {
	c := b
	c.Cells = append([]Cell(nil), b.Cells...)
	return c
}

// Equal reports whether two boards have the same size and cells.
func (b *Board) Equal(o *Board) bool {
	if b.Width != o.Width || b.Height != o.Height || len(b.Cells) != len(o.Cells) {
		return false
	}
	for i := range b.Cells {
		if b.Cells[i] != o.Cells[i] {
			return false
		}
	}
	return true
}

// EmptyCount returns the number of empty cells.
func (b *Board) EmptyCount() int {
	n := 0
	for i := range b.Cells {
		// Branch-free, and fields one by one (see Classic.slide): this runs
		// on every spawn.
		occupied := uint(b.Cells[i].Kind) | uint(b.Cells[i].Token)
		n += int((occupied - 1) >> (bits.UintSize - 1))
	}
	return n
}

// nthEmpty returns the index of the k-th empty cell (from 0) in row order,
// or -1 if there are not that many.
func (b *Board) nthEmpty(k int) int {
	for i := range b.Cells {
		if b.Cells[i].Kind == KindEmpty && b.Cells[i].Token == 0 {
			if k == 0 {
				return i
			}
			k--
		}
	}
	return -1
}

// CellFormatter writes a cell in a ruleset's notation.
type CellFormatter interface {
	FormatCell(Cell) string
}

// FormatRows writes the board as one string per row, cells in the notation of
// f separated by single spaces.
func FormatRows(f CellFormatter, b *Board) []string {
	rows := make([]string, b.Height)
	var sb strings.Builder
	for r := 0; r < b.Height; r++ {
		sb.Reset()
		for c := 0; c < b.Width; c++ {
			if c > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(f.FormatCell(b.Cells[r*b.Width+c]))
		}
		rows[r] = sb.String()
	}
	return rows
}

// CellParser reads a cell in a ruleset's notation.
type CellParser interface {
	ParseCell(string) (Cell, error)
}

// ParseRows reads a board of the given size from one string per row, cells
// in the notation of p separated by white space. Errors name the row (from 0)
// and column at fault.
func ParseRows(p CellParser, rows []string, width, height int) (Board, error) {
	if len(rows) != height {
		return Board{}, fmt.Errorf("board has %d rows, want %d", len(rows), height)
	}
	b := NewBoard(width, height)
	for r, row := range rows {
		fields := strings.Fields(row)
		if len(fields) != width {
			return Board{}, fmt.Errorf("row %d has %d cells, want %d", r, len(fields), width)
		}
		for c, f := range fields {
			cell, err := p.ParseCell(f)
			if err != nil {
				return Board{}, fmt.Errorf("row %d, column %d: %w", r, c, err)
			}
			b.Cells[r*width+c] = cell
		}
	}
	return b, nil
}
