// Package simtune finds the numbers of a configuration for a skill ladder
// a designer asks for: a win rate at each of some skills ("greedy wins a
// quarter of mid's games, the expert 60%"), by moving a few levers (the
// configuration's keys, the mods' settings).
//
// A win rate measured on a sample of games is a noisy objective, and every
// game costs, so the search works in two phases:
//
//   - Explore: CMA-ES, the covariance matrix adaptation evolution strategy
//     (gonum's optimize.CmaEsChol), made for noisy objectives, on a few
//     games a candidate: each generation plays games of its own, and every
//     candidate of a generation the same ones (common random numbers), so
//     that candidates are ranked by what they are, not by their luck, and
//     no one sample's luck steers the whole search.
//   - Refine: rounds of a response surface, as simulation optimisation
//     does: a logistic model of each skill's win against the levers is fit
//     (gonum's BFGS) to the games played near the current answer, the
//     levers' values that meet the targets are solved for (least squares
//     in the models' logits, gonum's mat; where the levers cannot meet
//     the targets together, the compromise whose furthest miss in points
//     is least), within a trust region that
//     shrinks round by round, and played on more games than the round
//     before, with a probe beside them for each lever. A model reads every
//     game, where a ranking reads only which candidate came first.
//
// The package plays no game itself: Options.Eval plays a candidate's games
// (the lab's sessions, through package sim), so a tune is as deterministic
// as they are: the same options give the same candidates, results and
// answer.
package simtune

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
)

// Lever is a number the tuner may move, within [Lo, Hi].
type Lever struct {
	Key    string  // a configuration key ("blight.rate") or MOD.SETTING ("bomb.fuse")
	Start  float64 // its value in the configuration tuned
	Lo, Hi float64
	Int    bool // an integer setting: candidates are rounded
	// Widen lets the search move an end of [Lo, Hi] out when its model
	// would take the lever past it, as far as Min and Max, the setting's
	// own bounds (±Inf where it has none): a range about the start is a
	// guess, and the targets may lie beyond it.
	Widen    bool
	Min, Max float64
	// Grid, when set, are the only values of the setting that play apart,
	// sorted: each stands for the values about it that make the same
	// game (a cellular goal a cell counts only through its threshold,
	// ceil(goal × cells): one step a cell). A candidate takes the nearest
	// of them in its range, and the search solves for them as it does for
	// an integer's values: a model read between two steps reads a game no
	// value plays. Nil: every value at its grain plays its own game.
	Grid []float64 `json:",omitempty"`
}

// Widening is a lever's range moved out by the search.
type Widening struct {
	Key   string     `json:"key"`
	Round int        `json:"round"` // the refining round it was moved before
	From  [2]float64 `json:"from"`
	To    [2]float64 `json:"to"`
	Bound bool       `json:"bound,omitzero"` // the range now ends at the setting's own bound
}

// Target is a win rate wished for at one skill of the ladder.
type Target struct {
	Skill string  // a rung of the ladder: "greedy", "expert", ...
	Rate  float64 // 0 to 1
}

// Stage is one stage of the search: every candidate of each of its
// Generations generations is measured on Games games, the generation's
// own.
type Stage struct {
	Games, Generations int
}

// DefaultStages are the exploring stages of a tune that names none: 8
// games a candidate for six generations, far moves on a rough measure.
var DefaultStages = []Stage{{8, 6}}

// DefaultRefine are the games of the refining rounds of a tune that names
// none, each round's candidate played on games of its own, and its probes
// (one a lever) on half as many each. With the exploration, about 1,200
// games at each skill for three levers. (A shorter search, 8x5 and rounds
// of 20, 40, 80 and 120 games with probes on a third as many, ending at
// the first round from the third whose candidate came within a standard
// error of every target, missed the targets by 11 to 14 points on fresh
// games where this one met them: config/README.md.)
var DefaultRefine = []int{20, 40, 80, 120, 120}

// Eval plays a candidate, the levers' values in order (integers rounded),
// on games games of the run from game from, and returns its win rate at
// each target's skill, in order. An error that is Infeasible means the
// configuration refuses the values (a key's range, a mod's bounds): the
// search steers away from them. Any other error stops the search.
type Eval func(values []float64, from, games int) (rates []float64, err error)

// Infeasible wraps the error of values the configuration refuses.
type Infeasible struct{ Err error }

func (e Infeasible) Error() string { return e.Err.Error() }

// Options are a tune's.
type Options struct {
	Levers  []Lever
	Targets []Target
	// Init are the levers' values the search starts from (nil: each
	// lever's Start), as a screen's pivot gives them.
	Init   []float64
	Stages []Stage // the exploring stages (DefaultStages when nil)
	Refine []int   // the refining rounds' games (DefaultRefine when nil)
	// Seed seeds the search's own random draws (the candidates), apart
	// from the games' seeds, which Eval owns.
	Seed uint64
	Eval Eval
	// Concurrent is the most candidates Eval is asked to measure at once:
	// a generation's, or a refining round's candidate and its probes (0
	// or 1: one at a time, in order). Eval must then be safe to call from
	// that many goroutines. The steps are recorded, and Step told, in the
	// order of one at a time, so the result is the same whatever it is.
	Concurrent int
	// Begin, when set, is told each generation (round 0) and each
	// refining round (from 1) before its candidates are measured.
	Begin func(round, generation int)
	// Step, when set, is told every candidate measured.
	Step func(Step)
	// Widened, when set, is told every range widened.
	Widened func(Widening)
}

