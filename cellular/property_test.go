package cellular

// Property-based tests (pgregory.net/rapid) of the cellular ruleset on random
// boards of random sizes (1–10 × 1–10, at least 2 cells) holding every kind
// of cell and token, under random settings. The Life tick is checked against
// propConway, a deliberately plain reference implementation of Conway's
// B3/S23 written here, which shares no code with the rules.

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"testing"

	"github.com/mod2048/mod2048/engine"
	"pgregory.net/rapid"
)

// TestMain runs each property on 1000 random cases (rapid's default is 100;
// the whole package still takes a couple of seconds) unless -rapid.checks
// is given.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "rapid.checks" })
	if !set {
		if err := flag.Set("rapid.checks", "1000"); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}

// ---------------------------------------------------------------------------
// Generators.

// propGenSettings draws valid settings for a board of 1–10 × 1–10 cells (at
// least 2), with every phase sometimes on and sometimes off.
func propGenSettings(t *rapid.T) Settings {
	sides := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	w := rapid.SampledFrom(sides).Draw(t, "width")
	h := rapid.SampledFrom(sides).Draw(t, "height")
	if w*h < 2 {
		h = 2
	}
	cells := w * h
	ecap := rapid.IntRange(2, 12).Draw(t, "e_cap")
	s := Settings{
		Width: w, Height: h, ECap: ecap,
		InitialCells:    0,
		SpawnCells:      rapid.IntRange(0, 2).Draw(t, "spawn_cells"),
		SpawnAlive:      rapid.SampledFrom([]float64{0, 0.5, 1}).Draw(t, "spawn_alive"),
		SpawnEvery:      rapid.IntRange(1, 3).Draw(t, "spawn_every"),
		StopOnWin:       rapid.Bool().Draw(t, "stop_on_win"),
		ExtinctionLoses: rapid.Bool().Draw(t, "extinction_loses"),
		UndoLimit:       rapid.SampledFrom([]int{-1, 0, 3}).Draw(t, "undo_limit"),
		IdleTicks:       rapid.Bool().Draw(t, "idle_swipe_ticks"),
		Life: Life{
			Enabled:         rapid.Bool().Draw(t, "life.enabled"),
			BirthRelaxation: rapid.Bool().Draw(t, "life.birth_relaxation"),
			Wrap:            rapid.Bool().Draw(t, "life.wrap"),
			BirthOnCatalyst: rapid.Bool().Draw(t, "life.birth_on_catalyst"),
		},
		Dormancy: Dormancy{Ticks: rapid.IntRange(0, 4).Draw(t, "dormancy.ticks")},
		Colony: Colony{
			Bonus:   rapid.IntRange(0, min(3, ecap)).Draw(t, "colony.bonus"),
			MinSize: rapid.IntRange(1, min(6, cells)).Draw(t, "colony.min_size"),
		},
		Catalyst: Catalyst{
			Rate:        rapid.SampledFrom([]float64{0, 0.3, 1}).Draw(t, "catalyst.rate"),
			Max:         rapid.IntRange(0, min(3, cells)).Draw(t, "catalyst.max"),
			Doubling:    rapid.SampledFrom([]string{DoubleAfterMerge, DoubleOnContact}).Draw(t, "catalyst.doubling"),
			StartOnPath: rapid.Bool().Draw(t, "catalyst.start_on_path"),
		},
		Blight: Blight{
			Rate:      rapid.SampledFrom([]float64{0, 0.3, 1}).Draw(t, "blight.rate"),
			Charges:   rapid.IntRange(1, 3).Draw(t, "blight.charges"),
			Telegraph: rapid.Bool().Draw(t, "blight.telegraph"),
		},
		Decay: Decay{Amount: rapid.IntRange(0, min(2, ecap)).Draw(t, "decay.amount")},
		Score: Score{Unstable: rapid.SampledFrom([]float64{0, 0.75, 1, 3}).Draw(t, "score.unstable_multiplier")},
		Goal:  Goal{PerCell: rapid.SampledFrom([]float64{0, 0.5, 1, 2}).Draw(t, "goal"), Hold: rapid.IntRange(1, 3).Draw(t, "goal.hold")},
	}
	if err := s.Validate(); err != nil {
		t.Fatalf("generated settings: %v", err)
	}
	return s
}

