package cellular

// Table tests of the cellular ruleset's pieces: the cell notation, spawn
// checks, settings validation, quarter-point scores, the stabilize threshold,
// saves, and the engine's events for cellular turns. Whole turns are pinned
// down by the fixtures in testdata/cellular; property_test.go checks
// invariants on random games.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/engine"
	"pgregory.net/rapid"
)

// earlySettings mirrors config/presets/early.toml. (Package config imports
// this package, so its tests cannot load the preset.)
func earlySettings() Settings {
	return Settings{
		Width: 6, Height: 6, ECap: 8,
		InitialCells: 8, SpawnCells: 1, SpawnAlive: 0.4, SpawnEvery: 1,
		StopOnWin: true, ExtinctionLoses: true, UndoLimit: 100,
		Life:     Life{Enabled: true, BirthRelaxation: true, BirthOnCatalyst: true},
		Dormancy: Dormancy{Ticks: 3},
		Colony:   Colony{Bonus: 1, MinSize: 4},
		Catalyst: Catalyst{Rate: 0.05, Max: 2, Doubling: DoubleAfterMerge},
		Blight:   Blight{Rate: 0, Charges: 1},
		Score:    Score{Unstable: 0.75},
		Goal:     Goal{PerCell: 0.25, Hold: 1},
	}
}

func mustRules(t testing.TB, s Settings) *Rules {
	t.Helper()
	r, err := New(s)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return r
}

// gameFrom starts a game of s from rows written in the notation.
func gameFrom(t testing.TB, s Settings, seed uint64, scripted bool, rows ...string) *engine.Game {
	t.Helper()
	r := mustRules(t, s)
	b, err := engine.ParseRows(r, rows, s.Width, s.Height)
	if err != nil {
		t.Fatalf("ParseRows: %v", err)
	}
	g, err := engine.NewFromBoard(r, engine.Options{Width: s.Width, Height: s.Height, Seed: seed, UndoLimit: s.UndoLimit, ScriptedOnly: scripted}, b)
	if err != nil {
		t.Fatalf("NewFromBoard: %v", err)
	}
	return g
}

func rowsOf(g *engine.Game) []string {
	b := g.Board()
	return engine.FormatRows(g.Rules(), &b)
}

func alive(e int) engine.Cell   { return engine.Cell{Kind: KindAlive, Level: uint16(e)} }
func dormant(e int) engine.Cell { return engine.Cell{Kind: KindDormant, Level: uint16(e)} }

func TestParseFormatCell(t *testing.T) {
	r := mustRules(t, earlySettings()) // e_cap 8, dormancy.ticks 3
	tests := []struct {
		text, canon string
		want        engine.Cell
	}{
		{".", ".", engine.Cell{}},
		{"a1", "a1", alive(1)},
		{"a8", "a8", alive(8)},
		{"a1/1", "a1/1", engine.Cell{Kind: KindAlive, Level: 1, Counter: 1}},
		{"a1/2", "a1/2", engine.Cell{Kind: KindAlive, Level: 1, Counter: 2}},
		{"a1/0", "a1", alive(1)},
		{"d1", "d1", dormant(1)},
		{"d8", "d8", dormant(8)},
		{"C", "C", engine.Cell{Token: TokenCatalyst}},
		{"a3+C", "a3+C", engine.Cell{Kind: KindAlive, Level: 3, Token: TokenCatalyst}},
		{"d2+C", "d2+C", engine.Cell{Kind: KindDormant, Level: 2, Token: TokenCatalyst}},
		{"a1/2+C", "a1/2+C", engine.Cell{Kind: KindAlive, Level: 1, Counter: 2, Token: TokenCatalyst}},
		{"B", "B", engine.Cell{Token: TokenBlight, Charges: 1}},
		{"B1", "B", engine.Cell{Token: TokenBlight, Charges: 1}},
		{"B2", "B2", engine.Cell{Token: TokenBlight, Charges: 2}},
		{"B100", "B100", engine.Cell{Token: TokenBlight, Charges: 100}},
		{"b", "b", engine.Cell{Token: TokenIncoming, Charges: 1}},
		{"b3", "b3", engine.Cell{Token: TokenIncoming, Charges: 3}},
		{"a08", "a8", alive(8)},
	}
	for _, tc := range tests {
		got, err := r.ParseCell(tc.text)
		if err != nil {
			t.Errorf("ParseCell(%q): %v", tc.text, err)
			continue
		}
		if got != tc.want {
			t.Errorf("ParseCell(%q) = %+v, want %+v", tc.text, got, tc.want)
		}
		if s := r.FormatCell(got); s != tc.canon {
			t.Errorf("FormatCell(ParseCell(%q)) = %q, want %q", tc.text, s, tc.canon)
		}
		if err := r.CheckCell(got); err != nil {
			t.Errorf("CheckCell(ParseCell(%q)): %v", tc.text, err)
		}
	}
}