// Step is one candidate measured.
type Step struct {
	Round      int       `json:"round"`      // 0 while exploring, then the refining round from 1
	Generation int       `json:"generation"` // exploring: the CMA-ES generation
	From       int       `json:"from"`       // the first of its games
	Games      int       `json:"games"`
	Values     []float64 `json:"values"`            // the levers', in order
	Rates      []float64 `json:"rates"`             // the win rates at the targets' skills, in order
	Loss       float64   `json:"loss"`              // the sum of the squared misses (rates from 0 to 1)
	Refused    string    `json:"refused,omitzero"`  // why the configuration refused the values
	Repeated   bool      `json:"repeated,omitzero"` // measured before in the same generation: remembered
	Probe      bool      `json:"probe,omitzero"`    // a refining round's probe, beside its candidate
}

// Result is what a tune found.
type Result struct {
	Levers  []Lever  `json:"levers"`
	Targets []Target `json:"targets"`
	Stages  []Stage  `json:"stages"`
	Refine  []int    `json:"refine"`
	Steps   []Step   `json:"steps"`
	// Best is the last candidate measured near the answer: the last
	// refining round's, or, with no round, the exploration's candidate
	// of least loss on its last stage.
	Best int `json:"best"`
	// Answer is the levers' values the search found: with refining
	// rounds, the models' solution on every game played (the last
	// round's too), which no game has measured yet; else Best's.
	Answer []float64 `json:"answer"`
	// Reach is the models' rate at each target's skill at the answer
	// (nil with no refining round).
	Reach []float64 `json:"reach,omitempty"`
	// Apart says the models miss a target by more than a point wherever
	// the levers' ranges reach, not only within the answer's region:
	// the levers cannot meet the targets together. Where Reach misses
	// and Apart is false, the answer stopped short of the models'
	// solution, at the edge of the region the rounds played.
	Apart bool `json:"apart,omitzero"`
	// Widened are the ranges the search moved out (Lever.Widen), in
	// order; Levers hold the ranges as they ended.
	Widened []Widening `json:"widened,omitempty"`
}

// Values returns the answer's values.
func (r *Result) Values() []float64 { return r.Answer }

// Short says whether the models at the answer miss a target by more than
// apartMiss where they could meet it (not Apart): the answer stopped at
// the edge of the region the last rounds played.
func (r *Result) Short() bool {
	for i, t := range r.Targets {
		if !r.Apart && i < len(r.Reach) && math.Abs(r.Reach[i]-t.Rate) > apartMiss {
			return true
		}
	}
	return false
}

// Games is the games the search played at each skill (a candidate
// remembered costs none).
func (r *Result) Games() int {
	n := 0
	for _, s := range r.Steps {
		if !s.Repeated && s.Refused == "" {
			n += s.Games
		}
	}
	return n
}

// ErrNoCandidate is Tune's error when every candidate was refused.
var ErrNoCandidate = errors.New("every candidate the search tried was refused by the configuration")

// Tune searches for the levers' values whose win rates come nearest the
// targets: it explores, then refines (the package's doc). It returns
// what it found, with every step, and Eval's first error that is not
// Infeasible (with the steps measured until then).
func Tune(o Options) (*Result, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	if o.Stages == nil {
		o.Stages = DefaultStages
	}
	if o.Refine == nil {
		o.Refine = DefaultRefine
	}
	o.Levers = slices.Clone(o.Levers) // widened as the search goes
	t := &tuner{o: o, res: &Result{Levers: o.Levers, Targets: o.Targets, Stages: o.Stages, Refine: o.Refine, Best: -1}, pop: Population(len(o.Levers))}
	err := t.run()
	if t.res.Answer == nil {
		// Stopped (Eval's error): the best candidate measured so far.
		if b := t.bestMeasured(); b >= 0 {
			t.res.Best, t.res.Answer = b, t.res.Steps[b].Values
		} else if err == nil {
			err = ErrNoCandidate
		}
	}
	return t.res, err
}

