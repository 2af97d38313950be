package scripting_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// TestKeptPayloadsNeverChange: a handler that keeps its payloads (the
// host gives it fresh ones) and one that only reads fields (the host
// reuses its table) both see every event right, and no kept table ever
// changes under its keeper.
func TestKeptPayloadsNeverChange(t *testing.T) {
	g := seededGame(t, 21)
	h := attach(t, g, luaMod(t, "keeper", `
local kept = {}
local function keep(name)
  return function(e)
    local copy = {}
    for k, v in pairs(e) do copy[k] = v end
    if e.from then copy.from1 = e.from[1].row .. "," .. e.from[1].col; copy.source1 = e.sources[1] end
    kept[#kept + 1] = {e = e, copy = copy, from = e.from}
    for i, k in ipairs(kept) do
      for key, v in pairs(k.copy) do
        local now = k.e[key]
        if key == "from1" then now = k.e.from[1].row .. "," .. k.e.from[1].col end
        if key == "source1" then now = k.e.sources[1] end
        if now ~= v then error(name .. ": kept payload " .. i .. " changed its " .. key) end
      end
      if k.from and k.from ~= k.e.from then error("from changed") end
    end
    game.log(name, e.turn or e.row)
  end
end
for _, ev in ipairs({"before_move", "after_merge", "spawn", "tick"}) do game.on(ev, keep(ev)) end
`), luaMod(t, "reader", `
game.on("before_move", function(e) game.log("before_move", e.dir, e.turn) end)
game.on("after_merge", function(e) game.log("after_merge", e.row, e.col, e.result) end)
game.on("spawn", function(e) game.log("spawn", e.row, e.col, e.cell, e.scripted) end)
game.on("tick", function(e) game.log("tick", e.turn, e.dir, e.gained, e.merges, e.spawns) end)
`), luaMod(t, "fresh", `
game.on("before_move", function(e) local x = e; game.log("before_move", x.dir, x.turn) end)
game.on("after_merge", function(e) local x = e; game.log("after_merge", x.row, x.col, x.result) end)
game.on("spawn", function(e) local x = e; game.log("spawn", x.row, x.col, x.cell, x.scripted) end)
game.on("tick", function(e) local x = e; game.log("tick", x.turn, x.dir, x.gained, x.merges, x.spawns) end)
`))
	for i := range 40 {
		move(t, h, g, legal(t, g, i))
		noReports(t, h)
	}
	// The handler whose payload is reused saw what the one given fresh
	// tables saw.
	reader, fresh := strings.Join(h.Log("reader"), "\n"), strings.Join(h.Log("fresh"), "\n")
	if reader != fresh || !strings.Contains(reader, "tick\t40\t") {
		t.Fatalf("reused payloads read:\n%s\nfresh ones:\n%s", reader, fresh)
	}
}

// TestStorageReachedEveryWay: storage reached through _G by a computed
// name, or from a module required only during play, is saved and undone
// as the global is.
func TestStorageReachedEveryWay(t *testing.T) {
	for _, c := range []struct{ name, main, module string }{
		{"global", `game.on("tick", function(e) storage.n = (storage.n or 0) + 1 end)`, ""},
		{"computed", `game.on("tick", function(e) local s = _G["stor" .. "age"]; s.n = (s.n or 0) + 1 end)`, ""},
		{"late require", `game.on("tick", function(e) require("count")() end)`, `return function() storage.n = (storage.n or 0) + 1 end`},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{"main.lua": c.main}
			if c.module != "" {
				files["count.lua"] = c.module
			}
			g := seededGame(t, 4)
			h := attach(t, g, loadMod(t, writeMod(t, "counter", "", files)))
			for i := range 5 {
				move(t, h, g, legal(t, g, i))
			}
			noReports(t, h)
			if rec := g.State().Data["mod:counter"]; !strings.Contains(rec, `["n",5]`) {
				t.Fatalf("record %q, want n = 5", rec)
			}
			atFive := marshal(t, g)
			if err := g.Undo(); err != nil {
				t.Fatal(err)
			}
			if err := g.Undo(); err != nil {
				t.Fatal(err)
			}
			move(t, h, g, legal(t, g, 3))
			if rec := g.State().Data["mod:counter"]; !strings.Contains(rec, `["n",4]`) {
				t.Fatalf("after undo twice and a move: record %q, want n = 4", rec)
			}
			move(t, h, g, legal(t, g, 4))
			if got := marshal(t, g); !bytes.Equal(got, atFive) {
				t.Fatalf("played again after undo, the game differs:\n%s\nwant\n%s", got, atFive)
			}
		})
	}
}

// TestRandomWithoutStorage: a mod that never names storage but draws
// random numbers keeps its stream in the state, undone with the turn.
func TestRandomWithoutStorage(t *testing.T) {
	g := seededGame(t, 9)
	h := attach(t, g, luaMod(t, "dice", `game.on("tick", function(e) game.log(math.random(1000000)) end)`))
	for i := range 4 {
		move(t, h, g, legal(t, g, i))
	}
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	move(t, h, g, legal(t, g, 3))
	log := h.Log("dice")
	if len(log) != 5 || log[3] != log[4] {
		t.Fatalf("rolls %q: the roll after undo should repeat turn 4's", log)
	}
	if g.State().Data["mod:dice"] == "" {
		t.Fatal("the random stream is not in the state")
	}
}

// TestPayloadFieldsRead: on a reused payload the host sets only the fields
// a handler's code can read. A handler that reads some fields, beside
// another of the same mod that reads others, sees exactly what a handler
// whose payload escapes (and so gets every field, fresh) sees, turn after
// turn.
func TestPayloadFieldsRead(t *testing.T) {
	masked := writeModVersion(t, "masked", "2", `
game.on("tick", function(e) game.log("a", e.gained, e.merges) end)
game.on("tick", function(e) game.log("b", e.turn, e.spawns, e.dir) end)
game.on("spawn", function(e) game.log("s", e.cell) end)
game.on("before_move", function(e) game.log("m", e.turn) end)`)
	fresh := writeModVersion(t, "fresh", "2", `
local function show(e, ...) local out = {} for i, k in ipairs({...}) do out[i] = tostring(e[k]) end return table.concat(out, "\t") end
game.on("tick", function(e) game.log("a\t" .. show(e, "gained", "merges")) end)
game.on("tick", function(e) game.log("b\t" .. show(e, "turn", "spawns", "dir")) end)
game.on("spawn", function(e) game.log("s\t" .. show(e, "cell")) end)
game.on("before_move", function(e) game.log("m\t" .. show(e, "turn")) end)`)
	g := seededGame(t, 7)
	h := attach(t, g, masked, fresh)
	for i := 0; i < 40; i++ {
		h.Move(g, legal(t, g, i))
	}
	noReports(t, h)
	a, b := h.Log("masked"), h.Log("fresh")
	if len(a) < 100 || !slices.Equal(a, b) {
		t.Fatalf("the masked payloads differ from the fresh ones:\n%q\n%q", a, b)
	}
}