func TestParseCellErrors(t *testing.T) {
	r := mustRules(t, earlySettings()) // e_cap 8, dormancy.ticks 3
	tests := []struct{ text, want string }{
		{"a0", `"a0": energy 0 is outside 1 to e_cap (8)`},
		{"d0", "energy 0 is outside 1 to e_cap (8)"},
		{"a9", "energy 9 is outside 1 to e_cap (8)"},
		{"d9", "energy 9 is outside 1 to e_cap (8)"},
		{"a99999", "out of range"},
		{"a2/1", "only an alive cell of energy 1 counts turns"},
		{"d1/1", "only an alive cell of energy 1 counts turns"},
		{"a1/3", "a cell goes dormant after 3 turns"},
		{"a1/99999", "out of range"},
		{"B0", "at least 1 charge"},
		{"b0", "at least 1 charge"},
		{"B99999", "out of range"},
		{"x", `"x" is not a cellular cell`},
		{"B+C", "is not a cellular cell"},
		{"C+C", "is not a cellular cell"},
		{"a1+B", "is not a cellular cell"},
		{"", "is not a cellular cell"},
		{"a", "is not a cellular cell"},
		{"A1", "is not a cellular cell"},
		{"a-1", "is not a cellular cell"},
		{"0", "is not a cellular cell"},
		{"2", "is not a cellular cell"},
		{". ", "is not a cellular cell"},
		{"Cb", "is not a cellular cell"},
	}
	for _, tc := range tests {
		c, err := r.ParseCell(tc.text)
		if err == nil {
			t.Errorf("ParseCell(%q) = %+v, want an error", tc.text, c)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseCell(%q): error %q does not contain %q", tc.text, err, tc.want)
		}
	}

	// The count's bound follows dormancy.ticks: with ticks 0 there is no
	// count at all.
	s := earlySettings()
	s.Dormancy.Ticks = 0
	if c, err := mustRules(t, s).ParseCell("a1/1"); err == nil {
		t.Errorf("ParseCell(a1/1) with dormancy.ticks 0 = %+v, want an error", c)
	}
	s.Dormancy.Ticks = 5
	if _, err := mustRules(t, s).ParseCell("a1/4"); err != nil {
		t.Errorf("ParseCell(a1/4) with dormancy.ticks 5: %v", err)
	}
	// The energy's bound follows e_cap.
	s = earlySettings()
	s.ECap = 10
	if _, err := mustRules(t, s).ParseCell("a10"); err != nil {
		t.Errorf("ParseCell(a10) with e_cap 10: %v", err)
	}
}

// Every cell CheckCell accepts writes as text that reads back as the same
// cell; every cell CheckCell refuses is refused by ParseCell too once written.
func TestFormatParseAllCells(t *testing.T) {
	r := mustRules(t, earlySettings())
	kinds := []engine.Kind{engine.KindEmpty, KindAlive, KindDormant}
	tokens := []engine.Token{0, TokenCatalyst, TokenBlight, TokenIncoming}
	accepted := 0
	for _, k := range kinds {
		for level := 0; level <= 10; level++ {
			for counter := 0; counter <= 4; counter++ {
				for _, tok := range tokens {
					for charges := 0; charges <= 3; charges++ {
						c := engine.Cell{Kind: k, Level: uint16(level), Counter: uint16(counter), Token: tok, Charges: uint16(charges)}
						if r.CheckCell(c) != nil {
							continue
						}
						accepted++
						text := r.FormatCell(c)
						back, err := r.ParseCell(text)
						if err != nil {
							t.Errorf("ParseCell(FormatCell(%+v) = %q): %v", c, text, err)
						} else if back != c {
							t.Errorf("ParseCell(%q) = %+v, want %+v", text, back, c)
						}
					}
				}
			}
		}
	}
	// empty 1 + catalyst 1 + blight 3×2; alive: (E 1: counts 0..2; E 2..8)
	// × (no token, catalyst) = (3 + 7) × 2; dormant: 8 × 2.
	if want := 1 + 1 + 6 + 20 + 16; accepted != want {
		t.Errorf("CheckCell accepted %d cells, want %d", accepted, want)
	}
	for _, c := range []engine.Cell{
		{Kind: 7},
		{Token: 9},
		{Kind: KindAlive, Level: 2, Token: TokenBlight, Charges: 1},
		{Kind: KindDormant, Level: 2, Token: TokenIncoming, Charges: 1},
		{Token: TokenCatalyst, Charges: 2},
		{Level: 3},
		{Counter: 1},
		{Charges: 1},
	} {
		if err := r.CheckCell(c); err == nil {
			t.Errorf("CheckCell(%+v) = nil, want an error", c)
		}
	}
}