// run explores, then refines, and sets the answer.
func (t *tuner) run() error {
	o := t.o
	x := make([]float64, len(o.Levers)) // the search's space: each lever's range mapped to [0, 1]
	for i, l := range o.Levers {
		x[i] = l.norm(l.Start)
		if o.Init != nil {
			x[i] = l.norm(o.Init[i])
		}
	}
	if err := t.explore(x); err != nil {
		return err
	}
	t.res.Best = t.bestMeasured()
	if t.res.Best < 0 {
		return ErrNoCandidate
	}
	c := t.xOf(t.res.Steps[t.res.Best].Values)
	radius := refineRadius
	for r, games := range o.Refine {
		next, held, _ := t.solve(c, radius)
		if t.widen(held, c, r+1) {
			next, _, _ = t.solve(c, radius)
		}
		t.round = r + 1
		// The candidate, and probes beside it, each lever moved in turn,
		// on half the games: the models' slopes need games that differ in
		// each lever, and a search that closes in on one point plays
		// few. Each plays games of its own, after the last played.
		batch := []candidate{{x: next, from: t.next, games: games}}
		from := t.next + games
		for i := range next {
			probe := slices.Clone(next)
			step := max(radius/2, 0.05)
			if (r+i)%2 == 1 {
				step = -step
			}
			if probe[i]+step > 1 || probe[i]+step < 0 {
				step = -step
			}
			probe[i] = min(max(probe[i]+step, 0), 1)
			// A lever that takes steps moves one at least: a probe
			// within a step of the candidate would play its game.
			l := t.o.Levers[i]
			if v := l.Value(next[i]); l.Value(probe[i]) == v {
				w := l.beside(v, step)
				if w == v {
					w = l.beside(v, -step)
				}
				probe[i] = l.norm(w)
			}
			batch = append(batch, candidate{x: probe, from: from, games: probeGames(games), probe: true})
			from += probeGames(games)
		}
		measured := len(t.res.Steps)
		if t.o.Begin != nil {
			t.o.Begin(t.round, 0)
		}
		t.measure(batch)
		if t.err != nil {
			return t.err
		}
		if s := t.res.Steps[measured]; s.Refused == "" {
			t.res.Best = measured
			// A trust region: where the model's answer lay inside it,
			// the next round looks closer; where it lay on its edge (the
			// targets are further), as far again.
			if dist(next, c) < 0.99*radius {
				radius *= refineShrink
			}
			c = next
		} else {
			radius *= refineShrink
		}
	}
	// The answer: the models' solution on every game played, the last
	// round's included. (The last round's candidate was solved before its
	// games were played.) No game measures it before the check, so it
	// stays where games were played: within the region the next round
	// would have looked in, a third smaller, and in the levers' ranges as
	// the rounds played them, none widened for it. (A range widened
	// before the answer once took mid's spawn_alive from 0.476, the last
	// round's, to 0.664, where the models, fit to games about 0.4, said
	// the expert would win 72% and it won 29%.)
	if len(o.Refine) > 0 {
		x, _, reach := t.solve(c, radius*refineShrink)
		t.res.Reach, t.res.Apart = reach, t.apart
		t.res.Answer = make([]float64, len(x))
		for i, l := range o.Levers {
			t.res.Answer[i] = l.Value(x[i])
		}
	} else {
		t.res.Answer = t.res.Steps[t.res.Best].Values
	}
	return nil
}

// widen moves out the end of each lever's range that held says the
// model's solution was held at, where the lever may widen: the range's
// span again on that side, within the setting's own bounds (an integer's
// new end rounded inward). c, the round's centre in the search's space,
// is mapped into the new ranges. It says whether any range moved.
func (t *tuner) widen(held []int, c []float64, round int) bool {
	moved := false
	for i := range t.o.Levers {
		l := &t.o.Levers[i]
		if held[i] == 0 || !l.Widen {
			continue
		}
		lo, hi := l.Lo, l.Hi
		span := hi - lo
		if held[i] > 0 {
			hi = min(hi+span, l.Max)
			if l.Int {
				hi = math.Floor(hi)
			}
		} else {
			lo = max(lo-span, l.Min)
			if l.Int {
				lo = math.Ceil(lo)
			}
		}
		if lo >= l.Lo && hi <= l.Hi {
			continue // at the setting's bound already
		}
		w := Widening{Key: l.Key, Round: round, From: [2]float64{l.Lo, l.Hi}, To: [2]float64{lo, hi}, Bound: hi == l.Max || lo == l.Min}
		real := l.Lo + c[i]*(l.Hi-l.Lo)
		l.Lo, l.Hi = lo, hi
		c[i] = (real - lo) / (hi - lo)
		t.res.Widened = append(t.res.Widened, w)
		if t.o.Widened != nil {
			t.o.Widened(w)
		}
		moved = true
	}
	return moved
}

// The refining rounds' trust region: the first round moves at most a
// quarter of the levers' ranges from the exploration's answer, and a
// round whose answer lay inside its region shrinks it by a third; the
// models are fit to the games within about that distance (a Gaussian
// weight of that width, at least minWidth).
const (
	refineRadius = 0.25
	refineShrink = 2.0 / 3
	minWidth     = 0.25
)

// dist is the distance of two points of the search's space.
func dist(a, b []float64) float64 {
	d := 0.0
	for i := range a {
		d += (a[i] - b[i]) * (a[i] - b[i])
	}
	return math.Sqrt(d)
}

// PlannedGames is the games a search of n levers plays at each skill at
// most (a candidate remembered plays none): its generations' candidates,
// and each refining round's candidate and its probes, one a lever.
func PlannedGames(n int, stages []Stage, refine []int) int {
	games := 0
	for _, st := range stages {
		games += Population(n) * st.Generations * st.Games
	}
	for _, g := range refine {
		games += g + n*probeGames(g)
	}
	return games
}

// probeGames is the games of a probe of a round of games games.
func probeGames(games int) int { return max(games/2, 1) }

// StageGames lists the games a candidate of each exploring stage plays.
func (r *Result) StageGames() []int {
	var out []int
	for _, st := range r.Stages {
		out = append(out, st.Games)
	}
	return out
}

// Population is the size of a CMA-ES generation of a search of n levers,
// its own default: 4 + ⌊3 ln n⌋ (4 for one lever, 6 for two, 7 for three).
func Population(n int) int { return 4 + int(math.Floor(3*math.Log(float64(n)))) }

