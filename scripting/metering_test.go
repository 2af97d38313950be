package scripting_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
)

// What a mod builds is charged to its budgets by size, so that a runaway
// mod stops at the same point on every machine, natively and in the
// browser (where no watchdog runs during a call), with a budget's error,
// never a failsafe's.

// bombRun is what one game of a memory bomb gave: each turn's reports, and
// the game's state after the moves.
type bombRun struct {
	reports [][]scripting.Report
	state   string
}

// playBomb plays turns moves of a seeded game with the mod whose main.lua
// is src, under DefaultLimits with a wall-clock failsafe no test reaches.
// Every move must succeed: the game goes on whatever the mod does.
func playBomb(t *testing.T, src string, turns int) bombRun {
	t.Helper()
	g := seededGame(t, 7)
	h, err := scripting.NewHost([]*mod.Mod{luaMod(t, "bomb", src)}, g.Rules(), g.Options(), testLimits)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	g.SetHooks(h)
	var run bombRun
	for i := range turns {
		res, err := h.Move(g, legal(t, g, i))
		if err != nil {
			t.Fatalf("move %d: %v", i+1, err)
		}
		if !res.Changed {
			t.Fatalf("move %d changed nothing", i+1)
		}
		run.reports = append(run.reports, h.TakeReports())
	}
	run.state = string(marshal(t, g))
	return run
}

// wantBudgetStop checks that the first report of a run is the mod's, on
// the turn given (1 for the first), a budget's stop saying want, not a
// failsafe's, and that three runs give the same reports and the same game.
// skipUnderRace skips a test of a mod's own work in the VM under the race
// detector; it runs in make test's pass without it, and exercises no
// goroutine of the host's that the hostile suite does not.
func skipUnderRace(t *testing.T) {
	t.Helper()
	if raceSlowdown > 1 {
		t.Skip("a mod's own work in the VM, run in the pass without the race detector")
	}
}

func wantBudgetStop(t *testing.T, src string, turns, turn int, want string) {
	t.Helper()
	first := playBomb(t, src, turns)
	for i, rs := range first.reports {
		if i+1 < turn && len(rs) > 0 {
			t.Fatalf("turn %d: reports %v before the stop on turn %d", i+1, rs, turn)
		}
	}
	if turn > len(first.reports) {
		t.Fatalf("reports %v", first.reports)
	}
	rs := first.reports[turn-1]
	if len(rs) == 0 {
		t.Fatalf("turn %d: no report, want the mod stopped by %q", turn, want)
	}
	r := rs[0]
	if r.Mod != "bomb" || r.Failsafe || r.Message != want {
		t.Fatalf("turn %d: report %+v, want a budget's stop (not the failsafe's) saying %q", turn, r, want)
	}
	for range 2 {
		again := playBomb(t, src, turns)
		if fmt.Sprint(again.reports) != fmt.Sprint(first.reports) {
			t.Fatalf("another run's reports differ:\n%v\nfirst:\n%v", again.reports, first.reports)
		}
		if again.state != first.state {
			t.Fatal("another run's game differs")
		}
	}
}

var callBudget = fmt.Sprintf("exceeded its instruction budget (%d a call)", testLimits.HandlerInstructions)

// TestMeterStringDoubling: the mod, which ended the browser's Go
// runtime out of memory, stops on its first turn with the instruction
// budget's error, on every run, and the game goes on.
func TestMeterStringDoubling(t *testing.T) {
	wantBudgetStop(t, `game.on("tick", function()
  local s = 'x' for i = 1, 40 do s = s .. s end
end)`, 4, 1, callBudget)
}

// TestMeterMidSizedStrings: a handler that keeps thousands of strings of
// a few KiB, each made by one concatenation (one instruction of the VM),
// stops with the instruction budget's error.
func TestMeterMidSizedStrings(t *testing.T) {
	wantBudgetStop(t, `local kept = {}
game.on("tick", function()
  local s = string.rep("x", 4096)
  for i = 1, 1e6 do kept[#kept + 1] = s .. i end
end)`, 4, 1, callBudget)
}