func TestCheckSpawn(t *testing.T) {
	r := mustRules(t, earlySettings())
	for _, text := range []string{"a1", "a8", "d1", "d8", "C", "B", "B3", "b", "b2"} {
		c, err := r.ParseCell(text)
		if err != nil {
			t.Fatalf("ParseCell(%q): %v", text, err)
		}
		if err := r.CheckSpawn(c); err != nil {
			t.Errorf("CheckSpawn(%s): %v", text, err)
		}
	}
	tests := []struct {
		cell engine.Cell
		want string
	}{
		{engine.Cell{}, "cannot spawn an empty cell"},
		{engine.Cell{Kind: KindAlive, Level: 1, Counter: 1}, "a spawn is one cell or one token"},
		{engine.Cell{Kind: KindAlive, Level: 2, Token: TokenCatalyst}, "a spawn is one cell or one token"},
		{engine.Cell{Kind: KindDormant, Level: 1, Token: TokenCatalyst}, "a spawn is one cell or one token"},
		{alive(9), "energy 9 is outside 1 to e_cap (8)"},
		{alive(0), "energy 0"},
		{engine.Cell{Token: TokenBlight}, "at least 1 charge"},
		{engine.Cell{Kind: 7, Level: 1}, "not a cellular cell"},
	}
	for _, tc := range tests {
		err := r.CheckSpawn(tc.cell)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("CheckSpawn(%+v) = %v, want an error containing %q", tc.cell, err, tc.want)
		}
	}
	// spawn_alive 0.4: about two spawns in five are alive(1), the others
	// dormant(1); 0 and 1 draw nothing from the source.
	rng := engine.NewRNG(1)
	count := map[engine.Cell]int{}
	for range 10000 {
		count[r.RandomSpawn(&rng)]++
	}
	if len(count) != 2 || count[alive(1)] < 3800 || count[alive(1)] > 4200 || count[engine.Cell{Kind: KindDormant, Level: 1}] != 10000-count[alive(1)] {
		t.Errorf("10000 spawns at spawn_alive 0.4: %v", count)
	}
	for p, want := range map[float64]engine.Cell{0: {Kind: KindDormant, Level: 1}, 1: alive(1)} {
		s := earlySettings()
		s.SpawnAlive = p
		before := rng
		if c := mustRules(t, s).RandomSpawn(&rng); c != want || rng != before {
			t.Errorf("spawn_alive %v: RandomSpawn = %+v (source moved: %v), want %+v", p, c, rng != before, want)
		}
	}
}

