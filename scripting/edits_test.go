package scripting_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
)

// editsHazards are the hazards of the edits tests' mods.
const editsHazards = `
game.hazard{ name = "ice", glyph = "*", blocks = true }
game.hazard{ name = "fuse", glyph = "!", counter = "count" }
`

// TestGameEdits: game.set, game.mark and game.unmark in start, tick and
// expire handlers change the game exactly as the same requests returned
// in tables do, turn after turn; the calls' requests come before the
// returned table's.
func TestGameEdits(t *testing.T) {
	calls := editsHazards + `
game.on("start", function()
  game.mark(0, 0, "ice", 2)
  game.mark(3, 3, "fuse", 0, 7)
end)
game.on("tick", function(ev)
  if ev.turn == 1 then
    game.set(1, 1, 8)
    game.mark(1, 2, "edits:ice")
  elseif ev.turn == 2 then
    game.unmark(1, 2, "ice")
    game.unmark(2, 2, "ice") -- not there: nothing
    game.set(2, 0, 0)
  end
end)
game.on("expire", function(ev)
  game.set(ev.row, ev.col, 16)
end)
`
	tables := editsHazards + `
game.on("start", function()
  return { mark = { { row = 0, col = 0, name = "ice", turns = 2 }, { row = 3, col = 3, name = "fuse", count = 7 } } }
end)
game.on("tick", function(ev)
  if ev.turn == 1 then
    return { set = { { row = 1, col = 1, cell = 8 } }, mark = { { row = 1, col = 2, name = "edits:ice" } } }
  elseif ev.turn == 2 then
    return { set = { { row = 2, col = 0, cell = 0 } }, unmark = { { row = 1, col = 2, name = "ice" }, { row = 2, col = 2, name = "ice" } } }
  end
end)
game.on("expire", function(ev)
  return { set = { { row = ev.row, col = ev.col, cell = 16 } } }
end)
`
	play := func(src string) [][]byte {
		g := seededGame(t, 7)
		h := attach(t, g, writeModVersion(t, "edits", "2", src))
		if err := h.Start(g); err != nil {
			t.Fatal(err)
		}
		out := [][]byte{marshal(t, g)}
		for i := 0; i < 6 && !g.Status().Over(); i++ {
			move(t, h, g, legal(t, g, i))
			noReports(t, h)
			out = append(out, marshal(t, g))
		}
		return out
	}
	a, b := play(calls), play(tables)
	if len(a) != len(b) {
		t.Fatalf("%d states with calls, %d with tables", len(a), len(b))
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			t.Fatalf("state %d differs:\ncalls  %s\ntables %s", i, a[i], b[i])
		}
	}
	if !bytes.Contains(a[1], []byte(`edits:ice`)) || !bytes.Contains(a[0], []byte(`edits:fuse`)) {
		t.Fatalf("the marks are missing: %s", a[1])
	}

	// Calls first, then the returned table: the table's mark replaces the
	// call's on the same cell.
	g := mergeGame(t)
	h := attach(t, g, writeModVersion(t, "order", "2", editsHazards+`
game.on("tick", function()
  game.mark(0, 0, "ice", 5)
  return { mark = { { row = 0, col = 0, name = "ice", turns = 2 } } }
end)
game.on("before_move", function()
  for _, m in ipairs(game.marks()) do game.log(m.name, m.turns) end
end)
`))
	move(t, h, g, engine.Left)
	move(t, h, g, engine.Right)
	noReports(t, h)
	wantLog(t, h, "order", "order:ice\t2")
}

// TestGameEditsErrors: a call outside a tick, start or expire handler, a
// bad argument, too many arguments, another mod's hazard, or more calls
// than a turn may make is an error at the call that names the function and
// the argument; a handler that fails after its calls leaves nothing of
// them; a version-1 mod has none of the functions.
func TestGameEditsErrors(t *testing.T) {
	g := mergeGame(t)
	h := attach(t, g, writeModVersion(t, "bad", "2", editsHazards+`
local function try(f, ...)
  local ok, err = pcall(f, ...)
  game.log(tostring(ok), err)
end
game.on("before_move", function()
  try(game.mark, 0, 0, "ice")
end)
game.on("tick", function()
  try(game.set, 9, 0, 2)
  try(game.set, 0, 0.5, 2)
  try(game.set, 0, 0, 3)
  try(game.set, 0, 0, 2, 4)
  try(game.mark, 0, 0, "other:x")
  try(game.mark, 0, 0, "ice", -1)
  try(game.mark, 0, 0, "fuse", 0, "many")
  try(game.unmark, 0, 0, "ice", 3)
  try(function() for i = 1, 100 do game.unmark(0, 0, "ice") end end)
end)
`), writeModVersion(t, "old", "1", `game.on("tick", function() game.log(type(game.set), type(game.mark), type(game.unmark), tostring(game.features.edits)) end)`))
	move(t, h, g, engine.Left)
	noReports(t, h)
	want := []string{
		"game.mark: only a tick, start or expire handler changes the board",
		"game.set: row: want a whole number from 0 to 3, got the number 9",
		"game.set: col: want a whole number from 0 to 3, got the number 0.5",
		"game.set: cell: ",
		"game.set: 4 arguments, want at most 3",
		`game.mark: name: "other:x" is not a hazard this mod defined`,
		"game.mark: turns: want a whole number from 0 to 1000000, got the number -1",
		`game.mark: count: want a whole number`,
		"game.unmark: 4 arguments, want at most 3",
		"game.unmark: 65 calls, more than a turn may ask for",
	}
	log := wantPcallErrors(t, h, "bad", want)
	if !strings.Contains(log[1], "main.lua:") {
		t.Errorf("the error does not say where: %q", log[1])
	}
	wantLog(t, h, "old", "nil\tnil\tnil\tnil")
	wantRows(t, g, afterLeft)

	// A handler that fails after its calls: the turn is played again
	// without the mod, so nothing it asked for is on the board.
	g = mergeGame(t)
	h = attach(t, g, writeModVersion(t, "fails", "2", editsHazards+`
game.on("tick", function()
  game.set(1, 1, 64)
  game.mark(0, 0, "ice")
  error("broken")
end)
`))
	move(t, h, g, engine.Left)
	if r := h.TakeReports(); len(r) != 1 || !strings.Contains(r[0].Error(), "broken") {
		t.Fatalf("reports %v, want the mod's error", r)
	}
	wantRows(t, g, afterLeft)
	if len(g.State().Marks) != 0 {
		t.Fatalf("marks %v, want none", g.State().Marks)
	}
}