func (o Options) check() error {
	if len(o.Levers) == 0 {
		return errors.New("no lever to move")
	}
	if len(o.Targets) == 0 {
		return errors.New("no target")
	}
	if o.Eval == nil {
		return errors.New("no Eval")
	}
	if o.Init != nil && len(o.Init) != len(o.Levers) {
		return fmt.Errorf("%d values to start from for %d levers", len(o.Init), len(o.Levers))
	}
	for _, l := range o.Levers {
		if !(l.Lo < l.Hi) || math.IsInf(l.Lo, 0) || math.IsInf(l.Hi, 0) {
			return fmt.Errorf("%s: the range %v to %v is empty", l.Key, l.Lo, l.Hi)
		}
		if l.Widen && !(l.Min <= l.Lo && l.Max >= l.Hi) {
			return fmt.Errorf("%s: the range %v to %v is outside its bounds %v to %v", l.Key, l.Lo, l.Hi, l.Min, l.Max)
		}
	}
	for _, t := range o.Targets {
		if !(t.Rate >= 0 && t.Rate <= 1) {
			return fmt.Errorf("%s=%v: a win rate is 0 to 1", t.Skill, t.Rate)
		}
	}
	for _, s := range o.Stages {
		if s.Games < 1 || s.Generations < 1 {
			return fmt.Errorf("a stage of %d games and %d generations: want at least 1 of each", s.Games, s.Generations)
		}
	}
	for _, g := range o.Refine {
		if g < 1 {
			return fmt.Errorf("a refining round of %d games: want at least 1", g)
		}
	}
	return nil
}

// tuner is one tune's state.
type tuner struct {
	o     Options
	res   *Result
	pop   int
	gen   int   // the exploring generation measured
	round int   // the refining round (0: exploring)
	next  int   // the first game not yet played
	err   error // Eval's error that stops the search
	apart bool  // the last solve's models miss a target in the levers' whole ranges
}

// explore is the CMA-ES phase, from x: gonum's CmaEsChol, driven a
// generation at a time through its Method protocol (optimize.Minimize
// hands a generation's candidates to its workers in no set order), so
// that a generation's candidates are measured together (measure) and
// recorded in the order the method drew them, whatever Concurrent is.
func (t *tuner) explore(x []float64) error {
	// The first generation's spread: a seventh of each lever's range,
	// about the distance one lever's step of --levers moves.
	// (CmaEsChol samples from InitCholesky's covariance, which its
	// InitStepSize does not scale.)
	const spread = 0.15
	cov := mat.NewDiagDense(len(x), nil)
	for i := range x {
		cov.SetDiag(i, spread*spread)
	}
	var chol mat.Cholesky
	chol.Factorize(cov)
	method := &optimize.CmaEsChol{
		InitStepSize: spread,
		InitCholesky: &chol,
		Population:   t.pop,
		Src:          rand.NewPCG(t.o.Seed, 0x7475_6e65),
		StopLogDet:   math.NaN(),
	}
	pop := method.Init(len(x), t.pop)
	ops := make(chan optimize.Task, pop)
	results := make(chan optimize.Task, pop)
	tasks := make([]optimize.Task, pop)
	for i := range tasks {
		tasks[i].Location = &optimize.Location{X: make([]float64, len(x))}
	}
	copy(tasks[0].X, x)
	go method.Run(ops, results, tasks)
	var plan []int // each generation's games
	for _, st := range t.o.Stages {
		for range st.Generations {
			plan = append(plan, st.Games)
		}
	}
	var err error
	for g, games := range plan {
		t.gen = g
		gen := make([]optimize.Task, pop)
		batch := make([]candidate, pop)
		for range pop {
			task := <-ops
			if task.Op != optimize.FuncEvaluation || task.ID < 0 || task.ID >= pop {
				err = fmt.Errorf("CMA-ES asked for %v (task %d) in a generation", task.Op, task.ID)
				break
			}
			gen[task.ID] = task
			batch[task.ID] = candidate{x: task.X, from: t.next, games: games}
		}
		if err != nil {
			break
		}
		if t.o.Begin != nil {
			t.o.Begin(0, g)
		}
		losses := t.measure(batch)
		for i, task := range gen {
			// Where x lies outside a lever's range (CMA-ES knows no
			// bounds), the square of how far, so that the search comes
			// back.
			task.F = losses[i]
			for _, v := range task.X {
				c := min(max(v, 0), 1)
				task.F += (v - c) * (v - c)
			}
			results <- task
		}
		end := <-ops // the generation's end: MajorIteration, or MethodDone
		if t.err != nil || end.Op != optimize.MajorIteration || g == len(plan)-1 {
			break
		}
		results <- end // go on: the method draws the next generation
	}
	results <- optimize.Task{Op: optimize.PostIteration}
	close(results)
	for range ops {
		// The method's last word (its best), then it closes ops.
	}
	if t.err != nil {
		return t.err
	}
	if err != nil && len(t.res.Steps) == 0 {
		return err
	}
	return nil
}

// bestMeasured is the candidate measured of least loss among those of the
// latest round (the exploration's: of its last stage's games), probes
// left out (-1: none the configuration took).
func (t *tuner) bestMeasured() int {
	best := -1
	for i, s := range t.res.Steps {
		if s.Refused != "" || s.Probe {
			continue
		}
		if best < 0 {
			best = i
			continue
		}
		b := t.res.Steps[best]
		if c := cmp.Or(cmp.Compare(s.Round, b.Round), cmp.Compare(s.Games, b.Games), cmp.Compare(b.Loss, s.Loss)); c > 0 {
			best = i
		}
	}
	return best
}

// candidate is a candidate to measure: x in the search's space (clamped
// into the levers' ranges), on games games from game from.
type candidate struct {
	x           []float64
	from, games int
	probe       bool // a refining round's probe
}

