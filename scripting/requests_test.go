package scripting_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
)

// TestTickSetSettles: a set that leaves no move makes the game lost.
func TestTickSetSettles(t *testing.T) {
	g := classicGame(t, []string{"2 4 2 4", "4 2 4 2", "2 4 2 4", "0 4 2 4"}, "3,3,4")
	h := attach(t, g, luaMod(t, "tk", `game.on("tick", function(e) return {set = {{row = 3, col = 3, cell = 64}}} end)`))
	move(t, h, g, engine.Left)
	noReports(t, h)
	wantRows(t, g, "2 4 2 4 / 4 2 4 2 / 2 4 2 4 / 4 2 4 64")
	if g.Status() != engine.Lost {
		t.Errorf("status %v, want Lost", g.Status())
	}
}

func TestTickMarks(t *testing.T) {
	g := classicGame(t, []string{row0Merge, empty4, empty4, empty4}, "1,0,2", "3,3,2", "3,2,2", "2,1,2", "0,3,4")
	h := attach(t, g, luaMod(t, "hz", `
local ice = game.hazard{name = "ice", glyph = "*", color = "cyan", blocks = true, description = "Frozen."}
local dust = game.hazard{name = "dust", glyph = "·", color = "#aabbcc"}
game.log(ice, dust)
local function show(list)
  local out = {}
  for _, m in ipairs(list) do
    out[#out + 1] = m.row .. "," .. m.col .. "," .. m.name .. "," .. m.turns .. "," .. tostring(m.blocks)
  end
  return table.concat(out, " ")
end
game.on("tick", function(e)
  game.log(e.turn, show(game.marks()), show(game.marks(0, 0)))
  if e.turn == 1 then
    return {mark = {{row = 0, col = 0, name = "ice", turns = 3}, {row = 2, col = 2, name = dust}}}
  elseif e.turn == 2 then
    return {unmark = {{row = 0, col = 0, name = ice}}, mark = {{row = 1, col = 1, name = "dust", turns = 1}}}
  elseif e.turn == 3 then
    return {mark = {{row = 2, col = 2, name = "dust", turns = 2}}}
  end
end)
`))
	type mk = engine.Mark
	check := func(want ...mk) {
		t.Helper()
		got := g.State().Marks
		if len(got) != len(want) {
			t.Fatalf("marks %+v, want %+v", got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("marks %+v, want %+v", got, want)
			}
		}
	}
	// Turn 1: the 2 2 merge into 4 at (0,0); ice goes on it for 3 turns.
	move(t, h, g, engine.Left)
	wantRows(t, g, "4 0 0 0 / 2 0 0 0 / 0 0 0 0 / 0 0 0 0")
	check(mk{Pos: engine.Pos{Row: 0, Col: 0}, Name: "hz:ice", Turns: 3, Block: true}, mk{Pos: engine.Pos{Row: 2, Col: 2}, Name: "hz:dust"})
	// Turn 2: the frozen 4 stays; the 2 below it slides. Ice has aged to 2
	// when tick sees it, and is then removed.
	move(t, h, g, engine.Right)
	wantRows(t, g, "4 0 0 0 / 0 0 0 2 / 0 0 0 0 / 0 0 0 2")
	check(mk{Pos: engine.Pos{Row: 1, Col: 1}, Name: "hz:dust", Turns: 1}, mk{Pos: engine.Pos{Row: 2, Col: 2}, Name: "hz:dust"})
	// Turn 3: the 4 moves again; the dust of (1,1) has gone; (2,2)'s
	// is set again, for 2 turns.
	move(t, h, g, engine.Right)
	wantRows(t, g, "0 0 0 4 / 0 0 0 2 / 0 0 0 0 / 0 0 2 2")
	check(mk{Pos: engine.Pos{Row: 2, Col: 2}, Name: "hz:dust", Turns: 2})
	move(t, h, g, engine.Down)
	check(mk{Pos: engine.Pos{Row: 2, Col: 2}, Name: "hz:dust", Turns: 1})
	move(t, h, g, engine.Left)
	check()
	noReports(t, h)
	wantLog(t, h, "hz",
		"hz:ice\thz:dust",
		"1\t\t",
		"2\t0,0,hz:ice,2,true 2,2,hz:dust,0,false\t0,0,hz:ice,2,true",
		"3\t2,2,hz:dust,0,false\t",
		"4\t2,2,hz:dust,1,false\t",
		"5\t\t",
	)
	want := []scripting.Hazard{
		{Name: "hz:ice", Mod: "hz", Glyph: "*", Color: "cyan", Blocks: true, Description: "Frozen."},
		{Name: "hz:dust", Mod: "hz", Glyph: "·", Color: "#aabbcc"},
	}
	if got := h.Hazards(); !reflect.DeepEqual(got, want) {
		t.Errorf("Hazards = %+v, want %+v", got, want)
	}
	if hz, ok := h.Hazard("hz:ice"); !ok || hz != want[0] {
		t.Errorf("Hazard(hz:ice) = %+v, %v", hz, ok)
	}
	if _, ok := h.Hazard("ice"); ok {
		t.Error("Hazard(ice) found a hazard by its short name")
	}
}

