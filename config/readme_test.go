package config

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestREADMEKeys checks the key tables of README.md against the code: each
// table lists every key of its ruleset, in show's order, and each preset
// column gives that preset's value as show writes it.
func TestREADMEKeys(t *testing.T) {
	src, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	cells := func(row string) []string {
		parts := strings.Split(strings.Trim(row, "|"), "|")
		for i, p := range parts {
			parts[i] = strings.Trim(strings.TrimSpace(p), "`")
		}
		return parts
	}
	seen := map[string][]string{} // ruleset -> keys in the README's order
	var presets []*Config         // the presets of the current table's columns
	for i, line := range strings.Split(string(src), "\n") {
		if !strings.HasPrefix(line, "|") {
			presets = nil
			continue
		}
		row := cells(line)
		if row[0] == "Key" {
			presets = nil
			for _, h := range row[3:] {
				c, err := Preset(h)
				if err != nil {
					t.Fatalf("README.md:%d: column %q is not a preset", i+1, h)
				}
				presets = append(presets, c)
			}
			continue
		}
		if presets == nil || strings.HasPrefix(row[0], "-") {
			continue
		}
		key, values := row[0], row[3:]
		ruleset := presets[0].Ruleset
		seen[ruleset] = append(seen[ruleset], key)
		if len(values) != len(presets) {
			t.Errorf("README.md:%d: %d values for %d presets", i+1, len(values), len(presets))
			continue
		}
		for j, c := range presets {
			f, err := fieldOf(c.settings(), strings.Split(key, "."))
			if err != nil {
				t.Errorf("README.md:%d: %s is not a key of %s: %v", i+1, key, ruleset, err)
				break
			}
			if got := formatValue(f); values[j] != got {
				t.Errorf("README.md:%d: %s in %s is %s, not %s", i+1, key, c.Preset, got, values[j])
			}
		}
	}
	for _, r := range Rulesets() {
		want, _ := Keys(r)
		if !reflect.DeepEqual(seen[r], want) {
			t.Errorf("README.md lists the %s keys\n%q\nwant\n%q", r, seen[r], want)
		}
	}
}
