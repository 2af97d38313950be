package sim

import (
	"github.com/mod2048/mod2048/cellular"
	"math"
	"testing"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine/ai"
	"github.com/mod2048/mod2048/scripting/session"
)

// TestCrossEntropy: the cross-entropy search finds the maximum of a noisy
// quadratic from far away, the same way on every run.
func TestCrossEntropy(t *testing.T) {
	var target cellular.Weights
	for i := range target {
		target[i] = float64(i%5) - 2
	}
	fitness := func(gen int, w cellular.Weights) float64 {
		d := 0.0
		for i := range w {
			d += (w[i] - target[i]) * (w[i] - target[i])
		}
		return -d + 0.01*math.Sin(float64(gen)*w[0])
	}
	o := CrossEntropyOptions{Population: 30, Elite: 6, Generations: 40, Sigma: 2, Noise: 0.2, Seed: 7}
	got := CrossEntropy(cellular.Weights{}, fitness, o)
	for i := range got {
		if math.Abs(got[i]-target[i]) > 0.15 {
			t.Fatalf("weight %d: %v, want about %v (all %v)", i, got[i], target[i], got)
		}
	}
	if again := CrossEntropy(cellular.Weights{}, fitness, o); again != got {
		t.Error("two runs with the same seed differ")
	}
}

// TestLearn: logistic regression recovers the weights that made the
// outcomes.
func TestLearn(t *testing.T) {
	const progress, unrest = 1, 3 // features of FeatureNames' order
	var truth cellular.Weights
	truth[cellular.Bias], truth[progress], truth[unrest] = -1, 3, -4
	rng := newNormal(3)
	var samples []Sample
	for i := 0; i < 20000; i++ {
		var f cellular.Features
		f[cellular.Bias] = 1
		for j := 1; j < cellular.NumFeatures; j++ {
			f[j] = rng.uniform()
		}
		samples = append(samples, Sample{F: f, Won: rng.uniform() < truth.Prob(&f)})
	}
	fit, err := Learn(samples, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{cellular.Bias, progress, unrest} {
		if math.Abs(fit.W[i]-truth[i]) > 0.3 {
			t.Errorf("weight %s: %.2f, want about %.2f", cellular.FeatureNames[i], fit.W[i], truth[i])
		}
	}
	if fit.Accuracy < 0.6 {
		t.Errorf("accuracy %.2f", fit.Accuracy)
	}
}

// TestExpertAdvise: the adviser ranks every legal move, best first, with
// a chance of a win on cellular and none on classic, where its first move
// is the expert player's; the same position gives the same advice.
func TestExpertAdvise(t *testing.T) {
	e, err := NewExpert(PolicyOptions{AI: quickAI()})
	if err != nil {
		t.Fatal(err)
	}
	for _, preset := range []string{"classic", "mid"} {
		c, err := config.Preset(preset)
		if err != nil {
			t.Fatal(err)
		}
		s, err := session.New(session.Setup{Config: c}, session.Start{Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 3; i++ {
			s.Move(s.Legal().List()[0])
		}
		v := ViewOf(s)
		adv, err := e.Advise(v)
		if err != nil || len(adv) == 0 {
			t.Fatalf("%s: %v, %v", preset, adv, err)
		}
		for i, a := range adv {
			if !v.Legal.Has(a.Dir) {
				t.Errorf("%s: %v is not legal", preset, a.Dir)
			}
			if preset == "classic" && a.Win != -1 || preset == "mid" && (a.Win < 0 || a.Win > 1) {
				t.Errorf("%s: %v has win %v", preset, a.Dir, a.Win)
			}
			if i > 0 && preset == "mid" && a.Win > adv[i-1].Win {
				t.Errorf("%s: not best first: %v", preset, adv)
			}
		}
		again, _ := e.Advise(ViewOf(s))
		if len(again) != len(adv) || again[0] != adv[0] {
			t.Errorf("%s: %v, then %v", preset, adv, again)
		}
		if preset == "classic" {
			p, _ := ai.New(quickAI())
			if sug, _ := p.Best(s.Fork(0), s.Legal()); sug.Dir != adv[0].Dir {
				t.Errorf("classic: advice %v, the expert player %v", adv[0].Dir, sug.Dir)
			}
		}
		s.Close()
	}
}