// measure measures candidates (a generation's, or a refining round's
// candidate and its probes), at most Options.Concurrent at once, and
// records their steps in order, as measuring them one at a time would: a
// generation's candidate that another before it in the generation has
// the values of is remembered (Repeated), not played again. It returns
// each one's loss, the sum of its squared misses. Eval's first error
// that is not Infeasible stops the search (tuner.err): the candidates
// after it are not recorded, and their losses are +Inf.
func (t *tuner) measure(cs []candidate) []float64 {
	steps := make([]Step, len(cs))
	errs := make([]error, len(cs))
	same := make([]int, len(cs)) // the candidate before it of the same values, in a generation; else −1
	seen := map[string]int{}
	for i, c := range cs {
		values := make([]float64, len(c.x))
		for k, l := range t.o.Levers {
			values[k] = l.Value(min(max(c.x[k], 0), 1))
		}
		steps[i] = Step{Round: t.round, Generation: t.gen, From: c.from, Games: c.games, Values: values, Probe: c.probe}
		same[i] = -1
		if t.round == 0 {
			key := fmt.Sprint(values)
			if j, ok := seen[key]; ok {
				same[i] = j
			} else {
				seen[key] = i
			}
		}
	}
	each(len(cs), t.o.Concurrent, func(i int) bool {
		if same[i] >= 0 {
			return true
		}
		s := &steps[i]
		rates, err := t.o.Eval(s.Values, s.From, s.Games)
		switch s.Refused, errs[i] = refusal(err); {
		case errs[i] != nil:
			return false
		case s.Refused != "":
			s.Loss = float64(len(t.o.Targets)) // no miss is worse
		default:
			s.Rates = rates
			for k, tg := range t.o.Targets {
				s.Loss += (rates[k] - tg.Rate) * (rates[k] - tg.Rate)
			}
		}
		return true
	})
	losses := make([]float64, len(cs))
	for i := range losses {
		losses[i] = math.Inf(1)
	}
	for i, s := range steps {
		if same[i] >= 0 {
			s = steps[same[i]]
			s.Repeated = true
		} else if errs[i] != nil {
			t.err = errs[i]
			break
		}
		t.next = max(t.next, s.From+s.Games)
		t.record(s)
		losses[i] = s.Loss
	}
	return losses
}

// refusal sorts an error of Eval (or a screen's Rates): the reason of
// values the configuration refuses (Infeasible), which the search steers
// away from, or an error that stops it.
func refusal(err error) (refused string, stop error) {
	var inf Infeasible
	if errors.As(err, &inf) {
		return inf.Err.Error(), nil
	}
	return "", err
}

// each calls f(i) for each i below n, at most conc at once, and waits for
// them all; with conc 1 or less, one at a time in order, until f says to
// stop.
func each(n, conc int, f func(i int) bool) {
	if conc <= 1 {
		for i := range n {
			if !f(i) {
				return
			}
		}
		return
	}
	slots := make(chan struct{}, conc)
	var wg sync.WaitGroup
	for i := range n {
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(i)
			<-slots
		}()
	}
	wg.Wait()
}

func (t *tuner) record(s Step) {
	t.res.Steps = append(t.res.Steps, s)
	if t.o.Step != nil {
		t.o.Step(s)
	}
}

// solve is a refining round's candidate: a logistic model of each
// target's win fit to the games played near c (within about radius), and
// the point whose modelled rates come nearest the targets (meet, in the
// levers' ranges), as near c as can be, and no further from c than
// radius. held says which levers the solution held at an end of their
// ranges: −1 at the low end, +1 at the high end, where the model would
// take them further. reach is the models' rate at each target's skill at
// x.
func (t *tuner) solve(c []float64, radius float64) (x []float64, held []int, reach []float64) {
	n, k := len(c), len(t.o.Targets)
	a := mat.NewDense(k, n, nil)
	m0 := make([]float64, k)
	rates := make([]float64, k)
	for j, tg := range t.o.Targets {
		m := t.fit(j, c, radius)
		m0[j], rates[j] = m[0], tg.Rate
		for i := range n {
			a.Set(j, i, m[i+1])
		}
	}
	x, held = meet(a, m0, rates, c)
	t.apart = false
	for j := range k {
		t.apart = t.apart || math.Abs(modelRate(a, m0, j, x)-rates[j]) > apartMiss
	}
	if d := dist(x, c); d > radius {
		for i := range x {
			x[i] = c[i] + (x[i]-c[i])*radius/d
		}
	}
	// A lever the trust region keeps inside its range is not held there:
	// the model's solution is far, and the next round looks again.
	for i := range held {
		if held[i] < 0 && x[i] > 1e-9 || held[i] > 0 && x[i] < 1-1e-9 {
			held[i] = 0
		}
	}
	x = t.snap(a, m0, rates, c, x, radius)
	reach = make([]float64, k)
	for j := range k {
		reach[j] = modelRate(a, m0, j, x)
	}
	return x, held, reach
}

// apartMiss is the models' miss of a target, in points, past which solve
// says the levers cannot meet the targets together (tuner.apart).
const apartMiss = 0.01