func TestValidate(t *testing.T) {
	base := earlySettings()
	if err := base.Validate(); err != nil {
		t.Fatalf("early settings: %v", err)
	}
	tests := []struct {
		name string
		edit func(*Settings)
		key  string // "" for valid
	}{
		{"width 1 (1×6)", func(s *Settings) { s.Width, s.InitialCells = 1, 6 }, ""},
		{"width 1, initial_cells 8", func(s *Settings) { s.Width = 1 }, "initial_cells"},
		{"width 32", func(s *Settings) { s.Width = 32 }, ""},
		{"width 0", func(s *Settings) { s.Width = 0 }, "width"},
		{"width 33", func(s *Settings) { s.Width = 33 }, "width"},
		{"height 32", func(s *Settings) { s.Height = 32 }, ""},
		{"height 0", func(s *Settings) { s.Height = 0 }, "height"},
		{"height 33", func(s *Settings) { s.Height = 33 }, "height"},
		{"2×1 board", func(s *Settings) { s.Width, s.Height, s.InitialCells, s.Colony.MinSize, s.Catalyst.Max = 2, 1, 0, 1, 1 }, ""},
		{"1×1 board", func(s *Settings) { s.Width, s.Height, s.InitialCells, s.Colony.MinSize, s.Catalyst.Max = 1, 1, 0, 1, 1 }, "height"},
		{"e_cap 2", func(s *Settings) { s.ECap, s.Goal.PerCell = 2, 0.5 }, ""},
		{"e_cap 255", func(s *Settings) { s.ECap = 255 }, ""},
		{"e_cap 1", func(s *Settings) { s.ECap = 1 }, "e_cap"},
		{"e_cap 256", func(s *Settings) { s.ECap = 256 }, "e_cap"},
		{"initial_cells 0", func(s *Settings) { s.InitialCells = 0 }, ""},
		{"initial_cells 36", func(s *Settings) { s.InitialCells = 36 }, ""},
		{"initial_cells 37", func(s *Settings) { s.InitialCells = 37 }, "initial_cells"},
		{"initial_cells -1", func(s *Settings) { s.InitialCells = -1 }, "initial_cells"},
		{"spawn_cells 0", func(s *Settings) { s.SpawnCells = 0 }, ""},
		{"spawn_cells 4", func(s *Settings) { s.SpawnCells = 4 }, ""},
		{"spawn_cells 5", func(s *Settings) { s.SpawnCells = 5 }, "spawn_cells"},
		{"spawn_cells -1", func(s *Settings) { s.SpawnCells = -1 }, "spawn_cells"},
		{"undo_limit -1", func(s *Settings) { s.UndoLimit = -1 }, ""},
		{"undo_limit 0", func(s *Settings) { s.UndoLimit = 0 }, ""},
		{"undo_limit -2", func(s *Settings) { s.UndoLimit = -2 }, "undo_limit"},
		{"dormancy.ticks 0", func(s *Settings) { s.Dormancy.Ticks = 0 }, ""},
		{"dormancy.ticks 1000", func(s *Settings) { s.Dormancy.Ticks = 1000 }, ""},
		{"dormancy.ticks -1", func(s *Settings) { s.Dormancy.Ticks = -1 }, "dormancy.ticks"},
		{"dormancy.ticks 1001", func(s *Settings) { s.Dormancy.Ticks = 1001 }, "dormancy.ticks"},
		{"colony.bonus 0", func(s *Settings) { s.Colony.Bonus = 0 }, ""},
		{"colony.bonus e_cap", func(s *Settings) { s.Colony.Bonus = 8 }, ""},
		{"colony.bonus -1", func(s *Settings) { s.Colony.Bonus = -1 }, "colony.bonus"},
		{"colony.bonus e_cap+1", func(s *Settings) { s.Colony.Bonus = 9 }, "colony.bonus"},
		{"colony.min_size 1", func(s *Settings) { s.Colony.MinSize = 1 }, ""},
		{"colony.min_size 36", func(s *Settings) { s.Colony.MinSize = 36 }, ""},
		{"colony.min_size 0", func(s *Settings) { s.Colony.MinSize = 0 }, "colony.min_size"},
		{"colony.min_size 37", func(s *Settings) { s.Colony.MinSize = 37 }, "colony.min_size"},
		{"catalyst.rate 0", func(s *Settings) { s.Catalyst.Rate = 0 }, ""},
		{"catalyst.rate 1", func(s *Settings) { s.Catalyst.Rate = 1 }, ""},
		{"catalyst.rate -0.1", func(s *Settings) { s.Catalyst.Rate = -0.1 }, "catalyst.rate"},
		{"catalyst.rate 1.1", func(s *Settings) { s.Catalyst.Rate = 1.1 }, "catalyst.rate"},
		{"catalyst.rate NaN", func(s *Settings) { s.Catalyst.Rate = math.NaN() }, "catalyst.rate"},
		{"catalyst.max 0", func(s *Settings) { s.Catalyst.Max = 0 }, ""},
		{"catalyst.max 36", func(s *Settings) { s.Catalyst.Max = 36 }, ""},
		{"catalyst.max -1", func(s *Settings) { s.Catalyst.Max = -1 }, "catalyst.max"},
		{"catalyst.max 37", func(s *Settings) { s.Catalyst.Max = 37 }, "catalyst.max"},
		{"blight.rate 1", func(s *Settings) { s.Blight.Rate = 1 }, ""},
		{"blight.rate -1", func(s *Settings) { s.Blight.Rate = -1 }, "blight.rate"},
		{"blight.rate 2", func(s *Settings) { s.Blight.Rate = 2 }, "blight.rate"},
		{"blight.rate NaN", func(s *Settings) { s.Blight.Rate = math.NaN() }, "blight.rate"},
		{"blight.charges 100", func(s *Settings) { s.Blight.Charges = 100 }, ""},
		{"blight.charges 0", func(s *Settings) { s.Blight.Charges = 0 }, "blight.charges"},
		{"blight.charges 101", func(s *Settings) { s.Blight.Charges = 101 }, "blight.charges"},
		{"decay.amount e_cap", func(s *Settings) { s.Decay.Amount = 8 }, ""},
		{"decay.amount -1", func(s *Settings) { s.Decay.Amount = -1 }, "decay.amount"},
		{"decay.amount e_cap+1", func(s *Settings) { s.Decay.Amount = 9 }, "decay.amount"},
		{"goal 0", func(s *Settings) { s.Goal.PerCell = 0 }, ""},
		{"goal e_cap", func(s *Settings) { s.Goal.PerCell = 8 }, ""},
		{"goal -0.1", func(s *Settings) { s.Goal.PerCell = -0.1 }, "goal.stabilize_per_cell"},
		{"goal e_cap+0.1", func(s *Settings) { s.Goal.PerCell = 8.1 }, "goal.stabilize_per_cell"},
		{"goal NaN", func(s *Settings) { s.Goal.PerCell = math.NaN() }, "goal.stabilize_per_cell"},
		{"goal +Inf", func(s *Settings) { s.Goal.PerCell = math.Inf(1) }, "goal.stabilize_per_cell"},
		{"booleans", func(s *Settings) {
			s.StopOnWin, s.IdleTicks, s.Life.Enabled, s.Life.BirthRelaxation, s.Life.Wrap, s.Blight.Telegraph = false, true, false, false, true, true
		}, ""},
	}
	for _, tc := range tests {
		s := base
		tc.edit(&s)
		err := s.Validate()
		if tc.key == "" {
			if err != nil {
				t.Errorf("%s: Validate = %v, want nil", tc.name, err)
			}
			if _, err := New(s); err != nil {
				t.Errorf("%s: New = %v, want nil", tc.name, err)
			}
			continue
		}
		var se *SettingError
		if !errors.As(err, &se) {
			t.Errorf("%s: Validate = %v, want a *SettingError for %s", tc.name, err, tc.key)
			continue
		}
		if se.Key != tc.key {
			t.Errorf("%s: error key %q, want %q (%v)", tc.name, se.Key, tc.key, err)
		}
		if !strings.HasPrefix(err.Error(), tc.key+": ") {
			t.Errorf("%s: error %q does not start with the key", tc.name, err)
		}
		if _, err := New(s); err == nil {
			t.Errorf("%s: New accepted invalid settings", tc.name)
		}
	}
}