// propGenOccupant draws an alive or dormant cell valid under s (an alive
// cell of energy 1 may carry a count below dormancy.ticks).
func propGenOccupant(t *rapid.T, s Settings) engine.Cell {
	e := rapid.IntRange(1, s.ECap).Draw(t, "energy")
	if rapid.IntRange(0, 2).Draw(t, "dormant") == 0 {
		return dormant(e)
	}
	c := alive(e)
	if e == 1 && s.Dormancy.Ticks > 0 {
		c.Counter = uint16(rapid.IntRange(0, s.Dormancy.Ticks-1).Draw(t, "count"))
	}
	return c
}

// propGenCell draws any cell valid under s: empty, an occupant, a catalyst
// (alone or under an occupant), an active or incoming blight token.
func propGenCell(t *rapid.T, s Settings, emptyPct int) engine.Cell {
	if rapid.IntRange(0, 99).Draw(t, "emptyRoll") < emptyPct {
		return engine.Cell{}
	}
	switch rapid.IntRange(0, 9).Draw(t, "what") {
	case 0:
		return engine.Cell{Token: TokenCatalyst}
	case 1:
		c := propGenOccupant(t, s)
		c.Token = TokenCatalyst
		return c
	case 2:
		return engine.Cell{Token: TokenBlight, Charges: uint16(rapid.IntRange(1, 3).Draw(t, "charges"))}
	case 3:
		return engine.Cell{Token: TokenIncoming, Charges: uint16(rapid.IntRange(1, 3).Draw(t, "charges"))}
	default:
		return propGenOccupant(t, s)
	}
}

// propGenBoard draws a board for s.
func propGenBoard(t *rapid.T, s Settings) engine.Board {
	emptyPct := rapid.SampledFrom([]int{0, 20, 40, 50, 60, 70, 80, 90}).Draw(t, "emptyPct")
	b := engine.NewBoard(s.Width, s.Height)
	for i := range b.Cells {
		b.Cells[i] = propGenCell(t, s, emptyPct)
	}
	return b
}

// propGenMoves draws a sequence of directions.
func propGenMoves(t *rapid.T, maxLen int) []engine.Direction {
	return rapid.SliceOfN(rapid.SampledFrom(engine.Directions[:]), maxLen/2, maxLen).Draw(t, "moves")
}

func propNewGame(t *rapid.T, s Settings, b engine.Board, seed uint64, scripted bool) *engine.Game {
	r, err := New(s)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	g, err := engine.NewFromBoard(r, engine.Options{Width: s.Width, Height: s.Height, Seed: seed, UndoLimit: s.UndoLimit, ScriptedOnly: scripted}, b)
	if err != nil {
		t.Fatalf("NewFromBoard: %v", err)
	}
	return g
}

func propMarshal(t *rapid.T, g *engine.Game) []byte {
	data, err := g.Marshal()
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	return data
}

// propCheckBoard checks what must hold of every board after every turn:
// every energy within 1..e_cap, counts only on alive cells of energy 1 and
// below dormancy.ticks, a blight token never sharing its cell, charges of
// at least 1, and nothing but the cellular kinds and tokens.
func propCheckBoard(t *rapid.T, s Settings, b *engine.Board, when string) {
	for i, c := range b.Cells {
		p := b.PosOf(i)
		switch c.Kind {
		case engine.KindEmpty:
			if c.Level != 0 || c.Counter != 0 {
				t.Fatalf("%s: empty cell %v has energy %d, count %d", when, p, c.Level, c.Counter)
			}
		case KindAlive, KindDormant:
			if c.Level < 1 || int(c.Level) > s.ECap {
				t.Fatalf("%s: cell %v has energy %d, outside 1..%d", when, p, c.Level, s.ECap)
			}
			if c.Counter != 0 && (c.Kind != KindAlive || c.Level != 1 || int(c.Counter) >= s.Dormancy.Ticks) {
				t.Fatalf("%s: cell %v (%+v) has a count it cannot have", when, p, c)
			}
		default:
			t.Fatalf("%s: cell %v has kind %d", when, p, c.Kind)
		}
		switch c.Token {
		case 0, TokenCatalyst:
			if c.Charges != 0 {
				t.Fatalf("%s: cell %v has charges without a blight token", when, p)
			}
		case TokenBlight, TokenIncoming:
			if c.Kind != engine.KindEmpty {
				t.Fatalf("%s: blight token at %v has an occupant (%+v)", when, p, c)
			}
			if c.Charges < 1 {
				t.Fatalf("%s: blight token at %v has no charge", when, p)
			}
		default:
			t.Fatalf("%s: cell %v has token %d", when, p, c.Token)
		}
	}
}

// ---------------------------------------------------------------------------
// The reference Life tick.