// meet solves the linear models of the targets' logits, logit pⱼ = m0ⱼ +
// Aⱼ·x, for the x in [0, 1]ⁿ whose rates come nearest the targets' rates,
// as near c as can be. It solves first in the logits (boxSolve), which
// meets targets the levers can reach together exactly. Where they cannot
// (the levers move two skills together, and the targets ask a gap between
// them that the game does not have), it shares the miss as a designer
// reads it, in points, evenly: the furthest miss of any target as small
// as can be ("within 8 points of each"). A miss in logits weighs a point near 0% or 100% many times one
// near 50% (late's greedy 8% and the expert 30%, 3 logits apart where
// the targets are 1.6: the least squares in logits gave the expert 46%,
// 16 points off, to bring greedy 4 points nearer; the furthest miss as
// small as can be gives the expert 35% and greedy 3%, 5 points each). So
// from there, Gauss–Newton steps on the rates themselves (each model's
// logit slope times p(1 − p)), reweighted each step toward the furthest
// misses (the least sum of the misses' 8th powers, near enough the
// furthest's least), each halved until it lessens that sum.
func meet(a *mat.Dense, m0, rates, c []float64) (x []float64, held []int) {
	k, n := a.Dims()
	y := make([]float64, k)
	for j := range k {
		y[j] = logit(rates[j]) - m0[j]
	}
	x, held = boxSolve(a, y, c, 1e-3)
	miss := rateMiss(a, m0, rates, x)
	aw := mat.NewDense(k, n, nil)
	for range 100 {
		if miss < 1e-24 {
			break // met
		}
		// The rates' linear model about x, pⱼ + pⱼ(1 − pⱼ)Aⱼ·(x' − x),
		// each row weighted by ρⱼ, its miss to the third power against
		// the furthest (the reweighting of least squares toward the 8th
		// power: |r|⁶ a row's square).
		ps := make([]float64, k)
		furthest := 0.0
		for j := range k {
			ps[j] = modelRate(a, m0, j, x)
			furthest = max(furthest, math.Abs(ps[j]-rates[j]))
		}
		yw := make([]float64, k)
		scale := 0.0
		for j, p := range ps {
			rho := math.Pow(math.Abs(p-rates[j])/furthest, missPower/2-1)
			w := p * (1 - p) * rho
			yw[j] = (rates[j] - p) * rho
			for i := range n {
				aw.Set(j, i, w*a.At(j, i))
				yw[j] += w * a.At(j, i) * x[i]
			}
			scale += w * w / float64(k)
		}
		// The ridge keeps its weight against the rows, now smaller.
		next, h := boxSolve(aw, yw, c, 1e-3*scale)
		moved := false
		for step := 1.0; step > 1.0/64; step /= 2 {
			try := make([]float64, n)
			for i := range n {
				try[i] = x[i] + step*(next[i]-x[i])
			}
			if m := rateMiss(a, m0, rates, try); m < miss {
				x, miss, moved = try, m, true
				for i := range n {
					held[i] = 0
					if h[i] < 0 && try[i] <= 1e-9 || h[i] > 0 && try[i] >= 1-1e-9 {
						held[i] = h[i]
					}
				}
				break
			}
		}
		if !moved {
			break
		}
	}
	return x, held
}

// missPower is the power of the misses whose sum meet makes least: high
// enough that the furthest miss rules (two misses of 5 points sum less
// than one of 6 and one of 2), low enough to solve smoothly.
const missPower = 8

// modelRate is the rate of target j's model at x.
func modelRate(a *mat.Dense, m0 []float64, j int, x []float64) float64 {
	z := m0[j]
	for i := range x {
		z += a.At(j, i) * x[i]
	}
	return sigmoid(z)
}

// rateMiss is the sum of the models' misses of the targets' rates at x,
// each to the missPower.
func rateMiss(a *mat.Dense, m0, rates, x []float64) float64 {
	miss := 0.0
	for j := range rates {
		miss += math.Pow(math.Abs(modelRate(a, m0, j, x)-rates[j]), missPower)
	}
	return miss
}

// snap moves the levers that take steps (an integer's values, a Grid's)
// from the model's solution x to steps: each is tried at the step on
// either side of its value, the other levers solved again with it held
// there (meet, from c, within radius), and the combination whose models
// come nearest the targets' rates (then nearest x) is kept. Rounding each
// alone would leave the targets' miss to the step, which the others can
// make up: a goal a cell between two thresholds plays the upper one's
// game, and the other levers must reach the targets from there.
func (t *tuner) snap(a *mat.Dense, m0, rates, c, x []float64, radius float64) []float64 {
	var stepped []int
	var choices [][]float64
	for i, l := range t.o.Levers {
		if s := l.steps(l.Lo + x[i]*(l.Hi-l.Lo)); s != nil {
			xs := make([]float64, len(s))
			for j, v := range s {
				xs[j] = l.norm(v)
			}
			stepped, choices = append(stepped, i), append(choices, xs)
		}
	}
	if len(stepped) == 0 {
		return x
	}
	k, n := a.Dims()
	var free []int
	for i := range n {
		if !slices.Contains(stepped, i) {
			free = append(free, i)
		}
	}
	best, bestMiss, bestDist := x, math.Inf(1), math.Inf(1)
	pick := make([]int, len(stepped))
	for {
		cand := slices.Clone(x)
		for p, i := range stepped {
			cand[i] = choices[p][pick[p]]
		}
		if len(free) > 0 {
			// The free levers' models, the stepped levers' part moved
			// into the intercepts.
			af := mat.NewDense(k, len(free), nil)
			mf := slices.Clone(m0)
			cf := make([]float64, len(free))
			for j := range k {
				for p, i := range free {
					af.Set(j, p, a.At(j, i))
				}
				for _, i := range stepped {
					mf[j] += a.At(j, i) * cand[i]
				}
			}
			for p, i := range free {
				cf[p] = c[i]
			}
			xf, _ := meet(af, mf, rates, cf)
			// Within the trust region: the free levers' move shrinks to
			// what the steps' move leaves of it.
			fixed, moved := 0.0, 0.0
			for _, i := range stepped {
				fixed += (cand[i] - c[i]) * (cand[i] - c[i])
			}
			for p := range free {
				moved += (xf[p] - cf[p]) * (xf[p] - cf[p])
			}
			scale := 1.0
			if fixed+moved > radius*radius && moved > 0 {
				scale = math.Sqrt(max(radius*radius-fixed, 0) / moved)
			}
			for p, i := range free {
				cand[i] = cf[p] + (xf[p]-cf[p])*scale
			}
		}
		miss := rateMiss(a, m0, rates, cand)
		if d := dist(cand, x); miss < bestMiss*(1-1e-9) || miss <= bestMiss*(1+1e-9) && d < bestDist {
			best, bestMiss, bestDist = cand, miss, d
		}
		p := 0
		for p < len(pick) {
			pick[p]++
			if pick[p] < len(choices[p]) {
				break
			}
			pick[p] = 0
			p++
		}
		if p == len(pick) {
			break
		}
	}
	return best
}

