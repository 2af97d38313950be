package sim

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/mod2048/mod2048/cellular"
	"github.com/mod2048/mod2048/engine"
)

// Sample is one position of a played game: its features, and whether the
// game it is from was won.
type Sample struct {
	F   cellular.Features
	Won bool
}

// Collect plays the run o (a cellular configuration) and returns the
// features of every position its games passed through, each labelled with
// its game's outcome, in game order: the data Learn fits the evaluation
// to. The policy that plays is the one whose wins the evaluation learns.
func Collect(o Options) ([]Sample, *Report, error) {
	var mu sync.Mutex
	perGame := map[int][]Sample{}
	o.Observe = func(game int, v View) {
		r, ok := v.Rules.(*cellular.Rules)
		if !ok {
			return
		}
		var smp Sample
		r.Features(v.Fork(0), &smp.F)
		mu.Lock()
		perGame[game] = append(perGame[game], smp)
		mu.Unlock()
	}
	rs, err := Run(o)
	if err != nil {
		return nil, nil, err
	}
	var out []Sample
	for _, r := range rs {
		for _, smp := range perGame[r.Game] {
			smp.Won = r.Outcome == Won
			out = append(out, smp)
		}
	}
	if len(out) == 0 {
		return nil, nil, errors.New("no cellular position was played: the evaluation learns from cellular games")
	}
	return out, NewReport(o.header(), rs), nil
}

// Fit is a fitted evaluation: the weights, and how well they predict the
// outcomes they were fitted to.
type Fit struct {
	W        cellular.Weights
	Samples  int
	LogLoss  float64 // mean −log p of the outcome that happened
	Accuracy float64 // share of positions whose outcome the weights call right (p ≥ 0.5 for a win)
}

// Learn fits weights to samples by logistic regression: the weights whose
// σ(w · features) best predicts each position's outcome (maximum
// likelihood with a small ridge penalty l2, by Newton's method). The
// result is the chance of a win from a position under the policy that
// played the games.
func Learn(samples []Sample, l2 float64) (Fit, error) {
	if len(samples) == 0 {
		return Fit{}, errors.New("no samples to learn from")
	}
	var w cellular.Weights
	for iter := 0; iter < 50; iter++ {
		var grad [cellular.NumFeatures]float64
		var hess [cellular.NumFeatures][cellular.NumFeatures]float64
		for i := range samples {
			f := &samples[i].F
			p := w.Prob(f)
			y := 0.0
			if samples[i].Won {
				y = 1
			}
			for a := range f {
				grad[a] += (y - p) * f[a]
				for b := range f {
					hess[a][b] += p * (1 - p) * f[a] * f[b]
				}
			}
		}
		for a := range grad {
			if a != cellular.Bias {
				grad[a] -= l2 * w[a]
				hess[a][a] += l2
			}
			hess[a][a] += 1e-9
		}
		step, err := solve(hess, grad)
		if err != nil {
			return Fit{}, err
		}
		change := 0.0
		for a := range w {
			w[a] += step[a]
			change = max(change, math.Abs(step[a]))
		}
		if change < 1e-7 {
			break
		}
	}
	fit := Fit{W: w, Samples: len(samples)}
	right := 0
	for i := range samples {
		p := w.Prob(&samples[i].F)
		if samples[i].Won {
			fit.LogLoss -= math.Log(max(p, 1e-12))
			if p >= 0.5 {
				right++
			}
		} else {
			fit.LogLoss -= math.Log(max(1-p, 1e-12))
			if p < 0.5 {
				right++
			}
		}
	}
	fit.LogLoss /= float64(len(samples))
	fit.Accuracy = float64(right) / float64(len(samples))
	return fit, nil
}

