package engine

// Table-driven unit tests of the engine's parts: directions, statuses,
// scores, the random source, classic cells and settings, the four-cell
// lookup table, hooks and the spawn queue.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestParseDirection(t *testing.T) {
	valid := []struct {
		in   string
		want Direction
	}{
		{"Left", Left}, {"Right", Right}, {"Up", Up}, {"Down", Down},
		{"left", Left}, {"RIGHT", Right}, {"uP", Up}, {"dOwN", Down},
		{"W", Left}, {"E", Right}, {"N", Up}, {"S", Down},
		{"w", Left}, {"e", Right}, {"n", Up}, {"s", Down},
		{"West", Left}, {"EAST", Right}, {"north", Up}, {"South", Down},
		{" left\t", Left}, {"\nDown ", Down},
	}
	for _, c := range valid {
		got, err := ParseDirection(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseDirection(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"", " ", "l", "r", "u", "d", "lft", "leftt", "up!", "NW", "0", "Direction(0)", "le ft", "wes"} {
		_, err := ParseDirection(in)
		if err == nil {
			t.Errorf("ParseDirection(%q) accepted", in)
			continue
		}
		if !strings.Contains(err.Error(), fmt.Sprintf("unknown direction %q", in)) || !strings.Contains(err.Error(), "W, E, N, S") {
			t.Errorf("ParseDirection(%q): error %q does not name the input and the choices", in, err)
		}
	}
	for _, d := range Directions {
		if got, err := ParseDirection(d.String()); err != nil || got != d {
			t.Errorf("ParseDirection(%v.String()) = %v, %v", d, got, err)
		}
	}
}

func TestDirectionString(t *testing.T) {
	want := map[Direction]string{Left: "Left", Right: "Right", Up: "Up", Down: "Down", 4: "Direction(4)", 255: "Direction(255)"}
	for d, s := range want {
		if d.String() != s {
			t.Errorf("Direction(%d).String() = %q, want %q", uint8(d), d.String(), s)
		}
		if d.Valid() != (d <= Down) {
			t.Errorf("Direction(%d).Valid() = %v", uint8(d), d.Valid())
		}
	}
}

func TestDirSet(t *testing.T) {
	var s DirSet
	if s.Len() != 0 || s.String() != "none" || s.List() != nil {
		t.Fatalf("empty set: len %d, %q, %v", s.Len(), s, s.List())
	}
	s = s.With(Down).With(Left).With(Down)
	if s.Len() != 2 || !s.Has(Left) || !s.Has(Down) || s.Has(Up) || s.Has(Right) {
		t.Fatalf("set %v", s)
	}
	if got := s.String(); got != "Left Down" {
		t.Fatalf("String() = %q, want the order of Directions", got)
	}
	if !reflect.DeepEqual(s.List(), []Direction{Left, Down}) {
		t.Fatalf("List() = %v", s.List())
	}
	if DirSet(0xff).Has(Direction(5)) {
		t.Fatal("a set has an invalid direction")
	}
	all := DirSet(0).With(Up).With(Right).With(Left).With(Down)
	if all.Len() != 4 || all.String() != "Left Right Up Down" {
		t.Fatalf("full set: %d, %q", all.Len(), all)
	}
}

func TestStatus(t *testing.T) {
	cases := []struct {
		s          Status
		str        string
		over, won  bool
		otherNames []string
	}{
		{Playing, "Playing", false, false, []string{"playing", "PLAYING", " Playing "}},
		{Won, "Won", true, true, []string{"won", "WON"}},
		{WonContinue, "Won (continue)", false, true, []string{"WonContinue", "woncontinue", "won(continue)", "WON (CONTINUE)", "won   (continue)", " Won\t(continue) "}},
		{Lost, "Lost", true, false, []string{"lost", "LoSt"}},
	}
	for _, c := range cases {
		if c.s.String() != c.str {
			t.Errorf("%d.String() = %q, want %q", uint8(c.s), c.s.String(), c.str)
		}
		if c.s.Over() != c.over || c.s.HasWon() != c.won {
			t.Errorf("%v: Over %v, HasWon %v; want %v, %v", c.s, c.s.Over(), c.s.HasWon(), c.over, c.won)
		}
		for _, name := range append([]string{c.str}, c.otherNames...) {
			if got, err := ParseStatus(name); err != nil || got != c.s {
				t.Errorf("ParseStatus(%q) = %v, %v; want %v", name, got, err, c.s)
			}
		}
	}
	if got := Status(7).String(); got != "Status(7)" {
		t.Errorf("Status(7).String() = %q", got)
	}
	for _, bad := range []string{"", "win", "Won continue", "Won (cont)", "over", "Status(0)", "Lostt", "0"} {
		_, err := ParseStatus(bad)
		if err == nil {
			t.Errorf("ParseStatus(%q) accepted", bad)
		} else if !strings.Contains(err.Error(), fmt.Sprintf("unknown status %q", bad)) {
			t.Errorf("ParseStatus(%q): error %q does not name the input", bad, err)
		}
	}
}

// tPow2 returns 2^e as a big.Int.
func tPow2(e int) *big.Int { return new(big.Int).Lsh(big.NewInt(1), uint(e)) }

// tScore returns a Score of n, which must fit.
func tScore(t testing.TB, n *big.Int) Score {
	t.Helper()
	s, err := ScoreFromBig(n)
	if err != nil {
		t.Fatalf("ScoreFromBig(%v): %v", n, err)
	}
	return s
}

var tMaxScore = new(big.Int).Sub(tPow2(384), big.NewInt(1))

func TestScoreAddPow2(t *testing.T) {
	// Every power on its own.
	for e := 0; e < 384; e++ {
		var s Score
		s.AddPow2(e)
		if s.Big().Cmp(tPow2(e)) != 0 {
			t.Fatalf("AddPow2(%d) = %v", e, s)
		}
	}
	// Carries across words: 2^64-1 + 1, 2^128-1 + 2^0, 2^63 + 2^63.
	s := ScoreOf(math.MaxUint64)
	s.AddPow2(0)
	if s.String() != "18446744073709551616" {
		t.Fatalf("2^64-1 + 1 = %v", s)
	}
	s = tScore(t, new(big.Int).Sub(tPow2(320), big.NewInt(1)))
	s.AddPow2(0)
	if s.Big().Cmp(tPow2(320)) != 0 {
		t.Fatalf("2^320-1 + 1 = %v, want 2^320 (a carry through five words)", s)
	}
	s = Score{}
	s.AddPow2(63)
	s.AddPow2(63)
	if w, ok := s.Uint64(); ok || s.Big().Cmp(tPow2(64)) != 0 {
		t.Fatalf("2^63 + 2^63 = %v (fits %v, %d)", s, ok, w)
	}
	// Summing random powers agrees with math/big.
	r := rand.New(rand.NewPCG(1, 2))
	var sum Score
	want := new(big.Int)
	for i := 0; i < 2000; i++ {
		e := r.IntN(380)
		sum.AddPow2(e)
		want.Add(want, tPow2(e))
	}
	if sum.Big().Cmp(want) != 0 {
		t.Fatalf("sum of random powers %v, want %v", sum, want)
	}
	// Negative exponents add nothing.
	s = ScoreOf(5)
	s.AddPow2(-1)
	if s != ScoreOf(5) {
		t.Fatalf("AddPow2(-1) changed 5 to %v", s)
	}
}

func TestScoreSaturates(t *testing.T) {
	max := tScore(t, tMaxScore)
	cases := []struct {
		name string
		f    func() Score
	}{
		{"AddPow2(384)", func() Score { var s Score; s.AddPow2(384); return s }},
		{"AddPow2(1000)", func() Score { s := ScoreOf(3); s.AddPow2(1000); return s }},
		{"max + 1", func() Score { s := max; s.AddUint64(1); return s }},
		{"max + 2^0", func() Score { s := max; s.AddPow2(0); return s }},
		{"2^383 + 2^383", func() Score { var s Score; s.AddPow2(383); s.AddPow2(383); return s }},
		{"max + max", func() Score { s := max; s.Add(max); return s }},
		{"2^383 + 2^383 by Add", func() Score { var s, u Score; s.AddPow2(383); u.AddPow2(383); s.Add(u); return s }},
		{"max + 0", func() Score { s := max; s.Add(Score{}); return s }},
	}
	for _, c := range cases {
		if got := c.f(); got != max {
			t.Errorf("%s = %v, want the largest score %v", c.name, got, tMaxScore)
		}
	}
	if max.String() != tMaxScore.String() {
		t.Errorf("largest score writes as %s", max)
	}
	// Just below the top does not saturate.
	var s Score
	s.AddPow2(383)
	s.Add(tScore(t, new(big.Int).Sub(tPow2(383), big.NewInt(1))))
	if s != max {
		t.Errorf("2^383 + 2^383-1 = %v", s)
	}
}

func TestScoreAddCmp(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	rnd := func() *big.Int {
		n := new(big.Int)
		for i := r.IntN(6); i >= 0; i-- {
			n.Lsh(n, 64).Or(n, new(big.Int).SetUint64(r.Uint64()))
		}
		return n.Rsh(n, uint(r.IntN(64))) // up to 6 words, so sums fit in 384 bits (mostly)
	}
	for i := 0; i < 500; i++ {
		a, b := rnd(), rnd()
		sa, sb := tScore(t, a), tScore(t, b)
		if got, want := sa.Cmp(sb), a.Cmp(b); got != want {
			t.Fatalf("Cmp(%v, %v) = %d, want %d", a, b, got, want)
		}
		if sa.Cmp(sa) != 0 {
			t.Fatalf("Cmp(%v, itself) = %d", a, sa.Cmp(sa))
		}
		sum := new(big.Int).Add(a, b)
		got := sa
		got.Add(sb)
		if sum.BitLen() > 384 {
			sum = tMaxScore
		}
		if got.Big().Cmp(sum) != 0 {
			t.Fatalf("%v + %v = %v, want %v", a, b, got, sum)
		}
	}
	// Cmp looks at the high words first.
	var hi, lo Score
	hi.AddPow2(64)
	lo.AddUint64(math.MaxUint64)
	if hi.Cmp(lo) != 1 || lo.Cmp(hi) != -1 {
		t.Fatalf("Cmp(2^64, 2^64-1) = %d, reverse %d", hi.Cmp(lo), lo.Cmp(hi))
	}
	if !(Score{}).IsZero() || ScoreOf(1).IsZero() || hi.IsZero() {
		t.Fatal("IsZero")
	}
	if v, ok := ScoreOf(12345).Uint64(); !ok || v != 12345 {
		t.Fatalf("Uint64 of 12345 = %d, %v", v, ok)
	}
	if _, err := ScoreFromBig(big.NewInt(-1)); err == nil {
		t.Fatal("ScoreFromBig(-1) accepted")
	}
	if _, err := ScoreFromBig(tPow2(384)); !errors.Is(err, errScoreRange) {
		t.Fatalf("ScoreFromBig(2^384): %v, want errScoreRange", err)
	}
}

func TestScoreText(t *testing.T) {
	texts := []string{
		"0", "1", "4", "2048", "18446744073709551615", "18446744073709551616", "36893488147419103232",
		"340282366920938463463374607431768211456", // 2^128
		"123456789012345678901234567890123456789012345678901234567890",
		tPow2(320).String(), tMaxScore.String(),
	}
	for _, text := range texts {
		s, err := ParseScore(text)
		if err != nil {
			t.Errorf("ParseScore(%q): %v", text, err)
			continue
		}
		if s.String() != text {
			t.Errorf("ParseScore(%q).String() = %q", text, s)
		}
		b, err := s.MarshalText()
		if err != nil || string(b) != text {
			t.Errorf("MarshalText of %s = %q, %v", text, b, err)
		}
		var u Score
		if err := u.UnmarshalText(b); err != nil || u != s {
			t.Errorf("UnmarshalText(%q) = %v, %v", b, u, err)
		}
		if FormatScore(NewClassic(), s) != text {
			t.Errorf("FormatScore(classic, %s) = %q", text, FormatScore(NewClassic(), s))
		}
		if p, err := ParseScoreFor(NewClassic(), text); err != nil || p != s {
			t.Errorf("ParseScoreFor(classic, %q) = %v, %v", text, p, err)
		}
	}
	// Random big numbers round-trip.
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 300; i++ {
		n := new(big.Int)
		for w := r.IntN(6); w >= 0; w-- {
			n.Lsh(n, 64).Or(n, new(big.Int).SetUint64(r.Uint64()))
		}
		s, err := ParseScore(n.String())
		if err != nil || s.Big().Cmp(n) != 0 || s.String() != n.String() {
			t.Fatalf("round trip of %v: %v, %v", n, s, err)
		}
	}
	// Leading zeros and surrounding space are read; the score is written
	// without them.
	for in, want := range map[string]string{"007": "7", " 12 ": "12", "\t0\n": "0", "00000000000000000000000000001": "1"} {
		if s, err := ParseScore(in); err != nil || s.String() != want {
			t.Errorf("ParseScore(%q) = %v, %v; want %s", in, s, err, want)
		}
	}
	// Errors.
	for _, bad := range []string{"", " ", "-1", "-0", "+1", "1.5", "1e3", "0x10", "abc", "12a", "1 2", "１２", tPow2(384).String(), tPow2(500).String()} {
		_, err := ParseScore(bad)
		if err == nil {
			t.Errorf("ParseScore(%q) accepted", bad)
			continue
		}
		if !strings.Contains(err.Error(), fmt.Sprintf("score %q", bad)) {
			t.Errorf("ParseScore(%q): error %q does not name the input", bad, err)
		}
		var u Score
		if err := u.UnmarshalText([]byte(bad)); err == nil || u != (Score{}) {
			t.Errorf("UnmarshalText(%q) = %v, %v", bad, u, err)
		}
	}
	if _, err := ParseScore(tPow2(384).String()); !errors.Is(err, errScoreRange) {
		t.Errorf("ParseScore(2^384): %v, want errScoreRange", err)
	}
	// In JSON, a score is a string.
	b, err := json.Marshal(struct{ S Score }{ScoreOf(2048)})
	if err != nil || string(b) != `{"S":"2048"}` {
		t.Errorf("json.Marshal of a score: %s, %v", b, err)
	}
}

// The random source's sequences are part of every seeded fixture and save:
// they must never change.
func TestRNGGolden(t *testing.T) {
	golden := map[uint64][5]uint64{
		0:  {0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f, 0xf88bb8a8724c81ec, 0x1b39896a51a8749b},
		42: {0xbdd732262feb6e95, 0x28efe333b266f103, 0x47526757130f9f52, 0x581ce1ff0e4ae394, 0x09bc585a244823f2},
	}
	for seed, want := range golden {
		r := NewRNG(seed)
		for i, w := range want {
			if got := r.Uint64(); got != w {
				t.Errorf("seed %d, value %d: %#016x, want %#016x", seed, i, got, w)
			}
		}
	}
	intn := map[uint64][8]int{
		0:  {14, 6, 0, 15, 1, 5, 2, 12},
		42: {11, 2, 4, 5, 0, 13, 3, 12},
	}
	for seed, want := range intn {
		r := NewRNG(seed)
		var got [8]int
		for i := range got {
			got[i] = r.IntN(16)
		}
		if got != want {
			t.Errorf("seed %d: IntN(16) gives %v, want %v", seed, got, want)
		}
	}
	for seed, want := range map[uint64]float64{0: 0.8833108082136426, 42: 0.7415648787718233} {
		r := NewRNG(seed)
		if got := r.Float64(); got != want {
			t.Errorf("seed %d: Float64() = %v, want %v", seed, got, want)
		}
	}
	// The whole state is one word that the save carries.
	r := NewRNG(42)
	r.Uint64()
	if r.State != 42+0x9e3779b97f4a7c15 {
		t.Errorf("state after one draw %#x", r.State)
	}
}

func TestRNGIntN(t *testing.T) {
	r := NewRNG(7)
	for _, n := range []int{1, 2, 3, 5, 7, 16, 100, 1000, 1 << (bits.UintSize - 24), 3 << (bits.UintSize - 3), math.MaxInt} {
		for i := 0; i < 2000; i++ {
			if v := r.IntN(n); v < 0 || v >= n {
				t.Fatalf("IntN(%d) = %d", n, v)
			}
		}
	}
	// IntN(1) is always 0 but still draws.
	r = NewRNG(1)
	before := r.State
	if r.IntN(1) != 0 || r.State == before {
		t.Fatal("IntN(1) is not 0 or draws nothing")
	}
	// Uniform-ish: 160000 draws of 16 and of 7 fill each bucket to within 3%.
	for _, n := range []int{16, 7} {
		r := NewRNG(99)
		counts := make([]int, n)
		const draws = 160000
		for i := 0; i < draws; i++ {
			counts[r.IntN(n)]++
		}
		exp := float64(draws) / float64(n)
		for k, c := range counts {
			if math.Abs(float64(c)-exp) > 0.03*exp {
				t.Errorf("IntN(%d): %d drew %d times, want about %.0f", n, k, c, exp)
			}
		}
	}
	// The upper half of the range is reached too (no truncation to small
	// values) for n above 2^62, where Lemire's method rejects draws.
	r = NewRNG(3)
	high := 0
	for i := 0; i < 1000; i++ {
		if r.IntN(3<<(bits.UintSize-3)) >= 3<<(bits.UintSize-4) {
			high++
		}
	}
	if high < 400 || high > 600 {
		t.Errorf("IntN(3·2^(w-3)): %d of 1000 in the upper half", high)
	}
}

func TestRNGFloat64Chance(t *testing.T) {
	r := NewRNG(5)
	sum := 0.0
	for i := 0; i < 100000; i++ {
		f := r.Float64()
		if f < 0 || f >= 1 {
			t.Fatalf("Float64() = %v", f)
		}
		sum += f
	}
	if mean := sum / 100000; math.Abs(mean-0.5) > 0.01 {
		t.Errorf("mean of Float64() = %v", mean)
	}
	// Chance draws one number whatever p is.
	for _, p := range []float64{-1, 0, 0.3, 1, 2, math.NaN()} {
		a, b := NewRNG(11), NewRNG(11)
		a.Chance(p)
		b.Uint64()
		if a != b {
			t.Errorf("Chance(%v) does not draw exactly one number", p)
		}
	}
	r = NewRNG(5)
	for i := 0; i < 1000; i++ {
		if r.Chance(0) || r.Chance(-0.5) || !r.Chance(1) || !r.Chance(1.5) {
			t.Fatal("Chance with p ≤ 0 or ≥ 1")
		}
	}
}

func TestDeriveRNG(t *testing.T) {
	golden := map[string][2]uint64{ // the state, then the first value
		"":       {0xa4e6579fd9ba8f6d, 0x28cb574e0062b516},
		"a":      {0x8aea0c98bed621ff, 0x8a2893f7e5a460df},
		"b":      {0x81b684932980b766, 0x8e5f4bc2bb41653d},
		"spawns": {0xbc72be171930c44f, 0xb75d6e2f239d1c1d},
	}
	for name, want := range golden {
		r := DeriveRNG(42, name)
		if r.State != want[0] {
			t.Errorf("DeriveRNG(42, %q).State = %#016x, want %#016x", name, r.State, want[0])
		}
		if got := r.Uint64(); got != want[1] {
			t.Errorf("DeriveRNG(42, %q) first value %#016x, want %#016x", name, got, want[1])
		}
	}
	// Stable, and different per name and per seed.
	seen := map[uint64]string{}
	for _, seed := range []uint64{0, 1, 42, math.MaxUint64} {
		for _, name := range []string{"", "a", "b", "ab", "ba", "mod.hazards", "mod.hazard"} {
			a, b := DeriveRNG(seed, name), DeriveRNG(seed, name)
			if a != b || a.Uint64() != b.Uint64() {
				t.Fatalf("DeriveRNG(%d, %q) is not stable", seed, name)
			}
			key := fmt.Sprintf("%d/%q", seed, name)
			r := DeriveRNG(seed, name)
			first := r.Uint64()
			if other, dup := seen[first]; dup {
				t.Errorf("DeriveRNG %s and %s start alike", key, other)
			}
			seen[first] = key
			if g := NewRNG(seed); g.Uint64() == first {
				t.Errorf("DeriveRNG %s starts like NewRNG(%d)", key, seed)
			}
		}
	}
}

// tPow2Text writes 2^e in decimal.
func tPow2Text(e int) string { return tPow2(e).String() }

func TestClassicParseFormatCell(t *testing.T) {
	c := NewClassic()
	valid := map[string]Cell{
		"0": {}, ".": {},
		"2": tCell(2), "4": tCell(4), "8": tCell(8), "2048": tCell(2048), "131072": tCell(131072),
		"9223372036854775808":  {Kind: KindTile, Level: 63},
		"18446744073709551616": {Kind: KindTile, Level: 64},
		"36893488147419103232": {Kind: KindTile, Level: 65},
		tPow2Text(100):         {Kind: KindTile, Level: 100},
		tPow2Text(MaxLevel):    {Kind: KindTile, Level: MaxLevel},
	}
	for text, want := range valid {
		got, err := c.ParseCell(text)
		if err != nil || got != want {
			t.Errorf("ParseCell(%q) = %+v, %v; want %+v", text, got, err, want)
		}
	}
	invalid := map[string]string{
		"1":                     "tile 1 is not a power of two",
		"3":                     "tile 3 is not a power of two",
		"6":                     "tile 6 is not a power of two",
		"2049":                  "tile 2049 is not a power of two",
		"00":                    "not a power of two",
		"-2":                    `cell "-2" is not a tile value`,
		"-0":                    `cell "-0" is not a tile value`,
		"":                      `cell "" is not a tile value`,
		"x":                     `cell "x" is not a tile value`,
		"2.0":                   `cell "2.0" is not a tile value`,
		"0x10":                  `cell "0x10" is not a tile value`,
		"1e3":                   `cell "1e3" is not a tile value`,
		"..":                    `cell ".." is not a tile value`,
		"2 2":                   `cell "2 2" is not a tile value`,
		"18446744073709551618":  "tile 18446744073709551618 is not a power of two",
		"36893488147419103233":  "not a power of two",
		tPow2Text(MaxLevel + 1): "is above the largest tile, 2^320",
		tPow2Text(383):          "is above the largest tile",
		tPow2Text(400):          "is not a tile value",
		tPow2Text(100) + "0":    "not a power of two",
		"18446744073709551615":  "not a power of two", // 2^64-1
		"340282366920938463463374607431768211455": "not a power of two", // 2^128-1
	}
	for text, want := range invalid {
		got, err := c.ParseCell(text)
		if err == nil {
			t.Errorf("ParseCell(%q) = %+v, accepted", text, got)
		} else if !strings.Contains(err.Error(), want) {
			t.Errorf("ParseCell(%q): error %q does not say %q", text, err, want)
		}
	}
	// Every level writes as its value and reads back.
	if s := c.FormatCell(Cell{}); s != "0" {
		t.Errorf("FormatCell(empty) = %q", s)
	}
	for lv := 1; lv <= MaxLevel; lv++ {
		cell := Cell{Kind: KindTile, Level: uint16(lv)}
		text := c.FormatCell(cell)
		if text != tPow2Text(lv) {
			t.Fatalf("FormatCell(2^%d) = %q, want %s", lv, text, tPow2Text(lv))
		}
		if back, err := c.ParseCell(text); err != nil || back != cell {
			t.Fatalf("ParseCell(FormatCell(2^%d)) = %+v, %v", lv, back, err)
		}
		if TileValue(cell).String() != text {
			t.Fatalf("TileValue(2^%d) = %v", lv, TileValue(cell))
		}
	}
	if !TileValue(Cell{}).IsZero() {
		t.Error("TileValue(empty) is not 0")
	}
}

func TestClassicCheckCellSpawn(t *testing.T) {
	c := NewClassic()
	cells := []struct {
		cell         Cell
		okCell, okSp bool
	}{
		{Cell{}, true, false},
		{tCell(2), true, true},
		{tCell(4), true, true},
		{tCell(8), true, false},
		{tCell(2048), true, false},
		{Cell{Kind: KindTile, Level: MaxLevel}, true, false},
		{Cell{Kind: KindTile, Level: MaxLevel + 1}, false, false},
		{Cell{Kind: KindTile, Level: 0}, false, false},
		{Cell{Kind: 2, Level: 1}, false, false},
		{Cell{Kind: KindEmpty, Level: 1}, false, false},
		{Cell{Kind: KindTile, Level: 1, Token: 1}, false, false},
		{Cell{Kind: KindTile, Level: 1, Counter: 1}, false, false},
		{Cell{Kind: KindTile, Level: 2, Charges: 3}, false, false},
		{Cell{Token: 1}, false, false},
	}
	for _, k := range cells {
		if err := c.CheckCell(k.cell); (err == nil) != k.okCell {
			t.Errorf("CheckCell(%+v) = %v, want ok %v", k.cell, err, k.okCell)
		}
		err := c.CheckSpawn(k.cell)
		if (err == nil) != k.okSp {
			t.Errorf("CheckSpawn(%+v) = %v, want ok %v", k.cell, err, k.okSp)
		}
		if err != nil && !strings.Contains(err.Error(), "classic spawns only 2 or 4, not ") {
			t.Errorf("CheckSpawn(%+v): error %q", k.cell, err)
		}
	}
	if err := c.CheckSpawn(tCell(8)); err == nil || !strings.HasSuffix(err.Error(), "not 8") {
		t.Errorf("CheckSpawn(8) = %v", err)
	}
	if err := c.CheckCell(Cell{Kind: 2, Level: 1}); !errors.Is(err, errNotClassic) {
		t.Errorf("CheckCell of another kind: %v, want errNotClassic", err)
	}
	if err := c.CheckCell(Cell{Kind: KindTile, Level: 321}); err == nil || !strings.Contains(err.Error(), "tile 2^321 is outside 2 to 2^320") {
		t.Errorf("CheckCell(2^321) = %v", err)
	}
}

func TestClassicValidate(t *testing.T) {
	cases := []struct {
		name   string
		change func(*Classic)
		want   string // "" for valid
	}{
		{"defaults", nil, ""},
		{"win 4", func(c *Classic) { c.WinValue = 4 }, "win_value 4: must be from 8"},
		{"win 8", func(c *Classic) { c.WinValue = 8 }, ""},
		{"win 1000", func(c *Classic) { c.WinValue = 1000 }, ""},
		{"win 2^62", func(c *Classic) { c.WinValue = 1 << 62 }, ""},
		{"win 3", func(c *Classic) { c.WinValue = 3 }, "win_value 3"},
		{"win 2", func(c *Classic) { c.WinValue = 2 }, "win_value 2"},
		{"win 0", func(c *Classic) { c.WinValue = 0 }, "win_value 0"},
		{"win 2^62+1", func(c *Classic) { c.WinValue = 1<<62 + 1 }, "win_value 4611686018427387905"},
		{"win max", func(c *Classic) { c.WinValue = math.MaxUint64 }, "win_value"},
		{"no initial spawns", func(c *Classic) { c.InitialSpawns = 0 }, ""},
		{"negative initial spawns", func(c *Classic) { c.InitialSpawns = -1 }, "initial_spawns -1: must not be negative"},
		{"probability 0", func(c *Classic) { c.FourProbability = 0 }, ""},
		{"probability 1", func(c *Classic) { c.FourProbability = 1 }, ""},
		{"probability NaN", func(c *Classic) { c.FourProbability = math.NaN() }, "four_probability NaN"},
		{"probability -0.1", func(c *Classic) { c.FourProbability = -0.1 }, "four_probability -0.1: must be from 0 to 1"},
		{"probability 1.5", func(c *Classic) { c.FourProbability = 1.5 }, "four_probability 1.5"},
		{"probability +Inf", func(c *Classic) { c.FourProbability = math.Inf(1) }, "four_probability +Inf"},
	}
	for _, k := range cases {
		err := tRules(k.change).Validate()
		switch {
		case k.want == "" && err != nil:
			t.Errorf("%s: %v", k.name, err)
		case k.want != "" && err == nil:
			t.Errorf("%s: accepted", k.name)
		case k.want != "" && !strings.Contains(err.Error(), k.want):
			t.Errorf("%s: error %q does not say %q", k.name, err, k.want)
		}
	}
}

func TestLoadRules(t *testing.T) {
	names := Rulesets()
	if !slices.Contains(names, ClassicName) || !slices.IsSorted(names) {
		t.Fatalf("Rulesets() = %v, want classic among them, sorted", names)
	}
	r, err := LoadRules("classic", nil)
	if err != nil || !reflect.DeepEqual(r, NewClassic()) {
		t.Fatalf("LoadRules(classic, nil) = %+v, %v; want the defaults", r, err)
	}
	r, err = LoadRules("classic", json.RawMessage(`{"win_value": 1024, "stop_on_win": false, "future_knob": 3}`))
	want := tRules(func(c *Classic) { c.WinValue = 1024; c.StopOnWin = false })
	if err != nil || !reflect.DeepEqual(r, want) {
		t.Fatalf("LoadRules(classic, win 1024) = %+v, %v; want %+v", r, err, want)
	}
	// Config writes what the loader reads.
	cfg, err := json.Marshal(want.Config())
	if err != nil {
		t.Fatal(err)
	}
	if back, err := LoadRules("classic", cfg); err != nil || !reflect.DeepEqual(back, want) {
		t.Fatalf("LoadRules(Config()) = %+v, %v", back, err)
	}
	for cfg, msg := range map[string]string{
		`{"win_value": 3}`:            "classic rules: win_value 3",
		`{"four_probability": -1}`:    "classic rules: four_probability -1",
		`{"initial_spawns": -2}`:      "classic rules: initial_spawns -2",
		`{"win_value": "2048"}`:       "classic rules:",
		`{"win_value": -5}`:           "classic rules:",
		`{"win_value": 2048`:          "classic rules:",
		`[1]`:                         "classic rules:",
		`{"four_probability": "0.5"}`: "classic rules:",
	} {
		if _, err := LoadRules("classic", json.RawMessage(cfg)); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("LoadRules(classic, %s) = %v, want an error with %q", cfg, err, msg)
		}
	}
	if _, err := LoadRules("nope", nil); err == nil || !strings.Contains(err.Error(), `unknown ruleset "nope"`) {
		t.Errorf("LoadRules(nope) = %v", err)
	}
	func() {
		defer func() {
			if p := recover(); p == nil || !strings.Contains(fmt.Sprint(p), "registered twice") {
				t.Errorf("registering classic twice: panic %v", p)
			}
		}()
		RegisterRuleset(ClassicName, loadClassic)
	}()
}

