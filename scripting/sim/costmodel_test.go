package sim

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
)

// TestCostModelStopsTheRun: a mod whose handler the wall-clock failsafe
// stops (a loop no instruction budget ends, a failsafe of a quarter of a
// second) ends the lab's run with the *scripting.CostModelError, with one
// worker or two and whatever the policy (the greedy one meets it in a
// fork, a dry run of before_move meets it in the legal moves): no result
// is returned, so no report can be written that a faster machine would
// write otherwise.
func TestCostModelStopsTheRun(t *testing.T) {
	for _, tc := range []struct{ policy, event, src string }{
		{"random", "tick", `game.on("tick", function(e) if e.turn == 3 then while true do end end end)`},
		{"greedy", "tick", `game.on("tick", function(e) if e.turn == 3 then while true do end end end)`},
		{"random", "before_move", `game.on("before_move", function(e) if e.turn == 4 then while true do end end end)`},
	} {
		dir := filepath.Join(t.TempDir(), "hog")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		manifest := "id = \"hog\"\nname = \"Hog\"\nversion = \"1.0.0\"\napi_version = 1\n"
		for name, src := range map[string]string{"mod.toml": manifest, "main.lua": tc.src} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		m, err := mod.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		o := options(t, tc.policy, 3)
		o.Setup.Mods = []*mod.Mod{m}
		o.Setup.Limits = scripting.DefaultLimits()
		o.Setup.Limits.HandlerInstructions, o.Setup.Limits.TurnInstructions = 1<<62, 1<<62
		o.Setup.Limits.GameTurnInstructions = 0 // no game-wide share either
		o.Setup.Limits.FailsafeTime = 250 * time.Millisecond
		o.MaxTurns = 20
		for _, jobs := range []int{1, 2} {
			o.Jobs = jobs
			rs, err := Run(o)
			var cm *scripting.CostModelError
			if !errors.As(err, &cm) || cm.Mod != "hog" || cm.Event != tc.event {
				t.Fatalf("%s, %s, --jobs %d: %v, want hog's cost-model error in %s", tc.policy, tc.event, jobs, err, tc.event)
			}
			if !strings.Contains(err.Error(), "the sandbox's cost model failed") {
				t.Errorf("the error %q does not say the cost model failed", err)
			}
			if rs != nil {
				t.Errorf("%s, --jobs %d: %d results: a stopped run has none", tc.policy, jobs, len(rs))
			}
		}
	}
}
