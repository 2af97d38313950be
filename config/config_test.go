package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestClassicPreset(t *testing.T) {
	c, err := Preset("classic")
	if err != nil {
		t.Fatal(err)
	}
	want := Classic{Size: 4, WinValue: 2048, StopOnWin: true, InitialSpawns: 2, FourProbability: 0.1, UndoLimit: 100}
	if c.Ruleset != "classic" || c.Classic != want {
		t.Fatalf("classic preset = %+v %+v", c.Ruleset, c.Classic)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	rules, opt, err := c.Game(9, true)
	if err != nil {
		t.Fatal(err)
	}
	if rules.Name() != "classic" || opt.Width != 4 || opt.Height != 4 || opt.Seed != 9 || !opt.ScriptedOnly || opt.UndoLimit != 100 {
		t.Errorf("Game() = %v %+v", rules.Name(), opt)
	}
}

func TestSet(t *testing.T) {
	c, _ := Preset("classic")
	for _, kv := range []string{"size=5", "win_value = 1024", "stop_on_win=false", "four_probability=1", "undo_limit=-1", "initial_spawns=0"} {
		if err := c.Set(kv, Origin{File: "--set"}); err != nil {
			t.Fatalf("Set(%q): %v", kv, err)
		}
	}
	want := Classic{Size: 5, WinValue: 1024, StopOnWin: false, InitialSpawns: 0, FourProbability: 1, UndoLimit: -1}
	if c.Classic != want {
		t.Errorf("after Set: %+v", c.Classic)
	}
	if err := c.Validate(); err != nil {
		t.Error(err)
	}
}

// TestErrors checks that every kind of bad setting is a located *Error that
// names the key.
func TestErrors(t *testing.T) {
	tests := []struct {
		kv, want string
	}{
		{"Size=5", `--set: Size: unknown key (did you mean "size"?)`},
		{"colour=red", "--set: colour: unknown key"},
		{"size=x y", `--set: size: "x y" is not a TOML value`},
		{"size=\"4\"", `--set: size: want an integer, got the string "4"`},
		{"size=4.0", "--set: size: want an integer, got the float 4"},
		{"stop_on_win=1", "--set: stop_on_win: want true or false, got the integer 1"},
		{"four_probability=nan", "--set: four_probability: want a finite number, got NaN"},
		{"noequals", `--set: "noequals" is not key=value`},
		{"=3", `--set: "=3" is not key=value`},
		{"a b=3", `--set: "a b" is not a key (letters, digits, _ and -, dotted for tables)`},
		{"ruleset=cellular", "--set: ruleset: \"cellular\" does not match the preset's ruleset \"classic\" (name a preset of that ruleset with `preset`)"},
	}
	for _, tt := range tests {
		c, _ := Preset("classic")
		err := c.Set(tt.kv, Origin{File: "--set"})
		var ce *Error
		if !errors.As(err, &ce) || err.Error() != tt.want {
			t.Errorf("Set(%q) = %v, want %q", tt.kv, err, tt.want)
		}
	}
	if c, _ := Preset("classic"); !errors.Is(c.Set("sise=3", Origin{}), ErrUnknownKey) {
		t.Error("unknown key is not ErrUnknownKey")
	}
	ranges := []struct{ kv, want string }{
		{"size=1", "x.toml:3: size: 1 is outside 2 to 16"},
		{"size=17", "x.toml:3: size: 17 is outside 2 to 16"},
		{"win_value=2", "x.toml:3: win_value: 2 is outside 8 to 2^62"},
		{"initial_spawns=17", "x.toml:3: initial_spawns: 17 is outside 0 to 16 (the board's cells)"},
		{"four_probability=1.5", "x.toml:3: four_probability: 1.5 is outside 0 to 1"},
		{"four_probability=-0.1", "x.toml:3: four_probability: -0.1 is outside 0 to 1"},
		{"undo_limit=-2", "x.toml:3: undo_limit: -2 is below -1"},
	}
	for _, tt := range ranges {
		c, _ := Preset("classic")
		if err := c.Set(tt.kv, Origin{File: "x.toml", Line: 3}); err != nil {
			t.Fatal(err)
		}
		if err := c.Validate(); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("Validate after %q = %v, want %q", tt.kv, err, tt.want)
		}
	}
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.toml", "# mine\npreset = \"classic\"\n\nsize = 6\nwin_value = 4096\n")
	c, err := LoadFile(good, "classic")
	if err != nil {
		t.Fatal(err)
	}
	if c.Classic.Size != 6 || c.Classic.WinValue != 4096 || c.Classic.InitialSpawns != 2 {
		t.Errorf("loaded %+v", c.Classic)
	}
	bad := []struct{ text, want string }{
		{"size = 4\nwinvalue = 3\n", "bad.toml:2: winvalue: unknown key"},
		{"size = 4\n\nsize = \"big\"\n", "bad.toml:3:"},
		{"\n\nstop_on_win = yes\n", "bad.toml:3:"},
		{"\n[board]\nsize = 4\n", "bad.toml:2: board: unknown key"},
		{"[size]\nx = 1\n", "bad.toml:1: size: want an integer, got a table"},
		{"preset = \"nope\"\n", `bad.toml:1: preset: unknown preset "nope"`},
		{"preset = 3\n", "bad.toml:1: preset: want a string, got the integer 3"},
		{"size = 40\n", "bad.toml:1: size: 40 is outside 2 to 16"},
	}
	for _, tt := range bad {
		p := write("bad.toml", tt.text)
		c, err := LoadFile(p, "classic")
		if err == nil {
			err = c.Validate()
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("LoadFile(%q) = %v, want %q", tt.text, err, tt.want)
		}
	}
	if _, err := LoadFile(filepath.Join(dir, "missing.toml"), "classic"); err == nil || !strings.Contains(err.Error(), "missing.toml") {
		t.Errorf("missing file: %v", err)
	}
}