// TestLineTable checks every one of the 65536 entries of the four-cell
// lookup table against the generic slide, directly and through real games
// in all four directions (a hook, even one that does nothing, makes a game
// take the generic path).
func TestLineTable(t *testing.T) {
	lineTableOnce.Do(buildLineTable)
	if len(lineTable) != 1<<16 {
		t.Fatalf("table has %d entries", len(lineTable))
	}
	rules := NewClassic()
	host := tFromBoard(t, rules, Options{Seed: 1}, NewBoard(4, 1))
	levels := func(key int) [4]uint16 {
		var in [4]uint16
		for i := range in {
			in[i] = uint16(key>>(4*i)) & 15
		}
		return in
	}

	// Directly: slide4 (the table) and slide on the same line.
	for key := 0; key < 1<<16; key++ {
		in := levels(key)
		var a, b State
		a.Board, b.Board = NewBoard(4, 1), NewBoard(4, 1)
		for i, lv := range in {
			a.Board.Cells[i] = classicCell(lv)
			b.Board.Cells[i] = classicCell(lv)
		}
		ta := Turn{Dir: Left, State: &a, g: host}
		tb := Turn{Dir: Left, State: &b, g: host}
		var smallA, smallB uint64
		empties := 0
		chA, top, ok := slide4(&ta, line{0, 1, 4}, &smallA, &empties)
		if !ok {
			t.Fatalf("key %#04x: slide4 refused levels %v", key, in)
		}
		if want := a.Board.EmptyCount(); empties != want {
			t.Fatalf("key %#04x: the table counts %d empty cells, the line has %d", key, empties, want)
		}
		chB, _, err := rules.slide(&tb, line{0, 1, 4}, MaxLevel, &smallB)
		if err != nil {
			t.Fatal(err)
		}
		if chA != chB || smallA != smallB || ta.Merges != tb.Merges || !a.Board.Equal(&b.Board) || a.Score != b.Score {
			t.Fatalf("key %#04x (levels %v): table gives %v changed %v gain %d merges %d; slide %v changed %v gain %d merges %d",
				key, in, a.Board.Cells, chA, smallA, ta.Merges, b.Board.Cells, chB, smallB, tb.Merges)
		}
		// The highest merged level decides wins: slide's answer for
		// every win level matches top.
		for win := uint16(1); win <= 17; win++ {
			var c State
			c.Board = NewBoard(4, 1)
			for i, lv := range in {
				c.Board.Cells[i] = classicCell(lv)
			}
			var small uint64
			_, won, _ := rules.slide(&Turn{Dir: Left, State: &c, g: host}, line{0, 1, 4}, win, &small)
			if won != (top >= win) {
				t.Fatalf("key %#04x (levels %v): highest merge %d, slide says won %v at win level %d", key, in, top, won, win)
			}
		}
	}

	// Through games: the same line in every direction, with and without
	// a hook, gives the same board, score, status and result.
	for _, d := range Directions {
		w, h := 4, 1
		if d == Up || d == Down {
			w, h = 1, 4
		}
		for key := 0; key < 1<<16; key++ {
			in := levels(key)
			b := NewBoard(w, h)
			for i, lv := range in {
				b.Cells[i] = classicCell(lv)
			}
			fast := tFromBoard(t, rules, Options{Seed: uint64(key)}, b)
			slow := tFromBoard(t, rules, Options{Seed: uint64(key)}, b)
			slow.SetHooks(HookFuncs{})
			legal := fast.Legal(d)
			r1, err1 := fast.Move(d)
			r2, err2 := slow.Move(d)
			if r1 != r2 || (err1 == nil) != (err2 == nil) || !fast.cur.Board.Equal(&slow.cur.Board) ||
				fast.Score() != slow.Score() || fast.Status() != slow.Status() || fast.cur.RNG != slow.cur.RNG {
				t.Fatalf("%v on %v: table path %+v, %v, board %v, score %v, %v; generic path %+v, %v, board %v, score %v, %v",
					d, in, r1, err1, tRows(fast), fast.Score(), fast.Status(), r2, err2, tRows(slow), slow.Score(), slow.Status())
			}
			if err1 == nil && legal != r1.Changed {
				t.Fatalf("%v on %v: Legal says %v, the move changed %v", d, in, legal, r1.Changed)
			}
		}
	}
}

