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
			// The fast path's packed board is the old one, and the cells
			// are no longer waiting for it.
			g.packedOK, g.stale = false, false
		}
	}
}

func BenchmarkMove4x4(b *testing.B)           { benchMoves(b, 4, 0) }
func BenchmarkMove4x4History(b *testing.B)    { benchMoves(b, 4, 100) }
func BenchmarkMove4x4HistoryAll(b *testing.B) { benchMoves(b, 4, -1) }
func BenchmarkMove8x8(b *testing.B)           { benchMoves(b, 8, 0) }
func BenchmarkMove8x8History(b *testing.B)    { benchMoves(b, 8, 100) }

// BenchmarkRandomStep is the random-play workload the issue compares with
// nneonneo/2048-ai's tables: whole games of classic 4×4 (no history), each
// step finding the legal moves, then playing one at random with its spawn.
// It reports ns/step; new games are in the time, as they are in the C
// harness (see the closing note of issue 13).
func BenchmarkRandomStep(b *testing.B) {
	rules := NewClassic()
	rules.StopOnWin = false
	rng := NewRNG(1)
	steps := 0
	for b.Loop() {
		g, err := New(rules, Options{Width: 4, Height: 4, Seed: rng.Uint64()})
		if err != nil {
			b.Fatal(err)
		}
		for {
			legal := g.LegalMoves()
			if legal == 0 {
				break
			}
			var dirs [4]Direction
			n := 0
			for _, d := range Directions {
				if legal.Has(d) {
					dirs[n] = d
					n++
				}
			}
			if _, err := g.Move(dirs[rng.IntN(n)]); err != nil {
				b.Fatal(err)
			}
			steps++
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(steps), "ns/step")
}