// TestTickMarkBlocksSpawns: nothing spawns on a blocking mark.
func TestTickMarkBlocksSpawns(t *testing.T) {
	g := classicGame(t, []string{"2 0 0 0", empty4, empty4, empty4}, "0,0,2", "1,1,2")
	h := attach(t, g, luaMod(t, "hz", `
game.hazard{name = "wall", glyph = "#", blocks = true}
game.on("tick", function(e) if e.turn == 1 then return {mark = {{row = 1, col = 1, name = "wall"}}} end end)
`))
	move(t, h, g, engine.Right)
	noReports(t, h)
	wantRows(t, g, "2 0 0 2 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0")
	_, err := h.Move(g, engine.Left)
	var se *engine.SpawnError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "blocked by a mark") {
		t.Errorf("a queued spawn on a wall: %v, want a *engine.SpawnError \"blocked by a mark\"", err)
	}
}

// TestMarkOtherModsHazard: a mod marks and unmarks only with its own
// hazards.
func TestMarkOtherModsHazard(t *testing.T) {
	owner := luaMod(t, "owner", `game.hazard{name = "ice", glyph = "*"}`)
	for _, tt := range []struct{ key, name string }{
		{"mark", "owner:ice"}, {"unmark", "owner:ice"}, {"mark", "ice"}, {"mark", "thief:ice"},
	} {
		t.Run(tt.key+" "+tt.name, func(t *testing.T) {
			g := mergeGame(t)
			thief := luaMod(t, "thief", `game.on("tick", function(e) return {`+tt.key+` = {{row = 0, col = 0, name = "`+tt.name+`"}}} end)`)
			h := attach(t, g, owner, thief)
			move(t, h, g, engine.Left)
			wantRows(t, g, afterLeft)
			if len(g.State().Marks) != 0 {
				t.Errorf("marks %+v, want none", g.State().Marks)
			}
			reports := h.TakeReports()
			want := `invalid request: ` + tt.key + `[1].name: "` + tt.name + `" is not a hazard this mod defined`
			if len(reports) != 1 || reports[0].Mod != "thief" || reports[0].Event != "tick" || reports[0].Message != want {
				t.Errorf("reports %+v, want one of thief, tick: %s", reports, want)
			}
		})
	}
}

