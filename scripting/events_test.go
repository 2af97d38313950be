package scripting_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
)

func TestBeforeMove(t *testing.T) {
	g := classicGame(t, []string{row0Merge, empty4, empty4, "2 0 0 0"}, "3,3,2", "1,1,4", "2,2,2")
	m := loadMod(t, writeMod(t, "guard", "", map[string]string{"main.lua": `
game.on("before_move", function(e)
  local n = 0
  for _ in pairs(e) do n = n + 1 end
  game.log("before_move", e.dir, e.turn, game.turn(), n)
  if e.dir == "up" then return {refuse = "not up"} end
end)
`}))
	m.Manifest.Name = "The Guard"
	h := attach(t, g, m)
	move(t, h, g, engine.Left)
	before := marshal(t, g)
	_, err := h.Move(g, engine.Up)
	var ref *engine.Refusal
	if !errors.As(err, &ref) {
		t.Fatalf("Move(Up) = %v, want an *engine.Refusal", err)
	}
	if ref.Reason != "The Guard: not up" {
		t.Errorf("Reason = %q, want %q", ref.Reason, "The Guard: not up")
	}
	if after := marshal(t, g); !bytes.Equal(before, after) {
		t.Errorf("a refused move changed the game:\n%s\nwant\n%s", after, before)
	}
	noReports(t, h)
	move(t, h, g, engine.Right)
	wantLog(t, h, "guard", "before_move\tleft\t1\t0\t2", "before_move\tup\t2\t1\t2", "before_move\tright\t2\t1\t2")
	if g.State().Turn != 2 {
		t.Errorf("turn %d, want 2", g.State().Turn)
	}
}

// TestBeforeMoveNoOp: before_move runs for a move that changes nothing;
// nothing else does.
func TestBeforeMoveNoOp(t *testing.T) {
	g := classicGame(t, []string{"2 0 0 0", empty4, empty4, empty4}, "3,3,2")
	h := attach(t, g, luaMod(t, "watch", `
for _, ev in ipairs({"before_move", "after_merge", "spawn", "tick"}) do
  game.on(ev, function(e) game.log(ev) end)
end
`))
	before := marshal(t, g)
	res := move(t, h, g, engine.Left)
	if res.Changed {
		t.Error("Left on a tile at the left edge changed the board")
	}
	if !bytes.Equal(before, marshal(t, g)) {
		t.Error("a no-op move changed the game")
	}
	wantLog(t, h, "watch", "before_move")
}

func TestAfterMergePayload(t *testing.T) {
	for _, tt := range []struct {
		dir  engine.Direction
		rows string
		log  []string
	}{
		{engine.Left, "4 8 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 2", []string{
			"0 0 from 0 0 0 1 sources 2 2 result 4 number",
			"0 1 from 0 2 0 3 sources 4 4 result 8 number",
		}},
		// From[0] is the cell nearer the edge the move goes toward.
		{engine.Right, "0 0 4 8 / 0 0 0 0 / 0 0 0 0 / 0 0 0 2", []string{
			"0 3 from 0 3 0 2 sources 4 4 result 8 number",
			"0 2 from 0 1 0 0 sources 2 2 result 4 number",
		}},
	} {
		t.Run(tt.dir.String(), func(t *testing.T) {
			g := classicGame(t, []string{"2 2 4 4", empty4, empty4, empty4}, "3,3,2")
			h := attach(t, g, luaMod(t, "watch", `
game.on("after_merge", function(e)
  game.log(e.row, e.col, "from", e.from[1].row, e.from[1].col, e.from[2].row, e.from[2].col,
    "sources", e.sources[1], e.sources[2], "result", e.result, type(e.result))
end)
`))
			res := move(t, h, g, tt.dir)
			noReports(t, h)
			wantRows(t, g, tt.rows)
			var want []string
			for _, l := range tt.log {
				want = append(want, strings.ReplaceAll(l, " ", "\t"))
			}
			wantLog(t, h, "watch", want...)
			if res.Merges != 2 || res.Gained != engine.ScoreOf(12) {
				t.Errorf("Result %+v, want 2 merges and 12 points", res)
			}
		})
	}
}

