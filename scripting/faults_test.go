package scripting_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
)

// flakySrc fails its tick handler on turns 2, 3 and 4 (the third failure
// in a row disables it) and logs the turn of every before_move it sees.
const flakySrc = `
game.on("before_move", function(e) game.log(e.turn) end)
game.on("tick", function(e)
  storage.seen = (storage.seen or 0) + 1
  if e.turn >= 2 and e.turn <= 4 then error("turn " .. e.turn) end
end)
`

// steadySrc keeps a count and a random number in storage every turn.
const steadySrc = `game.on("tick", function(e) storage.n = (storage.n or 0) + 1; storage.r = math.random(1000) end)`

// faultMods are the mods of the record's tests: flaky, then steady.
func faultMods(t *testing.T) []*mod.Mod {
	return []*mod.Mod{luaMod(t, "flaky", flakySrc), luaMod(t, "steady", steadySrc)}
}

// faultHost loads faultMods for g and attaches them.
func faultHost(t *testing.T, g *engine.Game, mods []*mod.Mod) *scripting.Host {
	t.Helper()
	h, err := scripting.NewHost(mods, g.Rules(), g.Options(), testLimits)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	h.Attach(g)
	return h
}

// playFrom plays the moves of turns from..to, each the first legal one from
// its turn's direction.
func playFrom(t *testing.T, h *scripting.Host, g *engine.Game, from, to int) {
	t.Helper()
	for turn := from; turn <= to; turn++ {
		if res := move(t, h, g, legal(t, g, turn)); !res.Changed {
			t.Fatalf("turn %d changed nothing", turn)
		}
	}
}

