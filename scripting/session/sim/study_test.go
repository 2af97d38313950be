package sim

import (
	"bytes"
	"math"
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
// difference from the base, its CSV a row a run (its plot: simplot).
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
}
