package simtune

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// A screen picks a tune's levers among many candidates (every numeric
// setting of a configuration and its mods), before the search, on games
// at every target's skill:
//
//   - Each candidate is played at its range's two ends and halfway from
//     its start to each, on the same games as the base (common random
//     numbers), at every target's skill.
//   - A skill stuck at the base, winning (almost) every game or none,
//     tells nothing of what a lever does to it there. Then that first
//     pass is played on a third the games, and the screen moves to a
//     pivot, the place along one lever where the first pass's curves
//     come nearest the targets (pivot), and screens every candidate
//     again about it: the rates are measured where they can move. The
//     pivot's lever is then one of the levers chosen, and the search
//     starts from it.
//   - A logistic model of each skill's win is fit to the last pass's
//     points at once, logit p = a + Σ b·(x − centre), each lever's x its
//     place in its range (0 to 1): one intercept a skill, the centre's,
//     and a slope a lever and skill.
//   - The levers are chosen as a set: of every set of at most Choose
//     levers that move a skill (the pivot's among them, and a lever a
//     target at least, where that many move), the one whose model comes
//     nearest the targets within the levers' ranges (the least squares
//     of the logits' misses, the slopes' variance over the moves asked
//     of them, and a toll a lever, so that a lever that adds nothing is
//     left out). A ladder needs both its level and its gap, the
//     difference between its skills: levers that move every skill alike
//     (a goal that every player finds as hard) cannot open or close a
//     gap, and the set's fit says so, where a ranking by one skill's
//     move cannot.
type ScreenOptions struct {
	Levers  []Lever // the candidates, each with its range and start
	Targets []Target
	Games   int // a point's games at each skill
	Choose  int // the most levers to choose
	// Rates plays the configuration with every candidate at the value
	// given (values[i] for Levers[i]; at its Start, as in the base) on
	// the games, and returns the win rate at each target's skill. An
	// error that is Infeasible drops the point; any other stops the
	// screen.
	Rates func(values []float64, games int) ([]float64, error)
	// Concurrent is the most points of a pass Rates is asked to measure
	// at once (0 or 1: one at a time, in order); Rates must then be safe
	// to call from that many goroutines. The points are recorded, and
	// Point told, in order, so the result is the same whatever it is.
	Concurrent int
	// Point, when set, is told every point measured.
	Point func(ScreenPoint)
	// Pivoted, when set, is told the pivot, and the points the second
	// pass measures about it, before it starts.
	Pivoted func(pivot ScreenPoint, points int)
}

// ScreenPoint is one point a screen measured: one candidate moved from
// the centre (the base, or the pivot).
type ScreenPoint struct {
	Pass    int       `json:"pass"`  // 1, or 2 about a pivot
	Lever   int       `json:"lever"` // the candidate moved; −1: the centre itself
	Value   float64   `json:"value"`
	Games   int       `json:"games"`
	Rates   []float64 `json:"rates,omitempty"`
	Refused string    `json:"refused,omitzero"`
}

// Effect is what a screen found a lever does: the change of each target
// skill's win, in logits, from the low end of its range to the high end,
// with its standard error.
type Effect struct {
	Lever Lever     `json:"lever"`
	Slope []float64 `json:"slope"` // a target's skill each, in order
	SE    []float64 `json:"se"`
	// Gap is the change across the range of the gap between the last
	// target's skill and the first's (0 with one target), Level the mean
	// of the slopes.
	Gap   float64 `json:"gap"`
	Level float64 `json:"level"`
}

// Moves says whether the lever moves some skill's win: a slope at least
// twice its standard error.
func (e Effect) Moves() bool {
	for i, b := range e.Slope {
		if math.Abs(b) >= 2*e.SE[i] {
			return true
		}
	}
	return false
}

// ScreenResult is what a screen found.
type ScreenResult struct {
	Games  int           `json:"games"`
	Base   []float64     `json:"base"` // the base's measured rates
	Points []ScreenPoint `json:"points"`
	// Pivot is the point of the first pass the second was measured
	// about, when the base had a skill stuck (nil: one pass).
	Pivot   *ScreenPoint `json:"pivot,omitempty"`
	Effects []Effect     `json:"effects"` // a candidate each, in order, at the last pass's centre
	Chosen  []int        `json:"chosen"`  // the chosen candidates, in order
	// Init are the chosen levers' values the search starts from: the
	// pivot's, or their starts.
	Init []float64 `json:"init"`
	// Reach is the rate at each target's skill the model says the chosen
	// levers reach within their ranges.
	Reach []float64 `json:"reach"`
}