// TestInvalidRequests: a request the host cannot accept is an error of the
// mod: a report naming the mod and the event, and the move played again
// without the mod (so the board is the one of the move without mods).
func TestInvalidRequests(t *testing.T) {
	tests := []struct {
		event, ret, want string
	}{
		{"before_move", `5`, `a handler returns nothing or a request table, not the number 5`},
		{"before_move", `"no"`, `not the string "no"`},
		{"before_move", `true`, `not the boolean true`},
		{"before_move", `print`, `not a function`},
		{"before_move", `{refuse = 5}`, `refuse: want a reason of 1 to 200 bytes, got the number 5`},
		{"before_move", `{refuse = ""}`, `refuse: want a reason of 1 to 200 bytes`},
		{"before_move", `{refuse = string.rep("x", 201)}`, `refuse: want a reason of 1 to 200 bytes`},
		{"before_move", `{refuse = true}`, `refuse: want a reason`},
		{"before_move", `{reason = "x"}`, `request: unknown key the string "reason" (allowed: refuse)`},
		{"before_move", `{"x"}`, `request: unknown key the number 1`},
		{"after_merge", `{result = 0}`, `result: a merge cannot make an empty cell`},
		{"after_merge", `{result = "."}`, `result: a merge cannot make an empty cell`},
		{"after_merge", `{result = 3}`, `result: tile 3 is not a power of two`},
		{"after_merge", `{result = 0/0}`, `result: want a cell, got the number NaN`},
		{"after_merge", `{result = 1/0}`, `result: want a cell, got the number +Inf`},
		{"after_merge", `{result = -4}`, `result: want a cell`},
		{"after_merge", `{result = 2.5}`, `result: want a cell`},
		{"after_merge", `{result = 2^330}`, `result: `},
		{"after_merge", `{result = true}`, `result: want a cell (a number or a notation string), got the boolean true`},
		{"after_merge", `{result = {}}`, `result: want a cell`},
		{"after_merge", `{result = "a3"}`, `result: `},
		{"after_merge", `{result = 8, row = 1}`, `unknown key the string "row" (allowed: result)`},
		{"spawn", `{row = 4}`, `row: want a whole number from 0 to 3, got the number 4`},
		{"spawn", `{row = -1}`, `row: want a whole number from 0 to 3`},
		{"spawn", `{col = 0/0}`, `col: want a whole number from 0 to 3, got the number NaN`},
		{"spawn", `{col = 1.5}`, `col: want a whole number`},
		{"spawn", `{row = "1"}`, `row: want a whole number, got the string "1"`},
		{"spawn", `{cancel = 1}`, `cancel: want true or false, got the number 1`},
		{"spawn", `{cell = "x"}`, `cell: `},
		{"spawn", `{cell = 0/0}`, `cell: want a cell`},
		{"spawn", `{where = 1}`, `unknown key the string "where" (allowed: cancel, row, col, cell)`},
		{"tick", `{set = 5}`, `set: want a list of tables, got the number 5`},
		{"tick", `{set = {5}}`, `set[1]: want a table, got the number 5`},
		{"tick", `{set = {{row = 0, col = 0}}}`, `set[1].cell: want a cell`},
		{"tick", `{set = {{row = 4, col = 0, cell = 2}}}`, `set[1].row: want a whole number from 0 to 3`},
		{"tick", `{set = {{row = 0, col = 0/0, cell = 2}}}`, `set[1].col: want a whole number from 0 to 3, got the number NaN`},
		{"tick", `{set = {{row = 0, col = 0, cell = 2}, {row = 0, col = 1, cell = 3}}}`, `set[2].cell: `},
		{"tick", `{set = {{row = 0, col = 0, cell = 2, turns = 1}}}`, `set[1]: unknown key the string "turns" (allowed: row, col, cell)`},
		{"tick", `{set = {{row = 0, col = -1, cell = 2}}}`, `set[1].col: `},
		{"tick", `{mark = {{row = 0, col = 0, name = "nope"}}}`, `mark[1].name: "nope" is not a hazard this mod defined`},
		{"tick", `{mark = {{row = 0, col = 0, name = 5}}}`, `mark[1].name: want a hazard's name, got the number 5`},
		{"tick", `{mark = {{row = 0, col = 0, name = string.rep("n", 100000)}}}`, `mark[1].name: "` + strings.Repeat("n", 40) + `…" is not a hazard this mod defined`},
		{"tick", `{mark = {{row = 0, col = 0, name = "ice", turns = -1}}}`, `mark[1].turns: want a whole number from 0 to 1000000`},
		{"tick", `{mark = {{row = 0, col = 0, name = "ice", turns = 0/0}}}`, `mark[1].turns: `},
		{"tick", `{mark = {{row = 0, col = 0, name = "ice", turns = 1.5}}}`, `mark[1].turns: `},
		{"tick", `{mark = {{row = 0, col = 9, name = "ice"}}}`, `mark[1].col: `},
		{"tick", `{mark = {{row = 0, col = 0, name = "ice", blocks = true}}}`, `mark[1]: unknown key the string "blocks"`},
		{"tick", `{unmark = {{row = 0, col = 0, name = "ice", turns = 1}}}`, `unmark[1]: unknown key the string "turns" (allowed: row, col, name)`},
		{"tick", `{unmark = "all"}`, `unmark: want a list of tables`},
		{"tick", `{clear = {}}`, `unknown key the string "clear" (allowed: set, mark, unmark)`},
		{"tick", `(function() storage.f = print end)()`, `storage: storage keeps plain data (numbers, strings, booleans, tables), not a function`},
		{"tick", `(function() storage.x = 0/0 end)()`, `storage: NaN is not a finite number`},
		{"tick", `(function() storage[0/0 == 0/0 and 1 or 1/0] = 1 end)()`, `storage: key +Inf is not a finite number`},
		{"tick", `(function() storage[true] = 1 end)()`, `storage: a key is the boolean true`},
		{"tick", `(function() storage.me = storage end)()`, `storage: tables nested more than 16 deep`},
		{"tick", `(function() storage = 5 end)()`, `storage: the global storage must stay a table`},
	}
	for _, tt := range tests {
		t.Run(tt.event+" "+tt.ret, func(t *testing.T) {
			g := mergeGame(t)
			bad := luaMod(t, "bad", `
game.hazard{name = "ice", glyph = "*"}
game.on("`+tt.event+`", function(e) return `+tt.ret+` end)
`)
			// A well-behaved mod loaded before the bad one keeps its
			// effects on the replayed move.
			good := luaMod(t, "good", `game.on("tick", function(e) storage.turns = e.turn end)`)
			h := attach(t, g, bad, good)
			res, err := h.Move(g, engine.Left)
			if err != nil {
				t.Fatalf("Move: %v, want the move played without the mod", err)
			}
			if !res.Changed || res.Gained != engine.ScoreOf(4) {
				t.Errorf("Result %+v, want the move without the mod", res)
			}
			wantRows(t, g, afterLeft)
			if len(g.State().Marks) != 0 {
				t.Errorf("marks %+v", g.State().Marks)
			}
			reports := h.TakeReports()
			if len(reports) != 1 {
				t.Fatalf("reports %v, want one", reports)
			}
			r := reports[0]
			if r.Mod != "bad" || r.Event != tt.event || !strings.HasPrefix(r.Message, "invalid request: ") || !strings.Contains(r.Message, tt.want) || r.Disabled {
				t.Errorf("report %+v\nwant mod bad, event %s, message \"invalid request: ...%s...\"", r, tt.event, tt.want)
			}
			if want := "mod bad: " + tt.event + ": " + r.Message; r.Error() != want {
				t.Errorf("Error() = %q, want %q", r.Error(), want)
			}
			if _, kept := g.State().Data["mod:bad"]; kept {
				t.Errorf("the failed mod's storage was kept: %q", g.State().Data)
			}
			if g.State().Data["mod:good"] == "" {
				t.Errorf("the other mod's storage was not kept: %q", g.State().Data)
			}
		})
	}
}