// tHookGame is the scripted game the hook tests play: Left merges three
// pairs (gaining 16) and spawns the queued 2 at (3,3).
func tHookGame(t *testing.T) *Game {
	return tScripted(t, NewClassic(), []string{
		"2 2 4 4",
		"0 0 0 0",
		"0 2 0 2",
		"0 0 0 0",
	}, tSpawn(3, 3, 2), tSpawn(0, 0, 4))
}

var tHookLeft = []string{
	"4 8 0 0",
	"0 0 0 0",
	"4 0 0 0",
	"0 0 0 2",
}

func TestHookEvents(t *testing.T) {
	g := tHookGame(t)
	var log []string
	game := g // the game the hooks are attached to
	g.SetHooks(HookFuncs{
		BeforeMoveFunc: func(e *MoveEvent) error {
			if e.State != game.State() {
				t.Errorf("BeforeMove sees state %p, not the game's %p", e.State, game.State())
			}
			log = append(log, fmt.Sprintf("move %v", e.Dir))
			return nil
		},
		AfterMergeFunc: func(e *MergeEvent) error {
			if e.State == nil {
				t.Error("AfterMerge without a state")
			}
			log = append(log, fmt.Sprintf("merge %v from %v %v: %s+%s=%s", e.Pos, e.From[0], e.From[1],
				g.rules.FormatCell(e.Sources[0]), g.rules.FormatCell(e.Sources[1]), g.rules.FormatCell(e.Result)))
			return nil
		},
		OnSpawnFunc: func(e *SpawnEvent) error {
			if e.State == nil || !e.State.Board.At(e.Pos).IsEmpty() {
				t.Error("OnSpawn without a state, or at an occupied cell")
			}
			log = append(log, fmt.Sprintf("spawn %s at %v scripted %v", g.rules.FormatCell(e.Cell), e.Pos, e.Scripted))
			return nil
		},
		OnTickFunc: func(e *TickEvent) error {
			log = append(log, fmt.Sprintf("tick %v turn %d gained %v merges %d spawns %d board %v",
				e.Dir, e.Turn, e.Gained, e.Merges, e.Spawns, FormatRows(g.rules, &e.State.Board)))
			return nil
		},
	})
	r := tMove(t, g, Left)
	want := []string{
		"move Left",
		"merge (0,0) from (0,0) (0,1): 2+2=4",
		"merge (0,1) from (0,2) (0,3): 4+4=8",
		"merge (2,0) from (2,1) (2,3): 2+2=4",
		"spawn 2 at (3,3) scripted true",
		"tick Left turn 1 gained 16 merges 3 spawns 1 board [4 8 0 0 0 0 0 0 4 0 0 0 0 0 0 2]",
	}
	if !reflect.DeepEqual(log, want) {
		t.Fatalf("events:\n%s\nwant:\n%s", strings.Join(log, "\n"), strings.Join(want, "\n"))
	}
	if r != (Result{Changed: true, Gained: ScoreOf(16), Merges: 3, Spawns: 1}) {
		t.Fatalf("result %+v", r)
	}
	tWantRows(t, g, tHookLeft...)

	// The tick counts turns.
	log = nil
	tMove(t, g, Right) // uses the queued (0,0)
	if last := log[len(log)-1]; !strings.HasPrefix(last, "tick Right turn 2 gained 0 merges 0 spawns 1") {
		t.Fatalf("second tick: %s", last)
	}
	// A no-op asks BeforeMove and nothing else.
	noop := tScripted(t, NewClassic(), []string{"2 0 0 0", "0 0 0 0", "0 0 0 0", "0 0 0 0"}, tSpawn(1, 1, 2))
	game = noop
	noop.SetHooks(g.hooks)
	log = nil
	if r, err := noop.Move(Up); err != nil || r.Changed {
		t.Fatalf("Up: %+v, %v", r, err)
	}
	if !reflect.DeepEqual(log, []string{"move Up"}) {
		t.Fatalf("events of a no-op: %v", log)
	}
	// A random spawn is not scripted.
	rg := tNew(t, NewClassic(), Options{Width: 4, Height: 4, Seed: 3})
	game = rg
	rg.SetHooks(g.hooks)
	log = nil
	tPlay(t, rg, 1)
	if len(log) < 3 || !strings.Contains(log[len(log)-2], "scripted false") || !strings.Contains(log[len(log)-1], "turn 1 ") {
		t.Fatalf("events of a random spawn: %v", log)
	}
}