// TestMeterConcatSemantics: the host's concatenation is Lua's: numbers,
// chains, __concat on either side, the results of calls and ..., and the
// error for a value that has none.
func TestMeterConcatSemantics(t *testing.T) {
	g := classicGame(t, []string{"2 2 0 0", "0 0 0 0", "0 0 0 0", "0 0 0 0"}, "3,3,2")
	h := attach(t, g, luaMod(t, "cat", `
local mt = {__concat = function(a, b)
  local x = type(a) == "table" and "T" or a
  local y = type(b) == "table" and "T" or b
  return "<" .. x .. "|" .. y .. ">"
end}
local T = setmetatable({}, mt)
local function two() return "a", "b" end
local function va(...) return "v" .. ... end
game.on("tick", function()
  game.log("x" .. 1 .. 2.5 .. "y")
  game.log("p" .. T .. "q" .. "r")
  game.log(T .. T)
  game.log("c" .. two())
  game.log(va("1", "2"))
  game.log(("z"):rep(3) .. #"abc")
  local ok, err = pcall(function() return "a" .. {} end)
  game.log(tostring(ok) .. " " .. err)
end)`))
	move(t, h, g, engine.Left)
	noReports(t, h)
	wantLog(t, h, "cat",
		"x12.5y",
		"p<T|qr>",
		"<T|T>",
		"ca",
		"v1",
		"zzz3",
		"false main.lua:17: cannot perform concat operation between string and table",
	)
}

var heldBudget = fmt.Sprintf("exceeded its memory budget (%d MiB of Lua values)", testLimits.MaxMemory>>20)

// TestMeterTableGrowth: a handler that keeps 17 MiB more each turn, well
// within its instruction budget, stops on the turn what it holds passes
// the memory budget (64 MiB: the fourth), with the memory budget's error.
func TestMeterTableGrowth(t *testing.T) {
	wantBudgetStop(t, `local kept = {}
game.on("tick", function()
  for i = 1, 17 do table.insert(kept, string.rep("x", 2^20 - 8) .. i) end
end)`, 6, 4, heldBudget)
}

// TestMeterVarargs: each expansion of ... copies every value passed in one
// instruction of the VM: a handler that builds tables of its 30000
// arguments again and again stops with the instruction budget's error.
func TestMeterVarargs(t *testing.T) {
	wantBudgetStop(t, `local big = {} for i = 1, 30000 do big[i] = i end
local function g(...) local keep = {} for i = 1, 1e5 do keep[i] = {...} end end
game.on("tick", function() g(unpack(big)) end)`, 2, 1, callBudget)
}

// TestMeterVarargSemantics: the host's varargs are Lua's: every value,
// nils included, in a call, a table constructor and a return, and one
// value where ... is adjusted to one.
func TestMeterVarargSemantics(t *testing.T) {
	g := classicGame(t, []string{"2 2 0 0", "0 0 0 0", "0 0 0 0", "0 0 0 0"}, "3,3,2")
	h := attach(t, g, luaMod(t, "va", `
local function count(...) return select("#", ...) end
local function pass(...) return ... end
local function pack(...) return {...} end
local function first(...) return (...) end
local function mid(...) return {..., "end"} end
game.on("tick", function()
  game.log(count(1, nil, 3, nil))
  game.log(count(pass(1, nil, 3, nil)))
  game.log(#pack(1, 2, 3) .. " " .. tostring(pack(1, nil, 3)[3]))
  game.log(count(first(1, 2, 3)) .. " " .. first(7, 8))
  game.log(#mid(1, 2, 3) .. " " .. mid(1, 2, 3)[2])
  local a, b = pass(4, 5, 6)
  game.log(a + b)
end)`))
	move(t, h, g, engine.Left)
	noReports(t, h)
	wantLog(t, h, "va", "4", "4", "3 3", "1 7", "2 end", "9")
}

// TestMeterLoad: a mod that keeps more than its memory budget while it
// loads does not load.
func TestMeterLoad(t *testing.T) {
	g := seededGame(t, 1)
	_, err := scripting.NewHost([]*mod.Mod{luaMod(t, "hoard", `kept = {}
for i = 1, 70 do kept[i] = string.rep("x", 2^20 - 8) .. i end`)}, g.Rules(), g.Options(), testLimits)
	if err == nil || !strings.Contains(err.Error(), "mod hoard: load: "+heldBudget) {
		t.Fatalf("NewHost: %v, want the memory budget's error", err)
	}
}
