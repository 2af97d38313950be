package cellular

import (
	"fmt"
	"math"
	"strings"

	"github.com/mod2048/mod2048/engine"
)

// The features of a cellular position that the searching policies value
// it by. Each is scaled to about 0 to 1, so that one set of weights serves
// every preset and board size.
const (
	fBias       = iota
	fProgress   // S_base / threshold, capped at 2: the alive energy against the goal
	fSurvivors  // the energy a Life tick now would leave alive / threshold, capped at 2
	fUnrest     // births and deaths a tick now would make / cells
	fStable     // 1 when a tick now would make no birth and no death
	fReady      // 1 when stable and the surviving energy reaches the goal: a win is one swipe away
	fAlive      // alive cells / cells
	fDormant    // dormant cells / cells
	fEmpty      // cells with no occupant and no blight / cells
	fIsolated   // alive cells with at most one alive neighbour / cells
	fThreatened // alive cells next to a blight token, active or incoming / cells
	fFading     // alive cells of energy 1 on their way to dormancy / cells
	fMobility   // legal swipes / 4
	fStreak     // the stable streak / 4, capped at 1
	fCatalysts  // catalysts / cells
	fTop        // the highest energy / e_cap
	fTime       // turns played / goal.turns: the share of the turn limit gone (0 with no limit)
	fHeld       // turns the goal has been held / goal.hold (0 when one turn wins)
	NumFeatures // how many
)

// Bias is the feature that is always 1.
const Bias = fBias

// FeatureNames names the features, for the learned weights' file and the
// docs.
var FeatureNames = [NumFeatures]string{
	"bias", "progress", "survivors", "unrest", "stable", "ready", "alive", "dormant", "empty",
	"isolated", "threatened", "fading", "mobility", "streak", "catalysts", "top", "time", "held",
}

// Features are a position's features.
type Features [NumFeatures]float64

// Features computes the features of a game's position under r.
func (r *Rules) Features(g *engine.Game, out *Features) {
	st := g.State()
	b := &st.Board
	n := float64(len(b.Cells))
	t := float64(max(r.Threshold(), 1))
	settings := r.Settings()
	var base, alive, dormant, empty, threatened, fading, catalysts, top, blights int
	for _, c := range b.Cells {
		switch c.Kind {
		case KindAlive:
			alive++
			base += int(c.Level)
			top = max(top, int(c.Level))
			if c.Level == 1 && c.Counter > 0 {
				fading++
			}
		case KindDormant:
			dormant++
		default:
			if c.Token != TokenBlight && c.Token != TokenIncoming {
				empty++
			}
		}
		switch c.Token {
		case TokenCatalyst:
			catalysts++
		case TokenBlight, TokenIncoming:
			blights++
		}
	}
	if blights > 0 {
		// The alive cells next to a blight, or to one telegraphed: most
		// positions have none.
		w, h := b.Width, b.Height
		for p, c := range b.Cells {
			if c.Kind != KindAlive {
				continue
			}
			row, col := p/w, p%w
			for _, q := range [4][2]int{{row - 1, col}, {row + 1, col}, {row, col - 1}, {row, col + 1}} {
				if q[0] >= 0 && q[0] < h && q[1] >= 0 && q[1] < w {
					tok := b.Cells[q[0]*w+q[1]].Token
					if tok == TokenBlight || tok == TokenIncoming {
						threatened++
						break
					}
				}
			}
		}
	}
	f := r.Foresee(st)
	legal := 0
	for _, d := range engine.Directions {
		if g.Legal(d) {
			legal++
		}
	}
	unrest := f.Births + f.Deaths
	*out = Features{}
	out[fBias] = 1
	out[fProgress] = math.Min(float64(base)/t, 2)
	out[fSurvivors] = math.Min(float64(f.Survivors)/t, 2)
	out[fUnrest] = float64(unrest) / n
	if unrest == 0 {
		out[fStable] = 1
		if f.Survivors >= r.Threshold() {
			out[fReady] = 1
		}
	}
	out[fAlive] = float64(alive) / n
	out[fDormant] = float64(dormant) / n
	out[fEmpty] = float64(empty) / n
	out[fIsolated] = float64(f.Isolated) / n
	out[fThreatened] = float64(threatened) / n
	out[fFading] = float64(fading) / n
	out[fMobility] = float64(legal) / 4
	out[fStreak] = math.Min(float64(st.Vars[VarStreak])/4, 1)
	out[fCatalysts] = float64(catalysts) / n
	out[fTop] = float64(top) / float64(max(settings.ECap, 1))
	if settings.Goal.Turns > 0 {
		out[fTime] = math.Min(float64(st.Turn)/float64(settings.Goal.Turns), 1)
	}
	if settings.Goal.Hold > 1 {
		out[fHeld] = float64(st.Vars[VarHeld]) / float64(settings.Goal.Hold)
	}
}

// Weights weigh the features into a position's value: the chance of a win,
// σ(w · features), fitted by logistic regression to the outcomes of played
// games (Learn).
type Weights [NumFeatures]float64

// Value values a position of r's game by w: 1 when won, 0 when lost,
// else the chance of a win σ(w · features).
func (r *Rules) Value(w *Weights, g *engine.Game) float64 {
	switch g.Status() {
	case engine.Won, engine.WonContinue:
		return 1
	case engine.Lost:
		return 0
	}
	var f Features
	r.Features(g, &f)
	return w.Prob(&f)
}

// Evaluation is r's evaluation for a search (ai.Evaluator): Value by
// weights, NumFeatures of them in FeatureNames' order (nil: Learned).
func (r *Rules) Evaluation(weights []float64) (func(g *engine.Game) float64, error) {
	w := &Learned
	if weights != nil {
		if len(weights) != NumFeatures {
			return nil, fmt.Errorf("cellular: %d weights, want %d (%s)", len(weights), NumFeatures, strings.Join(FeatureNames[:], ", "))
		}
		c := Weights(weights)
		w = &c
	}
	return func(g *engine.Game) float64 { return r.Value(w, g) }, nil
}

// Prob is σ(w · f).
func (w *Weights) Prob(f *Features) float64 {
	z := 0.0
	for i := range f {
		z += w[i] * f[i]
	}
	return 1 / (1 + math.Exp(-z))
}

// ExpertWeights are the weights of r's evaluation for the expert's search
// (ai.ExpertWeigher): ExpertLearned.
func (r *Rules) ExpertWeights() []float64 { return ExpertLearned[:] }