// propConway is one tick of Conway's Game of Life, B3/S23, on the alive
// cells of b: an alive cell survives with 2 or 3 alive neighbours; a cell
// with no occupant and no token is born with exactly 3. Beyond the edge is
// dead, or with wrap the board is a torus (each of the 8 neighbour offsets
// taken modulo the board's sides). It returns which cells are alive after.
func propConway(b *engine.Board, wrap, onCatalyst bool) []bool {
	w, h := b.Width, b.Height
	isAlive := func(r, c int) bool {
		if wrap {
			r, c = ((r%h)+h)%h, ((c%w)+w)%w
		} else if r < 0 || r >= h || c < 0 || c >= w {
			return false
		}
		return b.Cells[r*w+c].Kind == KindAlive
	}
	out := make([]bool, len(b.Cells))
	for r := 0; r < h; r++ {
		for c := 0; c < w; c++ {
			n := 0
			for _, d := range [8][2]int{{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}} {
				if isAlive(r+d[0], c+d[1]) {
					n++
				}
			}
			cell := b.Cells[r*w+c]
			switch {
			case cell.Kind == KindAlive:
				out[r*w+c] = n == 2 || n == 3
			case cell.Kind == engine.KindEmpty && (cell.Token == 0 || onCatalyst && cell.Token == TokenCatalyst):
				out[r*w+c] = n == 3
			}
		}
	}
	return out
}

func propAliveSet(b *engine.Board) []bool {
	out := make([]bool, len(b.Cells))
	for i, c := range b.Cells {
		out[i] = c.Kind == KindAlive
	}
	return out
}

func propSameSet(a, b []bool) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

// ---------------------------------------------------------------------------
// Properties.

// Energies stay within 1..e_cap (and counts, tokens and charges stay
// well-formed) after any turn, and the score never decreases.
func TestPropTurnInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := propGenSettings(t)
		b := propGenBoard(t, s)
		g := propNewGame(t, s, b, rapid.Uint64().Draw(t, "seed"), false)
		propCheckBoard(t, s, &b, "given")
		for i, d := range propGenMoves(t, 40) {
			before := g.Score()
			_, err := g.Move(d)
			if err != nil {
				t.Fatalf("move %d (%v): %v", i, d, err)
			}
			cur := g.Board()
			propCheckBoard(t, s, &cur, "after move")
			if g.Score().Cmp(before) < 0 {
				t.Fatalf("move %d (%v): score fell from %v to %v", i, d, before, g.Score())
			}
		}
	})
}

// A blight cell never has an occupant, whatever the moves (a stricter look
// at boards dense with blight tokens).
func TestPropBlightAlone(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := propGenSettings(t)
		s.Blight.Rate = 1
		b := propGenBoard(t, s)
		for i := range b.Cells {
			if b.Cells[i].IsEmpty() && rapid.IntRange(0, 3).Draw(t, "addBlight") == 0 {
				b.Cells[i] = engine.Cell{Token: TokenIncoming, Charges: 2}
			}
		}
		g := propNewGame(t, s, b, rapid.Uint64().Draw(t, "seed"), false)
		for _, d := range propGenMoves(t, 40) {
			_, _ = g.Move(d)
			for i, c := range g.State().Board.Cells {
				if (c.Token == TokenBlight || c.Token == TokenIncoming) && c.Kind != engine.KindEmpty {
					t.Fatalf("blight token at %v shares its cell with %+v", g.State().Board.PosOf(i), c)
				}
			}
		}
	})
}

// Dormant cells never count as neighbours: turning one dormant cell into an
// empty cell never changes the Life outcome for any other cell.
func TestPropDormantNotNeighbours(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := propGenSettings(t)
		r := mustRulesRapid(t, s)
		b := propGenBoard(t, s)
		q := rapid.IntRange(0, len(b.Cells)-1).Draw(t, "dormantAt")
		b.Cells[q] = dormant(rapid.IntRange(1, s.ECap).Draw(t, "dormantE"))
		with := b.Clone()
		without := b.Clone()
		without.Cells[q] = engine.Cell{}
		bornWith := make([]bool, len(b.Cells))
		bornWithout := make([]bool, len(b.Cells))
		birthsWith, deathsWith := propLife(r, &with, bornWith)
		birthsWithout, deathsWithout := propLife(r, &without, bornWithout)
		if with.Cells[q] != b.Cells[q] {
			t.Fatalf("Life changed the dormant cell at %v: %+v → %+v", b.PosOf(q), b.Cells[q], with.Cells[q])
		}
		for p := range b.Cells {
			if p == q {
				continue
			}
			if with.Cells[p] != without.Cells[p] || bornWith[p] != bornWithout[p] {
				t.Fatalf("the dormant cell at %v changed the outcome at %v: %+v with it, %+v without", b.PosOf(q), b.PosOf(p), with.Cells[p], without.Cells[p])
			}
		}
		extra := 0
		if bornWithout[q] {
			extra = 1
		}
		if deathsWith != deathsWithout || birthsWith+extra != birthsWithout {
			t.Fatalf("counts differ: %d births, %d deaths with the dormant cell; %d, %d without", birthsWith, deathsWith, birthsWithout, deathsWithout)
		}
	})
}

