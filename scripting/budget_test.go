package scripting_test

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
)

// sumMod is a mod whose tick handler adds up n numbers: about 37 ms of
// arithmetic for n near the budget's limit, the case.
func sumMod(t *testing.T, n int) *mod.Mod {
	t.Helper()
	return luaMod(t, "sum", fmt.Sprintf(`game.on("tick", function()
  local x = 0
  for i = 1, %d do x = x + i * 2 end
  storage.x = x
end)`, n))
}

// playSum plays one move with the sum mod of n and returns its reports and
// the game's state.
func playSum(t *testing.T, limits scripting.Limits, n int) ([]scripting.Report, string) {
	t.Helper()
	g := newHostileGame(t)
	h, err := scripting.NewHost([]*mod.Mod{sumMod(t, n)}, g.Rules(), hostileOptions, limits)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	g.SetHooks(h)
	if _, err := h.Move(g, engine.Left); err != nil {
		t.Fatal(err)
	}
	return h.TakeReports(), string(hostileMarshal(t, g))
}

// TestBudgetDeterministic: a tick handler just under the instruction budget
// passes, and one a loop step over it fails, on every run, whatever the
// load on the machine: with every core busy with other goroutines and with
// GOMAXPROCS 1, 2 and 4. (The wall-clock budget it replaces failed such a
// handler three times out of three on a busy machine and passed it on an
// idle one.) No timing is asserted: the failsafe is a minute.
func TestBudgetDeterministic(t *testing.T) {
	if raceSlowdown > 1 {
		// A binary search of whole games: half a minute under the race
		// detector, for nothing it would find. make test runs it without.
		t.Skip("runs without the race detector")
	}
	limits := scripting.DefaultLimits()
	limits.FailsafeTime = time.Minute
	limits.GameTurnInstructions = 0 // a mod's own budgets
	// The largest n that passes, found on this machine as it is.
	lo, hi := 0, int(limits.HandlerInstructions) // n = lo passes, n = hi fails
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if r, _ := playSum(t, limits, mid); len(r) == 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	if lo < int(limits.HandlerInstructions)/8 {
		t.Fatalf("the largest loop that passes has %d steps: the handler's loop should cost a few instructions a step", lo)
	}
	_, wantState := playSum(t, limits, lo)

	var stop atomic.Bool
	var wg sync.WaitGroup
	for range runtime.NumCPU() + 1 {
		wg.Add(1)
		go func() { // keeps a core busy
			defer wg.Done()
			x := 0
			for !stop.Load() {
				for i := range 1000 {
					x += i
				}
			}
			_ = x
		}()
	}
	defer func() { stop.Store(true); wg.Wait() }()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 4} {
		runtime.GOMAXPROCS(procs)
		for run := range 2 {
			if r, state := playSum(t, limits, lo); len(r) != 0 || state != wantState {
				t.Errorf("GOMAXPROCS=%d, run %d: %d steps (just under the budget): reports %v; the same state: %v", procs, run+1, lo, r, state == wantState)
			}
			r, _ := playSum(t, limits, lo+1)
			if len(r) != 1 || !strings.Contains(r[0].Message, fmt.Sprintf("exceeded its instruction budget (%d a call)", limits.HandlerInstructions)) || r[0].Failsafe {
				t.Errorf("GOMAXPROCS=%d, run %d: %d steps (just over the budget): reports %v, want the budget's", procs, run+1, lo+1, r)
			}
		}
	}
}

// TestBudgetTurn: the handlers of one mod share the turn's budget: three
// calls of about 1200 instructions each, each under the call's 2000, and
// the third passes the turn's 2500, naming it. (A mod with before_move
// handlers keeps part of its turn for their dry runs: TestDryRunsInTurn.)
func TestBudgetTurn(t *testing.T) {
	limits := hostileLimits
	limits.FailsafeTime = time.Minute
	limits.HandlerInstructions = 2000
	limits.TurnInstructions = 2500
	m := luaMod(t, "split", `
local function work() local x = 0 for i = 1, 600 do x = x + i end end
game.on("tick", work)
game.on("tick", work)
game.on("tick", work)`)
	h, g := hostileHost(t, m, limits)
	if _, err := h.Move(g, engine.Left); err != nil {
		t.Fatal(err)
	}
	r := h.TakeReports()
	if len(r) != 1 || r[0].Event != scripting.EventTick || r[0].Message != "exceeded its instruction budget (2500 a turn)" {
		t.Errorf("reports %v, want the turn's budget in the third tick handler", r)
	}
}

