package simtune

import (
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/mod2048/mod2048/engine"
)

// winRate is a stand-in for a game's skill ladder: two skills whose
// chance of a win falls with a hazard's rate (x) and rises with a turn
// limit (y), the weak player's mostly with the hazard and the strong
// one's with the limit, measured on games games whose luck is common to
// every candidate (game i's draw is the same for every candidate: common
// random numbers). Both targets are met at x = 0.731, y = 0.725.
func winRate(x, y float64, skill, from, games int) float64 {
	z := 4*(0.4-x) + (y - 0.5)
	if skill == 1 {
		z = 1.5*(0.4-x) + 4*(y-0.5)
	}
	p := 1 / (1 + math.Exp(-z))
	wins := 0
	for i := from; i < from+games; i++ {
		u := float64(engine.Mix(uint64(skill)<<32|uint64(i))>>11) / (1 << 53)
		if u < p {
			wins++
		}
	}
	return float64(wins) / float64(games)
}

func toy(t *testing.T) Options {
	return Options{
		Levers: []Lever{
			{Key: "hazard", Start: 0.9, Lo: 0, Hi: 1},
			{Key: "turns", Start: 10, Lo: 0, Hi: 100, Int: true},
		},
		Targets: []Target{{"weak", 0.25}, {"strong", 0.6}},
		Seed:    1,
		Eval: func(v []float64, from, games int) ([]float64, error) {
			if v[1] == 0 {
				return nil, Infeasible{errors.New("turns = 0: want at least 1")}
			}
			return []float64{winRate(v[0], v[1]/100, 0, from, games), winRate(v[0], v[1]/100, 1, from, games)}, nil
		},
	}
}

// TestTuneFindsTheLadder: from a start far from both targets (the weak
// player wins about 8%, the strong one 9%), the search lands within 6
// points of both on games it never saw, whatever the games it plays
// (eight runs, each on other games and with other draws of its own); and
// the same options give the same steps.
func TestTuneFindsTheLadder(t *testing.T) {
	for run := range 8 {
		o := toy(t)
		o.Seed = uint64(run + 1)
		off := run * 1_000_000
		eval := o.Eval
		o.Eval = func(v []float64, from, games int) ([]float64, error) { return eval(v, from+off, games) }
		r, err := Tune(o)
		if err != nil {
			t.Fatal(err)
		}
		if best := r.Steps[r.Best]; best.Round != len(DefaultRefine) {
			t.Errorf("run %d: the last candidate measured is of round %d, not the last", run, best.Round)
		}
		v := r.Values()
		for i, tg := range o.Targets {
			fresh := winRate(v[0], v[1]/100, i, 1<<40, 100000)
			if math.Abs(fresh-tg.Rate) > 0.06 {
				t.Errorf("run %d: %s: %.3f on fresh games, target %.2f (values %v)", run, tg.Skill, fresh, tg.Rate, v)
			}
		}
		if v[1] != math.Round(v[1]) {
			t.Errorf("an integer lever holds %v", v[1])
		}
		if run == 0 {
			again, _ := Tune(toy(t))
			if !reflect.DeepEqual(r, again) {
				t.Error("the same options gave another search")
			}
		}
	}
}

// TestTuneStopsOnError: an error of Eval that is not Infeasible stops the
// search at once, and comes back.
func TestTuneStopsOnError(t *testing.T) {
	o := toy(t)
	calls := 0
	stop := errors.New("stopped")
	o.Eval = func(v []float64, from, games int) ([]float64, error) {
		calls++
		if calls == 3 {
			return nil, stop
		}
		return []float64{0.5, 0.5}, nil
	}
	r, err := Tune(o)
	if !errors.Is(err, stop) || len(r.Steps) != 2 || calls != 3 {
		t.Fatalf("err %v, %d steps, %d calls", err, len(r.Steps), calls)
	}
	if r.Answer == nil || r.Best < 0 {
		t.Errorf("a stopped search has no answer: the best measured so far")
	}
}

// TestTuneRefusedEverywhere: a search whose every candidate is refused
// says so.
func TestTuneRefusedEverywhere(t *testing.T) {
	o := toy(t)
	o.Eval = func([]float64, int, int) ([]float64, error) { return nil, Infeasible{errors.New("no")} }
	if _, err := Tune(o); !errors.Is(err, ErrNoCandidate) {
		t.Fatalf("err %v", err)
	}
}

// TestValueInRange: a value rounded to its grain stays in the lever's
// range, whose ends (a widened one: 0.00057) need not be grains.
func TestValueInRange(t *testing.T) {
	l := Lever{Lo: 0.00057, Hi: 0.76}
	for _, c := range []float64{0, 0.0001, 0.5, 0.9999, 1} {
		if v := l.Value(c); v < l.Lo || v > l.Hi {
			t.Errorf("Value(%v) = %v, outside %v to %v", c, v, l.Lo, l.Hi)
		}
	}
	if v := l.Value(0); v != 0.002 {
		t.Errorf("Value(0) = %v, want the first grain inside, 0.002", v)
	}
}

func TestGrain(t *testing.T) {
	for _, c := range []struct{ lo, hi, want float64 }{{0, 1, 0.005}, {0, 0.3, 0.001}, {0.19, 0.76, 0.002}, {10, 40, 0.1}} {
		if g := (Lever{Lo: c.lo, Hi: c.hi}).Grain(); math.Abs(g-c.want) > 1e-12 {
			t.Errorf("%v to %v: grain %v, want %v", c.lo, c.hi, g, c.want)
		}
	}
}

func TestParseTargets(t *testing.T) {
	skills := []string{"random", "greedy", "lookahead 1", "expert"}
	got, err := ParseTargets("greedy=0.25, expert=60%,lookahead 1=0.5", skills)
	want := []Target{{"greedy", 0.25}, {"expert", 0.6}, {"lookahead 1", 0.5}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, %v", got, err)
	}
	for _, bad := range []string{"", "greedy", "greedy=", "master=0.5", "greedy=1.5", "greedy=0.2,greedy=0.3", "greedy=x"} {
		if _, err := ParseTargets(bad, skills); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
