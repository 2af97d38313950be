package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSetErrors checks every kind of bad override on both rulesets: each is
// an *Error located at the override, naming the dotted key.
func TestSetErrors(t *testing.T) {
	tests := []struct {
		preset, kv string
		key        string // the *Error's Key
		unknown    bool   // wraps ErrUnknownKey
		want       string
	}{
		// unknown keys, and keys in the wrong case
		{"early", "colour=red", "colour", true, `--set: colour: unknown key (did you mean "colony"?)`},
		{"early", "E_cap=9", "E_cap", true, `--set: E_cap: unknown key (did you mean "e_cap"?)`},
		{"early", "e-cap=9", "e-cap", true, `--set: e-cap: unknown key (did you mean "e_cap"?)`},
		{"early", "Blight.Rate=0.1", "Blight.Rate", true, `--set: Blight.Rate: unknown key (did you mean "blight.rate"?)`},
		{"early", "BLIGHT=3", "BLIGHT", true, `--set: BLIGHT: unknown key (did you mean "blight"?)`},
		{"early", "blight.rates=0.1", "blight.rates", true, `--set: blight.rates: unknown key (did you mean "blight.rate"?)`},
		{"mid", "size=5", "size", true, "--set: size: unknown key (size is a key of the classic ruleset, and this configuration is cellular)"},
		{"classic", "e_cap=5", "e_cap", true, "--set: e_cap: unknown key (e_cap is a key of the cellular ruleset, and this configuration is classic)"},
		{"classic", "blight.rate=0.1", "blight.rate", true, "--set: blight.rate: unknown key (blight.rate is a key of the cellular ruleset, and this configuration is classic)"},
		// table against leaf
		{"early", "width.x=3", "width.x", true, "--set: width.x: unknown key (width is not a table)"},
		{"early", "blight.rate.x=3", "blight.rate.x", true, "--set: blight.rate.x: unknown key (blight.rate is not a table)"},
		{"classic", "size.x=3", "size.x", true, "--set: size.x: unknown key (size is not a table)"},
		{"early", "blight=3", "blight", false, "--set: blight: want a table, got the integer 3"},
		{"early", "width={x=1}", "width", false, "--set: width: want an integer, got a table"},
		{"early", "life={wrap=1}", "life.wrap", false, "--set: life.wrap: want true or false, got the integer 1"},
		{"early", "life={wrapp=true}", "life.wrapp", true, `--set: life.wrapp: unknown key (did you mean "life.wrap"?)`},
		{"early", "blight=[1]", "blight", false, "--set: blight: want a table, got an array"},
		// wrong types
		{"early", "width=6.0", "width", false, "--set: width: want an integer, got the float 6"},
		{"early", `width="6"`, "width", false, `--set: width: want an integer, got the string "6"`},
		{"early", "width=[6]", "width", false, "--set: width: want an integer, got an array"},
		{"early", "width=1979-05-27", "width", false, "--set: width: want an integer, got a date or time"},
		{"early", "life.wrap=1", "life.wrap", false, "--set: life.wrap: want true or false, got the integer 1"},
		{"early", "blight.rate=low", "blight.rate", false, `--set: blight.rate: want a number, got the string "low"`},
		{"early", "blight.rate=true", "blight.rate", false, "--set: blight.rate: want a number, got the boolean true"},
		{"early", "catalyst.rate=inf", "catalyst.rate", false, "--set: catalyst.rate: want a finite number, got +Inf"},
		{"late", "goal.stabilize_per_cell=nan", "goal.stabilize_per_cell", false, "--set: goal.stabilize_per_cell: want a finite number, got NaN"},
		{"early", "width=99999999999999999999", "width", false, `--set: width: "99999999999999999999" is not a TOML value`},
		{"early", "width=3\nheight=3", "width", false, `--set: width: "3\nheight=3" is not a TOML value`},
		{"early", "life={enabled=false, wrapp=true}", "life.wrapp", true, `--set: life.wrapp: unknown key (did you mean "life.wrap"?)`},
		// not key=value
		{"early", "blight.rate", "", false, `--set: "blight.rate" is not key=value`},
		{"early", "blight..rate=1", "", false, `--set: "blight..rate" is not a key (letters, digits, _ and -, dotted for tables)`},
		// ruleset and preset
		{"early", "ruleset=classic", "ruleset", false, "--set: ruleset: \"classic\" does not match the preset's ruleset \"cellular\" (name a preset of that ruleset with `preset`)"},
		{"early", "ruleset=3", "ruleset", false, "--set: ruleset: want a string, got the integer 3"},
		{"early", "preset=late", "preset", false, `--set: preset: "late" is not the preset "early" this configuration started from: choose the preset first (--difficulty, Difficulty: or a file's preset key)`},
		{"early", "preset=3", "preset", false, "--set: preset: want a string, got the integer 3"},
	}
	for _, tt := range tests {
		c, err := Preset(tt.preset)
		if err != nil {
			t.Fatal(err)
		}
		before := *c
		err = c.Set(tt.kv, Origin{File: "--set"})
		var ce *Error
		if !errors.As(err, &ce) || err.Error() != tt.want || ce.Key != tt.key || errors.Is(err, ErrUnknownKey) != tt.unknown {
			t.Errorf("%s: Set(%q) = %v (key %q), want %q (key %q, unknown %v)", tt.preset, tt.kv, err, keyOf(err), tt.want, tt.key, tt.unknown)
		}
		if c.Cellular != before.Cellular || c.Classic != before.Classic {
			t.Errorf("%s: Set(%q) failed but changed the settings", tt.preset, tt.kv)
		}
	}
	// Setting a key to its preset's own value is no error.
	c, _ := Preset("mid")
	if err := c.Set("preset=mid", Origin{File: "--set"}); err != nil {
		t.Error(err)
	}
}

