package scripting_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mod2048/mod2048/cellular"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
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
	files = mapsWith(files, mod.ManifestName, manifest)
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
func luaMod(t testing.TB, id, src string) *mod.Mod {
	t.Helper()
	return loadMod(t, writeMod(t, id, "", map[string]string{"main.lua": src}))
}

func loadMod(t tb, dir string) *mod.Mod {
	t.Helper()
	m, err := mod.Load(dir)
	if err != nil {
		t.Fatalf("mod.Load(%s): %v", dir, err)
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
	l.GameTurnInstructions = 0 // a mod's own budgets, tested apart from the game's share (TestGameTurnShared)
	return l
}()

// attach loads mods for g and attaches the host.
func attach(t testing.TB, g *engine.Game, mods ...*mod.Mod) *scripting.Host {
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

// wantPcallErrors checks mod id's log: one line a pcall wrote for each of
// want, `false` and an error that holds it. It returns the log.
func wantPcallErrors(t tb, h *scripting.Host, id string, want []string) []string {
	t.Helper()
	log := h.Log(id)
	if len(log) != len(want) {
		t.Fatalf("log %q", log)
	}
	for i, w := range want {
		if !strings.HasPrefix(log[i], "false\t") || !strings.Contains(log[i], w) {
			t.Errorf("error %d: %q, want %q", i, log[i], w)
		}
	}
	return log
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
