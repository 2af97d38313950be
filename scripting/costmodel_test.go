package scripting_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
)

// loopLimits are budgets no loop spends, with a failsafe of a quarter of a
// second: a handler that loops for ever is certainly stopped by the wall
// clock, whatever the machine, and never by a count; one that does not
// loop is done long before.
func loopLimits() scripting.Limits {
	l := scripting.DefaultLimits()
	l.HandlerInstructions, l.TurnInstructions, l.LoadInstructions = 1<<62, 1<<62, 1<<62
	l.GameTurnInstructions = 0 // no game-wide share either
	l.FailsafeTime = raceSlowdown * 250 * time.Millisecond
	return l
}

// costModel fails the test unless err is a *scripting.CostModelError of
// mod id in event ev, saying what the task says it says.
func costModel(t *testing.T, err error, id, ev string) *scripting.CostModelError {
	t.Helper()
	var cm *scripting.CostModelError
	if !errors.As(err, &cm) {
		t.Fatalf("error %v (%T), want a *scripting.CostModelError", err, err)
	}
	if cm.Mod != id || cm.Event != ev {
		t.Errorf("the error names mod %q, event %q: want %q, %q", cm.Mod, cm.Event, id, ev)
	}
	for _, want := range []string{"mod " + id + ": the sandbox's cost model failed: " + ev, "ran for more than " + loopLimits().FailsafeTime.String() + " on fewer instructions than its budget", "this machine's speed", "please report this mod"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error %q lacks %q", err, want)
		}
	}
	return cm
}

// TestCostModelMove: in a deterministic host, a tick handler the failsafe
// stops fails the move with a *CostModelError: the game is left byte for
// byte as it was, no report and no fault is kept, and the host stays
// failed, running no more Lua.
func TestCostModelMove(t *testing.T) {
	src := `
game.on("tick", function(e)
  storage.n = (storage.n or 0) + 1
  if e.turn == 2 then
    while true do end
  end
end)`
	g := seededGame(t, 7)
	h, err := scripting.NewHost([]*mod.Mod{luaMod(t, "hog", src)}, g.Rules(), g.Options(), loopLimits(), scripting.Deterministic())
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	h.Attach(g)
	move(t, h, g, legal(t, g, 0))
	noReports(t, h)
	before, err := g.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	_, err = h.Move(g, legal(t, g, 1))
	cm := costModel(t, err, "hog", "tick")
	if cm.File != "main.lua" || cm.Line != 5 {
		t.Errorf("the error says %s:%d, want main.lua:5 (the loop)", cm.File, cm.Line)
	}
	after, err := g.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Error("the failed move changed the game")
	}
	noReports(t, h)
	if f := g.State().Faults; len(f) != 0 {
		t.Errorf("faults %+v: a failsafe stop in a deterministic host is no mod's fault", f)
	}
	if h.Err() != cm {
		t.Errorf("Err() = %v, want the move's error", h.Err())
	}
	// The host stays failed: the next move runs nothing, and says why.
	spent := h.Instructions()
	if _, err := h.Move(g, legal(t, g, 2)); err != cm {
		t.Errorf("the next move: %v, want the same error", err)
	}
	if h.Instructions() != spent || g.State().Turn != 1 {
		t.Errorf("the failed host ran Lua (%d instructions) or moved (turn %d)", h.Instructions()-spent, g.State().Turn)
	}
}

// TestCostModelPlay: without Deterministic (play), the same stop is the
// mod's failure: reported as a failsafe's, recorded as a failsafe fault,
// and the game goes on without the mod's effects on the turn.
func TestCostModelPlay(t *testing.T) {
	g := seededGame(t, 7)
	h, err := scripting.NewHost([]*mod.Mod{luaMod(t, "hog", `game.on("tick", function(e) while true do end end)`)}, g.Rules(), g.Options(), loopLimits())
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	h.Attach(g)
	if res := move(t, h, g, legal(t, g, 0)); !res.Changed {
		t.Fatal("the move changed nothing")
	}
	if r := h.TakeReports(); len(r) != 1 || !r[0].Failsafe || r[0].Mod != "hog" {
		t.Fatalf("reports %+v, want hog's failsafe stop", r)
	}
	if f := g.State().Faults; len(f) != 1 || f[0].Kind != engine.FaultFailsafe || f[0].Hook != "hog" {
		t.Fatalf("faults %+v, want hog's failsafe stop", f)
	}
	if h.Err() != nil {
		t.Errorf("Err() = %v in play", h.Err())
	}
}

// TestCostModelLoadAndDryRun: a main chunk the failsafe stops fails
// NewHost with the error (event "load"); a before_move handler it stops in
// a dry run (Refused) fails the host, so the next move returns the error.
func TestCostModelLoadAndDryRun(t *testing.T) {
	g := seededGame(t, 3)
	_, err := scripting.NewHost([]*mod.Mod{luaMod(t, "slowload", `while true do end`)}, g.Rules(), g.Options(), loopLimits(), scripting.Deterministic())
	costModel(t, err, "slowload", "load")

	h, err := scripting.NewHost([]*mod.Mod{luaMod(t, "doubter", `game.on("before_move", function(e) while true do end end)`)}, g.Rules(), g.Options(), loopLimits(), scripting.Deterministic())
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	h.Attach(g)
	d := legal(t, g, 0)
	if ref := h.Refused(g, d); ref != nil {
		t.Fatalf("Refused: %v", ref)
	}
	costModel(t, h.Err(), "doubter", "before_move")
	_, err = h.Move(g, d)
	costModel(t, err, "doubter", "before_move")
	if g.State().Turn != 0 {
		t.Errorf("turn %d: the failed host moved the game", g.State().Turn)
	}
}

// TestCallBuiltDeterministic: the build limit (MaxCallBuilt) counts what
// the call builds, not the process's heap, so in a deterministic host it
// is the mod's failure like any budget's, never the cost model's: the
// game goes on without the mod's effects on the turn, and records an
// ordinary fault.
func TestCallBuiltDeterministic(t *testing.T) {
	g := seededGame(t, 5)
	limits := testLimits
	limits.MaxCallBuilt = 16 << 20
	h, err := scripting.NewHost([]*mod.Mod{luaMod(t, "hog", `
game.on("tick", function(e)
  local s = "xxxxxxxx"
  while true do s = s .. s end
end)`)}, g.Rules(), g.Options(), limits, scripting.Deterministic())
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	h.Attach(g)
	move(t, h, g, legal(t, g, 0))
	r := h.TakeReports()
	if len(r) != 1 || r[0].Failsafe || r[0].Message != "exceeded its build limit (16 MiB built in one call)" {
		t.Fatalf("reports %+v, want hog's build limit", r)
	}
	if f := g.State().Faults; len(f) != 1 || f[0].Kind != engine.FaultError || f[0].Message != r[0].Message || g.State().Turn != 1 {
		t.Errorf("turn %d, faults %+v: want the move played and hog's fault", g.State().Turn, f)
	}
	if h.Err() != nil {
		t.Errorf("Err() = %v", h.Err())
	}
}
