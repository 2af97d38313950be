package sim

import (
	"bytes"
	"math"
	"slices"
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
	for _, want := range []string{"won − base", "median turns − base", "median score − base", "significant", "+30.0 (", "yes", " 80.0% ("} {
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

// TestVerdicts: every study ends with its finding in plain words.
func TestVerdicts(t *testing.T) {
	rep := func(won int) *Report {
		return NewReport(Header{Policy: "greedy"}, results(make([]int, won), make([]int, 100-won), 0, 1))
	}
	cmp := &Study{Kind: "compare", Entries: []Entry{
		{Config: "classic", Skill: "greedy", Report: rep(50)}, {Config: "classic", Skill: "expert", Report: rep(80)},
		{Config: "classic + bomb", Skill: "greedy", Report: rep(20)}, {Config: "classic + bomb", Skill: "expert", Report: rep(75)},
		{Config: "easy.toml", Skill: "greedy", Report: rep(60)}, {Config: "easy.toml", Skill: "expert", Report: rep(90)},
	}}
	sweep := &Study{Kind: "sweep", Entries: []Entry{
		{Config: "size=3", Skill: "greedy", Report: rep(10)}, {Config: "size=4", Skill: "greedy", Report: rep(40)},
	}}
	ladder := &Study{Kind: "skill", Entries: []Entry{
		{Config: "mid", Skill: "random", Report: rep(0)}, {Config: "mid", Skill: "expert", Report: rep(62)},
	}}
	for _, tt := range []struct {
		s    *Study
		want []string
	}{
		{cmp, []string{"classic + bomb makes classic easier for nobody, harder for the greedy player, and no different for the expert", "easy.toml makes classic easier for the expert, harder for nobody, and no different for the greedy player"}},
		{sweep, []string{"at greedy the win rate runs from 10.0% (size=3) to 40.0% (size=4)"}},
		{ladder, []string{"mid is won by 0.0% of random's games and 62.0% of expert's"}},
	} {
		if got := tt.s.Verdicts(); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q\nwant %q", tt.s.Kind, got, tt.want)
		}
		var b strings.Builder
		if err := tt.s.Text(&b); err != nil || !strings.Contains(b.String(), "verdict: "+tt.want[0]) {
			t.Errorf("%s: the table does not end with the verdict:\n%s", tt.s.Kind, b.String())
		}
	}
}

// TestMedianDiff: the difference of two medians with its interval from
// the two medians' own; a compare study's verdict says how much longer
// games last.
func TestMedianDiff(t *testing.T) {
	turns := func(n, at int) []int {
		out := make([]int, n)
		for i := range out {
			out[i] = at + i%5
		}
		return out
	}
	short := NewReport(Header{Policy: "greedy"}, results(nil, turns(100, 20), 0, 1000))
	long := NewReport(Header{Policy: "greedy"}, results(nil, turns(100, 60), 0, 1000))
	d := MedianDiff(short.Turns, long.Turns)
	if d.D != 40 || !d.Significant || d.CI[0] > 40 || d.CI[1] < 40 {
		t.Errorf("MedianDiff: %+v", d)
	}
	if same := MedianDiff(short.Turns, short.Turns); same.D != 0 || same.Significant {
		t.Errorf("MedianDiff of the same: %+v", same)
	}
	s := &Study{Kind: "compare", Entries: []Entry{
		{Config: "classic", Skill: "greedy", Report: short},
		{Config: "classic + bomb", Skill: "greedy", Report: long},
	}}
	if v := s.Verdicts(); len(v) != 1 || v[0] != "classic + bomb makes classic no easier and no harder for the greedy player and makes games about 2.8 times longer" {
		t.Errorf("verdict %q", v)
	}
}
