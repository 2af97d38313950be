package ai

import (
	"os"
	"strconv"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/engine/bitboard"
)

func classicGame(t testing.TB, seed uint64) *engine.Game {
	t.Helper()
	g, err := engine.New(engine.NewClassic(), engine.Options{Width: 4, Height: 4, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestPackedMovesAreTheRules: the bitboard's moves give the engine's
// boards (less the engine's spawn), for random boards and every direction.
func TestPackedMovesAreTheRules(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		levels := rapid.SliceOfN(rapid.IntRange(0, 11), 16, 16).Draw(rt, "levels")
		board := engine.NewBoard(4, 4)
		for i, l := range levels {
			if l > 0 {
				board.Cells[i] = engine.Cell{Kind: engine.KindTile, Level: uint16(l)}
			}
		}
		g, err := engine.NewFromBoard(engine.NewClassic(), engine.Options{Width: 4, Height: 4, Seed: 1}, board)
		if err != nil {
			rt.Fatal(err)
		}
		packed, _, ok := packable(g)
		if !ok {
			rt.Fatal("a 4×4 classic board did not pack")
		}
		for _, d := range engine.Directions {
			pair := bitboard.NewPair(bitboard.Board(packed)).Slide(d)
			if pair.T != pair.B.Transpose() {
				rt.Fatalf("%v: the pair's transpose is not its board's", d)
			}
			moved := uint64(pair.B)
			f := g.Fork(7)
			res, err := f.Move(d)
			if err != nil {
				rt.Fatal(err)
			}
			if res.Changed != (moved != packed) {
				rt.Fatalf("%v: the engine says changed %v, the bitboard %v", d, res.Changed, moved != packed)
			}
			if !res.Changed {
				continue
			}
			spawned := 0
			for i, c := range f.State().Board.Cells {
				want := uint16(moved >> (4 * uint(i)) & 0xf)
				switch {
				case c.Level == want:
				case want == 0 && spawned == 0:
					spawned++ // the engine's spawn
				default:
					rt.Fatalf("%v: cell %d is %d, the bitboard says %d", d, i, c.Level, want)
				}
			}
		}
	})
}

// TestDeterministic: the same position and settings give the same move.
func TestDeterministic(t *testing.T) {
	g := classicGame(t, 5)
	for i := 0; i < 20; i++ {
		p1, _ := New(Defaults())
		p2, _ := New(Defaults())
		a, err := p1.Best(g, g.LegalMoves())
		if err != nil {
			t.Fatal(err)
		}
		b, _ := p2.Best(g, g.LegalMoves())
		a2, _ := p1.Best(g, g.LegalMoves())
		if a != b || a != a2 {
			t.Fatalf("move %d: %v, %v and %v", i, a, b, a2)
		}
		if _, err := g.Move(a.Dir); err != nil {
			t.Fatal(err)
		}
	}
}

// TestStrength guards against regressions, checking no time: at a shallow
// depth, games of fixed seeds reach the tiles they reach today.
func TestStrength(t *testing.T) {
	s := Defaults()
	s.MaxDepth = 2
	p, err := New(s)
	if err != nil {
		t.Fatal(err)
	}
	reached := 0
	for seed := uint64(1); seed <= 4; seed++ {
		g := classicGame(t, seed)
		moves := 0
		for g.Status() == engine.Playing && moves < 3000 {
			sug, err := p.Best(g, g.LegalMoves())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := g.Move(sug.Dir); err != nil {
				t.Fatal(err)
			}
			moves++
		}
		top := uint16(0)
		for _, c := range g.State().Board.Cells {
			top = max(top, c.Level)
		}
		t.Logf("seed %d: %d moves, top tile %d, %v", seed, moves, 1<<top, g.Status())
		if top >= 10 {
			reached++
		}
		if top < 9 {
			t.Errorf("seed %d: the top tile is %d, below 512", seed, 1<<top)
		}
	}
	if reached < 3 {
		t.Errorf("1024 reached in %d of 4 games, want at least 3", reached)
	}
}

// TestForked: positions the bitboard does not hold (5×5, 6×3) are
// searched through the engine's rules, and get a legal move. (Other
// rulesets are searched the same way; the engine's tests use no package
// above the engine.)
func TestForked(t *testing.T) {
	p, _ := New(Defaults())
	big, _ := engine.New(engine.NewClassic(), engine.Options{Width: 5, Height: 5, Seed: 2})
	wide, _ := engine.New(engine.NewClassic(), engine.Options{Width: 6, Height: 3, Seed: 3})
	for _, g := range []*engine.Game{big, wide} {
		for i := 0; i < 10 && !g.Status().Over(); i++ {
			legal := g.LegalMoves()
			sug, err := p.Best(g, legal)
			if err != nil {
				t.Fatal(err)
			}
			if !legal.Has(sug.Dir) {
				t.Fatalf("%s: suggested %v, not legal (%v)", g.Rules().Name(), sug.Dir, legal)
			}
			again, _ := p.Best(g, legal)
			if again != sug {
				t.Fatalf("%s: %v then %v", g.Rules().Name(), sug, again)
			}
			if _, err := g.Move(sug.Dir); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Only the legal directions are suggested: a mod's refusal comes in
	// through legal.
	g := classicGame(t, 9)
	only := engine.DirSet(0).With(g.LegalMoves().List()[0])
	if sug, _ := p.Best(g, only); sug.Dir != only.List()[0] {
		t.Errorf("suggested %v outside %v", sug.Dir, only)
	}
	if _, err := p.Best(g, 0); err != ErrNoMove {
		t.Errorf("no legal move: %v", err)
	}
}

// A mid-game board for the benchmarks.
func midGame(b *testing.B) *engine.Game {
	g := classicGame(b, 3)
	p, _ := New(Defaults())
	for i := 0; i < 300 && g.Status() == engine.Playing; i++ {
		sug, _ := p.Best(g, g.LegalMoves())
		g.Move(sug.Dir)
	}
	return g
}

func BenchmarkBest(b *testing.B) {
	g := midGame(b)
	p, _ := New(Defaults())
	b.ReportAllocs()
	for b.Loop() {
		p.Best(g, g.LegalMoves())
	}
}

// TestStrengthTable measures the player's strength on classic 4×4 when
// AI_STRENGTH_GAMES is set (it takes minutes): the highest tile of each
// game and the mean time a move. It is the measurement behind the README's
// table; the sim's --policy expert gives the same.
func TestStrengthTable(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("AI_STRENGTH_GAMES"))
	if n == 0 {
		t.Skip("set AI_STRENGTH_GAMES=N to measure")
	}
	s := Defaults()
	if d, _ := strconv.Atoi(os.Getenv("AI_MAX_DEPTH")); d > 0 {
		s.MaxDepth = d
	}
	p, err := New(s)
	if err != nil {
		t.Fatal(err)
	}
	tops := map[int]int{}
	var moves int
	var spent time.Duration
	for seed := uint64(1); seed <= uint64(n); seed++ {
		g, _ := engine.New(engine.NewClassic(), engine.Options{Width: 4, Height: 4, Seed: seed})
		for !g.Status().Over() || g.Status() == engine.Won {
			if g.Status() == engine.Won {
				g.KeepPlaying()
			}
			start := time.Now()
			sug, err := p.Best(g, g.LegalMoves())
			spent += time.Since(start)
			if err != nil {
				break
			}
			g.Move(sug.Dir)
			moves++
		}
		top := 0
		for _, c := range g.State().Board.Cells {
			top = max(top, int(c.Level))
		}
		tops[1<<top]++
		t.Logf("seed %d: top %d, score %v", seed, 1<<top, g.Score())
	}
	t.Logf("max depth %d: tops %v; %.2f ms a move over %d moves", s.MaxDepth, tops, float64(spent.Microseconds())/1000/float64(moves), moves)
}