// leverToll is what a lever costs a set, in squared logits: a lever joins
// a set when it brings the set's model that much nearer the targets (a
// logit's miss of 0.22, about 5 points of a rate near a half).
const leverToll = 0.05

// stuck is how near 0 or 1 a skill's rate at the base is stuck: within
// 5%.
const stuck = 0.05

// Stuck says whether a skill is stuck at the base of these rates: a
// screen then plays its first pass on a third of the games, and a second
// about the point nearest the targets.
func Stuck(base []float64) bool {
	return slices.ContainsFunc(base, func(r float64) bool { return r <= stuck || r >= 1-stuck })
}

// ErrNoLever is Screen's error when no candidate moves any skill.
var ErrNoLever = errors.New("no setting moved any target's win rate")

// Plan lists the points a pass of a screen measures about a centre (each
// lever's value; nil: the starts), in order: the centre, then each
// candidate at its range's ends and halfway from the centre to each (the
// distinct values other than the centre's).
func (o ScreenOptions) Plan(centre []float64) []ScreenPoint {
	out := []ScreenPoint{{Lever: -1}}
	for i, l := range o.Levers {
		at := l.Start
		if centre != nil {
			at = centre[i]
		}
		s := l.norm(at)
		var done []float64
		for _, x := range []float64{0, s / 2, (s + 1) / 2, 1} {
			v := l.Value(x)
			if v == at || slices.Contains(done, v) {
				continue
			}
			done = append(done, v)
			out = append(out, ScreenPoint{Lever: i, Value: v})
		}
	}
	return out
}

// Screen measures the candidates and chooses the levers (ScreenOptions).
func Screen(o ScreenOptions) (*ScreenResult, error) {
	if len(o.Levers) == 0 || len(o.Targets) == 0 || o.Games < 1 || o.Choose < 1 || o.Rates == nil {
		return nil, errors.New("a screen wants candidates, targets, games, a number to choose and Rates")
	}
	res := &ScreenResult{Games: o.Games}
	starts := make([]float64, len(o.Levers))
	for i, l := range o.Levers {
		starts[i] = l.Start
	}
	// pass measures the plan's points about centre on games games.
	pass := func(n int, centre []float64, plan []ScreenPoint, games int) error {
		points := slices.Clone(plan)
		errs := make([]error, len(points))
		each(len(points), o.Concurrent, func(i int) bool {
			p := &points[i]
			values := slices.Clone(centre)
			if p.Lever >= 0 {
				values[p.Lever] = p.Value
			} else {
				p.Value = 0
			}
			p.Pass, p.Games = n, games
			rates, err := o.Rates(values, games)
			if p.Refused, errs[i] = refusal(err); errs[i] != nil {
				return false
			}
			if p.Refused == "" {
				p.Rates = rates
			}
			return true
		})
		for i, p := range points {
			if errs[i] != nil {
				return errs[i]
			}
			res.Points = append(res.Points, p)
			if o.Point != nil {
				o.Point(p)
			}
		}
		return nil
	}
	plan := o.Plan(nil)
	if err := pass(1, starts, plan[:1], o.Games); err != nil {
		return res, err
	}
	if res.Points[0].Refused != "" {
		return res, fmt.Errorf("the base is refused: %s", res.Points[0].Refused)
	}
	res.Base = res.Points[0].Rates
	stuckAt := Stuck(res.Base)
	if !stuckAt {
		if err := pass(1, starts, plan[1:], o.Games); err != nil {
			return res, err
		}
		return res, res.choose(o, starts, -1)
	}
	// A skill is stuck at the base: a first pass on a third the games, and a
	// second about its point nearest the targets.
	if err := pass(1, starts, plan[1:], max(o.Games/3, 1)); err != nil {
		return res, err
	}
	pv, ok := res.pivot(o)
	if !ok {
		// The base is nearest: the first pass is all there is.
		return res, res.choose(o, starts, -1)
	}
	res.Pivot = &pv
	centre := slices.Clone(starts)
	centre[pv.Lever] = pv.Value
	plan = o.Plan(centre)
	if o.Pivoted != nil {
		o.Pivoted(pv, len(plan))
	}
	if err := pass(2, centre, plan, o.Games); err != nil {
		return res, err
	}
	if p := res.Points[len(res.Points)-len(plan)]; p.Refused != "" {
		return res, fmt.Errorf("the pivot is refused: %s", p.Refused)
	}
	return res, res.choose(o, centre, pv.Lever)
}

