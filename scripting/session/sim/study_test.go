package sim

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// results makes n games: won ones ending at the turns of won, lost ones at
// the turns of lost, and unfinished ones at max.
func results(won, lost []int, unfinished, max int) []Result {
	var rs []Result
	for _, t := range won {
		rs = append(rs, Result{Game: len(rs), Outcome: Won, Turns: t})
	}
	for _, t := range lost {
		rs = append(rs, Result{Game: len(rs), Outcome: Lost, Turns: t})
	}
	for i := 0; i < unfinished; i++ {
		rs = append(rs, Result{Game: len(rs), Outcome: Unfinished, Turns: max})
	}
	return rs
}

// TestCurves: the survival curve split by outcome, turn by turn, and the
// hazard over the games still going.
func TestCurves(t *testing.T) {
	r := NewReport(Header{MaxTurns: 10}, results([]int{2, 2, 4}, []int{3}, 6, 10))
	c := r.curves()
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

// TestWinDiff: the difference of two win rates with its interval, and its
// significance.
func TestWinDiff(t *testing.T) {
	a := NewReport(Header{}, results(make([]int, 50), make([]int, 50), 0, 1))
	b := NewReport(Header{}, results(make([]int, 70), make([]int, 30), 0, 1))
	c := NewReport(Header{}, results(make([]int, 55), make([]int, 45), 0, 1))
	d := WinDiff(a, b)
	if math.Abs(d.D-0.2) > 1e-9 || !d.Significant || d.CI[0] <= 0 || d.CI[1] >= 0.4 {
		t.Errorf("50%% to 70%% of 100: %+v", d)
	}
	if d := WinDiff(a, c); d.Significant || d.CI[0] >= 0 || d.CI[1] <= 0 {
		t.Errorf("50%% to 55%% of 100: %+v, want not significant", d)
	}
}

// TestStudyOutput: a comparison's table has every run with its
// difference from the base, its CSV a row a run, its plot every run.
func TestStudyOutput(t *testing.T) {
	base := NewReport(Header{Policy: "greedy"}, results(make([]int, 50), make([]int, 50), 0, 1))
	better := NewReport(Header{Policy: "greedy"}, results(make([]int, 80), make([]int, 20), 0, 1))
	s := &Study{Kind: "compare", Games: 100, Seed: 1, MaxTurns: 1000, Entries: []Entry{
		{Config: "base", Skill: "greedy", Report: base},
		{Config: "b,c.toml", Skill: "greedy", Report: better},
	}}
	var text, csv bytes.Buffer
	if err := s.Text(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"won − base", "significant", "+30.0 (", "yes", " 80.0% ("} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, text.String())
		}
	}
	if err := s.CSV(&csv); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(csv.String()), "\n"); len(lines) != 3 || !strings.HasPrefix(lines[2], `"b,c.toml",greedy,100,0.8,`) {
		t.Errorf("the CSV:\n%s", csv.String())
	}
	path := filepath.Join(t.TempDir(), "s.svg")
	if err := s.Plot(path); err != nil {
		t.Fatal(err)
	}
	if svg, _ := os.ReadFile(path); !strings.Contains(string(svg), "b,c.toml") || !strings.Contains(string(svg), "Lost by turn") {
		t.Errorf("the plot lacks a run or a panel (%d bytes)", len(svg))
	}
}