func TestFormatScore(t *testing.T) {
	r := mustRules(t, earlySettings())
	tests := []struct {
		quarters uint64
		want     string
	}{
		{0, "0"}, {1, "0.25"}, {2, "0.5"}, {3, "0.75"}, {4, "1"},
		{48, "12"}, {49, "12.25"}, {50, "12.5"}, {51, "12.75"},
		{1<<64 - 1, "4611686018427387903.75"},
	}
	for _, tc := range tests {
		if got := r.FormatScore(engine.ScoreOf(tc.quarters)); got != tc.want {
			t.Errorf("FormatScore(%d quarters) = %q, want %q", tc.quarters, got, tc.want)
		}
		if got := engine.FormatScore(r, engine.ScoreOf(tc.quarters)); got != tc.want {
			t.Errorf("engine.FormatScore(%d quarters) = %q, want %q", tc.quarters, got, tc.want)
		}
	}
	// Past 64 bits.
	var s engine.Score
	s.AddPow2(100)
	s.AddUint64(3)
	want := new(big.Int).Lsh(big.NewInt(1), 98).String() + ".75"
	if got := r.FormatScore(s); got != want {
		t.Errorf("FormatScore(2^100 + 3 quarters) = %q, want %q", got, want)
	}
}

func TestParseScore(t *testing.T) {
	r := mustRules(t, earlySettings())
	valid := []struct {
		text     string
		quarters uint64
	}{
		{"0", 0}, {"12", 48}, {"12.25", 49}, {"12.5", 50}, {"12.50", 50}, {"12.75", 51},
		{"12.0", 48}, {"12.00", 48}, {" 3.25 ", 13}, {"007", 28},
	}
	for _, tc := range valid {
		got, err := r.ParseScore(tc.text)
		if err != nil {
			t.Errorf("ParseScore(%q): %v", tc.text, err)
			continue
		}
		if got != engine.ScoreOf(tc.quarters) {
			t.Errorf("ParseScore(%q) = %s quarters, want %d", tc.text, got, tc.quarters)
		}
	}
	for _, text := range []string{"1.3", "1.33", "1.125", "1.250", "-1", "", ".25", "abc", "1.2.5", "1e3", "+1", "1,5", "0x10", "12.75x"} {
		if got, err := r.ParseScore(text); err == nil {
			t.Errorf("ParseScore(%q) = %s quarters, want an error", text, got)
		}
	}
	// Round trips, including past 64 bits.
	for _, text := range []string{"0.25", "99.75", "123456789012345678901234567890.5"} {
		s, err := r.ParseScore(text)
		if err != nil {
			t.Fatalf("ParseScore(%q): %v", text, err)
		}
		if back := r.FormatScore(s); back != text {
			t.Errorf("FormatScore(ParseScore(%q)) = %q", text, back)
		}
	}
}

func TestThreshold(t *testing.T) {
	tests := []struct {
		w, h    int
		perCell float64
		want    int
	}{
		{6, 6, 0.5, 18}, {6, 6, 0.75, 27}, {6, 6, 1.0, 36}, {6, 6, 0, 0},
		{3, 3, 0.5, 5}, {3, 3, 0.89, 9}, {3, 3, 0.85, 8}, {5, 3, 0.5, 8},
		{4, 1, 0.5, 2}, {10, 10, 8, 800}, {7, 1, 0.1, 1},
		// Floating point gets these wrong (0.28 is stored a little above
		// 0.28, 0.07 × 100 comes out 7.000000000000001): the threshold is
		// computed in decimal.
		{5, 5, 0.28, 7}, {10, 10, 0.07, 7}, {10, 10, 0.29, 29}, {32, 32, 0.01, 11},
		{25, 4, 0.57, 57}, {3, 1, 0.1, 1}, {20, 5, 0.14, 14}, {32, 32, 8, 8192},
		{32, 32, 0.3333333333333333, 342}, {2, 1, 1e-300, 1}, {32, 32, 9.999999999999999e-05, 1},
	}
	for _, tc := range tests {
		s := earlySettings()
		s.Width, s.Height, s.Goal.PerCell = tc.w, tc.h, tc.perCell
		s.InitialCells, s.Colony.MinSize, s.Catalyst.Max = 0, 1, 0
		if got := s.Threshold(); got != tc.want {
			t.Errorf("Threshold(%d×%d, %v) = %d, want %d", tc.w, tc.h, tc.perCell, got, tc.want)
		}
		if got := mustRules(t, s).Threshold(); got != tc.want {
			t.Errorf("Rules.Threshold(%d×%d, %v) = %d, want %d", tc.w, tc.h, tc.perCell, got, tc.want)
		}
	}
}

// TestThresholdExact: for every two-decimal factor from 0.00 to 10.00 and
// every board up to 32×32, the threshold is ceil(factor × width × height)
// in exact arithmetic, the factor read from its text as a TOML file gives
// it (strconv.ParseFloat): with the factor k/100, ceil(k × cells / 100) =
// (k × cells + 99) / 100 in integers. Only width × height matters, so each
// product is checked once.
func TestThresholdExact(t *testing.T) {
	cells := map[int]bool{}
	for w := 1; w <= 32; w++ {
		for h := 1; h <= 32; h++ {
			cells[w*h] = true
		}
	}
	for k := 0; k <= 1000; k++ {
		text := fmt.Sprintf("%d.%02d", k/100, k%100)
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			t.Fatal(err)
		}
		for n := range cells {
			s := Settings{Width: n, Height: 1, Goal: Goal{PerCell: f}}
			if got, want := s.Threshold(), (k*n+99)/100; got != want {
				t.Fatalf("Threshold(%s × %d cells) = %d, want %d", text, n, got, want)
			}
		}
	}
}