// logit is the log-odds of a target's rate, kept within 0.5% of 0 and 1.
func logit(rate float64) float64 {
	p := min(max(rate, 0.005), 0.995)
	return math.Log(p / (1 - p))
}

// boxSolve solves the linear model A·x = y for x in [0, 1]ⁿ, as near c as
// can be: with x = c + d, the least squares of A·d − (y − A·c) with a
// little pull towards c (ridge λ); a lever that would leave [0, 1] is held
// at its bound (held: −1 or +1) and the others are solved again.
func boxSolve(a *mat.Dense, y, c []float64, lambda float64) (x []float64, held []int) {
	k, n := a.Dims()
	x = slices.Clone(c)
	held = make([]int, n)
	for range n + 1 {
		var free []int
		for i := range n {
			if held[i] == 0 {
				free = append(free, i)
			}
		}
		if len(free) == 0 {
			break
		}
		// min ‖A_f d_f − r‖² + λ‖d_f‖², where r = y − A c less what the
		// held levers' moves give.
		r := slices.Clone(y)
		for j := range k {
			for i := range n {
				if held[i] != 0 {
					r[j] -= a.At(j, i) * x[i]
				} else {
					r[j] -= a.At(j, i) * c[i]
				}
			}
		}
		m := mat.NewSymDense(len(free), nil)
		b := mat.NewVecDense(len(free), nil)
		for p, i := range free {
			for q, h := range free {
				v := 0.0
				for j := range k {
					v += a.At(j, i) * a.At(j, h)
				}
				if p == q {
					v += lambda
				}
				m.SetSym(p, q, v)
			}
			v := 0.0
			for j := range k {
				v += a.At(j, i) * r[j]
			}
			b.SetVec(p, v)
		}
		var d mat.VecDense
		if err := d.SolveVec(m, b); err != nil {
			break
		}
		again := false
		for p, i := range free {
			x[i] = c[i] + d.AtVec(p)
			if x[i] < 0 || x[i] > 1 {
				held[i] = 1
				if x[i] < 0 {
					held[i] = -1
				}
				x[i] = min(max(x[i], 0), 1)
				again = true
			}
		}
		if !again {
			break
		}
	}
	return x, held
}

// fit fits the logistic model of target k's win, logit p = a + b·x, to
// the games measured so far, each candidate weighted by a Gaussian of its
// distance from c (width radius), so that the model is a local one; a
// little ridge keeps b finite where the games cannot tell.
func (t *tuner) fit(k int, c []float64, radius float64) []float64 {
	var data []observation
	for _, s := range t.res.Steps {
		if s.Repeated || s.Refused != "" {
			continue
		}
		x := t.xOf(s.Values)
		d := 0.0
		for i := range x {
			d += (x[i] - c[i]) * (x[i] - c[i])
		}
		width := max(radius, minWidth)
		w := math.Exp(-d / (2 * width * width))
		if w < 1e-3 {
			continue
		}
		won := math.Round(s.Rates[k] * float64(s.Games))
		data = append(data, observation{x, w * won, w * (float64(s.Games) - won)})
	}
	return fitLogistic(data, len(c), 0, 0.01)
}

// observation is games played at one point x: their wins and losses
// (weighted: a fit may count a game as less than one).
type observation struct {
	x          []float64
	wins, loss float64
}

// fitLogistic fits logit p = a + b·x (p = [a, b...], b of n levers) to the
// observations by maximum likelihood (gonum's BFGS), with a ridge on a
// and on b: a penalty of ridgeA·a²/2 + ridgeB·|b|²/2, which keeps them
// finite where the games cannot tell (every game won, say).
func fitLogistic(data []observation, n int, ridgeA, ridgeB float64) []float64 {
	nll := func(p, grad []float64) float64 {
		v := 0.0
		if grad != nil {
			clear(grad)
		}
		for _, o := range data {
			z := p[0]
			for i, xi := range o.x {
				z += p[i+1] * xi
			}
			// −[wins·log σ(z) + losses·log(1−σ(z))]
			v += o.wins*softplus(-z) + o.loss*softplus(z)
			if grad != nil {
				g := (o.wins+o.loss)*sigmoid(z) - o.wins
				grad[0] += g
				for i, xi := range o.x {
					grad[i+1] += g * xi
				}
			}
		}
		for i := range n + 1 {
			r := ridgeB
			if i == 0 {
				r = ridgeA
			}
			v += r * p[i] * p[i] / 2
			if grad != nil {
				grad[i] += r * p[i]
			}
		}
		return v
	}
	p0 := make([]float64, n+1)
	res, err := optimize.Minimize(optimize.Problem{
		Func: func(p []float64) float64 { return nll(p, nil) },
		Grad: func(grad, p []float64) { nll(p, grad) },
	}, p0, nil, &optimize.BFGS{})
	if err != nil && res == nil {
		return p0
	}
	return res.X
}

