package engine

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestSlideIsTheMove: the pure slide gives the board, gain and changed
// flag of Game.Move before its spawn, on random boards of sizes 2 to 8
// (the 4-wide ones through the line table, tiles past it included).
func TestSlideIsTheMove(t *testing.T) {
	rules := NewClassic()
	rapid.Check(t, func(rt *rapid.T) {
		w := rapid.IntRange(2, 8).Draw(rt, "w")
		h := rapid.IntRange(2, 8).Draw(rt, "h")
		levels := rapid.SliceOfN(rapid.IntRange(0, 18), w*h, w*h).Draw(rt, "levels")
		board := NewBoard(w, h)
		for i, l := range levels {
			if l > 0 {
				board.Cells[i] = Cell{Kind: KindTile, Level: uint16(l)}
			}
		}
		for _, d := range Directions {
			g, err := NewFromBoard(rules, Options{Width: w, Height: h, Seed: 1}, board)
			if err != nil {
				rt.Fatal(err)
			}
			// The spawn goes to a cell the slide leaves empty; a scripted
			// one in the queue tells where.
			b := board.Clone()
			gain, changed := rules.Slide(&b, d)
			if !changed {
				if res, _ := g.Move(d); res.Changed {
					rt.Fatalf("%v: Slide says unchanged, Move changed the board", d)
				}
				if !slices.Equal(b.Cells, board.Cells) {
					rt.Fatalf("%v: an unchanged slide changed the board", d)
				}
				continue
			}
			empty := b.nthEmpty(0)
			if empty < 0 {
				rt.Fatalf("%v: a changed board with no empty cell", d)
			}
			g.AddSpawns(SpawnEntry{Pos: b.PosOf(empty), Cell: Cell{Kind: KindTile, Level: 1}})
			res, err := g.Move(d)
			if err != nil || !res.Changed {
				rt.Fatalf("%v: Move: %v, changed %v", d, err, res.Changed)
			}
			if res.Gained != gain {
				rt.Fatalf("%v: gain %v, Move gained %v", d, gain, res.Gained)
			}
			got := g.State().Board.Clone()
			got.Cells[empty] = Cell{}
			if g.Status() != Won && !slices.Equal(got.Cells, b.Cells) {
				rt.Fatalf("%v: Slide gives %v, Move %v", d, b.Cells, got.Cells)
			}
		}
	})
}

func BenchmarkSlide4x4(b *testing.B) {
	rules := NewClassic()
	board := NewBoard(4, 4)
	for i, l := range []uint16{1, 1, 2, 0, 3, 0, 3, 1, 0, 2, 2, 0, 4, 4, 1, 1} {
		if l > 0 {
			board.Cells[i] = Cell{Kind: KindTile, Level: l}
		}
	}
	work := board.Clone()
	b.ReportAllocs()
	for b.Loop() {
		copy(work.Cells, board.Cells)
		rules.Slide(&work, Left)
	}
}