func TestHookRefusal(t *testing.T) {
	for _, wrap := range []bool{false, true} {
		g := tHookGame(t)
		before := tMarshal(t, g)
		g.SetHooks(HookFuncs{BeforeMoveFunc: func(e *MoveEvent) error {
			if e.Dir != Left {
				return nil
			}
			var err error = &Refusal{Reason: "no left turns"}
			if wrap {
				err = fmt.Errorf("mod says: %w", err)
			}
			return err
		}})
		r, err := g.Move(Left)
		var ref *Refusal
		if !errors.As(err, &ref) || ref.Reason != "no left turns" || r != (Result{}) {
			t.Fatalf("wrap %v: Move = %+v, %v; want the *Refusal", wrap, r, err)
		}
		var he *HookError
		if errors.As(err, &he) {
			t.Fatalf("a refusal came back as a *HookError: %v", err)
		}
		if err.Error() != "move refused: no left turns" {
			t.Fatalf("refusal message %q", err)
		}
		if !bytes.Equal(tMarshal(t, g), before) {
			t.Fatal("a refused move changed the game")
		}
		tMove(t, g, Right) // other moves go through
	}
}

var errTBoom = errors.New("boom")

func TestHookErrorsLeaveGameUnchanged(t *testing.T) {
	events := map[string]func(h *HookFuncs){
		"before move": func(h *HookFuncs) { h.BeforeMoveFunc = func(*MoveEvent) error { return errTBoom } },
		"after merge": func(h *HookFuncs) { h.AfterMergeFunc = func(*MergeEvent) error { return errTBoom } },
		"on spawn":    func(h *HookFuncs) { h.OnSpawnFunc = func(*SpawnEvent) error { return errTBoom } },
		"on tick":     func(h *HookFuncs) { h.OnTickFunc = func(*TickEvent) error { return errTBoom } },
	}
	for event, set := range events {
		t.Run(event, func(t *testing.T) {
			g := tHookGame(t)
			tMove(t, g, Left) // a history to keep
			if err := g.Undo(); err != nil {
				t.Fatal(err)
			}
			if err := g.Redo(); err != nil {
				t.Fatal(err)
			}
			before := tMarshal(t, g)
			var h HookFuncs
			set(&h)
			g.SetHooks(h)
			r, err := g.Move(Down) // merges the 4s of column 0, spawns at (0,0)
			var he *HookError
			if !errors.As(err, &he) || he.Event != event || !errors.Is(err, errTBoom) || r != (Result{}) {
				t.Fatalf("Move = %+v, %v; want a *HookError of %q wrapping boom", r, err, event)
			}
			if want := event + " hook: boom"; err.Error() != want {
				t.Fatalf("message %q, want %q", err, want)
			}
			if !bytes.Equal(tMarshal(t, g), before) {
				t.Fatalf("the failed move changed the game:\n%s\nwant:\n%s", tMarshal(t, g), before)
			}
			tHistoryLen(t, g, 1, 0)
			g.SetHooks(nil)
			tMove(t, g, Down)
			tWantRows(t, g, "4 0 0 0", "0 0 0 0", "0 0 0 0", "8 8 0 2")
		})
	}
}

