package session_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
)

// hogMod writes and loads a mod whose main.lua is src.
func hogMod(t *testing.T, src string) *mod.Mod {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "hog")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := "id = \"hog\"\nname = \"Hog\"\nversion = \"1.0.0\"\napi_version = 1\n"
	for name, text := range map[string]string{"mod.toml": manifest, "main.lua": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, err := mod.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// loopLimits are budgets no loop spends and a failsafe of a quarter of a
// second: a handler that loops for ever is stopped by the wall clock on
// any machine.
func loopLimits() scripting.Limits {
	l := scripting.DefaultLimits()
	l.HandlerInstructions, l.TurnInstructions, l.LoadInstructions = 1<<62, 1<<62, 1<<62
	l.GameTurnInstructions = 0 // no game-wide share either
	l.FailsafeTime = 250 * time.Millisecond
	return l
}

// TestCostModelSession: one switch, Setup.Deterministic. Off (play), a mod
// whose tick the failsafe stops is reported, recorded as a failsafe fault
// and left out of the turn, and the game goes on. On, the same move fails
// with the *scripting.CostModelError, the game stays as it was, Err keeps
// the error; and a mod whose loading the failsafe stops fails New with it.
func TestCostModelSession(t *testing.T) {
	src := `game.on("tick", function(e) if e.turn >= 2 then while true do end end end)`
	for _, deterministic := range []bool{false, true} {
		setup := session.Setup{Config: classic(t), Mods: []*mod.Mod{hogMod(t, src)}, Limits: loopLimits(), Deterministic: deterministic}
		s, err := session.New(setup, session.Start{Seed: 4})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		first := func() engine.Direction { return s.Legal().List()[0] }
		if _, err := s.Move(first()); err != nil {
			t.Fatal(err)
		}
		before, _ := s.Save()
		res, err := s.Move(first())
		after, _ := s.Save()
		if !deterministic {
			if err != nil || !res.Changed || s.State().Turn != 2 {
				t.Fatalf("play: %v, changed %v, turn %d: the game must go on", err, res.Changed, s.State().Turn)
			}
			r := s.TakeReports()
			if len(r) != 1 || !r[0].Failsafe || r[0].Mod != "hog" {
				t.Fatalf("play: reports %+v, want hog's failsafe stop", r)
			}
			if f := s.State().Faults; len(f) != 1 || f[0].Kind != engine.FaultFailsafe {
				t.Fatalf("play: faults %+v, want a failsafe stop", f)
			}
			if s.Err() != nil {
				t.Errorf("play: Err() = %v", s.Err())
			}
			continue
		}
		var cm *scripting.CostModelError
		if !errors.As(err, &cm) || cm.Mod != "hog" || cm.Event != "tick" {
			t.Fatalf("deterministic: %v, want hog's cost-model error", err)
		}
		if string(before) != string(after) || res.Changed {
			t.Error("deterministic: the failed move changed the game")
		}
		if r := s.TakeReports(); len(r) != 0 {
			t.Errorf("deterministic: reports %+v", r)
		}
		if !errors.As(s.Err(), &cm) {
			t.Errorf("deterministic: Err() = %v", s.Err())
		}
		// A new game whose start handler loops is refused with the
		// error; the session keeps its game.
		setup.Mods = []*mod.Mod{hogMod(t, `game.on("tick", function() end)
while true do end`)}
		if _, err := session.New(setup, session.Start{Seed: 4}); !errors.As(err, &cm) || cm.Event != "load" {
			t.Errorf("deterministic: a mod whose load loops: %v, want a cost-model error", err)
		}
	}
}
