package bitboard

import (
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/mod2048/mod2048/engine"
)

// TestMovesAreTheRules: on random 4×4 boards (levels up to 14, so that no
// merge passes 32768), every direction gives the classic rules' own slide
// (engine.Classic.Slide): the board, the gain and whether it changed.
func TestMovesAreTheRules(t *testing.T) {
	rules := engine.NewClassic()
	rapid.Check(t, func(rt *rapid.T) {
		levels := rapid.SliceOfN(rapid.IntRange(0, 14), 16, 16).Draw(rt, "levels")
		board := engine.NewBoard(4, 4)
		for i, l := range levels {
			if l > 0 {
				board.Cells[i] = engine.Cell{Kind: engine.KindTile, Level: uint16(l)}
			}
		}
		p, ok := Pack(&board)
		if !ok {
			rt.Fatal("the board did not pack")
		}
		if u := p.Unpack(); !slices.Equal(u.Cells, board.Cells) {
			rt.Fatal("Unpack(Pack(b)) is not b")
		}
		if p.Transpose().Transpose() != p {
			rt.Fatal("Transpose is not its own inverse")
		}
		for _, d := range engine.Directions {
			want := board.Clone()
			gain, changed := rules.Slide(&want, d)
			got, g, ch := p.Move(d)
			if got != p.Slide(d) {
				rt.Fatalf("%v: Slide and Move differ", d)
			}
			if pair := NewPair(p).Slide(d); pair.B != got || pair.T != got.Transpose() {
				rt.Fatalf("%v: Pair gives %016x/%016x, want %016x and its transpose", d, pair.B, pair.T, got)
			}
			u := got.Unpack()
			wantGain, _ := gain.Uint64()
			if ch != changed || uint64(g) != wantGain || !slices.Equal(u.Cells, want.Cells) {
				rt.Fatalf("%v: bitboard %v (gain %d, changed %v), rules %v (gain %d, changed %v)", d, u.Cells, g, ch, want.Cells, wantGain, changed)
			}
		}
	})
}

// TestPlace: a tile placed in a pair lands in the same cell of the board
// and of its transpose.
func TestPlace(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		b := Board(rapid.Uint64().Draw(rt, "board"))
		i := rapid.IntRange(0, 15).Draw(rt, "cell")
		b &^= 0xf << (4 * uint(i))
		lv := uint8(rapid.IntRange(1, 15).Draw(rt, "level"))
		got := NewPair(b).Place(i, lv)
		want := b | Board(lv)<<(4*uint(i))
		if got.B != want || got.T != want.Transpose() {
			rt.Fatalf("Place(%d, %d) on %016x: %016x/%016x", i, lv, b, got.B, got.T)
		}
	})
}

// TestPackRefuses: boards the bitboard cannot hold.
func TestPackRefuses(t *testing.T) {
	five := engine.NewBoard(5, 5)
	big := engine.NewBoard(4, 4)
	big.Cells[3] = engine.Cell{Kind: engine.KindTile, Level: 16}
	for _, b := range []engine.Board{five, big} {
		if _, ok := Pack(&b); ok {
			t.Errorf("%d×%d board with %v packed", b.Width, b.Height, b.Cells[3])
		}
	}
}

func BenchmarkMove(b *testing.B) {
	p := Board(0x1234_0012_3100_0221)
	b.ReportAllocs()
	for b.Loop() {
		q, _, _ := p.Move(engine.Left)
		p ^= q & 1
	}
}

func BenchmarkSlide(b *testing.B) {
	p := Board(0x1234_0012_3100_0221)
	b.ReportAllocs()
	for b.Loop() {
		p ^= p.Slide(engine.Left) & 1
	}
}

func BenchmarkMoveUp(b *testing.B) {
	p := Board(0x1234_0012_3100_0221)
	b.ReportAllocs()
	for b.Loop() {
		q, _, _ := p.Move(engine.Up)
		p ^= q & 1
	}
}

func BenchmarkPairUp(b *testing.B) {
	p := NewPair(Board(0x1234_0012_3100_0221))
	b.ReportAllocs()
	for b.Loop() {
		q := p.Slide(engine.Up)
		p.B ^= q.B & 1
	}
}

// TestMillionMoves: a seeded sweep of 250,000 random boards, every
// direction (a million moves), each against the rules' own slide. -short
// plays a tenth.
func TestMillionMoves(t *testing.T) {
	rules := engine.NewClassic()
	n := 250_000
	if testing.Short() {
		n /= 10
	}
	rng := engine.NewRNG(2048)
	board := engine.NewBoard(4, 4)
	want := engine.NewBoard(4, 4)
	for k := 0; k < n; k++ {
		for i := range board.Cells {
			// Mostly small tiles and gaps, as games have them.
			if l := rng.IntN(18) - 3; l > 0 {
				board.Cells[i] = engine.Cell{Kind: engine.KindTile, Level: uint16(min(l, 14))}
			} else {
				board.Cells[i] = engine.Cell{}
			}
		}
		p, _ := Pack(&board)
		for _, d := range engine.Directions {
			copy(want.Cells, board.Cells)
			gain, changed := rules.Slide(&want, d)
			got, g, ch := p.Move(d)
			wantGain, _ := gain.Uint64()
			u := got.Unpack()
			if ch != changed || uint64(g) != wantGain || !slices.Equal(u.Cells, want.Cells) {
				t.Fatalf("board %d, %v: bitboard %v (gain %d), rules %v (gain %d)", k, d, u.Cells, g, want.Cells, wantGain)
			}
		}
	}
}

// BenchmarkMoveEach plays the four directions in turn.
func BenchmarkMoveEach(b *testing.B) {
	p := Board(0x1234_0012_3100_0221)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		q, _, _ := p.Move(engine.Directions[i&3])
		p ^= q & 1
		i++
	}
}

// TestFifteensStay: two 32768s, which a nibble cannot merge, slide and stay
// two; two 16384s still make a 32768.
func TestFifteensStay(t *testing.T) {
	p := Board(0xf0f0_e0e0_0000_0000)
	got, gain, changed := p.Move(engine.Left)
	if want := Board(0x00ff_000f_0000_0000); got != want || gain != 1<<15 || !changed {
		t.Errorf("Move(Left) on %016x: %016x gain %d changed %v; want %016x gain 32768", p, got, gain, changed, want)
	}
}