// pivot is the point the first pass puts nearest the targets: along each
// lever, a logistic curve of each skill's win fit to the base and that
// lever's points, read at a hundred places of its range, and the place of
// least squared miss of the targets' logits. A curve reads between the
// points measured, where both of two skills far apart can move (the goal
// at 0.41, where greedy wins 15% and the expert 65%, between 0.3, where
// the expert wins all, and 0.45, where greedy wins none). Its Rates are
// the curves'; ok is false where the base is as near as any.
func (res *ScreenResult) pivot(o ScreenOptions) (ScreenPoint, bool) {
	base := res.Points[0]
	obs := func(p ScreenPoint, k int, x float64) observation {
		won := math.Round(p.Rates[k] * float64(p.Games))
		return observation{[]float64{x}, won, float64(p.Games) - won}
	}
	miss := func(z []float64) float64 {
		m := 0.0
		for k, tg := range o.Targets {
			m += (z[k] - logit(tg.Rate)) * (z[k] - logit(tg.Rate))
		}
		return m
	}
	// The base's own miss, on its curve-free logits (half a game's pull
	// off 0 and 1).
	z0 := make([]float64, len(o.Targets))
	for k := range o.Targets {
		won := base.Rates[k] * float64(base.Games)
		z0[k] = math.Log((won + 0.5) / (float64(base.Games) - won + 0.5))
	}
	best, out := miss(z0), ScreenPoint{}
	for i, l := range o.Levers {
		s := l.norm(l.Start)
		fits := make([][]float64, len(o.Targets))
		measured, games := false, 0
		for k := range o.Targets {
			data := []observation{obs(base, k, 0)}
			for _, p := range res.Points {
				if p.Lever == i && p.Refused == "" {
					data = append(data, obs(p, k, l.norm(p.Value)-s))
					measured, games = true, p.Games
				}
			}
			fits[k] = fitLogistic(data, 1, 0.01, 0.05)
		}
		if !measured {
			continue
		}
		for step := range 101 {
			x := float64(step) / 100
			v := l.Value(x)
			if v == l.Start {
				continue
			}
			z := make([]float64, len(o.Targets))
			for k := range o.Targets {
				z[k] = fits[k][0] + fits[k][1]*(l.norm(v)-s)
			}
			if m := miss(z); m < best {
				rates := make([]float64, len(z))
				for k := range z {
					rates[k] = sigmoid(z[k])
				}
				best, out = m, ScreenPoint{Pass: 1, Lever: i, Value: v, Games: games, Rates: rates}
			}
		}
	}
	return out, out.Rates != nil
}

