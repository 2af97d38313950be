package replay_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
	"github.com/mod2048/mod2048/scripting/session/replay"
)

// TestCostModelReplay: a replay plays back deterministically. A failsafe
// stop the recording holds (made in play) is history: the mod that looped
// is stopped again without running, and the replay reproduces. A failsafe
// that fires now, on a turn the recording does not stop, ends the
// playback with the *scripting.CostModelError: not a divergence, and not
// a fault of the mod's.
func TestCostModelReplay(t *testing.T) {
	c, _ := config.Build(config.BuildOptions{})
	looper := func(turn string) string {
		return `
game.on("tick", function(e)
  storage.n = (storage.n or 0) + 1
  if e.turn == ` + turn + ` then while true do end end
end)`
	}
	hog := writeMod(t, "hog", looper("3"))
	limits := scripting.DefaultLimits()
	limits.HandlerInstructions, limits.TurnInstructions = 1<<62, 1<<62
	limits.GameTurnInstructions = 0 // no game-wide share either
	limits.FailsafeTime = 250 * time.Millisecond
	// Recorded in play, where the failsafe stops the mod and the game
	// goes on.
	s, err := session.New(session.Setup{Config: c, Mods: []*mod.Mod{load(t, hog)}, Limits: limits}, session.Start{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Record(); err != nil {
		t.Fatal(err)
	}
	for range 6 {
		if _, err := s.Move(s.Legal().List()[0]); err != nil {
			t.Fatal(err)
		}
	}
	if f := s.State().Faults; len(f) != 1 || f[0].Kind != engine.FaultFailsafe || f[0].Turn != 3 {
		t.Fatalf("faults %+v, want the failsafe stop of turn 3", f)
	}
	f, err := replay.New(s, replay.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	check := func(dir string) error {
		t.Helper()
		setup, _, err := f.Setup(map[string]string{"hog": dir})
		if err != nil {
			t.Fatal(err)
		}
		if !setup.Deterministic {
			t.Error("a replay's setup is not deterministic")
		}
		setup.Limits = limits
		return f.CheckWith(setup, map[string]string{"hog": dir})
	}
	if err := check(hog); err != nil {
		t.Fatalf("the recorded failsafe stop is not played back as recorded: %v", err)
	}
	err = check(writeMod(t, "hog", looper("2")))
	var cm *scripting.CostModelError
	if !errors.As(err, &cm) || cm.Mod != "hog" || cm.Event != "tick" || !strings.Contains(err.Error(), "the sandbox's cost model failed") {
		t.Fatalf("a failsafe on turn 2: %v, want hog's cost-model error", err)
	}
	if d := (*replay.Divergence)(nil); errors.As(err, &d) {
		t.Errorf("the cost-model error is reported as a divergence: %v", d)
	}
}
