package config

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
)

// sameConfig reports whether two configurations have the same typed
// settings.
func sameConfig(a, b *Config) bool {
	return a.Ruleset == b.Ruleset && a.Preset == b.Preset && a.Classic == b.Classic && a.Cellular == b.Cellular
}

// withoutHeader drops show's header comment, which names the layers.
func withoutHeader(b []byte) []byte {
	_, rest, _ := bytes.Cut(b, []byte("\n\n"))
	return rest
}

// roundTrip shows c, parses what it shows, and checks that it is the same
// configuration and that showing it again writes the same settings.
func roundTrip(t *testing.T, what string, c *Config) {
	t.Helper()
	out := c.TOML()
	back, err := Parse(out, "show.toml", "")
	if err != nil {
		t.Fatalf("%s: show does not load back: %v\n%s", what, err, out)
	}
	if !sameConfig(c, back) {
		t.Errorf("%s: show loads back as\n%+v\nnot\n%+v\n%s", what, back, c, out)
	}
	if err := back.Validate(); err != nil {
		t.Errorf("%s: show loads back invalid: %v", what, err)
	}
	if again := back.TOML(); !bytes.Equal(withoutHeader(again), withoutHeader(out)) {
		t.Errorf("%s: show is not a fixed point:\n%s\n---\n%s", what, out, again)
	}
}

func TestShowRoundTrip(t *testing.T) {
	for _, name := range Presets() {
		c, err := Build(BuildOptions{Difficulty: name})
		if err != nil {
			t.Fatal(err)
		}
		roundTrip(t, name, c)
	}
	overrides := []BuildOptions{
		{Difficulty: "classic", Sets: []string{"size=16", "win_value=4611686018427387904", "stop_on_win=false", "initial_spawns=0", "four_probability=0.30000000000000004", "undo_limit=-1"}},
		{Difficulty: "classic", Sets: []string{"four_probability=1e-300"}},
		{Difficulty: "classic", Sets: []string{"four_probability=-0.0"}},
		{Difficulty: "classic", Sets: []string{"four_probability=1"}},
		{Difficulty: "early", Sets: []string{"width=32", "height=3", "e_cap=255", "life.wrap=true", "idle_swipe_ticks=true", "catalyst.rate=1e-7", "blight.rate=0.1234567890123456789", "goal.stabilize_per_cell=255"}},
		{Difficulty: "late", Sets: []string{"goal.stabilize_per_cell=0.3333333333333333", "blight.charges=100", "dormancy.ticks=0", "catalyst.max=0", "decay.amount=0"}},
		{Ruleset: "cellular", Sets: []string{"blight={rate=0.5,charges=7,telegraph=true}", "goal.stabilize_per_cell=9.999999999999999e-5"}},
	}
	for _, o := range overrides {
		c, err := Build(o)
		if err != nil {
			t.Fatal(err)
		}
		roundTrip(t, strings.Join(o.Sets, " "), c)
	}
}

// TestShowForm checks the form of show's output: ruleset and preset first,
// every key in Keys' order under a comment, tables as [table] headers.
func TestShowForm(t *testing.T) {
	for _, ruleset := range Rulesets() {
		c, err := Default(ruleset)
		if err != nil {
			t.Fatal(err)
		}
		out := string(c.TOML())
		if !strings.HasPrefix(out, "# ") {
			t.Errorf("%s: show does not start with its header comment:\n%s", ruleset, out)
		}
		var keys []string
		table := ""
		lines := strings.Split(out, "\n")
		for i, line := range lines {
			switch {
			case line == "" || strings.HasPrefix(line, "#"):
				continue
			case strings.HasPrefix(line, "["):
				table = strings.Trim(line, "[]") + "."
			default:
				k, _, ok := strings.Cut(line, " = ")
				if !ok {
					t.Errorf("%s: line %d is not key = value: %q", ruleset, i+1, line)
				}
				if table != "" {
					k = table + k
				}
				keys = append(keys, k)
			}
			if !strings.HasPrefix(lines[i-1], "# ") {
				t.Errorf("%s: line %d %q has no doc comment above it", ruleset, i+1, line)
			}
			if utf8.RuneCountInString(line) > 78 {
				t.Errorf("%s: line %d is longer than 78 columns", ruleset, i+1)
			}
		}
		want, _ := Keys(ruleset)
		want = append([]string{"ruleset", "preset"}, want...)
		if !reflect.DeepEqual(keys, want) {
			t.Errorf("%s: show writes the keys\n%q\nwant\n%q", ruleset, keys, want)
		}
	}
}

func TestFormatFloat(t *testing.T) {
	tests := map[float64]string{
		0: "0.0", 1: "1.0", -2: "-2.0", 0.05: "0.05", 0.075: "0.075", 1e21: "1e+21", 1e-7: "1e-07",
		math.MaxFloat64: "1.7976931348623157e+308", math.SmallestNonzeroFloat64: "5e-324",
		math.NaN(): "nan", math.Inf(1): "inf", math.Inf(-1): "-inf",
	}
	for f, want := range tests {
		if got := formatFloat(f); got != want {
			t.Errorf("formatFloat(%v) = %q, want %q", f, got, want)
		}
	}
}

func TestQuote(t *testing.T) {
	tests := map[string]string{
		"cellular": `"cellular"`, `a"b\c`: `"a\"b\\c"`, "x\ny\tz\x01\x7f": `"x\ny\tz\u0001\u007F"`, "é×": `"é×"`,
	}
	for s, want := range tests {
		if got := quote(s); got != want {
			t.Errorf("quote(%q) = %s, want %s", s, got, want)
		}
		var doc map[string]any
		if _, err := toml.Decode("v = "+quote(s), &doc); err != nil || doc["v"] != s {
			t.Errorf("quote(%q) reads back as %q, %v", s, doc["v"], err)
		}
	}
}
