package scripting

import (
	"github.com/mod2048/mod2048/scripting/mod"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/engine"
)

// TestExpire: a mark whose turns run out is off the board after its last
// turn, and the mod that set it hears of it in the expire event (once, with
// where it stood and its count), before its tick handlers, and may answer
// as a tick handler; another mod hears nothing.
func TestExpire(t *testing.T) {
	fuse := probeMod(t, "fuse", `
game.hazard{ name = "fuse", glyph = "*", counter = "turns" }
game.on("start", function()
  return { mark = { { row = 0, col = 0, name = "fuse", turns = 2, count = 7 } } }
end)
game.on("expire", function(ev)
  game.log("expire", ev.turn, ev.row, ev.col, ev.name, ev.count, #game.marks())
  return { set = { { row = ev.row, col = ev.col, cell = 0 } } }
end)
game.on("tick", function(ev) game.log("tick", ev.turn) end)
`)
	other := probeMod(t, "other", `game.on("expire", function(ev) game.log("heard", ev.name) end)`)
	g, h := probeGame(t, [4][4]int{{0, 0, 0, 2}}, [][3]int{{3, 3, 2}, {3, 0, 2}}, fuse, other)
	if err := h.Start(g); err != nil {
		t.Fatal(err)
	}
	if m := g.State().Marks; len(m) != 1 || m[0].Count != 7 || m[0].Turns != 2 {
		t.Fatalf("marks after start: %+v", m)
	}
	for _, d := range []engine.Direction{engine.Left, engine.Up} {
		if _, err := h.Move(g, d); err != nil {
			t.Fatal(err)
		}
		if r := h.TakeReports(); len(r) > 0 {
			t.Fatal(r[0])
		}
	}
	log := strings.Join(h.Log("fuse"), "\n")
	if want := "tick\t1\nexpire\t2\t0\t0\tfuse:fuse\t7\t0\ntick\t2"; log != want {
		t.Errorf("the fuse mod's log:\n%s\nwant\n%s", log, want)
	}
	if len(h.Log("other")) != 0 {
		t.Errorf("another mod heard of the mark: %q", h.Log("other"))
	}
	if c := g.State().Board.At(engine.Pos{}); c.Kind != engine.KindEmpty || len(g.State().Marks) != 0 {
		t.Errorf("the expire handler's set did not empty (0,0): %v, marks %v", c, g.State().Marks)
	}
}