// With the birth relaxation off, the Life tick is Conway's B3/S23 (dead
// edges, or a torus with life.wrap), on boards of alive and empty cells and
// on boards with dormant cells and tokens too (dormant cells are not alive;
// no birth on an occupant or a blight token, nor, without
// life.birth_on_catalyst, on a catalyst).
func TestPropLifeIsConway(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := propGenSettings(t)
		s.Life.Enabled, s.Life.BirthRelaxation = true, false
		r := mustRulesRapid(t, s)
		var b engine.Board
		if rapid.Bool().Draw(t, "plain") {
			b = engine.NewBoard(s.Width, s.Height)
			density := rapid.IntRange(10, 70).Draw(t, "density")
			for i := range b.Cells {
				if rapid.IntRange(0, 99).Draw(t, "aliveRoll") < density {
					b.Cells[i] = alive(rapid.IntRange(1, s.ECap).Draw(t, "e"))
				}
			}
		} else {
			b = propGenBoard(t, s)
		}
		want := propConway(&b, s.Life.Wrap, s.Life.BirthOnCatalyst)
		got := b.Clone()
		born := make([]bool, len(b.Cells))
		births, deaths := propLife(r, &got, born)
		if !propSameSet(propAliveSet(&got), want) {
			t.Fatalf("Life tick differs from Conway's (wrap %v):\ngiven %q\ngot   %q", s.Life.Wrap, engine.FormatRows(r, &b), engine.FormatRows(r, &got))
		}
		nb, nd := 0, 0
		for i := range b.Cells {
			wasAlive := b.Cells[i].Kind == KindAlive
			switch {
			case !wasAlive && want[i]:
				nb++
				if want := (engine.Cell{Kind: KindAlive, Level: 1, Token: b.Cells[i].Token}); !born[i] || got.Cells[i] != want {
					t.Fatalf("cell %v born as %+v (marked %v), want %+v", b.PosOf(i), got.Cells[i], born[i], want)
				}
			case wasAlive && !want[i]:
				nd++
				if got.Cells[i].Token != b.Cells[i].Token {
					t.Fatalf("cell %v died and lost its token", b.PosOf(i))
				}
			case wasAlive && want[i]:
				if got.Cells[i] != b.Cells[i] {
					t.Fatalf("surviving cell %v changed: %+v → %+v", b.PosOf(i), b.Cells[i], got.Cells[i])
				}
			default:
				if got.Cells[i] != b.Cells[i] {
					t.Fatalf("cell %v changed: %+v → %+v", b.PosOf(i), b.Cells[i], got.Cells[i])
				}
			}
		}
		if births != nb || deaths != nd {
			t.Fatalf("counted %d births, %d deaths; want %d, %d", births, deaths, nb, nd)
		}
	})
}