// TestPropThresholdExact: for any decimal factor of up to 15 significant
// digits (which a float64 keeps exactly as written) and any board up to
// 32×32, the threshold is the exact ceiling of factor × width × height.
func TestPropThresholdExact(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		digits := rapid.Uint64Range(0, 999_999_999_999_999).Draw(t, "digits")
		exp := rapid.IntRange(-20, 2).Draw(t, "exp")
		text := fmt.Sprintf("%de%d", digits, exp)
		f, err := strconv.ParseFloat(text, 64)
		if err != nil || f > 255 {
			t.Skip("outside the setting's range")
		}
		w, h := rapid.IntRange(1, 32).Draw(t, "w"), rapid.IntRange(1, 32).Draw(t, "h")
		s := Settings{Width: w, Height: h, Goal: Goal{PerCell: f}}
		got := s.Threshold()
		want, _ := new(big.Rat).SetString(text)
		want.Mul(want, new(big.Rat).SetInt64(int64(w*h)))
		if big.NewRat(int64(got), 1).Cmp(want) < 0 || big.NewRat(int64(got)-1, 1).Cmp(want) >= 0 {
			t.Fatalf("Threshold(%s × %d×%d) = %d, want ceil(%s)", text, w, h, got, want.FloatString(6))
		}
	})
}