// TestDryRunsInTurn: a mod with before_move handlers runs at most the
// turn's budget in a move and the dry runs before it together: each
// evaluation of before_move (a dry run's or the move's) may run an eighth
// of it, and the move itself the turn's budget less four of those. A mod
// that spends all it may, played through a session that works out the
// legal moves (four dry runs) before each move, runs at most
// TurnInstructions a move, where it ran five times that.
func TestDryRunsInTurn(t *testing.T) {
	limits := hostileLimits
	limits.FailsafeTime = time.Minute
	limits.HandlerInstructions = 400_000
	limits.TurnInstructions = 800_000
	m := luaMod(t, "greedy", `
local function spin() local x = 0 while true do x = x + 1 end end
game.on("before_move", function() local x = 0 for i = 1, 20000 do x = x + i end end)
game.on("tick", spin)
game.on("tick", spin)
game.on("tick", spin)`)
	h, g := hostileHost(t, m, limits)
	for move := range 3 {
		before := h.Instructions()
		var legal []engine.Direction
		for _, d := range engine.Directions {
			if g.LegalMoves().Has(d) && h.Refused(g, d) == nil {
				legal = append(legal, d)
			}
		}
		if len(legal) == 0 {
			t.Fatal("no legal move")
		}
		if _, err := h.Move(g, legal[0]); err != nil {
			t.Fatal(err)
		}
		ran := h.Instructions() - before
		if ran > limits.TurnInstructions {
			t.Errorf("move %d ran %d instructions with its dry runs, more than the turn's %d", move+1, ran, limits.TurnInstructions)
		}
		r := h.TakeReports()
		want := "exceeded its instruction budget (800000 a turn, less 400000 kept for the dry runs of before_move)"
		if len(r) != 1 || r[0].Event != scripting.EventTick || r[0].Message != want {
			t.Errorf("move %d: reports %v, want %q", move+1, r, want)
		}
	}

	// A before_move that spends more than its eighth fails, in the move
	// and in a dry run alike.
	m2 := luaMod(t, "slow", `game.on("before_move", function() local x = 0 while true do x = x + 1 end end)`)
	h2, g2 := hostileHost(t, m2, limits)
	before := h2.Instructions()
	if ref := h2.Refused(g2, engine.Left); ref != nil {
		t.Fatalf("refused: %v", ref)
	}
	if ran := h2.Instructions() - before; ran > 100_000+10 {
		t.Errorf("a dry run ran %d instructions, more than before_move's 100000", ran)
	}
	h2.Move(g2, engine.Left)
	if r := h2.TakeReports(); len(r) != 1 || r[0].Message != "exceeded its instruction budget (100000 for before_move)" {
		t.Errorf("reports %v, want before_move's budget", r)
	}
}

// hostileHost attaches a host of m under limits to a new hostile game,
// closed with the test.
func hostileHost(t *testing.T, m *mod.Mod, limits scripting.Limits) (*scripting.Host, *engine.Game) {
	t.Helper()
	g := newHostileGame(t)
	h, err := scripting.NewHost([]*mod.Mod{m}, g.Rules(), hostileOptions, limits)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	g.SetHooks(h)
	return h, g
}

// TestGameTurnShared: the mods of a game share its turn
// (Limits.GameTurnInstructions) equally. Three mods that spin are each
// stopped at a third of it, naming the share; a mod that runs a little over 200,000
// instructions a turn passes alone (the game's 600,000 are all its own) and
// fails beside two mods that run nothing, whose share it cannot borrow: a
// mod's turn depends on how many mods the game has, never on what they
// spend.
func TestGameTurnShared(t *testing.T) {
	limits := scripting.DefaultLimits()
	limits.FailsafeTime = time.Minute
	limits.GameTurnInstructions = 600_000
	play := func(mods ...*mod.Mod) []scripting.Report {
		t.Helper()
		g := seededGame(t, 1)
		h, err := scripting.NewHost(mods, g.Rules(), g.Options(), limits)
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		g.SetHooks(h)
		if _, err := h.Move(g, legal(t, g, 0)); err != nil {
			t.Fatal(err)
		}
		return h.TakeReports()
	}
	const spin = `game.on("tick", function() while true do end end)`
	const shared = "exceeded its instruction budget (200000 a turn: the game's 600000 shared by 3 mods)"
	rs := play(luaMod(t, "a", spin), luaMod(t, "b", spin), luaMod(t, "c", spin))
	if len(rs) != 3 {
		t.Fatalf("reports %v, want each of the three mods stopped", rs)
	}
	for _, r := range rs {
		if r.Message != shared {
			t.Errorf("%s: %q, want %q", r.Mod, r.Message, shared)
		}
	}
	const busy = `game.on("tick", function() local x = 0 for i = 1, 100000 do x = x + i end end)`
	if rs := play(luaMod(t, "busy", busy)); len(rs) != 0 {
		t.Errorf("alone: reports %v, want none: the game's turn is the mod's own", rs)
	}
	rs = play(luaMod(t, "busy", busy), luaMod(t, "idle1", `game.on("tick", function() end)`), luaMod(t, "idle2", `game.on("tick", function() end)`))
	if len(rs) != 1 || rs[0].Mod != "busy" || rs[0].Message != shared {
		t.Errorf("beside two idle mods: reports %v, want busy stopped at its share: %q", rs, shared)
	}
}
