package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// presetLine finds the line of a key of a preset file by reading its text:
// the first "leaf =" line after the "[table]" header (or from the top).
func presetLine(t *testing.T, preset, key string) Origin {
	t.Helper()
	src, err := PresetSource(preset)
	if err != nil {
		t.Fatal(err)
	}
	table, leaf := "", key
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		table, leaf = key[:i], key[i+1:]
	}
	in := table == ""
	for i, line := range strings.Split(string(src), "\n") {
		if line == "["+table+"]" {
			in = true
		}
		if in && strings.HasPrefix(line, leaf+" = ") {
			return Origin{File: "presets/" + preset + ".toml", Line: i + 1}
		}
	}
	t.Fatalf("preset %s has no %s", preset, key)
	return Origin{}
}

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLayering checks the order of the layers, preset < file < --set, and
// that each setting remembers the layer that set it last.
func TestLayering(t *testing.T) {
	file := writeFile(t, "mine.toml", "# my mid\npreset = \"mid\"\n\n[blight]\nrate = 0.2\ncharges = 3\n\n[decay]\namount = 2\n")
	c, err := Build(BuildOptions{File: file, Sets: []string{"blight.rate=0.3", "e_cap=9", "e_cap=12", "decay = { amount = 3 }"}})
	if err != nil {
		t.Fatal(err)
	}
	want := cellularPresets()["mid"]
	want.Blight.Rate, want.Blight.Charges = 0.3, 3
	want.ECap = 12
	want.Decay.Amount = 3
	if c.Ruleset != "cellular" || c.Preset != "mid" || c.Cellular != want {
		t.Errorf("Build = %s %s %+v\nwant %+v", c.Ruleset, c.Preset, c.Cellular, want)
	}
	origins := map[string]Origin{
		"ruleset":          presetLine(t, "mid", "ruleset"),
		"width":            presetLine(t, "mid", "width"),
		"blight.telegraph": presetLine(t, "mid", "blight.telegraph"),
		"blight.charges":   {File: file, Line: 6},
		"blight.rate":      {File: "--set"},
		"e_cap":            {File: "--set"},
		"decay.amount":     {File: "--set"},
	}
	for k, o := range origins {
		if c.Origin(k) != o {
			t.Errorf("Origin(%s) = %q, want %q", k, c.Origin(k), o)
		}
	}
	show := string(c.TOML())
	for _, layer := range []string{"#   preset mid (built in)\n", "#   file " + file + "\n", "#   --set blight.rate=0.3\n", "#   --set e_cap=12\n"} {
		if !strings.Contains(show, layer) {
			t.Errorf("show's header lacks %q:\n%s", layer, show)
		}
	}
	if strings.Index(show, "preset mid") > strings.Index(show, "file "+file) || strings.Index(show, "file "+file) > strings.Index(show, "--set blight.rate") {
		t.Errorf("show's header lists the layers out of order:\n%s", show)
	}
}

