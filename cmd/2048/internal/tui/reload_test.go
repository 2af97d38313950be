package tui

import (
	"errors"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
)

// TestReloadSaysEveryError: a reload that fails with several errors (a
// manifest's) says how many and the first on the status line, at its mod,
// file, line and key, and lists each in the log view; the game plays on.
func TestReloadSaysEveryError(t *testing.T) {
	scr := tcell.NewSimulationScreen("UTF-8")
	scr.Init()
	defer scr.Fini()
	scr.SetSize(100, 30)
	s := testGame(t)
	failure := errors.Join(
		&mod.FileError{Mod: "spots", Dir: "/home/a/mods/spots", File: "mod.toml", Line: 3, Column: 1, Key: "bogus", Message: "unknown key"},
		&mod.FileError{Mod: "spots", Dir: "/home/a/mods/spots", File: "mod.toml", Line: 5, Column: 1, Key: "version", Message: "want a string"},
	)
	a, err := New(scr, Config{Ruleset: "classic", Difficulty: "classic", Session: s, Reload: func(*session.Session) error { return failure }})
	if err != nil {
		t.Fatal(err)
	}
	a.HandleEvent(ReloadEvent())
	if want := "mods not reloaded, the last good version runs: 2 errors (L lists them), the first: spots mod.toml:3:1: bogus: unknown key"; a.msg != want || !a.msgErr {
		t.Errorf("the status line: %q, want %q", a.msg, want)
	}
	log := strings.Join(a.history, "\n")
	for _, want := range []string{"spots mod.toml:3:1: bogus: unknown key", "spots mod.toml:5:1: version: want a string"} {
		if !strings.Contains(log, want) {
			t.Errorf("the log view lacks %q:\n%s", want, log)
		}
	}
	// One error: on the status line alone, as before.
	failure = failure.(interface{ Unwrap() []error }).Unwrap()[1]
	a.HandleEvent(ReloadEvent())
	if want := "mods not reloaded, the last good version runs: spots mod.toml:5:1: version: want a string"; a.msg != want {
		t.Errorf("the status line: %q, want %q", a.msg, want)
	}
	a.move(engine.Left)
	a.move(engine.Right)
	if s.State().Turn == 0 {
		t.Error("the game did not play on after the failed reloads")
	}
}
