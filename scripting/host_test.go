package scripting_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mod2048/mod2048/cellular"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
)

// tb is what the helpers need of a test: both *testing.T and *rapid.T.
type tb interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
	Errorf(format string, args ...any)
}

// writeMod writes a mod folder in a temporary directory: a manifest with the
// id, a name and version, API version 1 and the extra lines, and the files
// (path -> content; main.lua unless extra names another entry).
func writeMod(t testing.TB, id, extra string, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), id)
	manifest := "id = \"" + id + "\"\nname = \"Mod " + strings.ToUpper(id) + "\"\nversion = \"1.0.0\"\napi_version = 1\n" + extra
	files = mapsWith(files, scripting.ManifestName, manifest)
	for name, src := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func mapsWith(m map[string]string, k, v string) map[string]string {
	out := map[string]string{k: v}
	for kk, vv := range m {
		out[kk] = vv
	}
	return out
}

// luaMod writes and loads a mod whose main.lua is src.
func luaMod(t testing.TB, id, src string) *scripting.Mod {
	t.Helper()
	return loadMod(t, writeMod(t, id, "", map[string]string{"main.lua": src}))
}

func loadMod(t tb, dir string) *scripting.Mod {
	t.Helper()
	m, err := scripting.LoadMod(dir)
	if err != nil {
		t.Fatalf("LoadMod(%s): %v", dir, err)
	}
	return m
}

// classicGame starts a classic game from rows (cells separated by spaces)
// that spawns only from the queue spawns ("row,col,value" each).
func classicGame(t testing.TB, rows []string, spawns ...string) *engine.Game {
	t.Helper()
	rules := engine.NewClassic()
	opt := engine.Options{Width: len(strings.Fields(rows[0])), Height: len(rows), ScriptedOnly: true, UndoLimit: -1}
	b, err := engine.ParseRows(rules, rows, opt.Width, opt.Height)
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.NewFromBoard(rules, opt, b)
	if err != nil {
		t.Fatal(err)
	}
	g.AddSpawns(queue(t, rules, spawns...)...)
	return g
}

func queue(t testing.TB, rules engine.Rules, spawns ...string) []engine.SpawnEntry {
	t.Helper()
	var out []engine.SpawnEntry
	for _, s := range spawns {
		var p engine.Pos
		parts := strings.Split(s, ",")
		if len(parts) != 3 {
			t.Fatalf("spawn %q: want row,col,value", s)
		}
		p.Row, p.Col = atoi(t, parts[0]), atoi(t, parts[1])
		c, err := rules.ParseCell(parts[2])
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, engine.SpawnEntry{Pos: p, Cell: c})
	}
	return out
}

func atoi(t testing.TB, s string) int {
	t.Helper()
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			t.Fatalf("%q is not a number", s)
		}
		n = n*10 + int(r-'0')
	}
	return n
}

// testLimits are DefaultLimits with a wall-clock failsafe no busy machine
// reaches: a test of something else must not fail because a shared machine
// paused the test. (The sandbox's tests test the failsafe.)
var testLimits = func() scripting.Limits {
	l := scripting.DefaultLimits()
	l.FailsafeTime = 60 * time.Second
	return l
}()

// attach loads mods for g and attaches the host.
func attach(t testing.TB, g *engine.Game, mods ...*scripting.Mod) *scripting.Host {
	t.Helper()
	h, err := scripting.NewHost(mods, g.Rules(), g.Options(), testLimits)
	if err != nil {
		t.Fatalf("NewHost: %v", err)
	}
	t.Cleanup(h.Close)
	g.SetHooks(h)
	return h
}

func rowsOf(g *engine.Game) string {
	return strings.Join(engine.FormatRows(g.Rules(), &g.State().Board), " / ")
}