func logistic(p, x []float64) float64 {
	z := p[0]
	for i, xi := range x {
		z += p[i+1] * xi
	}
	return sigmoid(z)
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// softplus is log(1 + eᶻ), without overflow.
func softplus(z float64) float64 {
	if z > 30 {
		return z
	}
	return math.Log1p(math.Exp(z))
}

// xOf maps values back into the search's space.
func (t *tuner) xOf(values []float64) []float64 {
	x := make([]float64, len(values))
	for i, l := range t.o.Levers {
		x[i] = l.norm(values[i])
	}
	return x
}

// norm maps a value of the lever into [0, 1].
func (l Lever) norm(v float64) float64 {
	return min(max((v-l.Lo)/(l.Hi-l.Lo), 0), 1)
}

// Value maps c in [0, 1] to the lever's value: an integer rounded, any
// other number to its grain (Grain), so that a file shows 0.38 and not
// 0.38107 or 0.38000000000000006, and candidates a grain apart, which no
// sample of games could tell apart, are one candidate, measured once.
func (l Lever) Value(c float64) float64 {
	v := l.Lo + c*(l.Hi-l.Lo)
	if l.Int {
		return math.Round(v)
	}
	if l.Grid != nil {
		return l.nearest(v)
	}
	g := l.Grain()
	r := math.Round(v/g) * g
	switch {
	case r < l.Lo:
		r = math.Ceil(l.Lo/g) * g // a grain inside the range (a widened end need not be one)
	case r > l.Hi:
		r = math.Floor(l.Hi/g) * g
	}
	if r < l.Lo || r > l.Hi {
		return l.Lo // a range narrower than its grain
	}
	r, _ = strconv.ParseFloat(strconv.FormatFloat(r, 'f', 9, 64), 64)
	if r < l.Lo || r > l.Hi {
		return v
	}
	return r
}

// nearest is the value of the lever's Grid nearest v within its range
// (the nearest of all when none lies in it).
func (l Lever) nearest(v float64) float64 {
	best, in := math.NaN(), false
	for _, g := range l.Grid {
		gin := g >= l.Lo && g <= l.Hi
		if math.IsNaN(best) || gin && !in || gin == in && math.Abs(g-v) < math.Abs(best-v) {
			best, in = g, gin
		}
	}
	return best
}

// steps are the values of a lever that takes steps (an integer's, a
// Grid's) next to v in its range: v itself when it is one, else the one
// below it and the one above (either, at an end); nil for a lever that
// takes every value.
func (l Lever) steps(v float64) []float64 {
	if !l.Int && l.Grid == nil {
		return nil
	}
	on := l.Value(l.norm(v))
	if on == v {
		return []float64{v}
	}
	var out []float64
	for _, dir := range []float64{-1, 1} {
		if w := l.beside(v, dir); w != v {
			out = append(out, w)
		}
	}
	if out == nil {
		return []float64{on}
	}
	return out
}

// beside is the step of a lever that takes steps next to v on dir's side
// (dir > 0: above) in its range, or v where there is none (or where the
// lever takes every value).
func (l Lever) beside(v, dir float64) float64 {
	best := v
	var next []float64
	switch {
	case l.Int:
		next = []float64{math.Ceil(v) - 1, math.Floor(v) + 1}
	case l.Grid != nil:
		next = l.Grid
	}
	for _, g := range next {
		if g < l.Lo || g > l.Hi || (g-v)*dir <= 0 {
			continue
		}
		if best == v || math.Abs(g-v) < math.Abs(best-v) {
			best = g
		}
	}
	return best
}

// Grain is the step of a lever that is not an integer's: about a two
// hundredth of its range, rounded down to 1, 2 or 5 times a power of ten
// (0.005 for a rate from 0 to 1).
func (l Lever) Grain() float64 {
	raw := (l.Hi - l.Lo) / 200
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{5, 2, 1} {
		if m*p <= raw {
			return m * p
		}
	}
	return p
}

// Format writes a lever's value as a setting takes it.
func (l Lever) Format(v float64) string {
	if l.Int {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// ParseTargets reads SKILL=RATE,... (a rate as 0.25 or 25%), each skill
// once; skills lists the rungs a target may name.
func ParseTargets(s string, skills []string) ([]Target, error) {
	var out []Target
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		name, rate, ok := strings.Cut(f, "=")
		name, rate = strings.TrimSpace(name), strings.TrimSpace(rate)
		if !ok || name == "" || rate == "" {
			return nil, fmt.Errorf("%q: want SKILL=RATE, as greedy=0.25", f)
		}
		if !slices.Contains(skills, name) {
			return nil, fmt.Errorf("%q: %s is not a rung of the ladder (%s)", f, name, strings.Join(skills, ", "))
		}
		pct := strings.HasSuffix(rate, "%")
		v, err := strconv.ParseFloat(strings.TrimSuffix(rate, "%"), 64)
		if pct {
			v /= 100
		}
		if err != nil || !(v >= 0 && v <= 1) {
			return nil, fmt.Errorf("%q: the rate %s is not a number from 0 to 1 (or 0%% to 100%%)", f, rate)
		}
		for _, t := range out {
			if t.Skill == name {
				return nil, fmt.Errorf("%s is named twice: give one rate a skill", name)
			}
		}
		out = append(out, Target{Skill: name, Rate: v})
	}
	if len(out) == 0 {
		return nil, errors.New("no target: want SKILL=RATE,..., as greedy=0.25,expert=0.6")
	}
	return out, nil
}