// choose fits the model to the last pass's points, about centre, and
// chooses the levers: of the sets that move a skill and hold the pivot's
// lever (−1: none), the nearest the targets.
func (res *ScreenResult) choose(o ScreenOptions, centre []float64, pivot int) error {
	last := res.Points[len(res.Points)-1].Pass
	n := len(o.Levers)
	fits := make([][]float64, len(o.Targets))
	ses := make([][]float64, len(o.Targets))
	for k := range o.Targets {
		var data []observation
		for _, p := range res.Points {
			if p.Refused != "" || p.Pass != last {
				continue
			}
			x := make([]float64, n)
			if p.Lever >= 0 {
				l := o.Levers[p.Lever]
				x[p.Lever] = l.norm(p.Value) - l.norm(centre[p.Lever])
			}
			won := math.Round(p.Rates[k] * float64(p.Games))
			data = append(data, observation{x, won, float64(p.Games) - won})
		}
		// A weak pull of the intercept toward an even chance, and of the
		// slopes toward none: finite where every game went one way.
		fits[k] = fitLogistic(data, n, 0.01, 0.05)
		ses[k] = standardErrors(data, fits[k], 0.01, 0.05)
	}
	res.Effects = nil
	for i, l := range o.Levers {
		e := Effect{Lever: l}
		for k := range o.Targets {
			e.Slope = append(e.Slope, fits[k][i+1])
			e.SE = append(e.SE, ses[k][i+1])
			e.Level += fits[k][i+1] / float64(len(o.Targets))
		}
		if k := len(o.Targets) - 1; k > 0 {
			e.Gap = e.Slope[k] - e.Slope[0]
		}
		res.Effects = append(res.Effects, e)
	}
	var moving []int
	for i, e := range res.Effects {
		if e.Moves() || i == pivot {
			moving = append(moving, i)
		}
	}
	if len(moving) == 0 {
		return ErrNoLever
	}
	// Every set of at most Choose of the levers that move: the one of
	// least miss and toll.
	best := math.Inf(1)
	// A set holds a lever a target at least, where that many move: one
	// lever meets two targets only where its model says it moves both in
	// just the ratio asked, which no screen measures finely enough (on
	// mid, spawn_alive alone was to give greedy 25% and the expert 60%,
	// and gave 12% and 67%).
	fewest := min(len(o.Targets), len(moving), o.Choose)
	for _, set := range subsets(len(moving), min(o.Choose, len(moving))) {
		if len(set) < fewest || pivot >= 0 && !slices.ContainsFunc(set, func(m int) bool { return moving[m] == pivot }) {
			continue
		}
		a := mat.NewDense(len(o.Targets), len(set), nil)
		c := make([]float64, len(set))
		for j, m := range set {
			i := moving[m]
			c[j] = o.Levers[i].norm(centre[i])
			for k := range o.Targets {
				a.Set(k, j, res.Effects[i].Slope[k])
			}
		}
		// The model is in x − c: boxSolve's A·x = y takes y = the miss
		// at the centre plus A·c.
		y := make([]float64, len(o.Targets))
		for k, tg := range o.Targets {
			y[k] = logit(tg.Rate) - fits[k][0]
			for j := range set {
				y[k] += a.At(k, j) * c[j]
			}
		}
		x, _ := boxSolve(a, y, c, 1e-3)
		// The expected squared miss: the model's, and the slopes' own
		// uncertainty over the moves it asks for, so that of two sets that
		// both reach the targets, the one that asks less of what was
		// measured worse is taken.
		miss := leverToll * float64(len(set))
		reach := make([]float64, len(o.Targets))
		for k, tg := range o.Targets {
			z := fits[k][0]
			for j, m := range set {
				d := x[j] - c[j]
				z += a.At(k, j) * d
				miss += d * d * ses[k][moving[m]+1] * ses[k][moving[m]+1]
			}
			reach[k] = sigmoid(z)
			miss += (z - logit(tg.Rate)) * (z - logit(tg.Rate))
		}
		if miss < best {
			best = miss
			res.Chosen, res.Init = nil, nil
			for _, m := range set {
				res.Chosen = append(res.Chosen, moving[m])
				res.Init = append(res.Init, centre[moving[m]])
			}
			res.Reach = reach
		}
	}
	return nil
}

// subsets lists the sets of 1 to most of n items, each in order, the
// smaller sets first.
func subsets(n, most int) [][]int {
	var out [][]int
	var grow func(set []int, from int)
	grow = func(set []int, from int) {
		if len(set) > 0 {
			out = append(out, slices.Clone(set))
		}
		if len(set) == most {
			return
		}
		for i := from; i < n; i++ {
			grow(append(set, i), i+1)
		}
	}
	grow(nil, 0)
	slices.SortStableFunc(out, func(a, b []int) int { return len(a) - len(b) })
	return out
}

// standardErrors are the standard errors of a logistic fit's parameters:
// the square roots of the inverse of its information (the Hessian of the
// penalised likelihood) at p. A parameter the data cannot tell gets +Inf.
func standardErrors(data []observation, p []float64, ridgeA, ridgeB float64) []float64 {
	n := len(p)
	h := mat.NewSymDense(n, nil)
	for _, o := range data {
		z := p[0]
		for i, xi := range o.x {
			z += p[i+1] * xi
		}
		w := (o.wins + o.loss) * sigmoid(z) * (1 - sigmoid(z))
		row := append([]float64{1}, o.x...)
		for i := range n {
			for j := i; j < n; j++ {
				h.SetSym(i, j, h.At(i, j)+w*row[i]*row[j])
			}
		}
	}
	h.SetSym(0, 0, h.At(0, 0)+ridgeA)
	for i := 1; i < n; i++ {
		h.SetSym(i, i, h.At(i, i)+ridgeB)
	}
	out := make([]float64, n)
	var inv mat.SymDense
	var ch mat.Cholesky
	if !ch.Factorize(h) || ch.InverseTo(&inv) != nil {
		for i := range out {
			out[i] = math.Inf(1)
		}
		return out
	}
	for i := range out {
		out[i] = math.Sqrt(inv.At(i, i))
	}
	return out
}
