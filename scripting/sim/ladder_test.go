package sim

import (
	"reflect"
	"testing"

	"github.com/mod2048/mod2048/cellular"
	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine/ai"
	"github.com/mod2048/mod2048/scripting/session"
)

// TestCellularLadder guards the difficulty of the cellular presets at
// every skill (cellular/RULES.md, "Tuning") with fixed seeds and fewer
// games than the measured table, and checks no time: on every preset the
// win rate rises with skill (random ≤ greedy ≤ lookahead 2 ≤ expert: no
// skill wins significantly less often than the one below it), the
// expert wins early more often than mid and mid more often than late,
// and every game ends, won or lost, within 1000 turns.
func TestCellularLadder(t *testing.T) {
	if testing.Short() {
		t.Skip("plays the skill ladder on the three presets")
	}
	const games = 30
	ladder := map[string]Skill{}
	for _, k := range Ladder(PolicyOptions{AI: ai.Defaults()}) {
		ladder[k.Name] = k
	}
	order := []string{"random", "greedy", "lookahead 2", "expert"}
	var expert []float64
	for _, preset := range []string{"early", "mid", "late"} {
		c, err := config.Preset(preset)
		if err != nil {
			t.Fatal(err)
		}
		var reports []*Report
		for _, name := range order {
			k := ladder[name]
			mk, err := MakePolicy(k.Policy, k.Options)
			if err != nil {
				t.Fatal(err)
			}
			o := Options{Setup: session.Setup{Config: c}, Policy: name, Make: mk, Games: games, Seed: 11, MaxTurns: 1000}
			rs, err := Run(o)
			if err != nil {
				t.Fatal(err)
			}
			r := NewReport(o.header(), rs)
			t.Logf("%s, %s: won %d of %d (%.0f%%–%.0f%%), median %v turns", preset, name, r.Wins, r.Games, 100*r.WinCI[0], 100*r.WinCI[1], r.Turns.P50)
			if r.Unfinished > 0 {
				t.Errorf("%s, %s: %d of %d games unfinished after 1000 turns", preset, name, r.Unfinished, r.Games)
			}
			reports = append(reports, r)
		}
		for i := 1; i < len(reports); i++ {
			if d := WinDiff(reports[i-1], reports[i]); d.Significant && d.D < 0 {
				t.Errorf("%s: %s wins %.0f%%, significantly less than %s's %.0f%%: the ladder's order is broken",
					preset, order[i], 100*reports[i].WinRate, order[i-1], 100*reports[i-1].WinRate)
			}
		}
		expert = append(expert, reports[len(reports)-1].WinRate)
	}
	if !(expert[0] > expert[1] && expert[1] > expert[2] && expert[2] > 0) {
		t.Errorf("the expert wins early %.2f, mid %.2f, late %.2f: the presets' order is broken", expert[0], expert[1], expert[2])
	}
}

// TestExpertPlaysItsOwnWeights: the lab's expert values cellular positions
// by the weights fitted to its own search (cellular.ExpertLearned,
// ai.ExpertEvalFor), and the lookahead by the lookahead's
// (cellular.Learned): the same games as with those weights given, and not
// the same games as with the other's.
func TestExpertPlaysItsOwnWeights(t *testing.T) {
	if cellular.ExpertLearned == cellular.Learned {
		t.Fatal("the expert's weights are the lookahead's: this test cannot tell them apart")
	}
	c, err := config.Preset("late")
	if err != nil {
		t.Fatal(err)
	}
	play := func(policy string, weights []float64) []Result {
		t.Helper()
		mk, err := MakePolicy(policy, PolicyOptions{Depth: 2, Samples: DefaultSamples, AI: ai.Defaults(), Weights: weights})
		if err != nil {
			t.Fatal(err)
		}
		rs, err := Run(Options{Setup: session.Setup{Config: c}, Policy: policy, Make: mk, Games: 3, Seed: 21, MaxTurns: 1000})
		if err != nil {
			t.Fatal(err)
		}
		return rs
	}
	own, lookaheads := cellular.ExpertLearned, cellular.Learned
	for _, k := range []struct {
		policy      string
		own, others []float64
	}{
		{"expert", own[:], lookaheads[:]},
		{"lookahead", lookaheads[:], own[:]},
	} {
		plain := play(k.policy, nil)
		if given := play(k.policy, k.own); !reflect.DeepEqual(plain, given) {
			t.Errorf("%s: its games differ from those with its own weights given", k.policy)
		}
		if other := play(k.policy, k.others); reflect.DeepEqual(plain, other) {
			t.Errorf("%s: its games are those with the other player's weights", k.policy)
		}
	}
}
