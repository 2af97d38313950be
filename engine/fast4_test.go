package engine

import (
	"bytes"
	"testing"

	"pgregory.net/rapid"

	"github.com/mod2048/mod2048/engine/internal/nibble"
)

// TestFast4Moves: over a million seeded random boards (levels 0 to 14, as
// the fast path packs them) and each direction, the packed move gives
// exactly the generic slide's board, gain and changed flag, and the packed
// legal set is the generic one.
func TestFast4Moves(t *testing.T) {
	fast4Once.Do(func() { fast4 = nibble.Rows() })
	rules := NewClassic()
	rng := NewRNG(2048)
	n := 1_000_000
	if testing.Short() {
		n = 20_000
	}
	b := NewBoard(4, 4)
	for i := 0; i < n; i++ {
		// Sparse and dense boards alike: each cell empty with a chance
		// that varies from board to board.
		empty := rng.IntN(16)
		for c := range b.Cells {
			if rng.IntN(16) < empty {
				b.Cells[c] = Cell{}
			} else {
				b.Cells[c] = classicCell(uint16(1 + rng.IntN(14)))
			}
		}
		p, ok := pack4(b.Cells)
		if !ok {
			t.Fatalf("board %d did not pack", i)
		}
		var legal DirSet
		for _, d := range Directions {
			want := b.Clone()
			gain, changed := rules.Slide(&want, d)
			q, g := move4(p, d)
			got := NewBoard(4, 4)
			unpack4(q, got.Cells)
			if changed != (q != p) || gain != ScoreOf(g) || !sameCells(got, want) {
				t.Fatalf("board %d %v: packed %v gain %d changed %v; generic %v gain %v changed %v", i, d, got.Cells, g, q != p, want.Cells, gain, changed)
			}
			if changed {
				legal = legal.With(d)
			}
		}
		if legal4(p) != legal {
			t.Fatalf("board %d: packed legal %v, generic %v", i, legal4(p), legal)
		}
	}
}

// unpack4 writes a packed board into 16 classic cells.
func unpack4(p uint64, cells []Cell) {
	for i := range 16 {
		cells[i] = classicCell(uint16(p>>(4*i)) & 15)
	}
}

func sameCells(a, b Board) bool {
	for i := range a.Cells {
		if a.Cells[i] != b.Cells[i] {
			return false
		}
	}
	return true
}

// TestFast4Games: a classic 4×4 game on the fast path and the same game on
// the generic path, driven by the same random moves, undos, redos and
// keep-playing, stay byte-identical (their saves), with the same results
// and legal moves, whatever the rules' settings; boards with tiles above
// level 14 (which the fast path leaves to the generic one) included.
func TestFast4Games(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		rules := NewClassic()
		rules.WinValue = rapid.SampledFrom([]uint64{8, 16, 2048, 1 << 15, 1 << 20}).Draw(rt, "win")
		rules.StopOnWin = rapid.Bool().Draw(rt, "stop")
		rules.FourProbability = rapid.SampledFrom([]float64{0, 0.1, 0.5, 1}).Draw(rt, "four")
		opt := Options{Width: 4, Height: 4, Seed: rapid.Uint64().Draw(rt, "seed"), UndoLimit: rapid.SampledFrom([]int{0, 3, -1}).Draw(rt, "undo")}
		var fast, slow *Game
		var err error
		if rapid.Bool().Draw(rt, "given") {
			board := NewBoard(4, 4)
			for i := range board.Cells {
				if lv := rapid.IntRange(0, 16).Draw(rt, "lv"); lv > 0 && rapid.Bool().Draw(rt, "filled") {
					board.Cells[i] = classicCell(uint16(lv))
				}
			}
			fast, err = NewFromBoard(rules, opt, board)
			if err == nil {
				slow, err = NewFromBoard(rules, opt, board)
			}
		} else {
			fast, err = New(rules, opt)
			if err == nil {
				slow, err = New(rules, opt)
			}
		}
		if err != nil {
			rt.Skip(err)
		}
		slow.slow = true
		for i := range rapid.IntRange(1, 300).Draw(rt, "steps") {
			switch rapid.IntRange(0, 9).Draw(rt, "action") {
			case 0:
				e1, e2 := fast.Undo(), slow.Undo()
				if (e1 == nil) != (e2 == nil) {
					rt.Fatalf("step %d: undo %v / %v", i, e1, e2)
				}
			case 1:
				e1, e2 := fast.Redo(), slow.Redo()
				if (e1 == nil) != (e2 == nil) {
					rt.Fatalf("step %d: redo %v / %v", i, e1, e2)
				}
			case 2:
				e1, e2 := fast.KeepPlaying(), slow.KeepPlaying()
				if (e1 == nil) != (e2 == nil) {
					rt.Fatalf("step %d: keep playing %v / %v", i, e1, e2)
				}
			default:
				if a, b := fast.LegalMoves(), slow.LegalMoves(); a != b {
					rt.Fatalf("step %d: legal %v / %v", i, a, b)
				}
				d := Directions[rapid.IntRange(0, 3).Draw(rt, "dir")]
				r1, e1 := fast.Move(d)
				r2, e2 := slow.Move(d)
				if r1 != r2 || (e1 == nil) != (e2 == nil) {
					rt.Fatalf("step %d %v: %+v %v / %+v %v", i, d, r1, e1, r2, e2)
				}
			}
			// The fast path writes cells only when they are read: look
			// at the games in every way they can be read, or not at all
			// for a few steps.
			switch rapid.IntRange(0, 5).Draw(rt, "look") {
			case 0:
				a, _ := fast.Marshal()
				b, _ := slow.Marshal()
				if !bytes.Equal(a, b) {
					rt.Fatalf("step %d: the games differ:\n%s\n---\n%s", i, a, b)
				}
			case 1:
				if !sameCells(fast.Board(), slow.Board()) {
					rt.Fatalf("step %d: Board differs", i)
				}
			case 2:
				if !sameCells(fast.State().Board, slow.State().Board) {
					rt.Fatalf("step %d: State().Board differs", i)
				}
			case 3:
				a, _ := fast.Fork(9).Marshal()
				b, _ := slow.Fork(9).Marshal()
				if !bytes.Equal(a, b) {
					rt.Fatalf("step %d: the forks differ", i)
				}
			case 4:
				for _, d := range Directions {
					if fast.Legal(d) != slow.Legal(d) {
						rt.Fatalf("step %d: Legal(%v) differs", i, d)
					}
				}
			}
		}
		a, _ := fast.Marshal()
		b, _ := slow.Marshal()
		if !bytes.Equal(a, b) {
			rt.Fatalf("the games differ at the end:\n%s\n---\n%s", a, b)
		}
	})
}

