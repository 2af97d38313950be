package cellular

import (
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/mod2048/mod2048/engine"
)

// aliveNeighbours counts the alive cells in the Moore neighbourhood of cell
// p: beyond the board's edge is empty, or, with life.wrap, the other side.
func (r *Rules) aliveNeighbours(b *engine.Board, alive []bool, p int) int {
	w, h := b.Width, b.Height
	row, col := p/w, p%w
	n := 0
	for dr := -1; dr <= 1; dr++ {
		for dc := -1; dc <= 1; dc++ {
			if dr == 0 && dc == 0 {
				continue
			}
			rr, cc := row+dr, col+dc
			if r.s.Life.Wrap {
				rr, cc = (rr+h)%h, (cc+w)%w
			} else if rr < 0 || rr >= h || cc < 0 || cc >= w {
				continue
			}
			if alive[rr*w+cc] {
				n++
			}
		}
	}
	return n
}

// TestNeighbourCounts: the one-pass counts are aliveNeighbours' look at
// every cell, on any board, with and without life.wrap (tiny wrapped boards
// count a neighbour that two offsets reach twice, in both).
func TestNeighbourCounts(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w, h := rapid.IntRange(1, 9).Draw(t, "w"), rapid.IntRange(1, 9).Draw(t, "h")
		s := earlySettings()
		s.Life.Wrap = rapid.Bool().Draw(t, "wrap")
		r := &Rules{s: s, nb: newNeighbours(w, h, s.Life.Wrap)}
		b := engine.Board{Width: w, Height: h, Cells: make([]engine.Cell, w*h)}
		alive := rapid.SliceOfN(rapid.Bool(), w*h, w*h).Draw(t, "alive")
		counts := r.neighbourCounts(nil, &b, alive)
		for p := range alive {
			if want := r.aliveNeighbours(&b, alive, p); int(counts[p]) != want {
				t.Fatalf("cell %d of %dx%d (wrap %v): %d, want %d", p, w, h, s.Life.Wrap, counts[p], want)
			}
		}
	})
}

// TestOrthogonalNeighbours: a cell's orthogonal neighbours are the cells
// above, below, left and right of it that lie on the board, on any board,
// wrapped or not (orthogonal neighbours never wrap).
func TestOrthogonalNeighbours(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w, h := rapid.IntRange(1, 9).Draw(t, "w"), rapid.IntRange(1, 9).Draw(t, "h")
		nb := newNeighbours(w, h, rapid.Bool().Draw(t, "wrap"))
		for p := range w * h {
			var want []int
			row, col := p/w, p%w
			for _, d := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
				if rr, cc := row+d[0], col+d[1]; rr >= 0 && rr < h && cc >= 0 && cc < w {
					want = append(want, rr*w+cc)
				}
			}
			got := slices.Clone(nb.orth(p))
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("cell %d of %dx%d: %v, want %v", p, w, h, got, want)
			}
		}
	})
}
