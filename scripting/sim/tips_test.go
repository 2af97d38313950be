package sim

import (
	"math"
	"testing"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine/ai"
	"github.com/mod2048/mod2048/scripting/session"
)

// TestTipChanceCalibrated: the chance of a win the tip shows means what it
// says. A player who follows the tips plays fresh games of mid and late
// (seeds the tables were never fitted on); in every bin of the chance
// shown with enough positions (200, of 30 games at least), the share of
// those positions whose game was won is within 10 points of the mean
// chance shown.
func TestTipChanceCalibrated(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 200 games of the expert")
	}
	for i, preset := range []string{"mid", "late"} {
		c, err := config.Preset(preset)
		if err != nil {
			t.Fatal(err)
		}
		table, ok := chanceTables()[c.Cellular]
		if !ok {
			t.Fatalf("%s has no chance table", preset)
		}
		o := Options{Setup: session.Setup{Config: c}, Policy: "tips", Games: 100, Seed: 7001 + uint64(i), MaxTurns: 1000}
		ps, err := TipPoints(o, PolicyOptions{AI: ai.Defaults()})
		if err != nil {
			t.Fatal(err)
		}
		for j := range ps {
			ps[j].Shown = table.Won[ps[j].Cell]
		}
		rel := Reliability(ps)
		t.Logf("%s:\n%s", preset, rel)
		checked := 0
		for _, b := range rel {
			if b.Positions < 200 || b.Games < 30 {
				continue
			}
			checked++
			if math.Abs(b.Shown-b.Share) > 0.10 {
				t.Errorf("%s: shown %.0f–%.0f%%: a mean chance of %.1f%%, and %.1f%% of the positions' games won (%d positions of %d games)",
					preset, 100*b.Lo, 100*b.Lo+10, 100*b.Shown, 100*b.Share, b.Positions, b.Games)
			}
		}
		if checked < 3 {
			t.Errorf("%s: only %d bins hold enough positions", preset, checked)
		}
	}
}

// TestChanceOnlyWhereMeasured: the tip has a chance on a preset with a
// table and no mods, and none on another configuration.
func TestChanceOnlyWhereMeasured(t *testing.T) {
	e, err := NewExpert(PolicyOptions{AI: ai.Defaults()})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sets []string
		has  bool
	}{
		{nil, true},
		{[]string{"goal.turns=181"}, false},
	} {
		cfg, err := config.Build(config.BuildOptions{Ruleset: "cellular", Difficulty: "mid", Sets: c.sets})
		if err != nil {
			t.Fatal(err)
		}
		s, err := session.New(session.Setup{Config: cfg}, session.Start{Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		p, ok := e.Chance(ViewOf(s))
		s.Close()
		if ok != c.has || ok && (p <= 0 || p >= 1) {
			t.Errorf("%v: chance %v %v, want one: %v", c.sets, p, ok, c.has)
		}
	}
}

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
		return &tipFollower{e: e, seen: new([]tipSeen)}, err
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
		if p.Raw < 0 || p.Raw > 1 || p.Shown != p.Raw || p.Won != (rs[p.Game].Outcome == Won) || p.Cell < 0 || p.Cell >= ChanceCells {
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
