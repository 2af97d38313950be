package sim

import (
	"math"
	"testing"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine/ai"
	"github.com/mod2048/mod2048/scripting/session"
)

// TestTipPoints: a player who follows the tips plays its games to their
// end, each position holds the search's chance for the move it took,
// between 0 and 1, and its game's outcome, and the reliability table
// counts every position once.
func TestTipPoints(t *testing.T) {
	c, err := config.Preset("mid")
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Setup: session.Setup{Config: c}, Policy: "tips", Games: 4, Seed: 7001, MaxTurns: 1000}
	ps, err := TipPoints(o, PolicyOptions{AI: ai.Defaults()})
	if err != nil {
		t.Fatal(err)
	}
	o.Make = func(uint64) (Policy, error) {
		e, err := NewExpert(PolicyOptions{AI: ai.Defaults()})
		return &tipFollower{e: e, raws: new([]float64)}, err
	}
	rs, err := Run(o)
	if err != nil {
		t.Fatal(err)
	}
	turns := 0
	for _, r := range rs {
		turns += r.Turns
	}
	if len(ps) != turns {
		t.Fatalf("%d positions of %d turns", len(ps), turns)
	}
	for _, p := range ps {
		if p.Raw < 0 || p.Raw > 1 || p.Shown != p.Raw || p.Won != (rs[p.Game].Outcome == Won) {
			t.Fatalf("position %+v of game %+v", p, rs[p.Game])
		}
	}
	n := 0
	for _, b := range Reliability(ps) {
		n += b.Positions
	}
	if n != len(ps) {
		t.Errorf("the reliability table holds %d positions of %d", n, len(ps))
	}
}

// TestFitCalibration: the fit is non-decreasing, and maps a chance to the
// share won where the outcomes follow a known curve.
func TestFitCalibration(t *testing.T) {
	var ps []TipPoint
	for i := range 20000 {
		raw := float64(i%1000) / 1000
		want := raw * raw // the search says raw; the games win raw²
		ps = append(ps, TipPoint{Game: i, Raw: raw, Won: float64((i*7919)%1000)/1000 < want})
	}
	k := FitCalibration(ps, 500)
	for i := 1; i < len(k); i++ {
		if k[i].Raw <= k[i-1].Raw || k[i].Won <= k[i-1].Won {
			t.Fatalf("knots not increasing: %v", k)
		}
	}
	for _, raw := range []float64{0.2, 0.5, 0.8} {
		if got := CalibratedWin(k, raw); math.Abs(got-raw*raw) > 0.04 {
			t.Errorf("CalibratedWin(%v) = %.3f, want about %.3f", raw, got, raw*raw)
		}
	}
}