// TestFaultRecord: the mod's failures and its disabling are in the game's
// state; undo, redo and a save bring them back byte for byte, and a resumed
// game keeps the mod disabled without running it.
func TestFaultRecord(t *testing.T) {
	mods := faultMods(t)
	g := seededGame(t, 11)
	h := faultHost(t, g, mods)
	playFrom(t, h, g, 1, 3)
	if r := h.TakeReports(); len(r) != 2 || r[0].Disabled || r[1].Disabled {
		t.Fatalf("reports of turns 2 and 3: %+v", r)
	}
	atThree := marshal(t, g)
	playFrom(t, h, g, 4, 8)
	r := h.TakeReports()
	if len(r) != 1 || !r[0].Disabled || r[0].Message != "turn 4" {
		t.Fatalf("reports of turns 4 to 8: %+v, want turn 4's, disabling flaky", r)
	}
	want := []engine.Fault{
		{Turn: 2, Hook: "flaky", Event: "tick", Kind: engine.FaultError, Message: "turn 2"},
		{Turn: 3, Hook: "flaky", Event: "tick", Kind: engine.FaultError, Message: "turn 3"},
		{Turn: 4, Hook: "flaky", Event: "tick", Kind: engine.FaultError, Message: "turn 4"},
		{Turn: 4, Hook: "flaky", Event: "tick", Kind: engine.FaultDisabled, Message: "failed 3 turns in a row"},
	}
	if got := g.State().Faults; len(got) != len(want) {
		t.Fatalf("faults %+v, want %+v", got, want)
	}
	for i, f := range g.State().Faults {
		if f != want[i] {
			t.Errorf("faults[%d] = %+v, want %+v", i, f, want[i])
		}
	}
	if got := strings.Join(h.Log("flaky"), " "); got != "1 2 3 4" {
		t.Errorf("flaky saw before_move of turns %q, want 1 to 4 only", got)
	}
	atEight := marshal(t, g)

	// Undo to the start and redo to the end: the same game, byte for byte.
	for g.State().Turn > 0 {
		if err := g.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	if h.Disabled("flaky") {
		t.Error("flaky is disabled at turn 0")
	}
	for range 8 {
		if err := g.Redo(); err != nil {
			t.Fatal(err)
		}
	}
	if got := marshal(t, g); !bytes.Equal(got, atEight) {
		t.Fatalf("after undo and redo:\n%s\nwant\n%s", got, atEight)
	}
	if !h.Disabled("flaky") {
		t.Error("flaky is not disabled after redo to turn 8")
	}

	// A resumed game: the record disables flaky before any move, and the
	// game goes on exactly as the original does.
	resumed, err := engine.Unmarshal(atEight)
	if err != nil {
		t.Fatal(err)
	}
	rh := faultHost(t, resumed, faultMods(t))
	if !rh.Disabled("flaky") || rh.Disabled("steady") {
		t.Fatal("the resumed game's record does not disable flaky (only)")
	}
	playFrom(t, h, g, 9, 12)
	playFrom(t, rh, resumed, 9, 12)
	if a, b := marshal(t, resumed), marshal(t, g); !bytes.Equal(a, b) {
		t.Fatalf("the resumed game differs:\n%s\nwant\n%s", a, b)
	}
	if log := rh.Log("flaky"); len(log) != 0 {
		t.Errorf("flaky ran in the resumed game: %q", log)
	}
	noReports(t, rh)
	noReports(t, h)

	// Undo past the disabling brings flaky back: the state before turn 4
	// has no disable. Played again, turn 4 fails and disables it again.
	for g.State().Turn > 3 {
		if err := g.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	if h.Disabled("flaky") {
		t.Fatal("flaky is disabled after undo to turn 3")
	}
	undone := marshal(t, g)
	if _, err := engine.Unmarshal(undone); err != nil {
		t.Fatal(err)
	}
	playFrom(t, h, g, 4, 4)
	if r := h.TakeReports(); len(r) != 1 || !r[0].Disabled {
		t.Fatalf("turn 4 played again: reports %+v", r)
	}
	if got := strings.Join(h.Log("flaky"), " "); got != "1 2 3 4 4" {
		t.Errorf("flaky saw before_move of turns %q, want 1 2 3 4 4", got)
	}

	// A whole new game with the same seed and moves is the same game.
	fresh := seededGame(t, 11)
	fh := faultHost(t, fresh, faultMods(t))
	playFrom(t, fh, fresh, 1, 3)
	if got := marshal(t, fresh); !bytes.Equal(got, atThree) {
		t.Fatalf("a replay differs at turn 3:\n%s\nwant\n%s", got, atThree)
	}
	playFrom(t, fh, fresh, 4, 8)
	if got := marshal(t, fresh); !bytes.Equal(got, atEight) {
		t.Fatalf("a replay differs at turn 8:\n%s\nwant\n%s", got, atEight)
	}
}

// TestFaultOnlyOnTurns: a failure on a move that makes no turn (one that
// changes nothing) is reported but not recorded and does not count, so it
// cannot disable the mod.
func TestFaultOnlyOnTurns(t *testing.T) {
	g := classicGame(t, []string{"2 0 0 0", empty4, empty4, empty4}, "3,3,2", "1,0,2", "2,2,2", "1,1,2")
	h := attach(t, g, luaMod(t, "grumpy", `game.on("before_move", function(e) error("no " .. e.dir) end)`))
	for i := range 5 {
		res, err := h.Move(g, engine.Left)
		if err != nil || res.Changed {
			t.Fatalf("Left on a tile at the left edge: %+v, %v", res, err)
		}
		r := h.TakeReports()
		if len(r) != 1 || r[0].Message != "no left" || r[0].Disabled {
			t.Fatalf("no-op %d: reports %+v", i, r)
		}
	}
	if f := g.State().Faults; len(f) != 0 || h.Disabled("grumpy") {
		t.Fatalf("no-op moves recorded %+v", f)
	}
	// Two turns that fail, then a third failure on a no-op: the report
	// does not say disabled, and the mod is not.
	move(t, h, g, engine.Right)
	move(t, h, g, engine.Left)
	h.TakeReports()
	if n := g.State().HookFailedInARow("grumpy"); n != 2 {
		t.Fatalf("grumpy failed %d turns in a row, want 2", n)
	}
	res, err := h.Move(g, engine.Left)
	if err != nil || res.Changed {
		t.Fatalf("Left again: %+v, %v", res, err)
	}
	if r := h.TakeReports(); len(r) != 1 || r[0].Disabled || h.Disabled("grumpy") {
		t.Fatalf("a no-op's failure disabled the mod: %+v", r)
	}
	move(t, h, g, engine.Up)
	if r := h.TakeReports(); len(r) != 1 || !r[0].Disabled || !h.Disabled("grumpy") {
		t.Fatalf("the third failing turn: %+v, disabled %v", r, h.Disabled("grumpy"))
	}
}

// TestFaultFailsafe: a handler the time failsafe stops is recorded as a
// failsafe stop; the report says what the failsafe measured, the state
// only that one fired (where the call was then depends on the machine).
func TestFaultFailsafe(t *testing.T) {
	g := seededGame(t, 5)
	h, err := scripting.NewHost([]*mod.Mod{luaMod(t, "hog", `
game.on("tick", function(e)
  local n = 0
  while true do n = n + 1 end
end)`)}, g.Rules(), g.Options(), loopLimits())
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	h.Attach(g)
	move(t, h, g, legal(t, g, 0))
	r := h.TakeReports()
	if len(r) != 1 || !r[0].Failsafe || !strings.Contains(r[0].Message, "the call ran for more than") {
		t.Fatalf("reports %+v, want a failsafe stop for time", r)
	}
	f := g.State().Faults
	if len(f) != 1 || f[0].Kind != engine.FaultFailsafe || f[0].Hook != "hog" || f[0].Turn != 1 {
		t.Fatalf("faults %+v, want hog's failsafe stop on turn 1", f)
	}
	if strings.Contains(f[0].Message, "ran for") || !strings.Contains(f[0].Message, "failsafe") {
		t.Errorf("the state's record %q: want the failsafe's stop, not which one", f[0].Message)
	}
}