func TestHookAfterMergeReplace(t *testing.T) {
	replace := func(at Pos, c Cell) Hooks {
		return HookFuncs{AfterMergeFunc: func(e *MergeEvent) error {
			if e.Pos == at {
				e.Result = c
			}
			return nil
		}}
	}
	t.Run("valid tile", func(t *testing.T) {
		g := tHookGame(t)
		g.SetHooks(replace(Pos{0, 0}, tCell(64)))
		r := tMove(t, g, Left)
		tWantRows(t, g, "64 8 0 0", "0 0 0 0", "4 0 0 0", "0 0 0 2")
		if r.Gained != ScoreOf(64+8+4) || g.Score() != ScoreOf(76) || r.Merges != 3 {
			t.Fatalf("result %+v, score %v; want 76 gained from the replaced 64", r, g.Score())
		}
	})
	t.Run("smaller tile", func(t *testing.T) {
		g := tHookGame(t)
		g.SetHooks(replace(Pos{0, 1}, tCell(2)))
		r := tMove(t, g, Left)
		tWantRows(t, g, "4 2 0 0", "0 0 0 0", "4 0 0 0", "0 0 0 2")
		if r.Gained != ScoreOf(4+2+4) {
			t.Fatalf("gained %v, want 10", r.Gained)
		}
	})
	t.Run("winning tile", func(t *testing.T) {
		g := tHookGame(t)
		g.SetHooks(replace(Pos{2, 0}, tCell(2048)))
		r := tMove(t, g, Left)
		if g.Status() != Won || r.Spawns != 0 || g.Remaining() != 2 {
			t.Fatalf("status %v, spawns %d, remaining %d; want Won with no spawn", g.Status(), r.Spawns, g.Remaining())
		}
		if r.Gained != ScoreOf(4+8+2048) {
			t.Fatalf("gained %v", r.Gained)
		}
	})
	t.Run("huge tile", func(t *testing.T) {
		g := tHookGame(t)
		g.SetHooks(replace(Pos{0, 0}, Cell{Kind: KindTile, Level: 200}))
		r := tMove(t, g, Left)
		want := new(big.Int).Add(tPow2(200), big.NewInt(12))
		if r.Gained.Big().Cmp(want) != 0 || g.Score().Big().Cmp(want) != 0 {
			t.Fatalf("gained %v, score %v; want 2^200+12", r.Gained, g.Score())
		}
	})
	invalid := []struct {
		name string
		cell Cell
		want string
	}{
		{"empty", Cell{}, "merge result at (0,1) cannot be empty"},
		{"empty kind with a level", Cell{Level: 4}, "cannot be empty"},
		{"level 0", Cell{Kind: KindTile}, "merge result at (0,1): tile 2^0 is outside"},
		{"above the top", Cell{Kind: KindTile, Level: MaxLevel + 1}, "tile 2^321 is outside"},
		{"other kind", Cell{Kind: 3, Level: 2}, "not a classic cell"},
		{"token", Cell{Kind: KindTile, Level: 2, Token: 1}, "not a classic cell"},
	}
	for _, c := range invalid {
		t.Run(c.name, func(t *testing.T) {
			g := tHookGame(t)
			before := tMarshal(t, g)
			g.SetHooks(replace(Pos{0, 1}, c.cell))
			_, err := g.Move(Left)
			var he *HookError
			if !errors.As(err, &he) || he.Event != "after merge" || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Move = %v; want an after-merge *HookError saying %q", err, c.want)
			}
			if !bytes.Equal(tMarshal(t, g), before) {
				t.Fatal("the failed move changed the game")
			}
		})
	}
}

