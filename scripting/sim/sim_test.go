package sim

import (
	"bytes"
	"errors"
	"math"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/engine/ai"
	"github.com/mod2048/mod2048/scripting/session"
)

func options(t *testing.T, policy string, games int, sets ...string) Options {
	t.Helper()
	c, err := config.Build(config.BuildOptions{Sets: sets})
	if err != nil {
		t.Fatal(err)
	}
	mk, err := MakePolicy(policy, PolicyOptions{Depth: 1, Samples: 2, AI: quickAI()})
	if err != nil {
		t.Fatal(err)
	}
	return Options{Setup: session.Setup{Config: c}, Policy: policy, Make: mk, Games: games, Seed: 7, MaxTurns: 3000}
}

func quickAI() ai.Settings {
	s := ai.Defaults()
	s.MaxDepth = 2
	return s
}

func header(o Options) Header { return o.header() }

// TestJobsAndShards: the same run gives the same report byte for byte with
// one worker or three, and shards (1, 2 and 7 of them) merge into exactly
// the whole run's report.
func TestJobsAndShards(t *testing.T) {
	o := options(t, "random", 21)
	o.Jobs = 1
	one, err := Run(o)
	if err != nil {
		t.Fatal(err)
	}
	o.Jobs = 3
	three, err := Run(o)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := NewReport(header(o), one).JSON()
	b, _ := NewReport(header(o), three).JSON()
	if !bytes.Equal(a, b) {
		t.Fatal("--jobs 1 and 3 give different reports")
	}
	for _, n := range []int{1, 2, 7} {
		var parts []*Report
		for i := 0; i < n; i++ {
			o.Shard, o.Shards = i, n
			rs, err := Run(o)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := NewReport(header(o), rs).JSON()
			part, err := ParseReport(data)
			if err != nil {
				t.Fatal(err)
			}
			parts = append(parts, part)
		}
		merged, _, err := Merge(parts, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := merged.JSON()
		if !bytes.Equal(got, a) {
			t.Errorf("%d shards merged differ from the whole run", n)
		}
	}
	o.Shard, o.Shards = 0, 0
	if _, _, err := Merge([]*Report{NewReport(header(o), one), NewReport(header(o), one)}, nil, false); err == nil {
		t.Error("overlapping shards merged")
	}
}

// TestPolicies: every policy plays legal moves to the end of classic
// games; the searching ones do better than random.
func TestPolicies(t *testing.T) {
	medians := map[string]float64{}
	for _, p := range Policies() {
		o := options(t, p, 4)
		rs, err := Run(o)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		r := NewReport(header(o), rs)
		if r.Losses+r.Wins != 4 {
			t.Errorf("%s: %d of 4 games ended", p, r.Losses+r.Wins)
		}
		medians[p] = r.Score.P50
	}
	if medians["expert"] <= medians["random"] || medians["lookahead"] <= medians["random"] {
		t.Errorf("median scores %v: the searching policies should beat random", medians)
	}
}

func TestRate(t *testing.T) {
	for _, c := range []struct {
		k, n   int
		lo, hi float64
	}{
		{0, 10, 0, 0.277533},
		{5, 10, 0.236593, 0.763407},
		{10, 10, 0.722467, 1},
		{50, 100, 0.403832, 0.596168},
	} {
		p, ci := rate(c.k, c.n)
		if math.Abs(p-float64(c.k)/float64(c.n)) > 1e-9 || math.Abs(ci[0]-c.lo) > 1e-6 || math.Abs(ci[1]-c.hi) > 1e-6 {
			t.Errorf("rate(%d, %d) = %v %v, want [%v, %v]", c.k, c.n, p, ci, c.lo, c.hi)
		}
	}
	d := dist([]float64{5, 1, 4, 2, 3, 10, 9, 8, 7, 6})
	if d != (Dist{P10: 1, P50: 5, P90: 9, Max: 10, P50CI: [2]float64{2, 9}}) {
		t.Errorf("dist %+v", d)
	}
}

// TestViewLeaksNoSpawn: what a policy sees holds no random state of the
// game, and a fork it searches draws its own chance: played the move the
// game then plays, a fork lands the game's next spawn no more often than
// chance. With the game's random state in the view, a fork made from it
// landed 364 spawns of 364.
func TestViewLeaksNoSpawn(t *testing.T) {
	c, err := config.Build(config.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.New(session.Setup{Config: c}, session.Start{Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	moves, same := 0, 0
	for i := 0; moves < 300; i++ {
		v := ViewOf(s)
		if v.State.RNG != (engine.RNG{}) {
			t.Fatal("the view holds the game's random state")
		}
		if v.Legal == 0 {
			if err := s.NewGame(uint64(i)); err != nil {
				t.Fatal(err)
			}
			continue
		}
		d := v.Legal.List()[i%len(v.Legal.List())]
		fork := v.Fork(uint64(i) + 1)
		if _, err := fork.Move(d); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Move(d); err != nil {
			t.Fatal(err)
		}
		moves++
		if fb, gb := fork.Board(), s.Board(); fb.Equal(&gb) {
			same++
		}
	}
	if rate := float64(same) / float64(moves); rate > 0.4 {
		t.Errorf("a fork landed the game's spawn %d times in %d moves", same, moves)
	}
	t.Logf("a fork landed the game's spawn %d times in %d moves", same, moves)
}

// TestLabImportsNoPlot: a program that imports the lab to run games or pick
// a policy does not pull in gonum/plot (package simplot draws).
func TestLabImportsNoPlot(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the packages with")
	}
	out, err := exec.Command(goBin, "list", "-deps", "github.com/mod2048/mod2048/scripting/sim").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "gonum.org/") {
			t.Errorf("the lab imports %s", dep)
		}
	}
}

// TestRunStops: a run whose Stop closes returns at once with the games that
// finished, each the same as in the whole run, and ErrStopped.
// TestRunGate: runs that share a gate give the reports they give alone,
// and never play more games at once than it has slots: a game is under
// way from the first position its player is shown to the last, and with
// one slot no two games' positions interleave.
func TestRunGate(t *testing.T) {
	runs := []Options{options(t, "random", 12), options(t, "greedy", 9)}
	runs[1].Seed = 8
	var want [][]byte
	for _, o := range runs {
		o.Jobs = 1
		rs, err := Run(o)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := NewReport(header(o), rs).JSON()
		want = append(want, data)
	}
	for _, slots := range []int{1, 2} {
		gate := make(chan struct{}, slots)
		var mu sync.Mutex
		var seen [][2]int // the games shown a position, in order: run, game
		got := make([][]byte, len(runs))
		var wg sync.WaitGroup
		for i, o := range runs {
			o.Gate = gate
			o.Observe = func(game int, _ View) {
				mu.Lock()
				seen = append(seen, [2]int{i, game})
				mu.Unlock()
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				rs, err := Run(o)
				if err != nil {
					t.Error(err)
					return
				}
				got[i], _ = NewReport(header(o), rs).JSON()
			}()
		}
		wg.Wait()
		for i := range runs {
			if !bytes.Equal(got[i], want[i]) {
				t.Errorf("run %d through a gate of %d slots differs from the run alone", i, slots)
			}
		}
		last := map[[2]int]int{}
		for k, g := range seen {
			last[g] = k
		}
		open := map[[2]int]bool{}
		for k, g := range seen {
			open[g] = true
			if len(open) > slots {
				t.Fatalf("a gate of %d slots: %d games under way at once", slots, len(open))
			}
			if last[g] == k {
				delete(open, g)
			}
		}
	}
}

func TestRunStops(t *testing.T) {
	o := options(t, "random", 40)
	o.Jobs = 2
	whole, err := Run(o)
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	o.Stop = stop
	o.Progress = func(done int) {
		if done == 5 {
			close(stop)
		}
	}
	part, err := Run(o)
	if !errors.Is(err, ErrStopped) || len(part) < 5 || len(part) >= len(whole) {
		t.Fatalf("stopped run: %v, %d games of %d", err, len(part), len(whole))
	}
	for _, r := range part {
		if w := whole[r.Game]; w.Outcome != r.Outcome || w.Turns != r.Turns || w.Score != r.Score {
			t.Errorf("game %d differs when the run is stopped: %+v, want %+v", r.Game, r, w)
		}
	}
}

// TestRunPrecise: played in batches until the win rate is known to ±10
// points, a run stops early, and its games are the first games of the
// whole run, the same ones.
func TestRunPrecise(t *testing.T) {
	o := options(t, "random", 400)
	o.Jobs = 2
	whole, err := Run(o)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := RunPrecise(o, 0.10, 25)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) == 0 || len(rs) >= len(whole) || len(rs)%25 != 0 || HalfWidth(rs) > 0.10 || HalfWidth(rs[:len(rs)-25]) <= 0.10 {
		t.Fatalf("%d games", len(rs))
	}
	for i, r := range rs {
		if r.Game != i || r.Turns != whole[i].Turns || r.Score != whole[i].Score {
			t.Fatalf("game %d differs from the whole run's", i)
		}
	}
	again, _ := RunPrecise(o, 0.10, 25)
	if len(again) != len(rs) {
		t.Errorf("the same options gave %d and %d games", len(rs), len(again))
	}
}

