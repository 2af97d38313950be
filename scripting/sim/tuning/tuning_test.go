package tuning

import (
	"strings"
	"testing"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/scripting/sim/simtune"
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
	tr := &tuneRun{s: Setup{Build: b}, base: base}
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

// TestTuneVerdictApart: where the models cannot meet the targets together,
// the report says so and gives their compromise, and the verdict of a miss
// on fresh games says why; where the models meet them, neither says so,
// and where the answer stopped short of them, the report says that.
func TestTuneVerdictApart(t *testing.T) {
	rep := &Report{Result: &simtune.Result{
		Levers:  []simtune.Lever{{Key: "goal.turns", Start: 100, Lo: 40, Hi: 200, Int: true}},
		Targets: []simtune.Target{{Skill: "greedy", Rate: 0.08}, {Skill: "expert", Rate: 0.3}},
		Answer:  []float64{61},
		Reach:   []float64{0.021, 0.305},
		Apart:   true,
	}, Check: []Check{
		{Skill: "greedy", Target: 0.08, Rate: 0.02, CI: [2]float64{0.01, 0.04}, Games: 300},
		{Skill: "expert", Target: 0.3, Rate: 0.31, CI: [2]float64{0.26, 0.36}, Games: 300},
	}}
	var b strings.Builder
	if err := rep.Text(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"the models at the answer: greedy 2.1%, expert 30.5% (these levers cannot meet the targets together",
		"verdict: the tuned configuration misses greedy by 6.0 points on fresh games: the models say these levers cannot meet the targets together",
		"the nearest they come is greedy 2.1%, expert 30.5%",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the report has no %q:\n%s", want, b.String())
		}
	}
	rep.Reach, rep.Apart = []float64{0.075, 0.302}, false
	b.Reset()
	if err := rep.Text(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "cannot meet") || !strings.Contains(b.String(), "the models at the answer: greedy 7.5%, expert 30.2%\n") {
		t.Errorf("models that meet the targets:\n%s", b.String())
	}
	// Models that could meet them, where the answer stopped short.
	rep.Reach = []float64{0.05, 0.302}
	b.Reset()
	if err := rep.Text(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "cannot meet") || !strings.Contains(b.String(), "greedy 5.0%, expert 30.2% (short of the models' solution") {
		t.Errorf("an answer short of the models' solution:\n%s", b.String())
	}
}
