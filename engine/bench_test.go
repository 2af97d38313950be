package engine

import "testing"

// benchGame returns a game of size n×n half filled from a fixed seed, and a
// copy of its state to restore when the game ends.
func benchGame(b *testing.B, n, undo int) *Game {
	b.Helper()
	rules := NewClassic()
	rules.StopOnWin = false
	rules.InitialSpawns = n * n / 2
	g, err := New(rules, Options{Width: n, Height: n, Seed: 42, UndoLimit: undo})
	if err != nil {
		b.Fatal(err)
	}
	return g
}

// benchMoves plays moves round the four directions, restarting from the
// starting state when the game is lost, so every iteration is a real move.
func benchMoves(b *testing.B, n, undo int) {
	g := benchGame(b, n, undo)
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

func BenchmarkMove4x4(b *testing.B)           { benchMoves(b, 4, 0) }
func BenchmarkMove4x4History(b *testing.B)    { benchMoves(b, 4, 100) }
func BenchmarkMove4x4HistoryAll(b *testing.B) { benchMoves(b, 4, -1) }
func BenchmarkMove8x8(b *testing.B)           { benchMoves(b, 8, 0) }
func BenchmarkMove8x8History(b *testing.B)    { benchMoves(b, 8, 100) }