func TestPresetsValid(t *testing.T) {
	if len(Presets()) == 0 {
		t.Fatal("no presets")
	}
	for _, name := range Presets() {
		c, err := Preset(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if err := c.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := Preset("../etc/passwd"); err == nil {
		t.Error("a path was accepted as a preset name")
	}
}

// TestNearestKey: an unknown key's error suggests the nearest known key
// when it is a likely typo, and nothing when it is far from every key.
func TestNearestKey(t *testing.T) {
	c, err := Preset("mid")
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{
		"blight.rte":  `did you mean "blight.rate"?`,
		"blite.rate":  `did you mean "blight.rate"?`,
		"spawn_alvie": `did you mean "spawn_alive"?`,
		"e-cap":       `did you mean "e_cap"?`,
		"zzzzzz":      "",
	} {
		err := c.Set(key+"=1", Origin{})
		if err == nil {
			t.Fatalf("%s: no error", key)
		}
		if want == "" && strings.Contains(err.Error(), "did you mean") || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", key, err, want)
		}
	}
	if v, err := c.Value("blight.rate"); err != nil || v != 0.1 {
		t.Errorf("Value(blight.rate) = %v, %v", v, err)
	}
	if _, err := c.Value("blight"); err == nil {
		t.Error("Value(blight), a table, gave no error")
	}
}

// TestPlays: configurations that make the same games compare equal, a
// goal a cell by the threshold it asks (6 × 6: 0.362 and 0.388 a cell
// both ask 14, 0.36 asks 13); Clone's Set leaves the original as it was.
func TestPlays(t *testing.T) {
	base, err := Build(BuildOptions{Ruleset: "cellular", Difficulty: "mid"})
	if err != nil {
		t.Fatal(err)
	}
	at := func(v string) any {
		c := base.Clone()
		if err := c.Set("goal.stabilize_per_cell="+v, Origin{File: "--set"}); err != nil {
			t.Fatal(err)
		}
		return c.Plays()
	}
	if !reflect.DeepEqual(at("0.362"), at("0.388")) || reflect.DeepEqual(at("0.36"), at("0.362")) {
		t.Error("the goal a cell is not compared by its threshold")
	}
	if base.Cellular.Goal.PerCell != 0.38 || base.Origin("goal.stabilize_per_cell").File == "--set" {
		t.Errorf("a clone's Set changed the original: %v, %+v", base.Cellular.Goal.PerCell, base.Origin("goal.stabilize_per_cell"))
	}
	other := base.Clone()
	if err := other.Set("spawn_alive=0.3", Origin{}); err != nil || reflect.DeepEqual(other.Plays(), base.Plays()) {
		t.Errorf("another setting plays alike: %v", err)
	}
}
