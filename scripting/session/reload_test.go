package session_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
)

// TestReload: a mod read again from its edited files runs from the next
// move on, with the storage the game kept; a load error keeps the last good
// version running.
func TestReload(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "counter")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(lua string) *mod.Mod {
		t.Helper()
		manifest := "id = \"counter\"\nname = \"Counter\"\nversion = \"1.0.0\"\napi_version = 1\nrulesets = [\"classic\"]\n"
		if err := os.WriteFile(filepath.Join(dir, "mod.toml"), []byte(manifest), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "main.lua"), []byte(lua), 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := mod.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	v1 := write(`game.on("tick", function() storage.n = (storage.n or 0) + 1 end)`)
	s, err := session.New(session.Setup{Config: classic(t), Mods: []*mod.Mod{v1}}, session.Start{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	move := func() {
		t.Helper()
		for _, d := range engine.Directions {
			if s.Legal().Has(d) {
				if _, err := s.Move(d); err != nil {
					t.Fatal(err)
				}
				return
			}
		}
		t.Fatal("no legal move")
	}
	move()
	move()
	// The new version counts by ten, and refuses Left.
	v2 := write(`game.on("tick", function() storage.n = (storage.n or 0) + 10 end)
game.on("before_move", function(e) if e.dir == "left" then return {refuse = "no left"} end end)`)
	if err := s.Reload([]*mod.Mod{v2}); err != nil {
		t.Fatal(err)
	}
	move()
	if got := s.State().Data["mod:counter"]; !strings.Contains(got, "12") {
		t.Errorf("storage after two turns of v1 and one of v2: %q, want n = 12", got)
	}
	if s.Legal().Has(engine.Left) {
		t.Error("the reloaded mod's refusal does not count")
	}
	// A broken version is refused; the last good one goes on.
	v3 := write(`game.on("tick", function(`)
	if err := s.Reload([]*mod.Mod{v3}); err == nil {
		t.Fatal("a broken mod reloaded")
	}
	move()
	if got := s.State().Data["mod:counter"]; !strings.Contains(got, "22") {
		t.Errorf("storage after a failed reload: %q, want n = 22", got)
	}
}

// TestMotions: a session that tracks motions reports each move's, through
// a new game too.
func TestMotions(t *testing.T) {
	s, err := session.New(session.Setup{Config: classic(t)}, session.Start{Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.TrackMotions()
	for round := 0; round < 2; round++ {
		tiles := 0
		for _, c := range s.State().Board.Cells {
			if c.Kind == engine.KindTile {
				tiles++
			}
		}
		d := s.Legal().List()[0]
		if _, err := s.Move(d); err != nil {
			t.Fatal(err)
		}
		if got := len(s.LastMotions().Moves); got != tiles {
			t.Fatalf("round %d: %d motions for %d tiles", round, got, tiles)
		}
		if err := s.NewGame(5); err != nil {
			t.Fatal(err)
		}
	}
}