func TestAfterMergeResult(t *testing.T) {
	for _, tt := range []struct {
		name, ret, rows string
		gained          uint64
	}{
		{"number", `{result = e.result * 4}`, "16 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 2", 16},
		{"string", `{result = "2"}`, "2 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 2", 2},
		{"same", `{result = e.result}`, afterLeft, 4},
		{"nothing", `nil`, afterLeft, 4},
		{"empty request", `{}`, afterLeft, 4},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := mergeGame(t)
			h := attach(t, g, luaMod(t, "gold", `game.on("after_merge", function(e) return `+tt.ret+` end)`))
			res := move(t, h, g, engine.Left)
			noReports(t, h)
			wantRows(t, g, tt.rows)
			if res.Gained != engine.ScoreOf(tt.gained) || g.Score() != engine.ScoreOf(tt.gained) {
				t.Errorf("gained %v, score %v; want %d (the result that stands)", res.Gained, g.Score(), tt.gained)
			}
		})
	}
}

func TestSpawn(t *testing.T) {
	for _, tt := range []struct {
		name, ret, rows string
		spawns          int
	}{
		{"nothing", `nil`, afterLeft, 1},
		{"cancel", `{cancel = true}`, "4 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0", 0},
		{"not cancelled", `{cancel = false}`, afterLeft, 1},
		{"move", `{row = 2, col = 1}`, "4 0 0 0 / 0 0 0 0 / 0 2 0 0 / 0 0 0 0", 1},
		{"move row", `{row = 1}`, "4 0 0 0 / 0 0 0 2 / 0 0 0 0 / 0 0 0 0", 1},
		{"change", `{cell = 4}`, "4 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 4", 1},
		{"change as a string", `{cell = "4"}`, "4 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 4", 1},
		{"move and change", `{row = 0, col = 3, cell = 4, cancel = false}`, "4 0 0 4 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := mergeGame(t)
			h := attach(t, g, luaMod(t, "sp", `
game.on("spawn", function(e)
  game.log(e.row, e.col, e.cell, tostring(e.scripted))
  return `+tt.ret+`
end)
`))
			res := move(t, h, g, engine.Left)
			noReports(t, h)
			wantRows(t, g, tt.rows)
			wantLog(t, h, "sp", "3\t3\t2\ttrue")
			if res.Spawns != tt.spawns {
				t.Errorf("Spawns = %d, want %d", res.Spawns, tt.spawns)
			}
		})
	}
}

// TestSpawnChain: a cancelled spawn reaches no later mod; a changed one
// reaches the next mod changed.
func TestSpawnChain(t *testing.T) {
	g := mergeGame(t)
	first := luaMod(t, "first", `game.on("spawn", function(e) game.log(e.row, e.col, e.cell); return {row = 1, col = 2, cell = 4} end)`)
	second := luaMod(t, "second", `game.on("spawn", function(e) game.log(e.row, e.col, e.cell); return {cancel = true} end)`)
	third := luaMod(t, "third", `game.on("spawn", function(e) game.log(e.row, e.col, e.cell) end)`)
	h := attach(t, g, third, second, first)
	res := move(t, h, g, engine.Left)
	noReports(t, h)
	wantLog(t, h, "first", "3\t3\t2")
	wantLog(t, h, "second", "1\t2\t4")
	wantLog(t, h, "third")
	if res.Spawns != 0 {
		t.Errorf("Spawns = %d, want 0", res.Spawns)
	}
}

// TestSpawnRandom: a spawn from the random source is not scripted.
func TestSpawnRandom(t *testing.T) {
	g := seededGame(t, 7)
	h := attach(t, g, luaMod(t, "sp", `game.on("spawn", function(e) game.log(tostring(e.scripted), type(e.cell), game.cell(e.row, e.col)) end)`))
	move(t, h, g, legal(t, g, 0))
	noReports(t, h)
	wantLog(t, h, "sp", "false\tnumber\t0")
}

