package scripting_test

import (
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
)

// TestFailedModUndone: everything a failing mod did on the turn is undone:
// its merge results, its spawn changes, its storage.
func TestFailedModUndone(t *testing.T) {
	g := mergeGame(t)
	h := attach(t, g, luaMod(t, "bad", `
game.on("after_merge", function(e) storage.merged = true; return {result = 64} end)
game.on("spawn", function(e) return {row = 1, col = 1, cell = 4} end)
game.on("tick", function(e)
  local t = nil
  return t.x
end)
`))
	res := move(t, h, g, engine.Left)
	wantRows(t, g, afterLeft)
	if res.Gained != engine.ScoreOf(4) {
		t.Errorf("gained %v, want 4", res.Gained)
	}
	reports := h.TakeReports()
	if len(reports) != 1 {
		t.Fatalf("reports %v", reports)
	}
	r := reports[0]
	if r.Mod != "bad" || r.Event != "tick" || r.File != "main.lua" || r.Line != 6 || !strings.Contains(r.Message, "attempt to index") || r.Traceback == "" {
		t.Errorf("report %+v, want bad, tick, main.lua:6, \"attempt to index...\" and a traceback", r)
	}
	if want := "mod bad (main.lua:6): tick: " + r.Message; r.Error() != want {
		t.Errorf("Error() = %q, want %q", r.Error(), want)
	}
	if len(g.State().Data) != 0 {
		t.Errorf("data %q, want none", g.State().Data)
	}
}

func TestLogNotStdout(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	restored := false
	restore := func() {
		if !restored {
			os.Stdout = stdout
			restored = true
		}
	}
	defer restore()
	g := mergeGame(t)
	h := attach(t, g, luaMod(t, "talk", `
print("loading", 1, nil, true, {}, 2.5)
game.log("via game.log")
print()
game.on("tick", function(e) print("tick", e.turn) end)
`))
	move(t, h, g, engine.Left)
	restore()
	w.Close()
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) > 0 {
		t.Errorf("mods wrote to stdout: %q", out)
	}
	wantLog(t, h, "talk", "loading\t1\tnil\ttrue\t(table)\t2.5", "via game.log", "", "tick\t1")
	if got := h.Log("nobody"); got != nil {
		t.Errorf("Log(nobody) = %q, want nil", got)
	}
}

// TestLogLimit: a mod's log keeps its last Limits.MaxLog bytes.
func TestLogLimit(t *testing.T) {
	limits := testLimits
	limits.MaxLog = 100
	g := mergeGame(t)
	m := luaMod(t, "talk", `for i = 1, 100 do game.log(string.format("line %03d", i)) end`)
	h, err := scripting.NewHost([]*mod.Mod{m}, g.Rules(), g.Options(), limits)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	log := h.Log("talk")
	size := 0
	for _, l := range log {
		size += len(l)
	}
	if size > 100 || len(log) == 0 || log[len(log)-1] != "line 100" {
		t.Errorf("log %q (%d bytes): want the last lines, at most 100 bytes", log, size)
	}
}

// TestDisable: a mod that fails FailLimit turns in a row is disabled; a
// mod whose failures are not in a row is not.
func TestDisable(t *testing.T) {
	g := seededGame(t, 3)
	// flaky fails on the turns of its list; steady never fails.
	h := attach(t, g,
		luaMod(t, "flaky", `
local fails = {[1] = true, [3] = true, [4] = true, [6] = true, [7] = true, [9] = true, [10] = true, [11] = true}
game.on("tick", function(e)
  if fails[e.turn] then error("turn " .. e.turn) end
end)
game.on("before_move", function(e) game.log(e.turn) end)
`),
		luaMod(t, "steady", `game.on("tick", function(e) storage.n = (storage.n or 0) + 1 end)`),
	)
	if scripting.FailLimit != 3 {
		t.Fatalf("FailLimit = %d; this test is written for 3", scripting.FailLimit)
	}
	for turn := 1; turn <= 14; turn++ {
		res := move(t, h, g, legal(t, g, turn))
		if !res.Changed {
			t.Fatal("no change")
		}
		reports := h.TakeReports()
		failing := map[int]bool{1: true, 3: true, 4: true, 6: true, 7: true, 9: true, 10: true, 11: true}[turn]
		switch {
		case failing:
			if len(reports) != 1 || reports[0].Mod != "flaky" || reports[0].Message != fmt.Sprintf("turn %d", turn) || reports[0].File != "main.lua" || reports[0].Line != 4 {
				t.Fatalf("turn %d: reports %+v, want flaky's error", turn, reports)
			}
			wantDisabled := turn == 11
			if reports[0].Disabled != wantDisabled || h.Disabled("flaky") != wantDisabled {
				t.Errorf("turn %d: Report.Disabled %v, Disabled(flaky) %v; want %v", turn, reports[0].Disabled, h.Disabled("flaky"), wantDisabled)
			}
			if wantDisabled && !strings.HasSuffix(reports[0].Error(), "(the mod is now disabled)") {
				t.Errorf("Error() = %q", reports[0].Error())
			}
		case len(reports) != 0:
			t.Fatalf("turn %d: reports %+v, want none", turn, reports)
		}
		if g.State().Turn != turn {
			t.Fatalf("turn %d: the game is at turn %d", turn, g.State().Turn)
		}
	}
	// After it was disabled its handlers no longer run; steady's ran every
	// turn.
	log := h.Log("flaky")
	if last := log[len(log)-1]; last != "11" {
		t.Errorf("flaky's before_move last ran for turn %s, want 11", last)
	}
	if !h.Disabled("flaky") || h.Disabled("steady") || h.Disabled("nobody") {
		t.Error("Disabled: want flaky only")
	}
	if rec := g.State().Data["mod:steady"]; !strings.Contains(rec, `["n",14]`) {
		t.Errorf("steady's storage %q, want n = 14", rec)
	}
}