// The same through a whole turn of the game: an idle swipe Up on a board
// that Up cannot change, with dormancy, blight, decay and spawns off. Every
// column is built from the top as parts separated by incoming blight tokens
// (which block movement and blight nothing this turn), each part holding at
// its front one alive cell or a stack of dormant cells, then only empty
// cells and catalysts.
func TestPropIdleTurnIsConway(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := propGenSettings(t)
		s.Life.Enabled, s.Life.BirthRelaxation = true, false
		s.IdleTicks = true
		s.Dormancy.Ticks, s.Decay.Amount, s.SpawnCells = 0, 0, 0
		s.Blight.Rate, s.Catalyst.Rate, s.Goal.PerCell = 0, 0, 0
		b := engine.NewBoard(s.Width, s.Height)
		for c := 0; c < s.Width; c++ {
			state := 0 // 0: a part's front; 1: a run of dormant cells; 2: closed
			for r := 0; r < s.Height; r++ {
				var cell engine.Cell
				roll := rapid.IntRange(0, 9).Draw(t, "roll")
				switch {
				case roll == 0:
					cell = engine.Cell{Token: TokenIncoming, Charges: 1}
					state = 0
				case state == 0 && roll <= 5:
					cell = alive(rapid.IntRange(1, s.ECap).Draw(t, "e"))
					if roll == 5 {
						cell.Token = TokenCatalyst
					}
					state = 2
				case state < 2 && roll <= 7:
					cell = dormant(rapid.IntRange(1, s.ECap).Draw(t, "e"))
					state = 1
				case roll == 8:
					cell = engine.Cell{Token: TokenCatalyst}
					state = 2
				default:
					state = 2
				}
				b.Cells[r*s.Width+c] = cell
			}
		}
		// Without idle ticks, Up would be a no-op on this board.
		still := s
		still.IdleTicks = false
		probe := engine.State{Board: b.Clone()}
		if mustRulesRapid(t, still).Changes(&probe, engine.Up) {
			t.Fatalf("generator error: Up changes %q", engine.FormatRows(mustRulesRapid(t, s), &b))
		}
		g := propNewGame(t, s, b, 1, true)
		if g.Status() != engine.Playing {
			return // no alive cell: lost as given
		}
		want := propConway(&b, s.Life.Wrap, s.Life.BirthOnCatalyst)
		if _, err := g.Move(engine.Up); err != nil {
			t.Fatalf("Move(Up): %v", err)
		}
		got := g.Board()
		if !propSameSet(propAliveSet(&got), want) {
			t.Fatalf("idle turn differs from Conway's (wrap %v):\ngiven %q\ngot   %q", s.Life.Wrap, engine.FormatRows(g.Rules(), &b), engine.FormatRows(g.Rules(), &got))
		}
		for i, c := range b.Cells {
			if c.Kind == KindDormant && got.Cells[i] != c {
				t.Fatalf("dormant cell %v changed: %+v → %+v", b.PosOf(i), c, got.Cells[i])
			}
		}
	})
}

// The same seed and moves give the same game, byte for byte, with a save
// and load in the middle.
func TestPropDeterministicWithSave(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := propGenSettings(t)
		b := propGenBoard(t, s)
		seed := rapid.Uint64().Draw(t, "seed")
		moves := propGenMoves(t, 40)
		cut := rapid.IntRange(0, len(moves)).Draw(t, "cut")
		undoAt := rapid.IntRange(-1, len(moves)-1).Draw(t, "undoAt")
		play := func(g *engine.Game, from, to int) {
			for i := from; i < to; i++ {
				if i == undoAt {
					_ = g.Undo()
				}
				_, _ = g.Move(moves[i])
			}
		}
		a := propNewGame(t, s, b, seed, false)
		play(a, 0, len(moves))

		c := propNewGame(t, s, b, seed, false)
		play(c, 0, cut)
		loaded, err := engine.Unmarshal(propMarshal(t, c))
		if err != nil {
			t.Fatalf("Unmarshal: %v", err)
		}
		play(loaded, cut, len(moves))

		if x, y := propMarshal(t, a), propMarshal(t, loaded); !bytes.Equal(x, y) {
			t.Fatalf("games differ after a save at move %d:\n%s\n---\n%s", cut, x, y)
		}
	})
}

// A turn that fails (its spawn-queue entry names an occupied cell) leaves the
// game byte-identical. The entry names a blight token with 2 or more charges,
// which no turn moves or removes.
func TestPropFailedTurnUnchanged(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := propGenSettings(t)
		s.SpawnCells = rapid.IntRange(1, 2).Draw(t, "spawn_cells")
		s.SpawnEvery = 1
		s.Goal.PerCell = 0 // a win with stop_on_win would stop before the spawns
		b := propGenBoard(t, s)
		at := rapid.IntRange(0, len(b.Cells)-1).Draw(t, "tokenAt")
		tok := rapid.SampledFrom([]engine.Token{TokenBlight, TokenIncoming}).Draw(t, "token")
		b.Cells[at] = engine.Cell{Token: tok, Charges: uint16(rapid.IntRange(2, 3).Draw(t, "charges"))}
		g := propNewGame(t, s, b, rapid.Uint64().Draw(t, "seed"), rapid.Bool().Draw(t, "scripted"))
		legal := g.LegalMoves().List()
		if len(legal) == 0 {
			return // lost as given: no turn to fail
		}
		d := rapid.SampledFrom(legal).Draw(t, "dir")
		g.AddSpawns(engine.SpawnEntry{Pos: b.PosOf(at), Cell: alive(1)})
		before := propMarshal(t, g)
		remaining := g.Remaining()
		_, err := g.Move(d)
		var se *engine.SpawnError
		if !errors.As(err, &se) {
			t.Fatalf("Move(%v) = %v, want a *SpawnError (the entry's cell %v holds a token)", d, err, b.PosOf(at))
		}
		if after := propMarshal(t, g); !bytes.Equal(before, after) {
			t.Fatalf("the failed turn changed the game:\n%s\n---\n%s", before, after)
		}
		if g.Remaining() != remaining {
			t.Fatalf("the failed turn used the queue: %d entries left, want %d", g.Remaining(), remaining)
		}
	})
}

