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
