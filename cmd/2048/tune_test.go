package main

import (
	"testing"

	"github.com/mod2048/mod2048/config"
)

// TestTuneGrid: a cellular goal a cell takes steps, one a cell of the
// board (mid is 6 × 6: each of the lever's values asks one more energy
// than the one below it), and its start is one of them; a rate plays
// every value apart, and an integer is stepped as an integer.
func TestTuneGrid(t *testing.T) {
	b := config.BuildOptions{Ruleset: "cellular", Difficulty: "mid"}
	base, err := config.Build(b)
	if err != nil {
		t.Fatal(err)
	}
	tr := &tuneRun{o: simOptions{build: b}, base: base}
	l, err := tr.lever("goal.stabilize_per_cell")
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Grid) < 20 {
		t.Fatalf("the goal's steps: %v", l.Grid)
	}
	threshold := func(v float64) int {
		c := base.Clone()
		if err := c.Set("goal.stabilize_per_cell="+l.Format(v), config.Origin{}); err != nil {
			t.Fatal(err)
		}
		return c.Cellular.Threshold()
	}
	start := false
	for i, v := range l.Grid {
		start = start || v == l.Start
		if i > 0 && threshold(v) != threshold(l.Grid[i-1])+1 {
			t.Errorf("%v asks %d, %v before it %d", v, threshold(v), l.Grid[i-1], threshold(l.Grid[i-1]))
		}
	}
	if !start || threshold(0.38) != 14 {
		t.Errorf("the start 0.38 (14 on 6 × 6) is not a step: %v", l.Grid)
	}
	for _, key := range []string{"spawn_alive", "goal.turns"} {
		if l, err := tr.lever(key); err != nil || l.Grid != nil {
			t.Errorf("%s: steps %v, %v", key, l.Grid, err)
		}
	}
}