func keyOf(err error) string {
	var ce *Error
	if errors.As(err, &ce) {
		return ce.Key
	}
	return ""
}

// TestRangeErrors checks that a value out of range is reported by Validate
// at the line that set it, with its dotted key.
func TestRangeErrors(t *testing.T) {
	tests := []struct{ preset, kv, key string }{
		{"classic", "size=1", "size"},
		{"classic", "win_value=3", "win_value"},
		{"classic", "four_probability=1.01", "four_probability"},
		{"classic", "undo_limit=-2", "undo_limit"},
		{"early", "width=0", "width"},
		{"early", "width=33", "width"},
		{"early", "height=0", "height"},
		{"early", "e_cap=1", "e_cap"},
		{"early", "e_cap=256", "e_cap"},
		{"early", "initial_cells=37", "initial_cells"},
		{"early", "initial_cells=-1", "initial_cells"},
		{"early", "spawn_cells=5", "spawn_cells"},
		{"early", "undo_limit=-2", "undo_limit"},
		{"early", "dormancy.ticks=-1", "dormancy.ticks"},
		{"early", "colony.bonus=9", "colony.bonus"},
		{"early", "colony.min_size=0", "colony.min_size"},
		{"mid", "catalyst.rate=1.5", "catalyst.rate"},
		{"mid", "catalyst.max=-1", "catalyst.max"},
		{"mid", "blight.rate=-0.1", "blight.rate"},
		{"late", "blight.charges=0", "blight.charges"},
		{"late", "decay.amount=11", "decay.amount"},
		{"late", "goal.stabilize_per_cell=10.5", "goal.stabilize_per_cell"},
	}
	at := Origin{File: "x.toml", Line: 3}
	for _, tt := range tests {
		c, err := Preset(tt.preset)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("%s: %v", tt.preset, err)
		}
		if err := c.Set(tt.kv, at); err != nil {
			t.Fatalf("Set(%q): %v", tt.kv, err)
		}
		err = c.Validate()
		var ce *Error
		if !errors.As(err, &ce) || ce.Origin != at || ce.Key != tt.key || !strings.HasPrefix(err.Error(), "x.toml:3: "+tt.key+": ") {
			t.Errorf("%s: Validate after %q = %v, want an error at x.toml:3 about %s", tt.preset, tt.kv, err, tt.key)
		}
		if _, _, err := c.Game(1, true); err == nil {
			t.Errorf("%s: Game after %q did not fail", tt.preset, tt.kv)
		}
	}
}

