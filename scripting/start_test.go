package scripting

import (
	"github.com/mod2048/mod2048/scripting/mod"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/engine"
)

// TestStartAndFollow: a version-2 mod places a follow mark from its start
// handler; the mark rides its tile through a move and onto a merge.
func TestStartAndFollow(t *testing.T) {
	md := probeMod(t, "bombs", `
game.hazard{ name = "bomb", glyph = "*", follow = true, on_merge = "keep" }
game.hazard{ name = "ice", glyph = "#", blocks = true }
game.on("start", function(ev)
  game.log("start", ev.turn, game.turn())
  return { mark = { { row = 0, col = 3, name = "bomb" }, { row = 3, col = 0, name = "ice" } } }
end)
`)
	g, h := probeGame(t, [4][4]int{{0, 0, 2, 2}}, [][3]int{{2, 2, 2}, {2, 3, 2}}, md)
	if err := h.Start(g); err != nil {
		t.Fatal(err)
	}
	if r := h.TakeReports(); len(r) > 0 {
		t.Fatal(r[0])
	}
	want := func(when string, marks ...engine.Mark) {
		t.Helper()
		got := g.State().Marks
		if len(got) != len(marks) {
			t.Fatalf("%s: marks %+v, want %+v", when, got, marks)
		}
		for i := range got {
			if got[i] != marks[i] {
				t.Errorf("%s: mark %d is %+v, want %+v", when, i, got[i], marks[i])
			}
		}
	}
	bomb := func(r, c int) engine.Mark {
		return engine.Mark{Pos: engine.Pos{Row: r, Col: c}, Name: "bombs:bomb", Follow: true, OnMerge: engine.MergeKeep}
	}
	ice := engine.Mark{Pos: engine.Pos{Row: 3, Col: 0}, Name: "bombs:ice", Block: true}
	want("after start", bomb(0, 3), ice)
	if got := h.Log("bombs"); len(got) != 1 || got[0] != "start\t0\t0" {
		t.Errorf("start's log: %q", got)
	}
	// Left: 2 2 merge into (0,0); the bomb's tile was the back one: keep.
	if _, err := h.Move(g, engine.Left); err != nil {
		t.Fatal(err)
	}
	want("after Left", bomb(0, 0), ice)
	// Down: the 4 at (0,0) slides to (2,0), above the ice.
	if _, err := h.Move(g, engine.Down); err != nil {
		t.Fatal(err)
	}
	want("after Down", bomb(2, 0), ice)
	// Undo brings the mark back with the tile.
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	want("after undo", bomb(0, 0), ice)
}

// TestStartErrors: a start handler's error is reported and the game begins
// without its requests; a version-1 mod has neither start nor follow.
func TestStartErrors(t *testing.T) {
	md := probeMod(t, "broken", `
game.hazard{ name = "x", glyph = "x" }
game.on("start", function() error("no start today") end)
`)
	g, h := probeGame(t, [4][4]int{{2}}, nil, md)
	if err := h.Start(g); err != nil {
		t.Fatal(err)
	}
	r := h.TakeReports()
	if len(r) != 1 || r[0].Event != EventStart || !strings.Contains(r[0].Message, "no start today") {
		t.Fatalf("reports %+v, want the start error", r)
	}
	if f := g.State().Faults; len(f) != 1 || f[0].Turn != 0 || f[0].Hook != "broken" {
		t.Errorf("faults %+v, want the start's at turn 0", f)
	}
	for name, main := range map[string]string{
		"start":    `game.on("start", function() end)`,
		"follow":   `game.hazard{ name = "x", glyph = "x", follow = true }`,
		"on_merge": `game.hazard{ name = "x", glyph = "x", on_merge = "drop" }`,
	} {
		dir := filepath.Join(t.TempDir(), "old")
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, mod.ManifestName), []byte("id = \"old\"\nname = \"old\"\nversion = \"1\"\napi_version = 1\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "main.lua"), []byte(main), 0o644)
		m, err := mod.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := NewHost([]*mod.Mod{m}, engine.NewClassic(), engine.Options{Width: 4, Height: 4}, DefaultLimits()); err == nil {
			t.Errorf("a version-1 mod using %s loaded", name)
		}
	}
	bad := probeMod(t, "bad", `game.hazard{ name = "x", glyph = "x", on_merge = "keep" }`)
	if _, err := NewHost([]*mod.Mod{bad}, engine.NewClassic(), engine.Options{Width: 4, Height: 4}, DefaultLimits()); err == nil || !strings.Contains(err.Error(), "follow = true") {
		t.Errorf("on_merge without follow: %v", err)
	}
}