func TestHookOnSpawn(t *testing.T) {
	change := func(f func(*SpawnEvent)) Hooks {
		return HookFuncs{OnSpawnFunc: func(e *SpawnEvent) error { f(e); return nil }}
	}
	t.Run("moved to an empty cell", func(t *testing.T) {
		g := tHookGame(t)
		g.SetHooks(change(func(e *SpawnEvent) { e.Pos, e.Cell = Pos{1, 1}, tCell(4) }))
		r := tMove(t, g, Left)
		tWantRows(t, g, "4 8 0 0", "0 4 0 0", "4 0 0 0", "0 0 0 0")
		if r.Spawns != 1 || g.Remaining() != 1 {
			t.Fatalf("spawns %d, remaining %d", r.Spawns, g.Remaining())
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		g := tHookGame(t)
		g.SetHooks(change(func(e *SpawnEvent) { e.Cancel = true }))
		r := tMove(t, g, Left)
		tWantRows(t, g, "4 8 0 0", "0 0 0 0", "4 0 0 0", "0 0 0 0")
		if r.Spawns != 0 || !r.Changed || r.Gained != ScoreOf(16) {
			t.Fatalf("result %+v", r)
		}
		// A random spawn cancelled places nothing either.
		rg := tNew(t, NewClassic(), Options{Width: 4, Height: 4, Seed: 12})
		rg.SetHooks(change(func(e *SpawnEvent) { e.Cancel = true }))
		tiles := 16 - rg.cur.Board.EmptyCount()
		tPlay(t, rg, 1)
		if got := 16 - rg.cur.Board.EmptyCount(); got > tiles {
			t.Fatalf("%d tiles after a cancelled spawn, %d before", got, tiles)
		}
	})
	invalid := []struct {
		name string
		f    func(*SpawnEvent)
		want string
	}{
		{"occupied", func(e *SpawnEvent) { e.Pos = Pos{0, 0} }, "spawn {0,0,2}: cell (0,0) is occupied by 4"},
		{"off the board", func(e *SpawnEvent) { e.Pos = Pos{4, 0} }, "cell (4,0) is off the 4×4 board"},
		{"negative", func(e *SpawnEvent) { e.Pos = Pos{0, -1} }, "cell (0,-1) is off the 4×4 board"},
		{"value 8", func(e *SpawnEvent) { e.Cell = tCell(8) }, "classic spawns only 2 or 4, not 8"},
		{"empty", func(e *SpawnEvent) { e.Cell = Cell{} }, "classic spawns only 2 or 4, not 0"},
	}
	for _, c := range invalid {
		t.Run(c.name, func(t *testing.T) {
			g := tHookGame(t)
			before := tMarshal(t, g)
			g.SetHooks(change(c.f))
			_, err := g.Move(Left)
			var he *HookError
			var se *SpawnError
			if !errors.As(err, &he) || he.Event != "on spawn" || !errors.As(err, &se) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Move = %v; want an on-spawn *HookError wrapping a *SpawnError saying %q", err, c.want)
			}
			if !bytes.Equal(tMarshal(t, g), before) {
				t.Fatal("the failed move changed the game")
			}
		})
	}
}

func TestHookOnTick(t *testing.T) {
	edits := func(es ...Edit) Hooks {
		return HookFuncs{OnTickFunc: func(e *TickEvent) error {
			e.Edits = append(e.Edits, es...)
			return nil
		}}
	}
	t.Run("edit applies", func(t *testing.T) {
		g := tHookGame(t)
		g.SetHooks(edits(Edit{Pos: Pos{1, 1}, Cell: tCell(16)}, Edit{Pos: Pos{0, 0}, Cell: Cell{}}))
		tMove(t, g, Left)
		tWantRows(t, g, "0 8 0 0", "0 16 0 0", "4 0 0 0", "0 0 0 2")
		if g.Status() != Playing || g.Score() != ScoreOf(16) {
			t.Fatalf("status %v, score %v", g.Status(), g.Score())
		}
		// The edit is part of the turn: undo takes it back with the move.
		if err := g.Undo(); err != nil {
			t.Fatal(err)
		}
		tWantRows(t, g, "2 2 4 4", "0 0 0 0", "0 2 0 2", "0 0 0 0")
	})
	t.Run("edit wins", func(t *testing.T) {
		g := tHookGame(t)
		g.SetHooks(edits(Edit{Pos: Pos{1, 1}, Cell: tCell(2048)}))
		tMove(t, g, Left)
		if g.Status() != WonContinue {
			t.Fatalf("status %v after an edit put 2048 down, want Won (continue)", g.Status())
		}
	})
	t.Run("edit loses", func(t *testing.T) {
		g := tHookGame(t)
		var all []Edit
		for i := 0; i < 16; i++ {
			all = append(all, Edit{Pos: Pos{i / 4, i % 4}, Cell: tCell(2 << ((i/4 + i%4) % 2))})
		}
		g.SetHooks(edits(all...))
		tMove(t, g, Left)
		if g.Status() != Lost {
			t.Fatalf("status %v on a full checkerboard, want Lost", g.Status())
		}
		if r, err := g.Move(Left); err != nil || r != (Result{}) {
			t.Fatalf("move after the loss: %+v, %v; want an ignored move", r, err)
		}
	})
	t.Run("edit saves a lost game", func(t *testing.T) {
		rows := []string{
			"2 4 2 4",
			"4 2 4 2",
			"2 4 2 4",
			"0 8 16 32",
		}
		plain := tScripted(t, NewClassic(), rows, tSpawn(3, 3, 2))
		tMove(t, plain, Left)
		if plain.Status() != Lost {
			t.Fatalf("without the hook the move ends %v, want Lost", plain.Status())
		}
		g := tScripted(t, NewClassic(), rows, tSpawn(3, 3, 2))
		g.SetHooks(edits(Edit{Pos: Pos{3, 3}, Cell: Cell{}}))
		tMove(t, g, Left)
		if g.Status() != Playing || !g.cur.Board.At(Pos{3, 3}).IsEmpty() {
			t.Fatalf("status %v, board %v; want Playing with (3,3) cleared", g.Status(), tRows(g))
		}
	})
	bad := []struct {
		name  string
		edits []Edit
		want  string
	}{
		{"off the board", []Edit{{Pos: Pos{1, 1}, Cell: tCell(16)}, {Pos: Pos{0, 4}, Cell: tCell(2)}}, "on tick hook: edit at (0,4) is off the 4×4 board"},
		{"negative row", []Edit{{Pos: Pos{-1, 0}, Cell: tCell(2)}}, "edit at (-1,0) is off"},
		{"invalid cell", []Edit{{Pos: Pos{1, 1}, Cell: tCell(16)}, {Pos: Pos{1, 2}, Cell: Cell{Kind: KindTile}}}, "on tick hook: edit at (1,2): tile 2^0 is outside"},
		{"other kind", []Edit{{Pos: Pos{1, 2}, Cell: Cell{Kind: 9}}}, "edit at (1,2): not a classic cell"},
	}
	for _, c := range bad {
		for _, seeded := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/seeded %v", c.name, seeded), func(t *testing.T) {
				g := tHookGame(t) // spawns from its queue: the cursor must roll back
				if seeded {       // random spawns: the random source must roll back
					g = tNew(t, NewClassic(), Options{Width: 4, Height: 4, Seed: 21, UndoLimit: 5})
					tPlay(t, g, 2)
				}
				before := tMarshal(t, g)
				state := g.State().Clone()
				remaining := g.Remaining()
				g.SetHooks(edits(c.edits...))
				var err error
				for _, d := range Directions {
					if g.Legal(d) {
						_, err = g.Move(d)
						break
					}
				}
				var he *HookError
				if !errors.As(err, &he) || he.Event != "on tick" || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("Move = %v; want an on-tick *HookError saying %q", err, c.want)
				}
				if !bytes.Equal(tMarshal(t, g), before) || !reflect.DeepEqual(*g.State(), state) || g.Remaining() != remaining {
					t.Fatal("the failed move changed the game")
				}
			})
		}
	}
}