// TestNotify: game.notify's messages come out of TakeNotices once the move
// is played, in order; a refused move, a dry run and a version-1 mod show
// none, and a bad message is the mod's error.
func TestNotify(t *testing.T) {
	talker := probeMod(t, "talker", `
game.on("tick", function(ev)
  game.notify("turn " .. ev.turn)
  if ev.turn == 2 then game.notify("  two  ") end
end)
game.on("before_move", function(ev)
  game.notify("asked about " .. ev.dir)
  if ev.dir == "down" then return { refuse = "not down" } end
end)
`)
	g, h := probeGame(t, [4][4]int{{2, 0, 0, 0}}, [][3]int{{3, 3, 2}, {2, 2, 2}, {1, 1, 2}}, talker)
	if ref := h.Refused(g, engine.Right); ref != nil {
		t.Fatal(ref)
	}
	if n := h.TakeNotices(); len(n) != 0 {
		t.Fatalf("a dry run showed %v", n)
	}
	if _, err := h.Move(g, engine.Down); err == nil {
		t.Fatal("down was not refused")
	}
	if n := h.TakeNotices(); len(n) != 0 {
		t.Fatalf("a refused move showed %v", n)
	}
	for _, d := range []engine.Direction{engine.Right, engine.Left} {
		if _, err := h.Move(g, d); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, n := range h.TakeNotices() {
		got = append(got, n.Mod+": "+n.Text)
	}
	want := "talker: asked about right|talker: turn 1|talker: asked about left|talker: turn 2|talker: two"
	if strings.Join(got, "|") != want {
		t.Errorf("notices %q, want %q", strings.Join(got, "|"), want)
	}
	if n := h.TakeNotices(); len(n) != 0 {
		t.Errorf("taken twice: %v", n)
	}
	for src, want := range map[string]string{
		`game.on("tick", function() game.notify("") end)`:                           "1 to 200 bytes",
		`game.on("tick", function() game.notify(string.rep("x", 201)) end)`:         "1 to 200 bytes",
		`game.on("tick", function() game.notify(5) end)`:                            "want one string",
		`game.on("tick", function() for i = 1, 5 do game.notify("n" .. i) end end)`: "at most 4",
		`game.on("tick", function() game.notify("a\27[2Jb") ; error("after") end)`:  "after",
	} {
		md := probeMod(t, "bad", src)
		g, h := probeGame(t, [4][4]int{{2, 0, 0, 0}}, [][3]int{{3, 3, 2}}, md)
		if _, err := h.Move(g, engine.Right); err != nil {
			t.Fatal(err)
		}
		r := h.TakeReports()
		if len(r) == 0 || !strings.Contains(r[0].Error(), want) {
			t.Errorf("%s: reports %v, want %q", src, r, want)
		}
		if n := h.TakeNotices(); len(n) != 0 {
			t.Errorf("%s: a failed handler's turn showed %v", src, n)
		}
	}
}

// TestCounterAndMarksFilter: a hazard's counter, a mark's count, and
// game.marks{hazard = NAME}.
func TestCounterAndMarksFilter(t *testing.T) {
	md := probeMod(t, "c", `
game.hazard{ name = "a", glyph = "a", counter = "count" }
game.hazard{ name = "b", glyph = "b", counter = "turns" }
game.on("start", function()
  return { mark = { { row = 0, col = 0, name = "a", count = 3 }, { row = 1, col = 1, name = "b", turns = 9 }, { row = 2, col = 2, name = "a" } } }
end)
game.on("tick", function()
  local a, b = game.marks{ hazard = "a" }, game.marks{ hazard = "c:b" }
  game.log(#a, a[1].count, a[2].count, #b, b[1].turns, b[1].count)
end)
`)
	g, h := probeGame(t, [4][4]int{{2, 0, 0, 0}}, [][3]int{{3, 3, 2}}, md)
	if err := h.Start(g); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Move(g, engine.Right); err != nil {
		t.Fatal(err)
	}
	if r := h.TakeReports(); len(r) > 0 {
		t.Fatal(r[0])
	}
	if got := strings.Join(h.Log("c"), "|"); got != "2\t3\t0\t1\t8\t0" {
		t.Errorf("log %q", got)
	}
	if hz, _ := h.Hazard("c:a"); hz.Counter != CounterCount {
		t.Errorf("hazard c:a: counter %q", hz.Counter)
	}
	for src, want := range map[string]string{
		`game.hazard{ name = "x", glyph = "x", counter = "lives" }`:     `counter: want "turns" or "count"`,
		`game.on("tick", function() game.marks{ hazard = "nope" } end)`: "game.marks: hazard",
		`game.on("tick", function() game.marks{ hazrd = "x" } end)`:     "unknown key",
	} {
		bad := probeMod(t, "bad", src)
		g, h, err := probeGameErr(t, bad)
		if err != nil {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v, want %q", src, err, want)
			}
			continue
		}
		h.Move(g, engine.Right)
		if r := h.TakeReports(); len(r) == 0 || !strings.Contains(r[0].Error(), want) {
			t.Errorf("%s: reports %v, want %q", src, r, want)
		}
	}
}

// probeGameErr is probeGame with one spawn, returning NewHost's error.
func probeGameErr(t *testing.T, mods ...*mod.Mod) (*engine.Game, *Host, error) {
	t.Helper()
	rules := engine.NewClassic()
	opt := engine.Options{Width: 4, Height: 4, ScriptedOnly: true}
	board := engine.NewBoard(4, 4)
	two, _ := rules.ParseCell("2")
	board.Set(engine.Pos{}, two)
	g, err := engine.NewFromBoard(rules, opt, board)
	if err != nil {
		t.Fatal(err)
	}
	g.AddSpawns(engine.SpawnEntry{Pos: engine.Pos{Row: 3, Col: 3}, Cell: two})
	h, err := NewHost(mods, rules, opt, defaultLimits)
	if err != nil {
		return nil, nil, err
	}
	t.Cleanup(h.Close)
	g.SetHooks(h)
	return g, h, nil
}