// TestStartingPreset checks which preset a configuration starts from.
func TestStartingPreset(t *testing.T) {
	noPreset := writeFile(t, "a.toml", "undo_limit = 5\n")
	cellularFile := writeFile(t, "b.toml", "ruleset = \"cellular\"\nundo_limit = 5\n")
	lateFile := writeFile(t, "c.toml", "preset = \"late\"\nundo_limit = 5\n")
	tests := []struct {
		o               BuildOptions
		ruleset, preset string
	}{
		{BuildOptions{}, "classic", "classic"},
		{BuildOptions{Ruleset: "classic"}, "classic", "classic"},
		{BuildOptions{Ruleset: "cellular"}, "cellular", "early"},
		{BuildOptions{Difficulty: "mid"}, "cellular", "mid"},
		{BuildOptions{Ruleset: "cellular", Difficulty: "late"}, "cellular", "late"},
		{BuildOptions{File: noPreset}, "classic", "classic"},
		{BuildOptions{File: noPreset, Ruleset: "cellular"}, "cellular", "early"},
		{BuildOptions{File: noPreset, Difficulty: "mid"}, "cellular", "mid"},
		{BuildOptions{File: cellularFile}, "cellular", "early"},
		{BuildOptions{File: cellularFile, Difficulty: "late"}, "cellular", "late"},
		{BuildOptions{File: cellularFile, Ruleset: "cellular"}, "cellular", "early"},
		{BuildOptions{File: lateFile}, "cellular", "late"},
		{BuildOptions{File: lateFile, Difficulty: "late", Ruleset: "cellular"}, "cellular", "late"},
	}
	for _, tt := range tests {
		c, err := Build(tt.o)
		if err != nil {
			t.Errorf("Build(%+v): %v", tt.o, err)
			continue
		}
		if c.Ruleset != tt.ruleset || c.Preset != tt.preset {
			t.Errorf("Build(%+v) = %s %s, want %s %s", tt.o, c.Ruleset, c.Preset, tt.ruleset, tt.preset)
		}
		if tt.o.File != "" && c.Classic.UndoLimit != 5 && c.Cellular.UndoLimit != 5 {
			t.Errorf("Build(%+v) did not apply the file", tt.o)
		}
	}
}

// TestParseBase checks Parse's (and so LoadFile's, and fixtures') base: a
// ruleset or a preset, taken when the text names neither.
func TestParseBase(t *testing.T) {
	tests := []struct{ text, base, ruleset, preset string }{
		{"", "", "classic", "classic"},
		{"", "classic", "classic", "classic"},
		{"", "cellular", "cellular", "early"},
		{"", "late", "cellular", "late"},
		{"ruleset = \"cellular\"\n", "classic", "cellular", "early"},
		{"preset = \"mid\"\n", "classic", "cellular", "mid"},
		{"preset = \"classic\"\n", "cellular", "classic", "classic"},
	}
	for _, tt := range tests {
		c, err := Parse([]byte(tt.text), "p.toml", tt.base)
		if err != nil || c.Ruleset != tt.ruleset || c.Preset != tt.preset {
			t.Errorf("Parse(%q, %q) = %+v, %v; want %s %s", tt.text, tt.base, c, err, tt.ruleset, tt.preset)
		}
	}
	if _, err := Parse(nil, "p.toml", "hex"); err == nil || err.Error() != `p.toml: "hex" is neither a ruleset (cellular, classic) nor a preset (classic, early, late, mid)` {
		t.Errorf("Parse with base hex: %v", err)
	}
	file := writeFile(t, "d.toml", "[blight]\nrate = 0.5\n")
	c, err := LoadFile(file, "cellular")
	if err != nil || c.Preset != "early" || c.Cellular.Blight.Rate != 0.5 || c.Origin("blight.rate") != (Origin{file, 2}) {
		t.Errorf("LoadFile(cellular) = %+v, %v", c, err)
	}
}

// TestValidateOrigin checks that a setting made invalid by a later layer is
// reported where it was set, the preset's line when no layer overrode it.
func TestValidateOrigin(t *testing.T) {
	_, err := Build(BuildOptions{Difficulty: "early", Sets: []string{"width=2", "height=3"}})
	at := presetLine(t, "early", "initial_cells")
	if err == nil || !strings.HasPrefix(err.Error(), at.String()+": initial_cells: 8 is outside 0 to 6") {
		t.Errorf("Build = %v, want an error at %s", err, at)
	}
	file := writeFile(t, "e.toml", "preset = \"late\"\n\n[colony]\nbonus = 6\n")
	_, err = Build(BuildOptions{File: file, Sets: []string{"e_cap=5"}})
	if err == nil || !strings.HasPrefix(err.Error(), file+":4: colony.bonus: 6 is outside 0 to e_cap (5)") {
		t.Errorf("Build = %v, want an error at %s:4", err, file)
	}
}