func TestSpawnQueueErrors(t *testing.T) {
	rows := []string{
		"2 0 0 0",
		"0 0 0 0",
		"0 0 0 0",
		"0 0 0 0",
	}
	type qcase struct {
		name   string
		entry  SpawnEntry
		text   string // the entry as SpawnError writes it
		reason string
	}
	qcases := []qcase{
		{"occupied", tSpawn(0, 3, 2), "{0,3,2}", "cell (0,3) is occupied by 2"},
		{"off the board", tSpawn(4, 0, 2), "{4,0,2}", "cell (4,0) is off the 4×4 board"},
		{"off the board right", tSpawn(0, 4, 4), "{0,4,4}", "cell (0,4) is off the 4×4 board"},
		{"negative", tSpawn(-1, 2, 2), "{-1,2,2}", "cell (-1,2) is off the 4×4 board"},
		{"value 8", tSpawn(1, 1, 8), "{1,1,8}", "classic spawns only 2 or 4, not 8"},
		{"value 2048", tSpawn(1, 1, 2048), "{1,1,2048}", "classic spawns only 2 or 4, not 2048"},
		{"empty", SpawnEntry{Pos: Pos{1, 1}}, "{1,1,0}", "classic spawns only 2 or 4, not 0"},
	}
	for _, c := range qcases {
		for _, seeded := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/seeded %v", c.name, seeded), func(t *testing.T) {
				opt := Options{ScriptedOnly: !seeded, Seed: 5, UndoLimit: -1}
				g := tFromBoard(t, NewClassic(), opt, tBoard(t, rows...), c.entry, tSpawn(2, 2, 2))
				before := tMarshal(t, g)
				r, err := g.Move(Right)
				var se *SpawnError
				if !errors.As(err, &se) || r != (Result{}) {
					t.Fatalf("Move = %+v, %v; want a *SpawnError", r, err)
				}
				if se.Entry != c.text || !strings.Contains(se.Reason, c.reason) {
					t.Fatalf("SpawnError{%q, %q}, want {%q, %q}", se.Entry, se.Reason, c.text, c.reason)
				}
				if want := "spawn " + c.text + ": "; !strings.HasPrefix(err.Error(), want) {
					t.Fatalf("message %q does not start %q", err, want)
				}
				if !bytes.Equal(tMarshal(t, g), before) {
					t.Fatal("the failed move changed the game")
				}
				if g.Remaining() != 2 || g.Queue()[0] != c.entry {
					t.Fatalf("queue %v: the bad entry was consumed", g.Queue())
				}
				tHistoryLen(t, g, 0, 0)
				if !g.Legal(Right) {
					t.Fatal("Legal(Right) is false after the failed move")
				}
			})
		}
	}
	t.Run("scripted only, queue empty", func(t *testing.T) {
		g := tScripted(t, NewClassic(), rows)
		before := tMarshal(t, g)
		r, err := g.Move(Right)
		if !errors.Is(err, ErrNoSpawn) || r != (Result{}) {
			t.Fatalf("Move = %+v, %v; want ErrNoSpawn", r, err)
		}
		if !bytes.Equal(tMarshal(t, g), before) {
			t.Fatal("the failed move changed the game")
		}
		// A no-op needs no spawn.
		if r, err := g.Move(Left); err != nil || r.Changed {
			t.Fatalf("no-op Left: %+v, %v", r, err)
		}
	})
	t.Run("scripted only, queue used up", func(t *testing.T) {
		g := tScripted(t, NewClassic(), rows, tSpawn(3, 3, 2))
		tMove(t, g, Right) // 0 0 0 2 / ... / 0 0 0 2
		if _, err := g.Move(Left); !errors.Is(err, ErrNoSpawn) {
			t.Fatalf("Move with the queue used up: %v, want ErrNoSpawn", err)
		}
		g.AddSpawns(tSpawn(1, 1, 4))
		tMove(t, g, Left)
		tWantRows(t, g, "2 0 0 0", "0 4 0 0", "0 0 0 0", "2 0 0 0")
	})
	t.Run("seeded, queue used up", func(t *testing.T) {
		g := tFromBoard(t, NewClassic(), Options{Seed: 5}, tBoard(t, rows...), tSpawn(3, 3, 2))
		tMove(t, g, Right)
		if g.Remaining() != 0 || g.cur.Board.At(Pos{3, 3}) != tCell(2) {
			t.Fatalf("the queued spawn was not used first: %v", tRows(g))
		}
		rng := g.State().RNG
		r := tMove(t, g, Left) // falls back to the random source
		if r.Spawns != 1 || g.State().RNG == rng {
			t.Fatalf("random spawn after the queue: %+v", r)
		}
	})
}

func TestMoveErrors(t *testing.T) {
	g := tHookGame(t)
	before := tMarshal(t, g)
	for _, d := range []Direction{4, 200} {
		if r, err := g.Move(d); err == nil || r != (Result{}) || !strings.Contains(err.Error(), "invalid direction") {
			t.Fatalf("Move(%d) = %+v, %v", uint8(d), r, err)
		}
		if g.Legal(d) {
			t.Fatalf("Legal(%d)", uint8(d))
		}
	}
	if !bytes.Equal(tMarshal(t, g), before) {
		t.Fatal("an invalid direction changed the game")
	}
	// An invalid direction is an error in a finished game too.
	lost := tFromBoard(t, NewClassic(), Options{Seed: 1}, tBoard(t, "2 4 2 4", "4 2 4 2", "2 4 2 4", "4 2 4 2"))
	if _, err := lost.Move(4); err == nil || !strings.Contains(err.Error(), "invalid direction") {
		t.Fatalf("Move(4) when Lost: %v", err)
	}
}

// TestMoveInFinishedGame: a move in a Lost game, or in a Won game with stop
// on win, is ignored (seeds/000 C13, §17 "ignore further moves", and the
// original game): no error, a zero Result, no spawn consumed, no score, no
// history, no turn, and no hook hears of it.
func TestMoveInFinishedGame(t *testing.T) {
	cases := []struct {
		name  string
		rows  []string
		setup []Direction // moves that finish the game
		want  Status
	}{
		{"lost from the start", []string{"2 4 2 4", "4 2 4 2", "2 4 2 4", "4 2 4 2"}, nil, Lost},
		{"lost by a move", []string{"2 4 2 4", "4 2 4 2", "2 4 2 4", "0 8 16 32"}, []Direction{Left}, Lost},
		{"won, stop on win", []string{"1024 1024 0 0", "0 0 0 0", "0 0 0 0", "0 0 0 0"}, []Direction{Left}, Won},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := tFromBoard(t, NewClassic(), Options{Seed: 7, UndoLimit: -1, ScriptedOnly: true}, tBoard(t, c.rows...),
				tSpawn(3, 3, 2), tSpawn(0, 0, 2))
			for _, d := range c.setup {
				tMove(t, g, d)
			}
			if g.Status() != c.want {
				t.Fatalf("status %v, want %v", g.Status(), c.want)
			}
			var events []string
			g.SetHooks(HookFuncs{
				BeforeMoveFunc: func(e *MoveEvent) error { events = append(events, "move"); return nil },
				AfterMergeFunc: func(e *MergeEvent) error { events = append(events, "merge"); return nil },
				OnSpawnFunc:    func(e *SpawnEvent) error { events = append(events, "spawn"); return nil },
				OnTickFunc:     func(e *TickEvent) error { events = append(events, "tick"); return nil },
			})
			before, remaining := tMarshal(t, g), g.Remaining()
			undo, redo := g.HistoryLen()
			for _, d := range Directions {
				r, err := g.Move(d)
				if err != nil || r != (Result{}) {
					t.Fatalf("Move(%v) when %v: %+v, %v; want an ignored move", d, c.want, r, err)
				}
			}
			if len(events) > 0 {
				t.Fatalf("ignored moves fired %v", events)
			}
			if g.LegalMoves() != 0 {
				t.Fatalf("legal moves %v in a finished game", g.LegalMoves())
			}
			if !bytes.Equal(tMarshal(t, g), before) || g.Remaining() != remaining {
				t.Fatal("an ignored move changed the game")
			}
			if u, r := g.HistoryLen(); u != undo || r != redo {
				t.Fatalf("history %d/%d, was %d/%d", u, r, undo, redo)
			}
		})
	}
}