// The multiplier: a turn's gain is S_base × min(3 + streak, 12) quarters,
// or S_base × 4 × score.unstable_multiplier for an unstable turn (streak 0),
// read back from the counters the rules
// keep in Vars.
func TestPropScoreFormula(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := propGenSettings(t)
		b := propGenBoard(t, s)
		g := propNewGame(t, s, b, rapid.Uint64().Draw(t, "seed"), false)
		prevStreak := int64(0)
		for i, d := range propGenMoves(t, 40) {
			res, err := g.Move(d)
			if err != nil || !res.Changed {
				continue
			}
			v := g.State().Vars
			stable := v[VarBirths] == 0 && v[VarDeaths] == 0
			wantStreak := int64(0)
			if stable {
				wantStreak = prevStreak + 1
			}
			if v[VarStreak] != wantStreak {
				t.Fatalf("move %d: streak %d, want %d (births %d, deaths %d)", i, v[VarStreak], wantStreak, v[VarBirths], v[VarDeaths])
			}
			if !s.Life.Enabled && !stable {
				t.Fatalf("move %d: an unstable turn with the Life tick off", i)
			}
			m := uint64(4 * s.Score.Unstable)
			if wantStreak > 0 {
				m = uint64(min(3+wantStreak, 12))
			}
			want := engine.ScoreOf(uint64(v[VarBase]) * m)
			if res.Gained != want {
				t.Fatalf("move %d: gained %v quarters, want %v (base %d, streak %d)", i, res.Gained, want, v[VarBase], wantStreak)
			}
			prevStreak = v[VarStreak]
		}
	})
}

func mustRulesRapid(t *rapid.T, s Settings) *Rules {
	r, err := New(s)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return r
}

// propLife runs the rules' Life tick on b alone (a state with no marks).
func propLife(r *Rules, b *engine.Board, born []bool) (births, deaths int) {
	s := engine.State{Board: *b}
	births, deaths = r.life(&s, born, new(scratch))
	*b = s.Board
	return births, deaths
}

// Unrest foretells the Life tick: on any board, its births and deaths are
// the ones an idle turn's tick then makes (the counters the rules keep).
func TestPropUnrestForetellsTheTick(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := propGenSettings(t)
		s.Life.Enabled, s.IdleTicks = true, true
		s.Dormancy.Ticks, s.Decay.Amount, s.SpawnCells = 0, 0, 0
		s.Blight.Rate, s.Catalyst.Rate, s.Goal.PerCell = 0, 0, 0
		b := propGenBoard(t, s)
		for i, c := range b.Cells {
			// Active blight acts in phase 4, after the tick: the probe
			// below would see it act. Incoming blight only blocks.
			if c.Token == TokenBlight {
				b.Cells[i].Token = TokenIncoming
			}
		}
		g := propNewGame(t, s, b, 1, true)
		if g.Status() != engine.Playing {
			return
		}
		r := mustRulesRapid(t, s)
		// The swipe Up moves cells first: foretell from the board after it,
		// with Life off.
		still := s
		still.Life.Enabled = false
		probe := propNewGame(t, still, b, 1, true)
		if _, err := probe.Move(engine.Up); err != nil {
			t.Fatalf("probe: %v", err)
		}
		births, deaths := r.Unrest(probe.State())
		if _, err := g.Move(engine.Up); err != nil {
			t.Fatalf("Move: %v", err)
		}
		v := g.State().Vars
		if int64(births) != v[VarBirths] || int64(deaths) != v[VarDeaths] {
			t.Fatalf("Unrest foretold %d births, %d deaths; the tick made %d, %d\nafter the swipe %q\nafter the tick %q", births, deaths, v[VarBirths], v[VarDeaths], rowsOf(probe), rowsOf(g))
		}
	})
}
