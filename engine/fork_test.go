package engine

import (
	"slices"
	"testing"
)

// TestFork: a fork plays as the game would from the same state, and
// playing it leaves the game as it was.
func TestFork(t *testing.T) {
	g, err := New(NewClassic(), Options{Width: 4, Height: 4, Seed: 3, UndoLimit: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []Direction{Left, Up, Right} {
		g.Move(d)
	}
	before, _ := g.Marshal()
	f := g.Fork(99)
	f2 := g.Fork(99)
	if !slices.Equal(f.Board().Cells, g.Board().Cells) || f.Score() != g.Score() || f.Status() != g.Status() {
		t.Fatal("the fork is not at the game's state")
	}
	for _, d := range Directions {
		if f.Legal(d) != g.Legal(d) {
			t.Fatalf("legal %v differs", d)
		}
	}
	for i := 0; i < 30 && f.CanMove(); i++ {
		for _, d := range Directions {
			if f.Legal(d) {
				f.Move(d)
				f2.Move(d)
				break
			}
		}
	}
	if !slices.Equal(f.Board().Cells, f2.Board().Cells) {
		t.Error("two forks with the same seed went apart")
	}
	if after, _ := g.Marshal(); string(after) != string(before) {
		t.Error("playing the fork changed the game")
	}
	if u, _ := f.HistoryLen(); u != 0 {
		t.Errorf("the fork keeps %d moves of history", u)
	}
}

func BenchmarkFork(b *testing.B) {
	g, _ := New(NewClassic(), Options{Width: 4, Height: 4, Seed: 3, UndoLimit: 100})
	b.ReportAllocs()
	for b.Loop() {
		g.Fork(1)
	}
}

// TestForkInto: a game forked into, again and again, from games of other
// sizes and states, plays exactly as a fresh fork with the same seed, and
// leaves the games it was forked from as they were.
func TestForkInto(t *testing.T) {
	small, _ := New(NewClassic(), Options{Width: 4, Height: 4, Seed: 3, UndoLimit: 10})
	big, _ := New(NewClassic(), Options{Width: 6, Height: 5, Seed: 4})
	var into Game
	for round := 0; round < 40; round++ {
		g := small
		if round%3 == 1 {
			g = big
		}
		if !g.CanMove() {
			continue
		}
		before, _ := g.Marshal()
		seed := uint64(round * 7)
		want, got := g.Fork(seed), g.ForkInto(&into, seed)
		for i := 0; i < 5 && want.CanMove(); i++ {
			d := Directions[(round+i)%4]
			r1, e1 := want.Move(d)
			r2, e2 := got.Move(d)
			if (e1 == nil) != (e2 == nil) || r1.Changed != r2.Changed || r1.Gained != r2.Gained {
				t.Fatalf("round %d, move %d: %v %v against %v %v", round, i, r2, e2, r1, e1)
			}
		}
		wd, _ := want.Marshal()
		gd, _ := got.Marshal()
		if string(wd) != string(gd) {
			t.Fatalf("round %d: the game forked into is not the fresh fork:\n%s\n%s", round, gd, wd)
		}
		if after, _ := g.Marshal(); string(after) != string(before) {
			t.Fatalf("round %d: playing the fork changed the game", round)
		}
		g.Move(Directions[round%4])
	}
}

func BenchmarkForkInto(b *testing.B) {
	g, _ := New(NewClassic(), Options{Width: 4, Height: 4, Seed: 3, UndoLimit: 100})
	var into Game
	b.ReportAllocs()
	for b.Loop() {
		g.ForkInto(&into, 1)
	}
}