func TestNewErrors(t *testing.T) {
	b := tBoard(t, "2 0", "0 0")
	cases := []struct {
		name string
		f    func() (*Game, error)
		want string
	}{
		{"no rules", func() (*Game, error) { return New(nil, Options{Width: 4, Height: 4}) }, "no rules"},
		{"width 0", func() (*Game, error) { return New(NewClassic(), Options{Width: 0, Height: 4}) }, "board size 0×4: both sides must be at least 1"},
		{"both sides -1", func() (*Game, error) { return New(NewClassic(), Options{Width: -1, Height: -1}) }, "board size -1×-1"},
		{"too many cells", func() (*Game, error) { return New(NewClassic(), Options{Width: 300, Height: 300}) }, "board size 300×300: at most 65536 cells"},
		{"side too long", func() (*Game, error) { return New(NewClassic(), Options{Width: 1 << 17, Height: 1}) }, "at most 65536 cells"},
		{"board size differs", func() (*Game, error) { return NewFromBoard(NewClassic(), Options{Width: 4, Height: 4}, b) }, "board is 2×2, options say 4×4"},
		{"cells missing", func() (*Game, error) {
			return NewFromBoard(NewClassic(), Options{Width: 2, Height: 2}, Board{Width: 2, Height: 2, Cells: b.Cells[:3]})
		}, "board is 2×2"},
		{"bad cell", func() (*Game, error) {
			bb := b.Clone()
			bb.Cells[3] = Cell{Kind: KindTile, Level: 400}
			return NewFromBoard(NewClassic(), Options{Width: 2, Height: 2}, bb)
		}, "cell (1,1): tile 2^400 is outside"},
	}
	for _, c := range cases {
		var g *Game
		var err error
		func() {
			defer func() {
				if p := recover(); p != nil {
					err = fmt.Errorf("panic: %v", p)
				}
			}()
			g, err = c.f()
		}()
		if err == nil || g != nil {
			t.Errorf("%s: %v, %v; want an error", c.name, g, err)
		} else if !strings.Contains(err.Error(), c.want) || strings.HasPrefix(err.Error(), "panic") {
			t.Errorf("%s: error %q does not say %q", c.name, err, c.want)
		}
	}
	// 65536 cells is allowed.
	if _, err := New(NewClassic(), Options{Width: 256, Height: 256, Seed: 1}); err != nil {
		t.Errorf("256×256: %v", err)
	}
}

// New checks the options before it makes the board: a negative side is an
// error, not a panic, and a board too large is refused before it is
// allocated (MaxBoardCells exists so that a hostile configuration cannot
// ask for gigabytes).
func TestNewChecksSizeFirst(t *testing.T) {
	var bugs []string
	func() {
		defer func() {
			if p := recover(); p != nil {
				bugs = append(bugs, fmt.Sprintf("New with a 4×-1 board panics (%v)", p))
			}
		}()
		if _, err := New(NewClassic(), Options{Width: 4, Height: -1}); err == nil || !strings.Contains(err.Error(), "board size 4×-1") {
			t.Errorf("4×-1 board: %v", err)
		}
	}()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	_, err := New(NewClassic(), Options{Width: 1 << 16, Height: 1 << 6, Seed: 1})
	runtime.ReadMemStats(&m1)
	if err == nil || !strings.Contains(err.Error(), "at most 65536 cells") {
		t.Fatalf("2^22 cells: %v", err)
	}
	if n := m1.TotalAlloc - m0.TotalAlloc; n > 1<<20 {
		bugs = append(bugs, fmt.Sprintf("New allocates %d bytes for a 2^16×2^6 board it then refuses", n))
	}
	if bugs != nil {
		t.Error("New makes the board before it checks the options: " + strings.Join(bugs, "; "))
	}
}

// NewFromBoard with no rules is an error, as New's is.
func TestNewFromBoardNilRules(t *testing.T) {
	var err error
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Errorf("NewFromBoard(nil rules) panics (%v) instead of returning the error New returns", p)
			}
		}()
		_, err = NewFromBoard(nil, Options{Width: 2, Height: 2}, NewBoard(2, 2))
	}()
	if err == nil || !strings.Contains(err.Error(), "no rules") {
		t.Fatalf("NewFromBoard(nil rules): %v", err)
	}
}

func TestNewFromBoardSettles(t *testing.T) {
	cases := []struct {
		rows []string
		want Status
	}{
		{[]string{"2 0", "0 0"}, Playing},
		{[]string{"2 4", "4 2"}, Lost},
		{[]string{"2 2", "4 8"}, Playing},
		{[]string{"2048 0", "0 0"}, WonContinue},
		{[]string{"4096 2", "2 4"}, Lost}, // lost wins over won
		{[]string{"1024 0", "0 0"}, Playing},
		// No tile, no move, yet Playing (seeds/000 §3.7, the original's
		// movesAvailable): the one exception to "Lost iff no legal move".
		{[]string{"0 0", "0 0"}, Playing},
		{[]string{"0"}, Playing},
		{[]string{"2"}, Lost},
	}
	for _, c := range cases {
		g := tFromBoard(t, NewClassic(), Options{}, tBoard(t, c.rows...))
		if g.Status() != c.want {
			t.Errorf("%v: status %v, want %v", c.rows, g.Status(), c.want)
		}
		if !g.Score().IsZero() || g.State().Turn != 0 || g.Remaining() != 0 {
			t.Errorf("%v: score %v, turn %d", c.rows, g.Score(), g.State().Turn)
		}
	}
	// The game keeps its own copy of the board.
	b := tBoard(t, "2 0", "0 0")
	g := tFromBoard(t, NewClassic(), Options{}, b)
	b.Cells[1] = tCell(4)
	if !g.cur.Board.At(Pos{0, 1}).IsEmpty() {
		t.Fatal("NewFromBoard shares the caller's cells")
	}
	out := g.Board()
	out.Cells[0] = Cell{}
	if g.cur.Board.At(Pos{0, 0}) != tCell(2) {
		t.Fatal("Board() shares the game's cells")
	}
}

func TestLegalMoves(t *testing.T) {
	cases := []struct {
		name string
		rows []string
		want DirSet
	}{
		{"empty (LGL1)", []string{"0 0 0 0", "0 0 0 0", "0 0 0 0", "0 0 0 0"}, 0},
		{"LGL2", []string{"2 2 4 8", "0 0 0 0", "0 0 0 0", "0 0 0 0"}, DirSet(0).With(Left).With(Right).With(Down)},
		{"C18", []string{"2 4 8 16", "0 0 0 0", "0 0 0 0", "0 0 0 0"}, DirSet(0).With(Down)},
		{"corner", []string{"2 0 0 0", "0 0 0 0", "0 0 0 0", "0 0 0 0"}, DirSet(0).With(Right).With(Down)},
		{"full, one pair", []string{"2 4 2 4", "4 2 4 2", "2 4 2 4", "4 8 8 2"}, DirSet(0).With(Left).With(Right)},
		{"full, vertical pair", []string{"2 4 2 4", "4 2 4 2", "2 4 2 4", "2 2 4 2"}, DirSet(0).With(Left).With(Right).With(Up).With(Down)},
		{"lost (I13)", []string{"2 4 2 4", "4 2 4 2", "2 4 2 4", "4 2 4 2"}, 0},
	}
	for _, c := range cases {
		g := tFromBoard(t, NewClassic(), Options{Seed: 1}, tBoard(t, c.rows...))
		if got := g.LegalMoves(); got != c.want {
			t.Errorf("%s: LegalMoves() = %v, want %v", c.name, got, c.want)
		}
		if g.CanMove() != (c.want != 0) {
			t.Errorf("%s: CanMove() = %v", c.name, g.CanMove())
		}
		// Legal agrees with what a move does.
		for _, d := range Directions {
			h := tFromBoard(t, NewClassic(), Options{Seed: 1}, tBoard(t, c.rows...))
			r, err := h.Move(d)
			changed := err == nil && r.Changed
			if changed != c.want.Has(d) {
				t.Errorf("%s: Move(%v) changed %v (%v), Legal says %v", c.name, d, changed, err, c.want.Has(d))
			}
		}
	}
}

func TestGameAccessors(t *testing.T) {
	rules := NewClassic()
	opt := Options{Width: 3, Height: 2, Seed: 17, UndoLimit: 4}
	g := tNew(t, rules, opt)
	if g.Rules() != Rules(rules) || g.Options() != opt {
		t.Fatalf("Rules() %v, Options() %+v", g.Rules(), g.Options())
	}
	g.AddSpawns(tSpawn(0, 0, 2), tSpawn(1, 2, 4))
	q := g.Queue()
	q[0] = tSpawn(1, 1, 4)
	if g.Queue()[0] != tSpawn(0, 0, 2) || g.Remaining() != 2 {
		t.Fatal("Queue() shares the game's queue")
	}
	c := g.State().Clone()
	c.Board.Cells[0] = tCell(1024)
	if g.cur.Board.Cells[0] == tCell(1024) {
		t.Fatal("State().Clone() shares the cells")
	}
}