// solve solves a·x = b by Gaussian elimination with partial pivoting.
func solve(a [cellular.NumFeatures][cellular.NumFeatures]float64, b [cellular.NumFeatures]float64) ([cellular.NumFeatures]float64, error) {
	const n = cellular.NumFeatures
	for col := 0; col < n; col++ {
		piv := col
		for r := col + 1; r < n; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[piv][col]) {
				piv = r
			}
		}
		if math.Abs(a[piv][col]) < 1e-15 {
			return b, fmt.Errorf("the features are degenerate (feature %s)", cellular.FeatureNames[col])
		}
		a[col], a[piv] = a[piv], a[col]
		b[col], b[piv] = b[piv], b[col]
		for r := col + 1; r < n; r++ {
			k := a[r][col] / a[col][col]
			for c := col; c < n; c++ {
				a[r][c] -= k * a[col][c]
			}
			b[r] -= k * b[col]
		}
	}
	var x [cellular.NumFeatures]float64
	for r := n - 1; r >= 0; r-- {
		s := b[r]
		for c := r + 1; c < n; c++ {
			s -= a[r][c] * x[c]
		}
		x[r] = s / a[r][r]
	}
	return x, nil
}

// CrossEntropyOptions set the search of CrossEntropy.
type CrossEntropyOptions struct {
	Population  int     // weight vectors tried a generation
	Elite       int     // the best of them, that the next generation is drawn around
	Generations int     // generations
	Sigma       float64 // the first generation's spread around start, for each weight
	Noise       float64 // spread added to each generation's, fading to 0 by the last
	Seed        uint64  // the draws' seed
	// Report, when set, is told each generation's best and mean fitness.
	Report func(gen int, best, mean float64, mu cellular.Weights)
}

// CrossEntropy searches for the weights that maximize fitness by the noisy
// cross-entropy method (Szita and Lőrincz, "Learning Tetris Using the
// Noisy Cross-Entropy Method", 2006: the method that learned the strongest
// Tetris evaluations from games won and lost). Each generation draws
// Population weight vectors from a normal distribution, keeps the Elite
// with the highest fitness, and moves the distribution's mean and spread
// to theirs, with Noise added so that it does not close too soon. fitness
// is called with the generation, so that it can play each generation on
// seeds of its own (common to the generation's candidates). It returns
// the last mean.
func CrossEntropy(start cellular.Weights, fitness func(gen int, w cellular.Weights) float64, o CrossEntropyOptions) cellular.Weights {
	rng := newNormal(o.Seed)
	mu := start
	var sigma cellular.Weights
	for i := range sigma {
		sigma[i] = o.Sigma
	}
	type cand struct {
		w cellular.Weights
		f float64
	}
	for gen := 0; gen < o.Generations; gen++ {
		pop := make([]cand, o.Population)
		for k := range pop {
			for i := range pop[k].w {
				pop[k].w[i] = mu[i] + sigma[i]*rng.next()
			}
		}
		// The mean itself is a candidate: a generation never loses it.
		pop[0].w = mu
		mean := 0.0
		for k := range pop {
			pop[k].f = fitness(gen, pop[k].w)
			mean += pop[k].f
		}
		mean /= float64(len(pop))
		// Stable: ties keep the drawing order, so a run is reproducible.
		for i := 1; i < len(pop); i++ {
			for j := i; j > 0 && pop[j].f > pop[j-1].f; j-- {
				pop[j], pop[j-1] = pop[j-1], pop[j]
			}
		}
		elite := pop[:max(1, min(o.Elite, len(pop)))]
		noise := o.Noise * float64(o.Generations-1-gen) / float64(max(o.Generations-1, 1))
		for i := range mu {
			m := 0.0
			for _, c := range elite {
				m += c.w[i]
			}
			m /= float64(len(elite))
			v := 0.0
			for _, c := range elite {
				v += (c.w[i] - m) * (c.w[i] - m)
			}
			v /= float64(len(elite))
			mu[i], sigma[i] = m, math.Sqrt(v+noise*noise)
		}
		if o.Report != nil {
			o.Report(gen, pop[0].f, mean, mu)
		}
	}
	return mu
}

// normal draws standard normal numbers (Box–Muller) from a seeded source.
type normal struct {
	s     uint64
	spare float64
	has   bool
}

func newNormal(seed uint64) *normal { return &normal{s: seed} }

func (n *normal) uniform() float64 {
	n.s += 0x9e3779b97f4a7c15
	return (float64(engine.Mix(n.s)>>11) + 0.5) / (1 << 53)
}

func (n *normal) next() float64 {
	if n.has {
		n.has = false
		return n.spare
	}
	u, v := n.uniform(), n.uniform()
	r := math.Sqrt(-2 * math.Log(u))
	n.spare, n.has = r*math.Sin(2*math.Pi*v), true
	return r * math.Cos(2*math.Pi*v)
}