// TestFileErrors checks the errors of files and of the layers around them,
// on both rulesets.
func TestFileErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name string
		o    BuildOptions
		file string // the file's text, written as f.toml, when o.File is "f.toml"
		want string // the error, with f.toml standing for the file's path
		key  string
	}{
		{"missing file", BuildOptions{File: "nosuch.toml"}, "", "nosuch.toml: no such file or directory", ""},
		{"unknown difficulty", BuildOptions{Difficulty: "hard"}, "", `--difficulty: preset: unknown preset "hard" (known: classic, early, late, mid)`, "preset"},
		{"difficulty as a path", BuildOptions{Difficulty: "../x"}, "", `--difficulty: preset: unknown preset "../x"`, "preset"},
		{"unknown ruleset", BuildOptions{Ruleset: "hex"}, "", `--ruleset: unknown ruleset "hex" (known: cellular, classic)`, ""},
		{"difficulty of another ruleset", BuildOptions{Ruleset: "classic", Difficulty: "late"}, "", `--difficulty: preset: "late" is a preset of the cellular ruleset, not of classic (--ruleset)`, "preset"},
		{"file's preset of another ruleset", BuildOptions{Ruleset: "classic", File: "f.toml"}, "\npreset = \"mid\"\n", `f.toml:2: preset: "mid" is a preset of the cellular ruleset, not of classic (--ruleset)`, "preset"},
		{"file's ruleset against --ruleset", BuildOptions{Ruleset: "classic", File: "f.toml"}, "ruleset = \"cellular\"\n", `f.toml:1: ruleset: "cellular" does not match --ruleset classic`, "ruleset"},
		{"file's ruleset against --difficulty", BuildOptions{Difficulty: "early", File: "f.toml"}, "ruleset = \"classic\"\n", `f.toml:1: ruleset: "classic" does not match the preset's ruleset "cellular"`, "ruleset"},
		{"preset conflict", BuildOptions{Difficulty: "mid", File: "f.toml"}, "# mine\npreset = \"late\"\n", `f.toml:2: preset: "late" conflicts with --difficulty mid`, "preset"},
		{"file's unknown preset", BuildOptions{File: "f.toml"}, "preset = \"Late\"\n", `f.toml:1: preset: unknown preset "Late"`, "preset"},
		{"file's unknown ruleset", BuildOptions{File: "f.toml"}, "ruleset = \"hex\"\n", `f.toml:1: ruleset: unknown ruleset "hex"`, "ruleset"},
		{"preset not a string", BuildOptions{File: "f.toml"}, "preset = 2\n", "f.toml:1: preset: want a string, got the integer 2", "preset"},
		{"preset a table", BuildOptions{File: "f.toml"}, "[preset]\nx = 1\n", "f.toml:1: preset: want a string, got a table", "preset"},
		{"ruleset a table", BuildOptions{File: "f.toml"}, "[ruleset]\n", "f.toml:1: ruleset: want a string, got a table", "ruleset"},
		{"unknown table", BuildOptions{Ruleset: "cellular", File: "f.toml"}, "width = 5\n\n[blite]\nrate = 0.1\n", "f.toml:3: blite: unknown key", "blite"},
		{"unknown subtable", BuildOptions{Ruleset: "cellular", File: "f.toml"}, "[blight.x]\nrate = 0.1\n", "f.toml:1: blight.x: unknown key", "blight.x"},
		{"table of a leaf", BuildOptions{Ruleset: "cellular", File: "f.toml"}, "[e_cap]\n", "f.toml:1: e_cap: want an integer, got a table", "e_cap"},
		{"dotted through a leaf", BuildOptions{Ruleset: "cellular", File: "f.toml"}, "\ne_cap.max = 3\n", "f.toml:2: e_cap.max: unknown key (e_cap is not a table)", "e_cap.max"},
		{"leaf given a table's place", BuildOptions{Ruleset: "cellular", File: "f.toml"}, "goal = 0.5\n", "f.toml:1: goal: want a table, got the float 0.5", "goal"},
		{"array of tables", BuildOptions{Ruleset: "cellular", File: "f.toml"}, "[[blight]]\nrate = 0.1\n", "f.toml:1: blight: want a table, got an array", "blight"},
		{"inline table key", BuildOptions{Ruleset: "cellular", File: "f.toml"}, "\nlife = { wrap = true, enable = true }\n", "f.toml:2: life.enable: unknown key", "life.enable"},
		{"wrong case in a table", BuildOptions{Ruleset: "cellular", File: "f.toml"}, "[colony]\nbonus = 1\nMin_Size = 3\n", `f.toml:3: colony.Min_Size: unknown key (did you mean "colony.min_size"?)`, "colony.Min_Size"},
		{"wrong type in a table", BuildOptions{Ruleset: "cellular", File: "f.toml"}, "[blight]\ntelegraph = \"yes\"\n", `f.toml:2: blight.telegraph: want true or false, got the string "yes"`, "blight.telegraph"},
		{"out of range in a table", BuildOptions{Ruleset: "cellular", File: "f.toml"}, "[blight]\n\ncharges = 0\n", "f.toml:3: blight.charges: ", "blight.charges"},
		{"toml syntax", BuildOptions{File: "f.toml"}, "size = 4\nsize = 5\n", "f.toml:2: size: key 'size' has already been defined", "size"},
		{"bad --set after a good file", BuildOptions{File: "f.toml", Sets: []string{"size=5", "sise=6"}}, "size = 4\n", "--set: sise: unknown key", "sise"},
		{"out of range from --set", BuildOptions{File: "f.toml", Sets: []string{"win_value=2"}}, "size = 4\n", "--set: win_value: 2 is outside 8 to 2^62", "win_value"},
	}
	for _, tt := range tests {
		o := tt.o
		want := tt.want
		if o.File == "f.toml" {
			o.File = write("f.toml", tt.file)
			want = strings.ReplaceAll(want, "f.toml", o.File)
		} else if o.File != "" {
			o.File = filepath.Join(dir, o.File)
			want = strings.ReplaceAll(want, tt.o.File, o.File)
		}
		c, err := Build(o)
		var ce *Error
		if !errors.As(err, &ce) || !strings.HasPrefix(err.Error(), want) || ce.Key != tt.key {
			t.Errorf("%s: Build = %v (key %q), want %q (key %q)", tt.name, err, keyOf(err), want, tt.key)
		}
		if c != nil {
			t.Errorf("%s: Build returned a configuration with its error", tt.name)
		}
	}
	if _, err := Build(BuildOptions{File: filepath.Join(dir, "nosuch.toml")}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v is not os.ErrNotExist", err)
	}
}

