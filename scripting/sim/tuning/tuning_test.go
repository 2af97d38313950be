package tuning

import (
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/scripting/mod"
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

// meter records what a tune tells its Meter: each phase, in order, and
// the games that ended in it, and the plan.
type meter struct {
	mu     sync.Mutex
	phases []string
	games  map[string]uint64
	plan   uint64
	grew   []string
}

func (m *meter) Plan(games uint64, why string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.plan = games
	if why != "" {
		m.grew = append(m.grew, why)
	}
}

func (m *meter) Phase(p string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.phases) == 0 || m.phases[len(m.phases)-1] != p {
		m.phases = append(m.phases, p)
	}
}

func (m *meter) Add(n uint64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.games[m.phases[len(m.phases)-1]] += n
}

// TestTuneMeterPhases: a tune tells its meter every phase, the screen,
// the exploration, the refinement and the check, and the games that end
// in each as they end, so that its one progress line (progress.Whole, a
// line on every tick of its ticker) has something to say in every phase,
// not only when a candidate is measured; the games played come to no
// more than the plan.
func TestTuneMeterPhases(t *testing.T) {
	b := config.BuildOptions{Ruleset: "cellular", Difficulty: "early"}
	base, err := config.Build(b)
	if err != nil {
		t.Fatal(err)
	}
	m := &meter{games: map[string]uint64{}}
	_, err = Run(Setup{Base: base, Build: b, LoadMods: func([]string) ([]*mod.Mod, error) { return nil, nil },
		Targets: "greedy=0.5", Stages: "4x1,8", ScreenGames: 4, CheckGames: 4, Seed: 1, MaxTurns: 1000, Jobs: 2,
		Log: io.Discard, Meter: m})
	if err != nil {
		t.Fatal(err)
	}
	var total uint64
	for _, kind := range []string{"screening", "exploring", "refining", "checking"} {
		var games uint64
		for _, p := range m.phases {
			if strings.HasPrefix(p, kind) {
				games += m.games[p]
			}
		}
		if games == 0 {
			t.Errorf("no games counted while %s: phases %q, games %v", kind, m.phases, m.games)
		}
		total += games
	}
	if total == 0 || total > m.plan {
		t.Errorf("%d games played, the plan %d", total, m.plan)
	}
}

// TestScreenStopped: a tune stopped in its screen answers with the point
// of its latest pass nearest the targets, its lever moved from the base,
// marked partial with the rates measured there, in the report and in the
// file; a screen stopped before any point, with an error.
func TestScreenStopped(t *testing.T) {
	b := config.BuildOptions{Ruleset: "cellular", Difficulty: "early"}
	base, err := config.Build(b)
	if err != nil {
		t.Fatal(err)
	}
	tr := &tuneRun{s: Setup{Build: b, LoadMods: func([]string) ([]*mod.Mod, error) { return nil, nil }, Command: "2048 sim tune"}, base: base,
		targets: []simtune.Target{{Skill: "greedy", Rate: 0.5}}}
	for _, key := range []string{"goal.turns", "spawn_alive"} {
		l, err := tr.lever(key)
		if err != nil {
			t.Fatal(err)
		}
		tr.cands = append(tr.cands, l)
	}
	if _, err := tr.screenStopped(&simtune.ScreenResult{}); err == nil || !strings.Contains(err.Error(), "nothing to write") {
		t.Errorf("no point measured: %v", err)
	}
	res := &simtune.ScreenResult{Games: 24, Points: []simtune.ScreenPoint{
		{Pass: 1, Lever: -1, Games: 24, Rates: []float64{0.75}},
		{Pass: 1, Lever: 0, Value: 600, Games: 24, Rates: []float64{0.625}},
		{Pass: 1, Lever: 1, Value: 0.2, Games: 24, Refused: "no"},
		{Pass: 1, Lever: 1, Value: 0.7, Games: 24, Rates: []float64{0.125}},
	}}
	rep, err := tr.screenStopped(res)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Partial || len(rep.Levers) != 1 || rep.Levers[0].Key != "goal.turns" || rep.Answer[0] != 600 {
		t.Fatalf("the answer: %+v", rep.Result)
	}
	var text strings.Builder
	if err := rep.Text(&text); err != nil {
		t.Fatal(err)
	}
	file := string(rep.TOML())
	for _, want := range []string{"partial: the tune was stopped", "measured on 24 games at each skill: greedy 62.5%\n", "the screen was stopped: the best point it measured, goal.turns moved from the base"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, text.String())
		}
	}
	for _, want := range []string{"# partial: the tune was stopped", "# measured on 24 games at each skill: greedy 62.5% (targets greedy 50%)\n", "turns = 600\n"} {
		if !strings.Contains(file, want) {
			t.Errorf("the file lacks %q:\n%s", want, file)
		}
	}
	// Stopped in the check: the answer is the models' solution, which no
	// game measured; the file gives the models' rates, so named.
	rep.Answer, rep.Reach = []float64{640}, []float64{0.49}
	if file := string(rep.TOML()); !strings.Contains(file, "# not measured: the models' rates at it: greedy 49.0% (targets greedy 50%)\n") || strings.Contains(file, "# measured on") {
		t.Errorf("a tune stopped in its check:\n%s", file[:300])
	}
}