// TestSpawnRequestsTheEngineRefuses: a spawn request that passes the host's
// checks but not the engine's (an occupied cell, a cell the ruleset cannot
// spawn, a wall) is an invalid request like any other: reported, and the
// move played without the mod.
func TestSpawnRequestsTheEngineRefuses(t *testing.T) {
	for _, ret := range []string{`{row = 0, col = 0}`, `{cell = 8}`, `{cell = 0}`} {
		t.Run(ret, func(t *testing.T) {
			g := mergeGame(t)
			h := attach(t, g, luaMod(t, "bad", `game.on("spawn", function(e) return `+ret+` end)`))
			res, err := h.Move(g, engine.Left)
			if err != nil {
				t.Fatalf("Move: %v, want the move played without the mod", err)
			}
			wantRows(t, g, afterLeft)
			reports := h.TakeReports()
			if !res.Changed || len(reports) != 1 || reports[0].Mod != "bad" || reports[0].Event != "spawn" || !strings.HasPrefix(reports[0].Message, "invalid request: ") {
				t.Errorf("Result %+v, reports %+v; want one invalid request of bad in spawn", res, reports)
			}
		})
	}
	t.Run("wall", func(t *testing.T) {
		g := mergeGame(t)
		h := attach(t, g, luaMod(t, "bad", `
game.hazard{name = "wall", glyph = "#", blocks = true}
game.on("tick", function(e) if e.turn == 1 then return {mark = {{row = 1, col = 1, name = "wall"}}} end end)
game.on("spawn", function(e) if #game.marks() > 0 then return {row = 1, col = 1} end end)
`))
		move(t, h, g, engine.Left)
		noReports(t, h)
		res, err := h.Move(g, engine.Right)
		if err != nil {
			t.Fatalf("Move: %v, want the move played without the mod", err)
		}
		reports := h.TakeReports()
		if !res.Changed || len(reports) != 1 || reports[0].Mod != "bad" || reports[0].Event != "spawn" {
			t.Errorf("Result %+v, reports %+v; want one invalid request of bad in spawn", res, reports)
		}
	})
}
