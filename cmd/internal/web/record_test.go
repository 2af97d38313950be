package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mod2048/mod2048/cmd/internal/web/webtest"
)

// TestWorkshopRecordAnyGame does in one page what a mod author does with
// a new mod: New Game, a few moves, Record a case, Run the fixtures,
// green. Then the same after a changed setting, and after a game of the
// other ruleset (which the mod does not take) and back.
func TestWorkshopRecordAnyGame(t *testing.T) {
	b := browser(t)
	url := webtest.Serve(t, nil)
	p := newWorkshopMod(t, b, url, "cursed")
	p.WaitFor(`!window.mod2048Workshop.pending() && document.querySelector('#ws-status').textContent.startsWith("Running")`, waitLong)
	cases := 2 // the template's: CURSED-1 and CURSED-TEMPLATE

	// recordFromNewGame starts a new game, plays until three moves stand,
	// records them and runs the fixtures.
	recordFromNewGame := func(when string) {
		t.Helper()
		if !playUntil(t, p, `window.mod2048.view().view.undo > 0`, 8) {
			t.Fatalf("%s: no move plays", when)
		}
		p.Click("#new-game")
		p.WaitFor(`window.mod2048.view().view.undo === 0`, waitLong)
		p.Click("#game")
		if !playUntil(t, p, `window.mod2048.view().view.undo >= 3`, 12) {
			t.Fatalf("%s: three moves do not stand", when)
		}
		p.Click("#ws-record")
		cases++
		p.WaitFor(fmt.Sprintf(`document.querySelector('#ws-status').textContent.startsWith("Recorded CURSED-%d") || document.querySelector('#ws-status').dataset.kind === "error"`, cases-1), waitLong)
		if st := p.Text("#ws-status"); !strings.HasPrefix(st, "Recorded") {
			t.Fatalf("%s: Record a case: %q", when, st)
		}
		// The case is the workshop's own change, not an edit: nothing waits
		// to reload the mod and overwrite the status (it once did, a pause
		// later, so that the status read "Running" again).
		var pending bool
		p.Eval(`window.mod2048Workshop.pending()`, &pending)
		if pending {
			t.Fatalf("%s: recording a case left an edit pending", when)
		}
		p.Eval(`document.getElementById("ws-summary").textContent = ""`, nil)
		p.Click("#ws-run")
		p.WaitFor(`document.getElementById("ws-summary").textContent !== ""`, waitLong)
		if got, want := p.Text("#ws-summary"), fmt.Sprintf("%d passed, 0 failed", cases); got != want {
			t.Fatalf("%s: the fixtures: %q, want %q\n%s", when, got, want, p.Text("#ws-fixtures"))
		}
	}

	recordFromNewGame("after New Game")

	// A changed setting: the game goes on with it, and New Game keeps it.
	p.WaitFor(`!!document.getElementById("set-cursed-max_turns")`, waitLong)
	p.Eval(`(() => { const f = document.getElementById("set-cursed-max_turns"); f.value = "50"; f.dispatchEvent(new Event("change", {bubbles: true})); })()`, nil)
	p.WaitFor(`document.querySelector('#ws-status').textContent.includes("cursed.max_turns=50")`, waitLong)
	recordFromNewGame("after a changed setting")

	// A cellular game from the settings runs without the classic mod, and
	// says so; a classic game from the settings plays the mod again.
	startFromSettings(t, p, "cellular")
	p.Idle()
	var mods int
	p.Eval(`(window.mod2048.view().view.mods || []).length`, &mods)
	if st := p.Text("#ws-status"); mods != 0 || !strings.Contains(st, "runs without cursed, a mod for classic") {
		t.Errorf("a cellular game: %d mods, the status %q", mods, st)
	}
	p.Click("#ws-record")
	if st := p.Text("#ws-status"); !strings.Contains(st, "does not play cursed: start a classic game") {
		t.Errorf("Record in a game without the mod: %q", st)
	}
	startFromSettings(t, p, "classic")
	p.Idle()
	p.Eval(`(window.mod2048.view().view.mods || []).length`, &mods)
	if mods != 1 {
		t.Fatalf("a classic game from the settings plays %d mods, want the workshop's", mods)
	}
	recordFromNewGame("after a cellular game and back")
	if logs := p.Logs(); len(logs) > 0 {
		t.Errorf("the page logged errors: %v", logs)
	}
}

// waitLong bounds a wait for a state of the page: long, since a loaded
// machine may take seconds for what takes a moment; the waits end as
// soon as the state holds.
const waitLong = 60 * time.Second
