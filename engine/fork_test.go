package engine

import (
	"errors"
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

// refuser refuses moves toward dir; as a Forker it gives forks a refuser
// of its own, that counts the calls of the forks apart.
type refuser struct {
	dir    Direction
	forker bool
	calls  *int
}

func (r refuser) BeforeMove(e *MoveEvent) error {
	*r.calls++
	if e.Dir == r.dir {
		return &Refusal{Reason: "not " + r.dir.String()}
	}
	return nil
}
func (refuser) AfterMerge(*MergeEvent) error { return nil }
func (refuser) OnSpawn(*SpawnEvent) error    { return nil }
func (refuser) OnTick(*TickEvent) error      { return nil }

type forkingRefuser struct{ refuser }

func (r forkingRefuser) ForkHooks() Hooks {
	return refuser{dir: r.dir, calls: new(int)}
}

// TestForkHooks: a fork plays with the hooks a Forker gives it (and so
// refuses what they refuse), and with none when the game's hooks are not
// a Forker; ForkInto does the same, and Hooked says which.
func TestForkHooks(t *testing.T) {
	for _, tc := range []struct {
		name  string
		hooks Hooks
		want  bool // the fork refuses Left
	}{
		{"no hooks", nil, false},
		{"not a forker", refuser{dir: Left, calls: new(int)}, false},
		{"a forker", forkingRefuser{refuser{dir: Left, calls: new(int)}}, true},
	} {
		g, err := NewFromBoard(NewClassic(), Options{Width: 4, Height: 4, Seed: 1}, tBoard(t, ". . . 2", ". . . .", ". . . .", ". . . ."))
		if err != nil {
			t.Fatal(err)
		}
		g.SetHooks(tc.hooks)
		for _, f := range []*Game{g.Fork(5), g.ForkInto(new(Game), 5)} {
			if f.Hooked() != tc.want {
				t.Errorf("%s: Hooked() = %v", tc.name, f.Hooked())
			}
			_, err := f.Move(Left)
			var ref *Refusal
			if refused := errors.As(err, &ref); refused != tc.want {
				t.Errorf("%s: the fork's Left: %v", tc.name, err)
			}
		}
		if r, ok := tc.hooks.(forkingRefuser); ok && *r.calls != 0 {
			t.Errorf("%s: the forks called the game's own hooks %d times", tc.name, *r.calls)
		}
	}
}

// TestCountMoves: a game's count holds its moves and those of its forks,
// and of their forks; a move in no direction is not counted; nil stops
// the count.
func TestCountMoves(t *testing.T) {
	g, err := New(NewClassic(), Options{Width: 4, Height: 4, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var n uint64
	g.CountMoves(&n)
	moves := uint64(0)
	for _, d := range Directions {
		if _, err := g.Move(d); err != nil {
			t.Fatal(err)
		}
		moves++
	}
	f := g.Fork(1)
	ff := f.ForkInto(new(Game), 2)
	for _, d := range Directions[:2] {
		f.Move(d)
		ff.Move(d)
		moves += 2
	}
	if _, err := g.Move(Direction(9)); err == nil {
		t.Fatal("an invalid direction moved")
	}
	if n != moves {
		t.Fatalf("counted %d moves, want %d", n, moves)
	}
	g.CountMoves(nil)
	g.Move(Up)
	g.Fork(4).Move(Down)
	if n != moves {
		t.Fatalf("counted %d moves after the count stopped, want %d", n, moves)
	}
}