// seededGame starts a classic game that spawns from its seeded random
// source and plays on after a win.
func seededGame(t tb, seed uint64) *engine.Game {
	t.Helper()
	rules := engine.NewClassic()
	rules.StopOnWin = false
	g, err := engine.New(rules, engine.Options{Width: 4, Height: 4, Seed: seed, UndoLimit: -1})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// legal returns the first direction, in the order Left, Up, Right, Down
// from the i-th, that changes the board.
func legal(t tb, g *engine.Game, i int) engine.Direction {
	t.Helper()
	dirs := [4]engine.Direction{engine.Left, engine.Up, engine.Right, engine.Down}
	for k := 0; k < 4; k++ {
		if d := dirs[(i+k)%4]; g.Legal(d) {
			return d
		}
	}
	t.Fatalf("no legal move on %s (%s)", rowsOf(g), g.Status())
	return 0
}

// move plays d through the host and fails the test on an error.
func move(t testing.TB, h *scripting.Host, g *engine.Game, d engine.Direction) engine.Result {
	t.Helper()
	res, err := h.Move(g, d)
	if err != nil {
		t.Fatalf("Move(%v): %v", d, err)
	}
	return res
}

// noReports fails the test if the host has reports.
func noReports(t tb, h *scripting.Host) {
	t.Helper()
	if r := h.TakeReports(); len(r) > 0 {
		t.Fatalf("unexpected reports: %v", r)
	}
}

func wantLog(t tb, h *scripting.Host, id string, want ...string) {
	t.Helper()
	got := h.Log(id)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("log of %s:\n%s\nwant:\n%s", id, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func wantRows(t testing.TB, g *engine.Game, want string) {
	t.Helper()
	if got := rowsOf(g); got != want {
		t.Errorf("board %s, want %s", got, want)
	}
}

func marshal(t tb, g *engine.Game) []byte {
	t.Helper()
	b, err := g.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const (
	row0Merge = "2 2 0 0"
	empty4    = "0 0 0 0"
)

// mergeGame is "2 2 0 0" on an empty 4×4 board, spawning at (3,3) first.
func mergeGame(t testing.TB, spawns ...string) *engine.Game {
	t.Helper()
	if spawns == nil {
		spawns = []string{"3,3,2", "3,0,2", "2,2,2", "1,1,2"}
	}
	return classicGame(t, []string{row0Merge, empty4, empty4, empty4}, spawns...)
}

// afterLeft is mergeGame's board after Left with no mod in the way.
const afterLeft = "4 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 2"

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
		{"before_move", `{refuse = 5}`, `refuse: want a reason of 1 to 200 characters, got the number 5`},
		{"before_move", `{refuse = ""}`, `refuse: want a reason of 1 to 200 characters`},
		{"before_move", `{refuse = string.rep("x", 201)}`, `refuse: want a reason of 1 to 200 characters`},
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

// TestFailedModUndone: everything a failing mod did on the turn is undone:
// its merge results, its spawn changes, its storage.
func TestFailedModUndone(t *testing.T) {
	g := mergeGame(t)
	h := attach(t, g, luaMod(t, "bad", `
game.on("after_merge", function(e) storage.merged = true; return {result = 64} end)
game.on("spawn", function(e) return {row = 1, col = 1, cell = 4} end)
game.on("tick", function(e)
  local t = nil
  return t.x
end)
`))
	res := move(t, h, g, engine.Left)
	wantRows(t, g, afterLeft)
	if res.Gained != engine.ScoreOf(4) {
		t.Errorf("gained %v, want 4", res.Gained)
	}
	reports := h.TakeReports()
	if len(reports) != 1 {
		t.Fatalf("reports %v", reports)
	}
	r := reports[0]
	if r.Mod != "bad" || r.Event != "tick" || r.File != "main.lua" || r.Line != 6 || !strings.Contains(r.Message, "attempt to index") || r.Traceback == "" {
		t.Errorf("report %+v, want bad, tick, main.lua:6, \"attempt to index...\" and a traceback", r)
	}
	if want := "mod bad (main.lua:6): tick: " + r.Message; r.Error() != want {
		t.Errorf("Error() = %q, want %q", r.Error(), want)
	}
	if len(g.State().Data) != 0 {
		t.Errorf("data %q, want none", g.State().Data)
	}
}

// stateMod logs what the game table says of the state, in every event.
const stateMod = `
local function features()
  local out = {}
  for k, v in pairs(game.features) do out[#out + 1] = k .. "=" .. tostring(v) end
  table.sort(out)
  return table.concat(out, ",")
end
game.log(game.api_version, game.mod_id, game.ruleset, game.width, game.height, features())
local function show(ev)
  local cells = {}
  for r = 0, game.height - 1 do
    for c = 0, game.width - 1 do
      local v = game.cell(r, c)
      cells[#cells + 1] = type(v) .. ":" .. tostring(v)
    end
  end
  game.log(ev, table.concat(cells, " "))
  game.log(ev, game.turn(), type(game.turn()), game.score(), type(game.score()), game.status())
end
for _, ev in ipairs({"before_move", "tick"}) do
  game.on(ev, function(e)
    show(ev)
    if ev == "before_move" and e.dir == "up" then return {refuse = "looking only"} end
  end)
end
`

func TestGameStateClassic(t *testing.T) {
	g := classicGame(t, []string{"2 2", "0 4"}, "1,1,2")
	h := attach(t, g, luaMod(t, "look", stateMod))
	move(t, h, g, engine.Left)
	noReports(t, h)
	wantLog(t, h, "look",
		"1\tlook\tclassic\t2\t2\thooks=true,log=true,markers=true,random=true,require=true,settings=true,storage=true",
		"before_move\tnumber:2 number:2 number:0 number:4",
		"before_move\t0\tnumber\t0\tstring\tPlaying",
		"tick\tnumber:4 number:0 number:4 number:2",
		"tick\t1\tnumber\t4\tstring\tPlaying",
	)
}

func TestGameStatus(t *testing.T) {
	t.Run("lost", func(t *testing.T) {
		g := classicGame(t, []string{"2 4 2 4", "4 2 4 2", "2 4 2 4", "8 16 8 0"}, "3,0,4")
		h := attach(t, g, luaMod(t, "look", `
game.on("before_move", function(e) game.log("before", e.dir) end)
game.on("tick", function(e) game.log(game.status(), game.score()) end)
`))
		move(t, h, g, engine.Right)
		noReports(t, h)
		wantLog(t, h, "look", "before\tright", "Lost\t0")
		if g.Status() != engine.Lost {
			t.Errorf("status %v", g.Status())
		}
		// A move in a lost game is ignored: no error, no event, no change.
		before := marshal(t, g)
		for _, d := range engine.Directions {
			if res, err := h.Move(g, d); err != nil || res != (engine.Result{}) {
				t.Errorf("Move(%v) in a lost game: %+v, %v; want an ignored move", d, res, err)
			}
		}
		noReports(t, h)
		wantLog(t, h, "look", "before\tright", "Lost\t0")
		if !bytes.Equal(marshal(t, g), before) {
			t.Error("a move in a lost game changed it")
		}
	})
	t.Run("won", func(t *testing.T) {
		g := classicGame(t, []string{"1024 1024", "0 0"}, "1,1,2")
		h := attach(t, g, luaMod(t, "look", `
game.on("before_move", function(e) game.log(e.dir, game.status()) end)
game.on("tick", function(e) game.log(game.status(), game.score(), game.cell(0, 0)) end)
`))
		move(t, h, g, engine.Left)
		if err := g.KeepPlaying(); err != nil {
			t.Fatal(err)
		}
		move(t, h, g, engine.Down)
		noReports(t, h)
		wantLog(t, h, "look", "left\tPlaying", "Won\t2048\t2048", "down\tWon (continue)", "Won (continue)\t2048\t0")
	})
}

// cellularRules are the early difficulty's rules on a 4×4 board, with Life
// switched off unless life is set, so that a turn is its swipe.
func cellularRules(t testing.TB, life bool) *cellular.Rules {
	t.Helper()
	r, err := cellular.New(cellular.Settings{
		Width: 4, Height: 4, ECap: 8, InitialCells: 8, SpawnCells: 1, SpawnAlive: 1, SpawnEvery: 1,
		StopOnWin: true, ExtinctionLoses: true, UndoLimit: 100,
		Life:     cellular.Life{Enabled: life, BirthRelaxation: true},
		Dormancy: cellular.Dormancy{Ticks: 3},
		Colony:   cellular.Colony{Bonus: 1, MinSize: 4},
		Catalyst: cellular.Catalyst{Rate: 0.05, Max: 2, Doubling: cellular.DoubleAfterMerge},
		Blight:   cellular.Blight{Rate: 0, Charges: 1},
		Score:    cellular.Score{Unstable: 1},
		Goal:     cellular.Goal{PerCell: 0.5, Hold: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func cellularGame(t testing.TB, life bool, rows []string, spawns ...string) *engine.Game {
	t.Helper()
	rules := cellularRules(t, life)
	opt := engine.Options{Width: 4, Height: 4, ScriptedOnly: true, UndoLimit: -1}
	b, err := engine.ParseRows(rules, rows, 4, 4)
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.NewFromBoard(rules, opt, b)
	if err != nil {
		t.Fatal(err)
	}
	g.AddSpawns(queue(t, rules, spawns...)...)
	return g
}

func TestGameStateCellular(t *testing.T) {
	g := cellularGame(t, false, []string{". a3 a1/2 d2", "C a2+C B2 b", ". . . a8", "d1 . . ."})
	// A score in quarter points, a later turn and a won game, as a save
	// holds them.
	save := string(marshal(t, g))
	for _, r := range [][2]string{{`"score": "0"`, `"score": "12.25"`}, {`"turn": 0`, `"turn": 7`}, {`"status": "Playing"`, `"status": "Won (continue)"`}} {
		if !strings.Contains(save, r[0]) {
			t.Fatalf("save has no %s:\n%s", r[0], save)
		}
		save = strings.Replace(save, r[0], r[1], 1)
	}
	g, err := engine.Unmarshal([]byte(save))
	if err != nil {
		t.Fatal(err)
	}
	h := attach(t, g, luaMod(t, "look", stateMod))
	if _, err := h.Move(g, engine.Up); !errors.As(err, new(*engine.Refusal)) {
		t.Fatalf("Move(Up) = %v, want the mod's refusal", err)
	}
	noReports(t, h)
	wantLog(t, h, "look",
		"1\tlook\tcellular\t4\t4\thooks=true,log=true,markers=true,random=true,require=true,settings=true,storage=true",
		"before_move\tstring:. string:a3 string:a1/2 string:d2 string:C string:a2+C string:B2 string:b string:. string:. string:. string:a8 string:d1 string:. string:. string:.",
		"before_move\t7\tnumber\t12.25\tstring\tWon (continue)",
	)
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

func TestGameCellErrors(t *testing.T) {
	g := mergeGame(t)
	h := attach(t, g, luaMod(t, "look", `
game.on("tick", function(e)
  for _, args in ipairs({{4, 0}, {0, 4}, {-1, 0}, {0.5, 0}, {0/0, 0}, {1/0, 0}, {"x", 0}}) do
    local ok, err = pcall(game.cell, args[1], args[2])
    game.log(tostring(ok), err)
  end
  local ok, err = pcall(game.cell)
  game.log(tostring(ok), err ~= nil)
end)
`))
	move(t, h, g, engine.Left)
	noReports(t, h)
	log := h.Log("look")
	if len(log) != 8 {
		t.Fatalf("log %q", log)
	}
	for _, line := range log {
		if !strings.HasPrefix(line, "false\t") {
			t.Errorf("game.cell off the board or with bad arguments: %q, want an error", line)
		}
	}
	if !strings.Contains(log[0], "game.cell: (4, 0) is not a cell of the 4×4 board") {
		t.Errorf("game.cell(4, 0): %q", log[0])
	}
}

// TestStateOutsideEvents: the state is read only in handlers.
func TestStateOutsideEvents(t *testing.T) {
	for _, call := range []string{"game.cell(0, 0)", "game.marks()", "game.turn()", "game.score()", "game.status()"} {
		g := mergeGame(t)
		m := luaMod(t, "early", "local x = "+call+"\n")
		_, err := scripting.NewHost([]*scripting.Mod{m}, g.Rules(), g.Options(), testLimits)
		if err == nil || !strings.Contains(err.Error(), "the game's state can be read only in an event handler") {
			t.Errorf("%s at load: %v, want an error", call, err)
		}
	}
}

func TestOnAndHazardOnlyWhileLoading(t *testing.T) {
	g := mergeGame(t)
	h := attach(t, g, luaMod(t, "late", `
game.on("before_move", function(e)
  local ok1, err1 = pcall(game.on, "tick", function() end)
  local ok2, err2 = pcall(game.hazard, {name = "late", glyph = "x"})
  game.log(tostring(ok1), err1)
  game.log(tostring(ok2), err2)
end)
game.on("tick", function(e) game.on("tick", function() end) end)
`))
	move(t, h, g, engine.Left)
	// The move is played again without the mod, which failed in tick:
	// before_move ran once.
	wantLog(t, h, "late",
		"false\tmain.lua:3: game.on: handlers are registered when the mod loads, not later",
		"false\tmain.lua:4: game.hazard: hazards are defined when the mod loads, not later",
	)
	reports := h.TakeReports()
	if len(reports) != 1 || reports[0].Event != "tick" || !strings.Contains(reports[0].Message, "game.on: handlers are registered when the mod loads") {
		t.Errorf("reports %+v, want game.on's error in tick", reports)
	}
	if len(h.Hazards()) != 0 {
		t.Errorf("hazards %+v, want none", h.Hazards())
	}
	// The tick handler registered no second handler: the next move calls
	// before_move once.
	move(t, h, g, engine.Right)
	if n := len(h.Log("late")); n != 4 {
		t.Errorf("log %q, want 4 lines", h.Log("late"))
	}
}

// TestLoadTimeAPIErrors: game.on and game.hazard check their arguments.
func TestLoadTimeAPIErrors(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{`game.on("merge", function() end)`, `game.on: unknown event "merge" (events: before_move, after_merge, spawn, tick)`},
		{`game.on("tick", 5)`, `function expected`},
		{`game.on(5, function() end)`, `unknown event "5"`},
		{`for i = 1, 65 do game.on("tick", function() end) end`, `game.on: a mod may register at most 64 handlers for tick`},
		{`game.hazard{name = "Ice", glyph = "*"}`, `game.hazard: name "Ice" is not lower-case`},
		{`game.hazard{name = "ice", glyph = "**"}`, `game.hazard: glyph: want one visible character, got "**"`},
		{`game.hazard{name = "ice"}`, `game.hazard: glyph: want a string of 1 to 8 characters, got nil`},
		{`game.hazard{name = "ice", glyph = "*", color = "pink"}`, `game.hazard: color "pink" is not a color name or #rrggbb`},
		{`game.hazard{name = "ice", glyph = "*", color = "#12345g"}`, `not a color name or #rrggbb`},
		{`game.hazard{name = "ice", glyph = "*", blocks = 1}`, `game.hazard: blocks: want true or false, got the number 1`},
		{`game.hazard{name = "ice", glyph = "*", size = 1}`, `game.hazard: unknown key the string "size"`},
		{`game.hazard{name = "ice", glyph = "*"}; game.hazard{name = "ice", glyph = "+"}`, `game.hazard: ld:ice is defined twice`},
		{`game.hazard("ice")`, `table expected`},
	} {
		g := mergeGame(t)
		m := luaMod(t, "ld", tt.src)
		_, err := scripting.NewHost([]*scripting.Mod{m}, g.Rules(), g.Options(), testLimits)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "mod ld (main.lua:1): load: ") {
			t.Errorf("%s: NewHost: %v\nwant mod ld (main.lua:1): load: ...%s", tt.src, err, tt.want)
		}
	}
	// 64 handlers are allowed.
	g := mergeGame(t)
	h := attach(t, g, luaMod(t, "ld", `for i = 1, 64 do game.on("tick", function(e) game.log(i) end) end`))
	move(t, h, g, engine.Left)
	if n := len(h.Log("ld")); n != 64 {
		t.Errorf("%d handlers ran, want 64", n)
	}
}

func TestRequire(t *testing.T) {
	dir := writeMod(t, "req", "", map[string]string{
		"main.lua": `
local a = require("counter")
local b = require("counter")
a.n = a.n + 1
game.log("same", tostring(a == b), b.n)
game.log(require("lib/util").twice(21))
require("nothing")
for _, name in ipairs({"../outside", "/etc/passwd", "a.b", "lib/../counter", "counter.lua", "", "lib\\util", "./counter"}) do
  local ok, err = pcall(require, name)
  game.log(name, tostring(ok), err)
end
local ok, err = pcall(require, "missing")
game.log("missing", tostring(ok), err ~= nil)
game.on("tick", function(e) game.log("tick", require("counter").n) end)
`,
		"counter.lua":  `game.log("counter runs"); return {n = 0}`,
		"lib/util.lua": `return {twice = function(x) return 2 * x end}`,
		"nothing.lua":  `local x = 1`,
		"a/b.lua":      `return 1`,
	})
	if err := os.WriteFile(filepath.Join(filepath.Dir(dir), "outside.lua"), []byte(`return "escaped"`), 0o644); err != nil {
		t.Fatal(err)
	}
	g := mergeGame(t)
	h := attach(t, g, loadMod(t, dir))
	move(t, h, g, engine.Left)
	noReports(t, h)
	log := h.Log("req")
	want := []string{"counter runs", "same\ttrue\t1", "42"}
	for i, w := range want {
		if i >= len(log) || log[i] != w {
			t.Fatalf("log %q, want it to start with %q", log, want)
		}
	}
	names := []string{"../outside", "/etc/passwd", "a.b", "lib/../counter", "counter.lua", "", `lib\util`, "./counter"}
	for i, name := range names {
		line := log[len(want)+i]
		prefix := name + "\tfalse\tmain.lua:9: require: " + strconv.Quote(name) + " is not a module of this mod"
		if !strings.HasPrefix(line, prefix) {
			t.Errorf("require(%q): %q, want %q", name, line, prefix)
		}
	}
	rest := log[len(want)+len(names):]
	if len(rest) != 2 || rest[0] != "missing\tfalse\ttrue" || rest[1] != "tick\t1" {
		t.Errorf("log ends %q, want a missing module's error and the cached module in tick", rest)
	}
}

// TestRequireNothing: a module that returns nothing gives true, the first
// time as later.
func TestRequireNothing(t *testing.T) {
	g := mergeGame(t)
	h := attach(t, g, loadMod(t, writeMod(t, "req", "", map[string]string{
		"main.lua":    `game.log(tostring(require("nothing")), tostring(require("nothing")))`,
		"nothing.lua": `local x = 1`,
	})))
	wantLog(t, h, "req", "true\ttrue")
}

// TestRequireSymlink: require reaches nothing outside the mod's folder, not
// through a symbolic link either.
func TestRequireSymlink(t *testing.T) {
	dir := writeMod(t, "req", "", map[string]string{"main.lua": `game.log(tostring(pcall(require, "secret")))`})
	outside := filepath.Join(t.TempDir(), "secret.lua")
	if err := os.WriteFile(outside, []byte(`return "the secret"`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "secret.lua")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	g := mergeGame(t)
	h := attach(t, g, loadMod(t, dir))
	wantLog(t, h, "req", "false")
}

func TestSettings(t *testing.T) {
	dir := writeMod(t, "set", `
[settings.count]
type = "int"
default = 3
[settings.ratio]
type = "number"
default = 0.25
[settings.on]
type = "bool"
default = false
[settings.label]
type = "string"
default = "hi"
`, map[string]string{"main.lua": `
local names = {}
for k in pairs(game.settings) do names[#names + 1] = k end
table.sort(names)
for _, k in ipairs(names) do
  local v = game.settings[k]
  game.log(k, type(v), tostring(v))
end
`})
	g := mergeGame(t)
	h := attach(t, g, loadMod(t, dir))
	wantLog(t, h, "set", "count\tnumber\t3", "label\tstring\thi", "on\tboolean\tfalse", "ratio\tnumber\t0.25")

	// Values set on the Mod (a player's overrides) are what the mod sees.
	m := loadMod(t, dir)
	m.Values["count"] = int64(7)
	m.Values["on"] = true
	h = attach(t, mergeGame(t), m)
	wantLog(t, h, "set", "count\tnumber\t7", "label\tstring\thi", "on\tboolean\ttrue", "ratio\tnumber\t0.25")
}

func TestLogNotStdout(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	restored := false
	restore := func() {
		if !restored {
			os.Stdout = stdout
			restored = true
		}
	}
	defer restore()
	g := mergeGame(t)
	h := attach(t, g, luaMod(t, "talk", `
print("loading", 1, nil, true, {}, 2.5)
game.log("via game.log")
print()
game.on("tick", function(e) print("tick", e.turn) end)
`))
	move(t, h, g, engine.Left)
	restore()
	w.Close()
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) > 0 {
		t.Errorf("mods wrote to stdout: %q", out)
	}
	wantLog(t, h, "talk", "loading\t1\tnil\ttrue\t(table)\t2.5", "via game.log", "", "tick\t1")
	if got := h.Log("nobody"); got != nil {
		t.Errorf("Log(nobody) = %q, want nil", got)
	}
}

// TestLogLimit: a mod's log keeps its last Limits.MaxLog bytes.
func TestLogLimit(t *testing.T) {
	limits := testLimits
	limits.MaxLog = 100
	g := mergeGame(t)
	m := luaMod(t, "talk", `for i = 1, 100 do game.log(string.format("line %03d", i)) end`)
	h, err := scripting.NewHost([]*scripting.Mod{m}, g.Rules(), g.Options(), limits)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	log := h.Log("talk")
	size := 0
	for _, l := range log {
		size += len(l)
	}
	if size > 100 || len(log) == 0 || log[len(log)-1] != "line 100" {
		t.Errorf("log %q (%d bytes): want the last lines, at most 100 bytes", log, size)
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string // all in NewHost's error
		file  string   // the Report's file and line, when it has them
		line  int
	}{
		{"syntax error", map[string]string{"main.lua": "local x = 1\nlocal y = = 2\n"},
			[]string{"mod bad (main.lua:2): load: ", "syntax error"}, "main.lua", 2},
		{"runtime error", map[string]string{"main.lua": "local x = 1\n\nerror('boom')\n"},
			[]string{"mod bad (main.lua:3): load: boom"}, "main.lua", 3},
		{"runtime error in a function", map[string]string{"main.lua": "local t = nil\nlocal function f()\n  return t.x\nend\nf()\n"},
			[]string{"mod bad (main.lua:3): load: attempt to index"}, "main.lua", 3},
		{"error with a table", map[string]string{"main.lua": "error({})\n"},
			[]string{"mod bad", "load", "(table)"}, "main.lua", 1},
		{"runtime error in a required file", map[string]string{"main.lua": "local x = 1\nrequire('lib')\n", "lib.lua": "\n\nerror('libboom')\n"},
			[]string{"mod bad (lib.lua:3): load: libboom"}, "lib.lua", 3},
		{"syntax error in a required file", map[string]string{"main.lua": "local x = 1\nrequire('lib')\n", "lib.lua": "\n\nlocal = 3\n"},
			[]string{"mod bad (main.lua:2): load: require: ", "lib.lua:3", "syntax error"}, "main.lua", 2},
		{"other entry", map[string]string{"mod.toml+": "entry = \"start.lua\"\n", "start.lua": "\nerror('from start')\n"},
			[]string{"mod bad (start.lua:2): load: from start"}, "start.lua", 2},
		{"binary chunk", map[string]string{"main.lua": "\x1bLua\x51\x00"},
			[]string{"mod bad", "main.lua"}, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{}
			extra := ""
			for k, v := range tt.files {
				if k == "mod.toml+" {
					extra = v
				} else {
					files[k] = v
				}
			}
			g := mergeGame(t)
			good := luaMod(t, "good", "")
			m := loadMod(t, writeMod(t, "bad", extra, files))
			h, err := scripting.NewHost([]*scripting.Mod{good, m}, g.Rules(), g.Options(), testLimits)
			if err == nil {
				h.Close()
				t.Fatal("NewHost: want an error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("NewHost: %v\nwant it to say %q", err, w)
				}
			}
			var me *scripting.ModError
			if !errors.As(err, &me) {
				t.Fatalf("NewHost: %T, want a *scripting.ModError", err)
			}
			if me.Mod != "bad" || me.Event != "load" {
				t.Errorf("report %+v, want mod bad, event load", me.Report)
			}
			if tt.file != "" && (me.File != tt.file || me.Line != tt.line) {
				t.Errorf("report at %s:%d, want %s:%d", me.File, me.Line, tt.file, tt.line)
			}
			if tt.line != 0 && me.Line != tt.line {
				t.Errorf("report at line %d, want %d", me.Line, tt.line)
			}
		})
	}
}

// TestLoadSyntaxErrorFile: a syntax error's report names its file, as
// every other load error's does.
func TestLoadSyntaxErrorFile(t *testing.T) {
	g := mergeGame(t)
	m := loadMod(t, writeMod(t, "bad", "", map[string]string{"main.lua": "local x = 1\nlocal y = = 2\n"}))
	_, err := scripting.NewHost([]*scripting.Mod{m}, g.Rules(), g.Options(), testLimits)
	var me *scripting.ModError
	if !errors.As(err, &me) || me.File != "main.lua" || me.Line != 2 || !strings.HasPrefix(err.Error(), "mod bad (main.lua:2): load: ") {
		t.Errorf("NewHost: %v, want mod bad (main.lua:2): load: ...", err)
	}
}

func TestNewHostOrderError(t *testing.T) {
	g := mergeGame(t)
	m := loadMod(t, writeMod(t, "needy", "depends = [\"base\"]\n", map[string]string{"main.lua": ""}))
	if _, err := scripting.NewHost([]*scripting.Mod{m}, g.Rules(), g.Options(), testLimits); err == nil || !strings.Contains(err.Error(), "mod needy depends on mod base, which is not loaded") {
		t.Errorf("NewHost: %v", err)
	}
	c := loadMod(t, writeMod(t, "cell", "rulesets = [\"cellular\"]\n", map[string]string{"main.lua": ""}))
	if _, err := scripting.NewHost([]*scripting.Mod{c}, g.Rules(), g.Options(), testLimits); err == nil || !strings.Contains(err.Error(), "mod cell is for the cellular ruleset, not classic") {
		t.Errorf("NewHost: %v", err)
	}
}

// TestDisable: a mod that fails FailLimit turns in a row is disabled; a
// mod whose failures are not in a row is not.
func TestDisable(t *testing.T) {
	g := seededGame(t, 3)
	// flaky fails on the turns of its list; steady never fails.
	h := attach(t, g,
		luaMod(t, "flaky", `
local fails = {[1] = true, [3] = true, [4] = true, [6] = true, [7] = true, [9] = true, [10] = true, [11] = true}
game.on("tick", function(e)
  if fails[e.turn] then error("turn " .. e.turn) end
end)
game.on("before_move", function(e) game.log(e.turn) end)
`),
		luaMod(t, "steady", `game.on("tick", function(e) storage.n = (storage.n or 0) + 1 end)`),
	)
	if scripting.FailLimit != 3 {
		t.Fatalf("FailLimit = %d; this test is written for 3", scripting.FailLimit)
	}
	for turn := 1; turn <= 14; turn++ {
		res := move(t, h, g, legal(t, g, turn))
		if !res.Changed {
			t.Fatal("no change")
		}
		reports := h.TakeReports()
		failing := map[int]bool{1: true, 3: true, 4: true, 6: true, 7: true, 9: true, 10: true, 11: true}[turn]
		switch {
		case failing:
			if len(reports) != 1 || reports[0].Mod != "flaky" || reports[0].Message != fmt.Sprintf("turn %d", turn) || reports[0].File != "main.lua" || reports[0].Line != 4 {
				t.Fatalf("turn %d: reports %+v, want flaky's error", turn, reports)
			}
			wantDisabled := turn == 11
			if reports[0].Disabled != wantDisabled || h.Disabled("flaky") != wantDisabled {
				t.Errorf("turn %d: Report.Disabled %v, Disabled(flaky) %v; want %v", turn, reports[0].Disabled, h.Disabled("flaky"), wantDisabled)
			}
			if wantDisabled && !strings.HasSuffix(reports[0].Error(), "(the mod is now disabled)") {
				t.Errorf("Error() = %q", reports[0].Error())
			}
		case len(reports) != 0:
			t.Fatalf("turn %d: reports %+v, want none", turn, reports)
		}
		if g.State().Turn != turn {
			t.Fatalf("turn %d: the game is at turn %d", turn, g.State().Turn)
		}
	}
	// After it was disabled its handlers no longer run; steady's ran every
	// turn.
	log := h.Log("flaky")
	if last := log[len(log)-1]; last != "11" {
		t.Errorf("flaky's before_move last ran for turn %s, want 11", last)
	}
	if !h.Disabled("flaky") || h.Disabled("steady") || h.Disabled("nobody") {
		t.Error("Disabled: want flaky only")
	}
	if rec := g.State().Data["mod:steady"]; !strings.Contains(rec, `["n",14]`) {
		t.Errorf("steady's storage %q, want n = 14", rec)
	}
}

// TestLoadOrder: mods load, and their handlers run, in dependency,
// priority and id order.
func TestLoadOrder(t *testing.T) {
	src := `
game.hazard{name = "h", glyph = "*"}
game.on("after_merge", function(e)
  game.log("saw " .. e.result)
  return {result = e.result * 2}
end)
`
	alpha := loadMod(t, writeMod(t, "alpha", "", map[string]string{"main.lua": src}))
	beta := loadMod(t, writeMod(t, "beta", "priority = 5\n", map[string]string{"main.lua": src}))
	gamma := loadMod(t, writeMod(t, "gamma", "priority = 10\ndepends = [\"alpha\"]\n", map[string]string{"main.lua": src}))
	g := mergeGame(t)
	h := attach(t, g, beta, gamma, alpha)
	res := move(t, h, g, engine.Left)
	noReports(t, h)
	var order []string
	for _, m := range h.Mods() {
		order = append(order, m.ID())
	}
	var hz []string
	for _, x := range h.Hazards() {
		hz = append(hz, x.Name)
	}
	if got := strings.Join(order, " "); got != "alpha gamma beta" {
		t.Errorf("Mods() = %s, want alpha gamma beta", got)
	}
	if got := strings.Join(hz, " "); got != "alpha:h gamma:h beta:h" {
		t.Errorf("Hazards() = %s, want the load order", got)
	}
	wantLog(t, h, "alpha", "saw 4")
	wantLog(t, h, "gamma", "saw 8")
	wantLog(t, h, "beta", "saw 16")
	wantRows(t, g, "32 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 2")
	if res.Gained != engine.ScoreOf(32) {
		t.Errorf("gained %v, want 32", res.Gained)
	}
}

// TestGameCellHugeTile: classic cells are numbers, as the API says, large
// tiles too.
func TestGameCellHugeTile(t *testing.T) {
	g := classicGame(t, []string{"1125899906842624 0", "2 2"}, "1,1,2")
	h := attach(t, g, luaMod(t, "big", `game.on("tick", function(e) game.log(type(game.cell(0, 0))) end)`))
	move(t, h, g, engine.Left)
	wantLog(t, h, "big", "number")
}
