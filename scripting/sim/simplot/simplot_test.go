package simplot

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/sim"
)

// results makes n games: won ones ending at the turns of won, lost ones at
// the turns of lost, and unfinished ones at max.
func results(won, lost []int, unfinished, max int) []sim.Result {
	var rs []sim.Result
	for _, t := range won {
		rs = append(rs, sim.Result{Game: len(rs), Outcome: sim.Won, Turns: t, End: engine.EndGoal})
	}
	for _, t := range lost {
		rs = append(rs, sim.Result{Game: len(rs), Outcome: sim.Lost, Turns: t, End: engine.EndNoMove})
	}
	for i := 0; i < unfinished; i++ {
		rs = append(rs, sim.Result{Game: len(rs), Outcome: sim.Unfinished, Turns: max, End: sim.EndUnfinished})
	}
	return rs
}

// TestCurves: the survival curve split by outcome, turn by turn, and the
// hazard over the games still going.
func TestCurves(t *testing.T) {
	r := sim.NewReport(sim.Header{MaxTurns: 10}, results([]int{2, 2, 4}, []int{3}, 6, 10))
	c := curvesOf(r)
	want := map[int][3]float64{ // turn: going, won, lost
		0: {1, 0, 0}, 2: {0.8, 0.2, 0}, 3: {0.7, 0.2, 0.1}, 4: {0.6, 0.3, 0.1}, 10: {0.6, 0.3, 0.1},
	}
	for turn, w := range want {
		got := [3]float64{c.going[turn].Y, c.won[turn].Y, c.lost[turn].Y}
		for i := range got {
			if math.Abs(got[i]-w[i]) > 1e-9 {
				t.Errorf("turn %d: going, won, lost %v, want %v", turn, got, w)
			}
		}
	}
	// Turn 2: 2 of the 10 games going end; turn 3: 1 of 8.
	if h := c.hazard[1]; h.X != 2 || math.Abs(h.Y-0.2) > 1e-9 {
		t.Errorf("hazard at turn 2: %v, want 0.2", h)
	}
	if h := c.hazard[2]; h.X != 3 || math.Abs(h.Y-1.0/8) > 1e-9 {
		t.Errorf("hazard at turn 3: %v, want 1/8", h)
	}
}

// TestPlots: a study's plot has every run and its panels; a run's has its
// three panels; a file that is neither .svg nor .png is refused.
func TestPlots(t *testing.T) {
	base := sim.NewReport(sim.Header{Policy: "greedy"}, results(make([]int, 50), make([]int, 50), 0, 1))
	better := sim.NewReport(sim.Header{Policy: "greedy"}, results(make([]int, 80), make([]int, 20), 0, 1))
	s := &sim.Study{Kind: "compare", Games: 100, Seed: 1, MaxTurns: 1000, Entries: []sim.Entry{
		{Config: "base", Skill: "greedy", Report: base},
		{Config: "b,c.toml", Skill: "greedy", Report: better},
	}}
	path := filepath.Join(t.TempDir(), "s.svg")
	if err := Study(s, path); err != nil {
		t.Fatal(err)
	}
	if svg, _ := os.ReadFile(path); !strings.Contains(string(svg), "b,c.toml") || !strings.Contains(string(svg), "Lost by turn") || !strings.Contains(string(svg), "How the games ended") || !strings.Contains(string(svg), "no move left") {
		t.Errorf("the study's plot lacks a run or a panel (%d bytes)", len(svg))
	}
	path = filepath.Join(t.TempDir(), "r.svg")
	if err := Report(better, path); err != nil {
		t.Fatal(err)
	}
	if svg, _ := os.ReadFile(path); !strings.Contains(string(svg), "Score (") || !strings.Contains(string(svg), "Survival") || !strings.Contains(string(svg), "Hazard") {
		t.Errorf("the run's plot lacks a panel (%d bytes)", len(svg))
	}
	if err := Report(better, filepath.Join(t.TempDir(), "r.pdf")); err == nil {
		t.Error("a .pdf plot was not refused")
	}
}

// TestWholeTicksLabelled: an axis of whole things is labelled, with whole
// numbers, whatever its span, where gonum's labelled ticks would fall
// between them (1 to 62: 12.5, 25, 37.5).
func TestWholeTicksLabelled(t *testing.T) {
	for _, span := range [][2]float64{{1, 62}, {0, 3}, {1, 1000}, {25, 175}} {
		var labels []string
		for _, tk := range (wholeTicks{}).Ticks(span[0], span[1]) {
			if tk.Value != math.Trunc(tk.Value) {
				t.Errorf("%v: a tick at %v", span, tk.Value)
			}
			if tk.Label != "" {
				labels = append(labels, tk.Label)
				if strings.Contains(tk.Label, ".") {
					t.Errorf("%v: the label %q", span, tk.Label)
				}
			}
		}
		if len(labels) < 2 {
			t.Errorf("%v: labels %v", span, labels)
		}
	}
}
