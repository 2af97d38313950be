package progress

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// clock is a clock the test moves by hand.
type clock struct{ t time.Time }

func (c *clock) now() time.Time      { return c.t }
func (c *clock) add(d time.Duration) { c.t = c.t.Add(d) }
func newClock() *clock               { return &clock{t: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)} }

// TestWholeStudyLine: a study of several runs says, in one line, the run
// under way (i of n) and its configuration and skill, the work done of
// the whole study's budget and the time left for all of it, at the pace
// of the work played so far; not the run's alone.
func TestWholeStudyLine(t *testing.T) {
	c := newClock()
	var out bytes.Buffer
	w := NewWhole(&out, "study", "moves", 300_000_000, true, c.now)
	w.Run(1, 3, "mid · greedy", 100_000_000)
	w.Live.Store(50_000_000)
	c.add(10 * time.Second)
	if got, want := w.Line(), "study, run 1 of 3, mid · greedy: 50 million of at most 300 million moves (this run's share 100 million), at most about 50s left"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	w.RunDone(60_000_000, 60_000_000) // answered early: the later runs share what it left
	w.Run(2, 3, "mid · expert", 120_000_000)
	w.Live.Store(60_000_000)
	c.add(10 * time.Second)
	w.Tick()
	if got, want := out.String(), "2048 sim: study, run 2 of 3, mid · expert: 120 million of at most 300 million moves (this run's share 120 million), at most about 30s left\n"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// A study of games, no budget: its games of every run's.
	g := NewWhole(&out, "study", "games", 3*200, false, c.now)
	g.Run(3, 3, "base · random", 0)
	g.RunDone(200, 200)
	g.RunDone(200, 200)
	g.Run(3, 3, "base · random", 0)
	g.Games(50)
	c.add(30 * time.Second)
	if got, want := g.Line(), "study, run 3 of 3, base · random: 450 of 600 games, about 10s left"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestWholeShare: no run counts more than its share of the study's
// budget: a run whose games played past it (the games under way when it
// was spent finish) counts its share, and the line says by how much it
// is past it and why; what it counted in the end (sim.Spent) is the
// study's, which the runs after it share the rest of.
func TestWholeShare(t *testing.T) {
	c := newClock()
	w := NewWhole(&bytes.Buffer{}, "study", "moves", 200_000_000, true, c.now)
	w.Run(4, 10, "entropy · expert", 20_000_000)
	for _, live := range []uint64{0, 19_000_000, 20_000_000, 99_200_000} {
		w.Live.Store(live)
		c.add(time.Second)
		line := w.Line()
		counted := min(live, 20_000_000)
		if !strings.Contains(line, ": "+countOf(counted)+" of at most 200 million moves") {
			t.Errorf("%d played of a share of 20 million: %s", live, line)
		}
		if past := strings.Contains(line, "past its share"); past != (live > 20_000_000) {
			t.Errorf("%d played of a share of 20 million, past its share said %v: %s", live, past, line)
		}
	}
	w.Pending.Store(15_000_000) // game 0 of the run, under way, may do 15 million more
	if line, want := w.Line(), "its games have played 79.2 million moves past its share: the budget counts in game order, so the games under way play on until those before them are known to spend it, each at most the share's work by itself, at most 15 million moves more; the runs after it share what is left"; !strings.Contains(line, want) {
		t.Errorf("the line does not say why the run is past its share:\n%s\nwant %s", line, want)
	}
	// The last run past its share: the time left is its games' under way
	// at most, at the pace of the work played (the user's line read "148
	// million of 74.3 million moves, about 1s left" while game 0 went on).
	c = newClock()
	last := NewWhole(&bytes.Buffer{}, "study", "moves", 148_600_000, true, c.now)
	last.RunDone(74_300_000, 74_300_000)
	last.Run(2, 2, "classic + entropy · expert", 74_300_000)
	last.Live.Store(148_000_000)
	last.Pending.Store(37_000_000)
	c.add(111 * time.Second)
	if line, want := last.Line(), "study, run 2 of 2, classic + entropy · expert: 149 million of at most 149 million moves (this run's share 74.3 million); its games have played 73.7 million moves past its share: the budget counts in game order, so the games under way play on until those before them are known to spend it, each at most the share's work by itself, at most 37 million moves more, at most about 18s left"; line != want {
		t.Errorf("got  %s\nwant %s", line, want)
	}
	// The total that grows says why.
	tw := NewWhole(&bytes.Buffer{}, "tune", "games", 1000, false, c.now)
	tw.Add(400)
	tw.Plan(1600, "the screen's second pass, about goal.turns=200")
	if line := tw.Line(); !strings.Contains(line, "400 of 1,600 games; the plan grew by 600 games: the screen's second pass, about goal.turns=200") {
		t.Errorf("the grown plan: %s", line)
	}
}

func countOf(n uint64) string {
	switch n {
	case 0:
		return "0"
	case 19_000_000:
		return "19 million"
	}
	return "20 million"
}

// TestWholeTicks: a line comes on every tick, though no work is done in
// it, and none after Stop.
func TestWholeTicks(t *testing.T) {
	c := newClock()
	var out syncBuffer
	w := NewWhole(&out, "tune", "games", 100, false, c.now)
	w.Phase("screening the levers")
	tick := make(chan time.Time)
	w.Go(tick, nil)
	for range 3 {
		tick <- c.now()
	}
	w.Stop()
	n := strings.Count(out.String(), "\n")
	if got := strings.Count(out.String(), "2048 sim: tune, screening the levers: 0 of 100 games, time left unknown\n"); got < 2 || got != n {
		t.Errorf("%d lines for 3 ticks:\n%s", got, out.String())
	}
	w.Tick()
	if strings.Count(out.String(), "\n") != n {
		t.Error("a line came after Stop")
	}
}

// syncBuffer is a buffer the ticker's goroutine writes while the test
// reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestBudgetLinePast: a run's line (2048 sim run) whose games have played
// past its budget says by how much, and why, rather than a count above
// the budget with no word.
func TestBudgetLinePast(t *testing.T) {
	if got, want := BudgetLine(12_500_000, 50_000_000, 10*time.Second), "; 12.5 million of 50 million moves, the budget spent in about 30s"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	got := BudgetLine(148_000_000, 74_300_000, 10*time.Second)
	if want := "; 148 million of 74.3 million moves (73.7 million past it: the budget counts in game order, so the games under way play on until those before them are known to spend it, each at most the budget's work by itself)"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