// TestSpawnFilter: a spawn handler with {near = NAME} runs only for the
// spawns next to a mark of that hazard (above, below, left or right, not
// diagonally), and plays the game exactly as the same handler that tests
// the neighbours itself; a tick handler with {every = N} runs only after
// the turns N divides; a bad filter is an error when the mod loads.
func TestSpawnFilter(t *testing.T) {
	const marks = `
local MOSS = game.hazard{ name = "moss", glyph = "%", blocks = true }
game.on("start", function()
  game.mark(1, 1, MOSS)
  game.mark(2, 3, MOSS)
end)
`
	filtered := marks + `
game.on("spawn", function(ev)
  game.log("spawn", ev.row, ev.col)
  return { cancel = true }
end, { near = "moss" })
`
	scanned := marks + `
game.on("spawn", function(ev)
  for _, m in ipairs(game.marks{ hazard = MOSS }) do
    if math.abs(m.row - ev.row) + math.abs(m.col - ev.col) == 1 then
      game.log("spawn", ev.row, ev.col)
      return { cancel = true }
    end
  end
end)
`
	play := func(src string) ([][]byte, []string) {
		g := seededGame(t, 11)
		h := attach(t, g, writeModVersion(t, "moss", "2", src))
		if err := h.Start(g); err != nil {
			t.Fatal(err)
		}
		var out [][]byte
		for i := 0; i < 12 && !g.Status().Over(); i++ {
			move(t, h, g, legal(t, g, i))
			noReports(t, h)
			out = append(out, marshal(t, g))
		}
		return out, h.Log("moss")
	}
	a, logA := play(filtered)
	b, logB := play(scanned)
	if strings.Join(logA, "|") != strings.Join(logB, "|") || len(logA) == 0 {
		t.Fatalf("the filtered handler ran for %q, the scanning one cancelled %q", logA, logB)
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			t.Fatalf("turn %d differs:\nfiltered %s\nscanned  %s", i+1, a[i], b[i])
		}
	}

	g := mergeGame(t, "3,3,2", "3,0,2", "2,2,2", "1,1,2", "0,0,2", "0,3,2", "3,1,2", "2,0,2")
	h := attach(t, g, writeModVersion(t, "nth", "2", `
game.on("tick", function(ev) game.log("every 3", ev.turn) end, { every = 3 })
game.on("tick", function(ev) game.log("every 1", ev.turn) end, { every = 1 })
`))
	for i := 0; i < 6 && !g.Status().Over(); i++ {
		move(t, h, g, legal(t, g, i))
	}
	noReports(t, h)
	wantLog(t, h, "nth", "every 1\t1", "every 1\t2", "every 3\t3", "every 1\t3", "every 1\t4", "every 1\t5", "every 3\t6", "every 1\t6")

	for _, c := range []struct{ version, src, want string }{
		{"2", `game.on("tick", function() end, { near = "x" })`, `unknown key the string "near" (allowed: every)`},
		{"2", `game.on("before_move", function() end, { near = "x" })`, "only a spawn or tick handler"},
		{"1", `game.hazard{ name = "x", glyph = "x" } game.on("spawn", function() end, { near = "x" })`, "only a spawn or tick handler of an API version 2 mod"},
		{"2", `game.on("spawn", function() end, "x")`, "want a table {near = ...}, got the string"},
		{"2", `game.on("tick", function() end, { every = 0 })`, "every: want a whole number from 1 to 1000000, got the number 0"},
		{"2", `game.on("tick", function() end, { every = 2.5 })`, "every: want a whole number"},
		{"2", `game.hazard{ name = "x", glyph = "x" } game.on("spawn", function() end, { near = "x", far = 1 })`, `unknown key the string "far"`},
		{"2", `game.on("spawn", function() end, { near = "x" })`, `near: "x" is not a hazard this mod defined`},
		{"2", `game.hazard{ name = "x", glyph = "x" } game.on("spawn", function() end, { near = "x" }, 4)`, "4 arguments"},
	} {
		// The mod's files run when a host loads it.
		m, err := mod.Load(writeModDirVersion(t, "f", c.version, c.src))
		if err == nil {
			g := mergeGame(t)
			_, err = scripting.NewHost([]*mod.Mod{m}, g.Rules(), g.Options(), scripting.DefaultLimits())
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.src, err, c.want)
		}
	}
}
