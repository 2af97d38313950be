package config

import (
	"slices"
	"testing"
)

func TestChanges(t *testing.T) {
	base, err := Preset("mid")
	if err != nil {
		t.Fatal(err)
	}
	c, err := Build(BuildOptions{Difficulty: "mid", Sets: []string{"width=7", "blight.charges=3"}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Changes(base)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"width=7", "blight.charges=3"}; !slices.Equal(got, want) {
		t.Errorf("Changes: %q, want %q", got, want)
	}
	// What Changes writes makes base into c.
	again, err := Build(BuildOptions{Difficulty: "mid", Sets: got})
	if err != nil {
		t.Fatal(err)
	}
	if string(again.TOML()) != string(c.TOML()) {
		t.Error("the changes do not make the same configuration")
	}
	if none, _ := base.Changes(base); len(none) != 0 {
		t.Errorf("a configuration against itself: %q", none)
	}
	classic, _ := Preset("classic")
	if _, err := c.Changes(classic); err == nil {
		t.Error("no error for two rulesets")
	}
}