func TestTick(t *testing.T) {
	g := mergeGame(t)
	h := attach(t, g, luaMod(t, "tk", `
game.on("tick", function(e)
  local n = 0
  for _ in pairs(e) do n = n + 1 end
  game.log(e.turn, e.dir, e.gained, type(e.gained), e.merges, e.spawns, n, game.turn(), game.score())
  if e.turn == 1 then return {set = {{row = 1, col = 1, cell = 8}, {row = 3, col = 3, cell = 0}, {row = 2, col = 0, cell = "16"}}} end
end)
`))
	move(t, h, g, engine.Left)
	noReports(t, h)
	wantRows(t, g, "4 0 0 0 / 0 8 0 0 / 16 0 0 0 / 0 0 0 0")
	wantLog(t, h, "tk", "1\tleft\t4\tstring\t1\t1\t5\t1\t4")
	if g.Score() != engine.ScoreOf(4) {
		t.Errorf("score %v, want 4: set does not score", g.Score())
	}
}

func TestAfterMergeCellular(t *testing.T) {
	for _, tt := range []struct{ ret, cell, report string }{
		{`nil`, "a2", ""},
		{`{result = "a5"}`, "a5", ""},
		{`{result = "."}`, "a2", "result: a merge cannot make an empty cell"},
		{`{result = "a9"}`, "a2", "energy 9 is outside 1 to e_cap (8)"},
		{`{result = 5}`, "a2", `result: "5" is not a cellular cell`},
	} {
		t.Run(tt.ret, func(t *testing.T) {
			g := cellularGame(t, false, []string{"a1 a1 . .", ". . . .", ". . . .", ". . . ."}, "3,3,a1")
			h := attach(t, g, luaMod(t, "cm", `
game.on("after_merge", function(e)
  game.log(e.sources[1], e.sources[2], e.result, type(e.result))
  return `+tt.ret+`
end)
game.on("spawn", function(e) game.log(e.cell) end)
`))
			move(t, h, g, engine.Left)
			reports := h.TakeReports()
			if tt.report == "" {
				if len(reports) != 0 {
					t.Errorf("reports %v", reports)
				}
				wantLog(t, h, "cm", "a1\ta1\ta2\tstring", "a1")
			} else if len(reports) != 1 || !strings.Contains(reports[0].Message, tt.report) {
				t.Errorf("reports %v, want one saying %q", reports, tt.report)
			}
			if got := g.Rules().FormatCell(g.State().Board.At(engine.Pos{})); got != tt.cell {
				t.Errorf("cell (0,0) = %s, want %s (board %s)", got, tt.cell, rowsOf(g))
			}
		})
	}
}

// TestStateOutsideEvents: the state is read only in handlers.
func TestStateOutsideEvents(t *testing.T) {
	for _, call := range []string{"game.cell(0, 0)", "game.marks()", "game.turn()", "game.score()", "game.status()"} {
		g := mergeGame(t)
		m := luaMod(t, "early", "local x = "+call+"\n")
		_, err := scripting.NewHost([]*mod.Mod{m}, g.Rules(), g.Options(), testLimits)
		if err == nil || !strings.Contains(err.Error(), "the game's state can be read only in an event handler") {
			t.Errorf("%s at load: %v, want an error", call, err)
		}
	}
}

// TestGoFunctionHandler: a mod may register one of Lua's own functions as
// a handler (print, say); it runs like any other, with a payload of its own
// (it once crashed the host, which read the handler's code for what it did
// with its payload). What it returns is checked as a handler's result.
func TestGoFunctionHandler(t *testing.T) {
	g := classicGame(t, []string{"2 2 0 0", "0 0 0 0", "0 0 0 0", "0 0 0 0"}, "3,3,2")
	h := attach(t, g, luaMod(t, "gofn", `
game.on("before_move", print)
game.on("tick", print)`))
	if _, err := h.Move(g, engine.Left); err != nil {
		t.Fatal(err)
	}
	wantLog(t, h, "gofn", "(table)", "(table)")
	if reports := h.TakeReports(); len(reports) != 0 {
		t.Fatalf("reports %+v", reports)
	}

	g = classicGame(t, []string{"2 2 0 0", "0 0 0 0", "0 0 0 0", "0 0 0 0"}, "3,3,2")
	h = attach(t, g, luaMod(t, "gofn", `game.on("spawn", tostring)`))
	if _, err := h.Move(g, engine.Left); err != nil {
		t.Fatal(err)
	}
	reports := h.TakeReports()
	if len(reports) != 1 || reports[0].Event != "spawn" || !strings.Contains(reports[0].Message, `not the string "table: 1"`) {
		t.Fatalf("reports %+v, want the spawn handler's result refused", reports)
	}
}
