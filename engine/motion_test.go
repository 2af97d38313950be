package engine

import (
	"testing"

	"pgregory.net/rapid"
)

// TestMotionsExplainTheMove: on random classic boards of any size, the
// motions of a move account for every tile: each old tile moves once, to
// a cell of the new board; a tile that did not merge keeps its value, the
// two tiles of a merge had one value and make the next; the new board
// holds exactly the motions' tiles and the spawn.
func TestMotionsExplainTheMove(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		w := rapid.IntRange(2, 6).Draw(rt, "w")
		h := rapid.IntRange(2, 6).Draw(rt, "h")
		levels := rapid.SliceOfN(rapid.IntRange(0, 5), w*h, w*h).Draw(rt, "levels")
		d := Directions[rapid.IntRange(0, 3).Draw(rt, "dir")]
		board := NewBoard(w, h)
		for i, l := range levels {
			if l > 0 {
				board.Cells[i] = Cell{Kind: KindTile, Level: uint16(l)}
			}
		}
		rules := NewClassic()
		rules.StopOnWin = false
		g, err := NewFromBoard(rules, Options{Width: w, Height: h, Seed: 3}, board)
		if err != nil {
			rt.Fatal(err)
		}
		g.TrackMotions(true)
		res, err := g.Move(d)
		if err != nil {
			rt.Fatal(err)
		}
		if !res.Changed {
			return
		}
		after := g.State().Board
		m := g.Motions()
		from := map[Pos]int{}
		to := map[Pos]int{}
		for _, mv := range m.Moves {
			from[mv.From]++
			to[mv.To]++
		}
		for i, c := range board.Cells {
			p := board.PosOf(i)
			if (c.Kind == KindTile) != (from[p] == 1) || from[p] > 1 {
				rt.Fatalf("%v: the tile at %v moves %d times", d, p, from[p])
			}
		}
		merged := map[Pos]MergeMotion{}
		for _, mg := range m.Merged {
			merged[mg.Into] = mg
			a, b := board.At(mg.From[0]), board.At(mg.From[1])
			if a.Level != b.Level || after.At(mg.Into).Level != a.Level+1 || to[mg.Into] != 2 {
				rt.Fatalf("%v: the merge %+v of %v and %v gives %v", d, mg, a, b, after.At(mg.Into))
			}
		}
		for _, mv := range m.Moves {
			if _, ok := merged[mv.To]; !ok && after.At(mv.To) != board.At(mv.From) {
				rt.Fatalf("%v: %+v: %v became %v", d, mv, board.At(mv.From), after.At(mv.To))
			}
		}
		spawns := 0
		for i, c := range after.Cells {
			if c.Kind == KindTile && to[after.PosOf(i)] == 0 {
				spawns++
			}
		}
		if spawns != res.Spawns {
			rt.Fatalf("%v: %d tiles no motion explains, %d spawns", d, spawns, res.Spawns)
		}
		if int(res.Merges) != len(m.Merged) {
			rt.Fatalf("%v: %d merges, %d merge motions", d, res.Merges, len(m.Merged))
		}
	})
}

func BenchmarkMove4x4Motions(b *testing.B) {
	g := benchGame(b, 4, 0)
	g.TrackMotions(true)
	start := g.State().Clone()
	dirs := [4]Direction{Left, Up, Right, Down}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := g.Move(dirs[i&3]); err != nil {
			b.Fatal(err)
		}
		i++
		if g.cur.Status == Lost {
			g.cur.copyFrom(&start)
		}
	}
}
