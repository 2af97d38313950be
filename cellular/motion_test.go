package cellular

import (
	"testing"

	"github.com/mod2048/mod2048/engine"
)

// TestMotions: a cellular swipe reports each occupant's motion once, and
// each merge with its two cells, whose motions both end where it stands.
func TestMotions(t *testing.T) {
	s := earlySettings()
	s.Life.Enabled = false // the board after the move is the swipe's
	s.SpawnCells = 0
	r, err := New(s)
	if err != nil {
		t.Fatal(err)
	}
	merges, moves := 0, 0
	defer func() {
		if merges == 0 || moves == 0 {
			t.Errorf("%d moves and %d merges recorded: the test saw nothing", moves, merges)
		}
	}()
	for seed := uint64(1); seed <= 30; seed++ {
		g, err := engine.New(r, engine.Options{Width: s.Width, Height: s.Height, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		g.TrackMotions(true)
		for _, d := range []engine.Direction{engine.Left, engine.Up, engine.Right, engine.Down} {
			before := g.Board()
			res, err := g.Move(d)
			if err != nil || !res.Changed {
				continue
			}
			m := g.Motions()
			merges += len(m.Merged)
			moves += len(m.Moves)
			from := map[engine.Pos]int{}
			to := map[engine.Pos]int{}
			for _, mv := range m.Moves {
				from[mv.From]++
				to[mv.To]++
			}
			for i, c := range before.Cells {
				p := before.PosOf(i)
				if isOccupant(c) != (from[p] == 1) {
					t.Fatalf("seed %d, %v: the occupant at %v moves %d times", seed, d, p, from[p])
				}
			}
			for _, mg := range m.Merged {
				if to[mg.Into] != 2 || from[mg.From[0]] != 1 || from[mg.From[1]] != 1 {
					t.Fatalf("seed %d, %v: merge %+v", seed, d, mg)
				}
			}
			after := g.State().Board
			for p := range to {
				if !isOccupant(after.At(p)) {
					t.Fatalf("seed %d, %v: a motion ends on %v, which is empty", seed, d, p)
				}
			}
		}
	}
}