// TestSamples loads each sample file of testdata, whose first line says what
// to expect: "# want: ok (ruleset R, preset P)" or "# want: ERROR".
func TestSamples(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.toml")
	if len(files) < 5 {
		t.Fatalf("only %d sample files", len(files))
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(string(src), "\n")
		want, ok := strings.CutPrefix(first, "# want: ")
		if !ok {
			t.Errorf("%s: the first line is not # want: ...", path)
			continue
		}
		c, err := Build(BuildOptions{File: path})
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = "ok (ruleset " + c.Ruleset + ", preset " + c.Preset + ")"
		}
		if !strings.HasPrefix(got, want) {
			t.Errorf("%s: got %s\nwant %s", path, got, want)
		}
	}
}

// TestEveryErrorOfAFile: a file with three mistakes (an unknown key, a
// value of the wrong type, a value out of range) reports all three at
// once, each with its line and key.
func TestEveryErrorOfAFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.toml")
	os.WriteFile(path, []byte("ruleset = \"cellular\"\ne_capp = 9\nspawn_cells = \"many\"\n[blight]\nrate = 1.5\n"), 0o644)
	_, err := Build(BuildOptions{File: path})
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		path + `:2: e_capp: unknown key (did you mean "e_cap"?)`,
		path + ":3: spawn_cells: ",
		path + ":5: blight.rate: 1.5 is outside 0 to 1",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error lacks %q:\n%v", want, err)
		}
	}
	if n := strings.Count(err.Error(), "\n") + 1; n != 3 {
		t.Errorf("%d lines, want 3:\n%v", n, err)
	}
	var e *Error
	if !errors.As(err, &e) || e.Key != "e_capp" {
		t.Errorf("errors.As finds %+v, want the first error", e)
	}
}
