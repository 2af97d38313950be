package simtune

import (
	"errors"
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/mod2048/mod2048/engine"
	"gonum.org/v1/gonum/mat"
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
		if r.Apart {
			t.Errorf("run %d: targets the levers meet are called apart (models at the answer %v)", run, r.Reach)
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

// TestSnapSolvesTheRest: a lever that takes steps goes to the step from
// which the other levers can meet the target, and they are solved again
// from there: the model's logit 2a + b = 1.3 from a = 0.6 would round a
// to 0.5 (b: 0.1, a miss of 0.2 logits) where b = 0.3 meets it.
func TestSnapSolvesTheRest(t *testing.T) {
	tn := &tuner{o: Options{Levers: []Lever{
		{Key: "goal", Lo: 0, Hi: 1, Grid: []float64{0, 0.25, 0.5, 0.75, 1}},
		{Key: "rate", Lo: 0, Hi: 1},
	}}}
	a := mat.NewDense(1, 2, []float64{2, 1})
	x := tn.snap(a, []float64{0}, []float64{sigmoid(1.3)}, []float64{0.5, 0.5}, []float64{0.6, 0.1}, 1)
	if math.Abs(x[0]-0.5) > 1e-9 || math.Abs(x[1]-0.3) > 1e-3 {
		t.Errorf("snapped to %v, want [0.5 0.3]", x)
	}
	// An integer lever alike, and a lever of every value left as it is.
	tn.o.Levers[0] = Lever{Key: "turns", Lo: 0, Hi: 4, Int: true}
	x = tn.snap(a, []float64{0}, []float64{sigmoid(1.3)}, []float64{0.5, 0.5}, []float64{0.6, 0.1}, 1)
	if math.Abs(x[0]-0.5) > 1e-9 || math.Abs(x[1]-0.3) > 1e-3 {
		t.Errorf("an integer: snapped to %v, want [0.5 0.3]", x)
	}
	tn.o.Levers[0] = Lever{Key: "rate2", Lo: 0, Hi: 1}
	if x = tn.snap(a, []float64{0}, []float64{sigmoid(1.3)}, []float64{0.5, 0.5}, []float64{0.6, 0.1}, 1); x[0] != 0.6 || x[1] != 0.1 {
		t.Errorf("no lever takes steps: moved to %v", x)
	}
}

// TestTuneOnSteps: a goal that counts only through its threshold,
// ceil(goal × 36), a step every 1/36 that moves both skills by half a
// logit, and a rate of every value that moves mostly the strong one:
// every answer is one of the goal's steps, and over 48 searches on games
// of their own the answers' furthest miss is 4.5 points at most on
// average, on fresh games. (Over 300 searches it averages 4.05 points,
// with the rates' compromise as with the logits' before it; the best step
// misses by 1.7: a search now and then takes the step beside it, where a
// round's model misread a step's slope.)
func TestTuneOnSteps(t *testing.T) {
	var grid []float64
	for k := 12; k <= 36; k++ {
		grid = append(grid, math.Round((float64(k)-0.5)/36*1000)/1000)
	}
	rates := func(goal, rate float64, from, games int) []float64 {
		q := math.Ceil(goal*36) / 36
		return []float64{steep(q, rate, 0, from, games), steep(q, rate, 1, from, games)}
	}
	total := 0.0
	const runs = 48
	for run := range runs {
		off := run * 1_000_000
		r, err := Tune(Options{
			Levers:  []Lever{{Key: "goal", Start: 0.5, Lo: 0.4, Hi: 0.9, Grid: grid}, {Key: "rate", Start: 0.5, Lo: 0, Hi: 1}},
			Targets: []Target{{"weak", 0.25}, {"strong", 0.6}},
			Seed:    uint64(run + 1),
			Eval: func(v []float64, from, games int) ([]float64, error) {
				return rates(v[0], v[1], from+off, games), nil
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		v := r.Values()
		if !slices.Contains(grid, v[0]) {
			t.Errorf("run %d: the goal %v is none of its steps", run, v[0])
		}
		f := rates(v[0], v[1], 1<<40, 20000)
		total += math.Max(math.Abs(f[0]-0.25), math.Abs(f[1]-0.6))
	}
	if mean := total / runs; mean > 0.045 {
		t.Errorf("the answers miss by %.3f on average, on fresh games", mean)
	}
}

// TestBeside: a probe of a lever that takes steps moves a step at least
// (beside), within the range, and none where there is none.
func TestBeside(t *testing.T) {
	g := Lever{Lo: 0.3, Hi: 0.5, Grid: []float64{0.25, 0.32, 0.35, 0.38, 0.41, 0.52}}
	i := Lever{Lo: 2, Hi: 9, Int: true}
	for _, c := range []struct {
		l          Lever
		v, d, want float64
	}{{g, 0.35, 0.01, 0.38}, {g, 0.35, -0.01, 0.32}, {g, 0.32, -0.01, 0.32}, {g, 0.41, 1, 0.41}, {g, 0.36, 0.001, 0.38},
		{i, 5, 0.1, 6}, {i, 5, -0.1, 4}, {i, 9, 1, 9}, {Lever{Lo: 0, Hi: 1}, 0.5, 0.1, 0.5}} {
		if got := c.l.beside(c.v, c.d); got != c.want {
			t.Errorf("%+v: beside(%v, %v) = %v, want %v", c.l, c.v, c.d, got, c.want)
		}
	}
}

// steep is winRate's ladder on a goal q (a threshold over the cells) and
// a rate r: the targets lie at q = 0.6055, between two of a 6 × 6
// board's thresholds, and r = 0.538.
func steep(q, r float64, skill, from, games int) float64 {
	z := -20*(q-0.55) + 0.3*(r-0.5)
	if skill == 1 {
		z = -20*(q-0.62) + 3*(r-0.5)
	}
	p := 1 / (1 + math.Exp(-z))
	wins := 0
	for i := from; i < from+games; i++ {
		if u := float64(engine.Mix(uint64(skill)<<32|uint64(i))>>11) / (1 << 53); u < p {
			wins++
		}
	}
	return float64(wins) / float64(games)
}

// TestMeetSharesTheMissInPoints: where one lever moves two skills
// together, 3 logits apart, and the targets ask 1.6 apart (late's greedy
// 8%, expert 30%), meet gives the compromise whose furthest miss in
// points is least, found on a fine grid: the expert about 35% and greedy
// about 3%, 5 points off each, where the least squares in logits gave
// the expert 46%. Where the targets can be met, it meets them as the
// logits' solution does.
func TestMeetSharesTheMissInPoints(t *testing.T) {
	a := mat.NewDense(2, 1, []float64{4, 4})
	m0 := []float64{-6, -3}
	rates := []float64{0.08, 0.3}
	furthest := func(a *mat.Dense, m0, x []float64) float64 {
		f := 0.0
		for j := range rates {
			f = max(f, math.Abs(modelRate(a, m0, j, x)-rates[j]))
		}
		return f
	}
	x, held := meet(a, m0, rates, []float64{0.5})
	best := math.Inf(1)
	for i := range 100001 {
		best = min(best, furthest(a, m0, []float64{float64(i) / 100000}))
	}
	if f := furthest(a, m0, x); f > best+0.002 || held[0] != 0 {
		t.Errorf("meet: x %v (held %v) misses by %.4f at most, the least furthest miss %.4f", x, held, f, best)
	}
	if e, g := modelRate(a, m0, 1, x), modelRate(a, m0, 0, x); math.Abs(e-0.35) > 0.01 || math.Abs(g-0.03) > 0.01 {
		t.Errorf("the expert's rate %.3f, greedy's %.3f: want about 0.35 and 0.03", e, g)
	}
	logits, _ := boxSolve(a, []float64{logit(0.08) + 6, logit(0.3) + 3}, []float64{0.5}, 1e-3)
	if e := modelRate(a, m0, 1, logits); e < 0.4 {
		t.Errorf("the logits' compromise gives the expert %.3f: this test no longer shows the difference", e)
	}

	// Two levers meet two targets: exactly, at the logits' solution.
	a2 := mat.NewDense(2, 2, []float64{4, 1, 1.5, 4})
	m2 := []float64{logit(0.08) - 2.8, logit(0.3) - 2.5} // met at (0.6, 0.4)
	x2, _ := meet(a2, m2, rates, []float64{0.5, 0.5})
	if f := furthest(a2, m2, x2); f > 1e-4 {
		t.Errorf("reachable targets missed by %g", f)
	}
	// And a lever held at the end of its range stays held.
	x3, held3 := meet(mat.NewDense(1, 1, []float64{1}), []float64{-4}, []float64{0.9}, []float64{0.5})
	if x3[0] != 1 || held3[0] != 1 {
		t.Errorf("an unreachable target: x %v, held %v, want 1 and +1", x3, held3)
	}
}

// TestTuneComprisesInPoints: a whole search where one lever moves both
// skills 3 logits apart and the targets ask 1.6 (late's): its answer on
// fresh games misses neither by much more than the 5 points the best
// compromise must (the expert about 35%, greedy about 3%), and the
// result's Reach says the models miss greedy, as they must.
func TestTuneComprisesInPoints(t *testing.T) {
	rate := func(x float64, skill, from, games int) float64 {
		z := -3 + 4*x
		if skill == 0 {
			z -= 3
		}
		p := sigmoid(z)
		wins := 0
		for i := from; i < from+games; i++ {
			if u := float64(engine.Mix(uint64(skill)<<32|uint64(i))>>11) / (1 << 53); u < p {
				wins++
			}
		}
		return float64(wins) / float64(games)
	}
	r, err := Tune(Options{
		Levers:  []Lever{{Key: "turns", Start: 0.9, Lo: 0, Hi: 1}},
		Targets: []Target{{"greedy", 0.08}, {"expert", 0.3}},
		Seed:    3,
		Eval: func(v []float64, from, games int) ([]float64, error) {
			return []float64{rate(v[0], 0, from, games), rate(v[0], 1, from, games)}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	g, e := rate(r.Answer[0], 0, 1<<40, 20000), rate(r.Answer[0], 1, 1<<40, 20000)
	if math.Abs(e-0.3) > 0.08 || math.Abs(g-0.08) > 0.08 {
		t.Errorf("fresh games: greedy %.3f, expert %.3f (answer %v), want about 0.03 and 0.35", g, e, r.Answer)
	}
	if len(r.Reach) != 2 || r.Reach[0] > 0.06 || !r.Apart {
		t.Errorf("Reach %v, Apart %v: want greedy's model well short of 8%%, and apart", r.Reach, r.Apart)
	}
}

// TestMeetSaturated: a model whose rate is 0 or 1 to the last bit (a
// logit of ±60) gives no NaN: the lever a target cannot move is left
// where the other target wants it.
func TestMeetSaturated(t *testing.T) {
	a := mat.NewDense(2, 1, []float64{1, 4})
	x, _ := meet(a, []float64{60, -2}, []float64{0.5, 0.5}, []float64{0.5})
	if math.IsNaN(x[0]) || math.Abs(x[0]-0.5) > 0.01 {
		t.Errorf("x %v, want 0.5 (the second target's)", x)
	}
}
