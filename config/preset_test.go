package config

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/cellular"
)

// cellularPresets are the values of the cellular presets: seeds/004 §9's,
// with "low" = 0.05 a turn, "low–medium" = 0.075 and "medium" = 0.10, as
// retuned with the balance lab (cellular/RULES.md, "Tuning").
func cellularPresets() map[string]cellular.Settings {
	early := cellular.Settings{
		Width: 6, Height: 6, ECap: 8, InitialCells: 8, SpawnCells: 1,
		SpawnAlive: 0.358, SpawnEvery: 1, StopOnWin: true, ExtinctionLoses: true,
		UndoLimit: 100, IdleTicks: false,
		Life:     cellular.Life{Enabled: true, BirthRelaxation: true, Wrap: false, BirthOnCatalyst: true},
		Dormancy: cellular.Dormancy{Ticks: 3},
		Colony:   cellular.Colony{Bonus: 1, MinSize: 4},
		Catalyst: cellular.Catalyst{Rate: 0.05, Max: 2, Doubling: cellular.DoubleAfterMerge},
		Blight:   cellular.Blight{Rate: 0, Charges: 1, Telegraph: false},
		Decay:    cellular.Decay{Amount: 0},
		Score:    cellular.Score{Unstable: 0.75},
		Goal:     cellular.Goal{PerCell: 0.361, Hold: 1, Turns: 800},
	}
	// Mid and late as retuned with the balance lab (cellular/RULES.md,
	// "Tuning"): births stay relaxed, a quarter of spawns are alive.
	mid := early
	mid.SpawnAlive = 0.25
	mid.Catalyst.Rate = 0.015
	mid.Blight = cellular.Blight{Rate: 0.1, Charges: 1, Telegraph: true}
	mid.Decay.Amount = 1
	mid.Goal = cellular.Goal{PerCell: 0.38, Hold: 1, Turns: 300}
	late := mid
	late.ECap = 10
	late.Blight = cellular.Blight{Rate: 0.10, Charges: 2, Telegraph: true}
	late.Catalyst.Rate = 0.075
	late.Goal = cellular.Goal{PerCell: 0.4, Hold: 1, Turns: 75}
	return map[string]cellular.Settings{"early": early, "mid": mid, "late": late}
}

func TestCellularPresets(t *testing.T) {
	for name, want := range cellularPresets() {
		c, err := Preset(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if c.Ruleset != "cellular" || c.Preset != name || c.Cellular != want || c.Classic != (Classic{}) {
			t.Errorf("%s = %s %s\n%+v\nwant\n%+v", name, c.Ruleset, c.Preset, c.Cellular, want)
		}
		if err := c.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		rules, opt, err := c.Game(7, false)
		if err != nil {
			t.Fatalf("%s: Game: %v", name, err)
		}
		wantOpt := struct{ w, h, undo int }{6, 6, 100}
		if rules.Name() != "cellular" || opt.Width != wantOpt.w || opt.Height != wantOpt.h || opt.UndoLimit != wantOpt.undo || opt.Seed != 7 || opt.ScriptedOnly {
			t.Errorf("%s: Game() = %s %+v", name, rules.Name(), opt)
		}
		if r, ok := rules.(*cellular.Rules); !ok || r.Settings() != want {
			t.Errorf("%s: Game() rules = %#v", name, rules)
		}
	}
}

// TestPresetsSetEveryKey checks that each preset writes down every key of
// its ruleset, so that no setting takes Go's zero value unseen.
func TestPresetsSetEveryKey(t *testing.T) {
	for _, name := range Presets() {
		c, err := Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		keys, err := Keys(c.Ruleset)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range append([]string{"ruleset"}, keys...) {
			if o := c.Origin(k); o.File != "presets/"+name+".toml" || o.Line == 0 {
				t.Errorf("preset %s does not set %s (origin %q)", name, k, o)
			}
		}
	}
}

// TestPresetComments checks that every key and table of a preset file has
// a comment on the line above it.
func TestPresetComments(t *testing.T) {
	for _, name := range Presets() {
		src, err := PresetSource(name)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(src), "\n")
		for i, line := range lines {
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			if i == 0 || !strings.HasPrefix(lines[i-1], "#") {
				t.Errorf("presets/%s.toml:%d: %q has no comment above it", name, i+1, line)
			}
		}
	}
}

func TestRulesets(t *testing.T) {
	if got := Rulesets(); !reflect.DeepEqual(got, []string{"cellular", "classic"}) {
		t.Errorf("Rulesets() = %q", got)
	}
	if got := Presets(); !reflect.DeepEqual(got, []string{"classic", "early", "late", "mid"}) {
		t.Errorf("Presets() = %q", got)
	}
	for ruleset, want := range map[string]string{"classic": "classic", "cellular": "early"} {
		p, err := DefaultPreset(ruleset)
		if err != nil || p != want {
			t.Errorf("DefaultPreset(%q) = %q, %v; want %q", ruleset, p, err, want)
		}
		c, err := Default(ruleset)
		if err != nil || c.Preset != want || c.Ruleset != ruleset {
			t.Errorf("Default(%q) = %+v, %v", ruleset, c, err)
		}
	}
	if _, err := DefaultPreset("Cellular"); err == nil || err.Error() != `unknown ruleset "Cellular" (known: cellular, classic)` {
		t.Errorf("DefaultPreset(Cellular): %v", err)
	}
	var ce *Error
	if _, err := Default("hex"); !errors.As(err, &ce) || ce.Key != "ruleset" {
		t.Errorf("Default(hex): %v", err)
	}
	if _, err := Keys("hex"); err == nil {
		t.Error("Keys(hex) did not fail")
	}
	keys, _ := Keys("cellular")
	if len(keys) < 20 || keys[0] != "width" || keys[len(keys)-1] != "goal.turns" {
		t.Errorf("Keys(cellular) = %q", keys)
	}
}
