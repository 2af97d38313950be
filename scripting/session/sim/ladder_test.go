package sim

import (
	"testing"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/scripting/session"
)

// TestCellularLadder guards the difficulty ladder of the cellular presets
// (cellular/RULES.md, "Tuning") with fixed seeds and fewer games than the
// measured table: the default lookahead wins early more often than mid, and
// mid more often than late, and random play ends every game (won or lost)
// within 1000 turns. It checks no time.
func TestCellularLadder(t *testing.T) {
	run := func(preset, policy string, games int) *Report {
		t.Helper()
		c, err := config.Preset(preset)
		if err != nil {
			t.Fatal(err)
		}
		mk, err := MakePolicy(policy, PolicyOptions{Depth: DefaultDepth, Samples: DefaultSamples})
		if err != nil {
			t.Fatal(err)
		}
		o := Options{Setup: session.Setup{Config: c}, Policy: policy, Make: mk, Games: games, Seed: 1, MaxTurns: 1000}
		rs, err := Run(o)
		if err != nil {
			t.Fatal(err)
		}
		return NewReport(header(o), rs)
	}
	var rates []float64
	for _, preset := range []string{"early", "mid", "late"} {
		r := run(preset, DefaultPolicy, 60)
		rates = append(rates, r.WinRate)
		t.Logf("%s: lookahead wins %d of %d (median %v turns)", preset, r.Wins, r.Games, r.Turns.P50)
		if rnd := run(preset, "random", 60); rnd.Unfinished != 0 {
			t.Errorf("%s: %d of %d random games unfinished after 1000 turns", preset, rnd.Unfinished, rnd.Games)
		}
	}
	if !(rates[0] > rates[1] && rates[1] > rates[2] && rates[2] > 0) {
		t.Errorf("win rates early %.2f, mid %.2f, late %.2f: the ladder's order is broken", rates[0], rates[1], rates[2])
	}
}