// TestBudget: a run with a budget of moves ends with the game at which its
// games reach it, the same games with one worker or two, and each the same
// as in the whole run; a search's moves count (lookahead plays many a
// turn); RunPrecise spends one budget across its batches.
func TestBudget(t *testing.T) {
	for _, policy := range []string{"random", "lookahead"} {
		o := options(t, policy, 40)
		o.Jobs = 2
		whole, err := Run(o)
		if err != nil {
			t.Fatal(err)
		}
		turns := 0
		for _, r := range whole {
			turns += r.Turns
			if r.Moves < uint64(r.Turns) || policy == "lookahead" && r.Moves < 4*uint64(r.Turns) {
				t.Fatalf("%s game %d: %d moves counted in %d turns", policy, r.Game, r.Moves, r.Turns)
			}
		}
		o.Budget = Spent(whole) / 3
		var runs [][]Result
		for _, jobs := range []int{1, 2} {
			o.Jobs = jobs
			rs, err := Run(o)
			if err != nil {
				t.Fatal(err)
			}
			runs = append(runs, rs)
		}
		rs := runs[0]
		n := len(rs)
		if n == 0 || n == len(whole) || Spent(rs) < o.Budget || Spent(rs[:n-1]) >= o.Budget || !Cut(o, rs) {
			t.Fatalf("%s: budget %d: %d games of %d, %d moves", policy, o.Budget, n, len(whole), Spent(rs))
		}
		if len(runs[1]) != n {
			t.Fatalf("%s: one worker played %d games to the budget, two %d", policy, n, len(runs[1]))
		}
		for i, r := range rs {
			same := func(a, b Result) bool {
				return a.Game == b.Game && a.Turns == b.Turns && a.Score == b.Score && a.Outcome == b.Outcome && a.Moves == b.Moves
			}
			if w, two := whole[i], runs[1][i]; !same(r, w) || !same(r, two) {
				t.Fatalf("%s game %d differs at the budget: %+v, %+v, want %+v", policy, i, r, two, w)
			}
		}
		o.Jobs = 2
		precise, err := RunPrecise(o, 0.001, 5)
		if err != nil {
			t.Fatal(err)
		}
		if len(precise) != n {
			t.Errorf("%s: RunPrecise to the budget played %d games, Run %d", policy, len(precise), n)
		}
	}
}