// TestRowIsTheRule: on every one of the 65536 rows, the packed board's row
// rule (nibble.Row, which the fast path's and engine/bitboard's table
// holds) moves the row as the generic rule does (resolveLine, which a test
// holds to slide on real boards): the row, the gain and the top merge. Two
// 15s do not merge in a nibble: the generic rule is asked with each 15
// turned into a level of its own (16, 17, ...), which it slides and never
// merges, and the row it makes turned back.
func TestRowIsTheRule(t *testing.T) {
	for key := range 1 << 16 {
		var in [4]uint16
		next := uint16(16)
		for i := range in {
			in[i] = uint16(key>>(4*i)) & 15
			if in[i] == 15 {
				in[i], next = next, next+1
			}
		}
		e := resolveLine(in)
		var want uint16
		var wantGain uint32
		var wantTop uint8
		for i := range 4 {
			lv := uint16(e>>(5*i)) & 31
			if e>>(20+i)&1 != 0 {
				wantGain += 1 << lv
				wantTop = max(wantTop, uint8(lv))
			}
			want |= min(lv, 15) << (4 * i)
		}
		row, gain, top := nibble.Row(uint16(key))
		if row != want || gain != wantGain || top != wantTop {
			t.Fatalf("row %04x: nibble.Row gives %04x, gain %d, top %d; the generic rule %04x, gain %d, top %d", key, row, gain, top, want, wantGain, wantTop)
		}
	}
}

// TestFast4TwoBig: two 32768s made on the fast path merge as the generic
// path merges them, into a 65536 (the packed board's table would not
// merge them: the game leaves the fast path when it makes the first).
func TestFast4TwoBig(t *testing.T) {
	rules := NewClassic()
	rules.StopOnWin = false
	board := NewBoard(4, 4)
	for i := 0; i < 4; i++ {
		board.Cells[i] = classicCell(14)
	}
	board.Cells[15] = classicCell(1)
	fast, err := NewFromBoard(rules, Options{Width: 4, Height: 4, Seed: 1}, board)
	if err != nil {
		t.Fatal(err)
	}
	slow, _ := NewFromBoard(rules, Options{Width: 4, Height: 4, Seed: 1}, board)
	slow.slow = true
	for i, d := range []Direction{Left, Left, Left} {
		r1, _ := fast.Move(d)
		r2, _ := slow.Move(d)
		a, _ := fast.Marshal()
		b, _ := slow.Marshal()
		if r1 != r2 || !bytes.Equal(a, b) {
			t.Fatalf("move %d: %+v / %+v\n%s\n---\n%s", i, r1, r2, a, b)
		}
	}
}