// A cellular game mid-play, with tokens, counters, the counters in Vars, a
// spawn queue and history, saves and loads back to the same bytes, and the
// loaded game plays on exactly as the original.
func TestSaveRoundTrip(t *testing.T) {
	s := earlySettings()
	s.Width, s.Height = 5, 4
	s.InitialCells = 0
	s.Life.BirthRelaxation = false
	s.Blight = Blight{Rate: 0.3, Charges: 2, Telegraph: true}
	s.Catalyst.Rate = 0.4
	s.Decay.Amount = 1
	s.IdleTicks = true
	g := gameFrom(t, s, 12345, false,
		"a1/2 a2 B2   .  b3",
		"d3+C .  a1/1 C  .",
		"a4   a4 .    d1 a1+C",
		".    a3 a3   .  .",
	)
	g.AddSpawns(engine.SpawnEntry{Pos: engine.Pos{Row: 3, Col: 4}, Cell: dormant(2)})
	for _, d := range []engine.Direction{engine.Left, engine.Up, engine.Right} {
		if _, err := g.Move(d); err != nil {
			t.Fatalf("Move(%v): %v", d, err)
		}
	}
	if g.State().Vars == nil || len(g.State().Vars) != 4 {
		t.Fatalf("Vars = %v, want streak, base, births and deaths", g.State().Vars)
	}
	if err := g.Undo(); err != nil {
		t.Fatalf("Undo: %v", err)
	}
	g.AddSpawns(engine.SpawnEntry{Pos: engine.Pos{Row: 0, Col: 3}, Cell: engine.Cell{Token: TokenIncoming, Charges: 2}})
	data, err := g.Marshal()
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	for _, want := range []string{`"ruleset": "cellular"`, `"streak"`, `"queue"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("save lacks %s:\n%s", want, data)
		}
	}
	h, err := engine.Unmarshal(data)
	if err != nil {
		t.Fatalf("Unmarshal: %v", err)
	}
	again, err := h.Marshal()
	if err != nil {
		t.Fatalf("Marshal after Unmarshal: %v", err)
	}
	if !bytes.Equal(data, again) {
		t.Fatalf("save round trip changed the bytes:\n%s\n---\n%s", data, again)
	}
	if !reflect.DeepEqual(h.Rules().(*Rules).Settings(), s) {
		t.Errorf("loaded settings %+v, want %+v", h.Rules().(*Rules).Settings(), s)
	}
	// Both play on identically (the random source is in the save).
	for i, d := range []engine.Direction{engine.Down, engine.Left, engine.Up, engine.Right, engine.Down} {
		_, err1 := g.Move(d)
		_, err2 := h.Move(d)
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("move %d: errors differ: %v vs %v", i, err1, err2)
		}
	}
	a, _ := g.Marshal()
	b, _ := h.Marshal()
	if !bytes.Equal(a, b) {
		t.Fatalf("games diverged after loading:\n%s\n---\n%s", a, b)
	}
}

// A save written before the retune's settings existed lacks their keys; it
// loads with the values the game was played with then (alive spawns every
// turn, extinction loses, no births on catalysts, §10's doubling from the
// next cell, M = 0.75 on an unstable turn), so it plays on exactly as it
// would have.
func TestLoadRulesLegacy(t *testing.T) {
	old := `{"Width":6,"Height":6,"ECap":8,"InitialCells":8,"SpawnCells":1,"StopOnWin":true,"UndoLimit":100,"IdleTicks":false,` +
		`"Life":{"Enabled":true,"BirthRelaxation":false,"Wrap":false},"Dormancy":{"Ticks":3},"Colony":{"Bonus":1,"MinSize":4},` +
		`"Catalyst":{"Rate":0.05,"Max":2},"Blight":{"Rate":0.05,"Charges":1,"Telegraph":true},"Decay":{"Amount":1},"Goal":{"PerCell":0.75}}`
	r, err := engine.LoadRules(Name, json.RawMessage(old))
	if err != nil {
		t.Fatalf("LoadRules(a save's old settings): %v", err)
	}
	got := r.(*Rules).Settings()
	if got.SpawnAlive != 1 || got.SpawnEvery != 1 || !got.ExtinctionLoses || got.Life.BirthOnCatalyst ||
		got.Catalyst.Doubling != DoubleAfterMerge || got.Catalyst.StartOnPath || got.Score.Unstable != 0.75 {
		t.Errorf("old settings loaded as %+v", got)
	}
}

func TestLoadRules(t *testing.T) {
	s := earlySettings()
	s.ECap, s.Blight.Charges, s.Life.Wrap = 10, 2, true
	config, err := json.Marshal(mustRules(t, s).Config())
	if err != nil {
		t.Fatalf("json.Marshal(Config()): %v", err)
	}
	r, err := engine.LoadRules(Name, config)
	if err != nil {
		t.Fatalf("LoadRules(cellular): %v", err)
	}
	if r.Name() != "cellular" {
		t.Errorf("Name = %q", r.Name())
	}
	cr, ok := r.(*Rules)
	if !ok {
		t.Fatalf("LoadRules returned %T", r)
	}
	if !reflect.DeepEqual(cr.Settings(), s) {
		t.Errorf("loaded %+v, want %+v", cr.Settings(), s)
	}
	if _, ok := r.(engine.ScoreFormatter); !ok {
		t.Errorf("cellular rules do not format scores in quarters")
	}
	found := false
	for _, n := range engine.Rulesets() {
		found = found || n == Name
	}
	if !found {
		t.Errorf("Rulesets() = %v lacks cellular", engine.Rulesets())
	}
	// Invalid settings and malformed JSON are errors, not panics.
	bad := s
	bad.ECap = 1
	config, _ = json.Marshal(bad)
	if _, err := engine.LoadRules(Name, config); err == nil || !strings.Contains(err.Error(), "e_cap") {
		t.Errorf("LoadRules with e_cap 1: %v, want an e_cap error", err)
	}
	if _, err := engine.LoadRules(Name, json.RawMessage(`{"Width": "six"}`)); err == nil {
		t.Errorf("LoadRules with a malformed config: no error")
	}
}

// The engine's events fire for cellular turns: AfterMerge for every merge,
// front to back, with the two cells (alive or dormant), where they came from
// and the result after bonus and catalyst; OnSpawn for cells and tokens
// alike; OnTick once per finished turn (not for a no-op).
func TestHooks(t *testing.T) {
	s := earlySettings()
	s.Width, s.Height = 5, 1
	s.InitialCells = 0
	s.Life.Enabled = false
	s.Dormancy.Ticks = 0
	s.Goal.PerCell = 0
	g := gameFrom(t, s, 0, true, "a2 d4 a1 C a1")
	g.AddSpawns(
		engine.SpawnEntry{Pos: engine.Pos{Row: 0, Col: 4}, Cell: engine.Cell{Token: TokenBlight, Charges: 2}},
		engine.SpawnEntry{Pos: engine.Pos{Row: 0, Col: 0}, Cell: alive(1)},
	)
	var merges []engine.MergeEvent
	var spawns []engine.SpawnEvent
	var ticks []engine.TickEvent
	befores := 0
	g.SetHooks(engine.HookFuncs{
		BeforeMoveFunc: func(e *engine.MoveEvent) error { befores++; return nil },
		AfterMergeFunc: func(e *engine.MergeEvent) error {
			if e.State == nil {
				t.Errorf("AfterMerge without the state")
			}
			c := *e
			c.State = nil
			merges = append(merges, c)
			return nil
		},
		OnSpawnFunc: func(e *engine.SpawnEvent) error {
			c := *e
			c.State = nil
			spawns = append(spawns, c)
			return nil
		},
		OnTickFunc: func(e *engine.TickEvent) error {
			c := *e
			c.State, c.Edits = nil, nil
			ticks = append(ticks, c)
			return nil
		},
	})
	// Left: a2 + d4 → a3 at col 0; a1 slides to col 1; the last a1 crosses
	// the catalyst and merges into it: a1 + a1 = 2, doubled to a4.
	res, err := g.Move(engine.Left)
	if err != nil {
		t.Fatalf("Move(Left): %v", err)
	}
	if got, want := rowsOf(g), []string{"a3 a4 . . B2"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("board %q, want %q", got, want)
	}
	wantMerges := []engine.MergeEvent{
		{Pos: engine.Pos{Row: 0, Col: 0}, From: [2]engine.Pos{{Row: 0, Col: 0}, {Row: 0, Col: 1}}, Sources: [2]engine.Cell{alive(2), dormant(4)}, Result: alive(3)},
		{Pos: engine.Pos{Row: 0, Col: 1}, From: [2]engine.Pos{{Row: 0, Col: 2}, {Row: 0, Col: 4}}, Sources: [2]engine.Cell{alive(1), alive(1)}, Result: alive(4)},
	}
	if !reflect.DeepEqual(merges, wantMerges) {
		t.Errorf("merges:\n got %+v\nwant %+v", merges, wantMerges)
	}
	wantSpawns := []engine.SpawnEvent{{Pos: engine.Pos{Row: 0, Col: 4}, Cell: engine.Cell{Token: TokenBlight, Charges: 2}, Scripted: true}}
	if !reflect.DeepEqual(spawns, wantSpawns) {
		t.Errorf("spawns:\n got %+v\nwant %+v", spawns, wantSpawns)
	}
	if len(ticks) != 1 || ticks[0].Turn != 1 || ticks[0].Merges != 2 || ticks[0].Spawns != 1 || ticks[0].Dir != engine.Left {
		t.Errorf("ticks = %+v, want one for turn 1 with 2 merges and 1 spawn", ticks)
	}
	// S_base 7, streak 1: 28 quarters.
	if res.Gained != engine.ScoreOf(28) || ticks[0].Gained != engine.ScoreOf(28) {
		t.Errorf("gained %s / %s quarters, want 28", res.Gained, ticks[0].Gained)
	}

	// A no-op (Up on a one-row board) fires BeforeMove but no tick.
	if res, err := g.Move(engine.Up); err != nil || res.Changed {
		t.Fatalf("Move(Up) = %+v, %v; want a no-op", res, err)
	}
	if len(ticks) != 1 || befores != 2 {
		t.Errorf("after a no-op: %d ticks, %d before-move events; want 1 and 2", len(ticks), befores)
	}

	// Right: a hook replaces the merge result with a dormant cell.
	merges, spawns = nil, nil
	g.SetHooks(engine.HookFuncs{
		AfterMergeFunc: func(e *engine.MergeEvent) error {
			merges = append(merges, *e)
			e.Result = dormant(6)
			return nil
		},
		OnSpawnFunc: func(e *engine.SpawnEvent) error { spawns = append(spawns, *e); return nil },
		OnTickFunc:  func(e *engine.TickEvent) error { ticks = append(ticks, *e); return nil },
	})
	if _, err := g.Move(engine.Right); err != nil {
		t.Fatalf("Move(Right): %v", err)
	}
	// The token at col 4 splits the row: a4 (col 1) goes to col 3, a3
	// merges into it (a3, no catalyst); the hook makes it d6. The blight
	// token then has no alive neighbour and spends a charge; the queue's a1
	// spawns at (0,0).
	if got, want := rowsOf(g), []string{"a1 . . d6 B"}; !reflect.DeepEqual(got, want) {
		t.Errorf("board %q, want %q", got, want)
	}
	if len(merges) != 1 || merges[0].Sources != [2]engine.Cell{alive(4), alive(3)} || merges[0].Result != alive(3) {
		t.Errorf("merges = %+v, want a4 + a3 → a3", merges)
	}
	if len(spawns) != 1 || spawns[0].Cell != alive(1) || spawns[0].Pos != (engine.Pos{Row: 0, Col: 0}) || !spawns[0].Scripted {
		t.Errorf("spawns = %+v, want the queue's a1 at (0,0)", spawns)
	}
	if len(ticks) != 2 {
		t.Errorf("%d ticks after two turns, want 2", len(ticks))
	}
}

// A hook that asks for an invalid merge result (energy above e_cap, or an
// empty cell) makes the step fail and leaves the game as it was.
func TestHookInvalidResult(t *testing.T) {
	s := earlySettings()
	s.Width, s.Height = 4, 1
	s.InitialCells, s.SpawnCells = 0, 0
	s.Life.Enabled = false
	for _, bad := range []engine.Cell{alive(9), {}, {Token: TokenBlight, Charges: 1}} {
		g := gameFrom(t, s, 0, true, "a2 a2 . .")
		before, _ := g.Marshal()
		g.SetHooks(engine.HookFuncs{AfterMergeFunc: func(e *engine.MergeEvent) error { e.Result = bad; return nil }})
		_, err := g.Move(engine.Left)
		var he *engine.HookError
		if !errors.As(err, &he) {
			t.Errorf("result %+v: Move = %v, want a *HookError", bad, err)
		}
		after, _ := g.Marshal()
		if !bytes.Equal(before, after) {
			t.Errorf("result %+v: the failed step changed the game", bad)
		}
	}
}

// BenchmarkPlay is one cellular turn on 6×6 with blight and decay (as the
// mid preset), on forks of a game 20 turns in, the four directions in
// turn: the lab's and the search's unit of work.
func BenchmarkPlay(b *testing.B) {
	s := earlySettings()
	s.SpawnAlive, s.Blight.Rate, s.Blight.Telegraph, s.Decay.Amount = 0.25, 0.05, true, 1
	r := mustRules(b, s)
	// The first seed whose game, played round the directions, is still on
	// after 20 turns.
	var g *engine.Game
	for seed := uint64(1); g == nil || g.Status().Over(); seed++ {
		g, _ = engine.New(r, engine.Options{Width: s.Width, Height: s.Height, Seed: seed})
		for i := 0; i < 20 && !g.Status().Over(); i++ {
			legal := g.LegalMoves().List()
			g.Move(legal[i%len(legal)])
		}
	}
	f := g.Fork(1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%8 == 0 || f.Status().Over() {
			f = g.Fork(uint64(i))
		}
		f.Move(engine.Directions[i%4])
	}
}
