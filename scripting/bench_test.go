package scripting_test

import (
	"testing"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
)

// The benchmarks of the host's cost, to quote as ns/op and allocs/op:
//
//	go test ./scripting -run '^$' -bench . -benchmem -count 5
//
// BenchmarkDispatchPerEvent against BenchmarkCallByParam is the host's cost
// per event over a bare gopher-lua call: the target is at most twice.

// benchGame returns a classic 4×4 game half filled from a fixed seed that
// plays on after a win, as engine's benchmarks do.
func benchGame(b *testing.B) *engine.Game {
	b.Helper()
	rules := engine.NewClassic()
	rules.StopOnWin = false
	rules.InitialSpawns = 8
	g, err := engine.New(rules, engine.Options{Width: 4, Height: 4, Seed: 42})
	if err != nil {
		b.Fatal(err)
	}
	return g
}

// benchMoves plays moves round the four directions with move, starting a
// new game (off the clock) when the game is lost, so every iteration is a
// real move.
func benchMoves(b *testing.B, hooks func(g *engine.Game), move func(g *engine.Game, d engine.Direction) (engine.Result, error)) {
	g := benchGame(b)
	hooks(g)
	dirs := [4]engine.Direction{engine.Left, engine.Up, engine.Right, engine.Down}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := move(g, dirs[i&3]); err != nil {
			b.Fatal(err)
		}
		i++
		if g.Status() == engine.Lost {
			b.StopTimer()
			g = benchGame(b)
			hooks(g)
			b.StartTimer()
		}
	}
}

// BenchmarkMoveNoMods: a classic 4×4 move with no hooks attached.
func BenchmarkMoveNoMods(b *testing.B) {
	benchMoves(b, func(*engine.Game) {}, (*engine.Game).Move)
}

// BenchmarkMoveEmptyHandlers: the same moves through Host.Move, with a mod
// that has an empty handler for each of the four events.
func BenchmarkMoveEmptyHandlers(b *testing.B) {
	m, err := mod.Load("testdata/mods/idle")
	if err != nil {
		b.Fatal(err)
	}
	g := benchGame(b)
	h, err := scripting.NewHost([]*mod.Mod{m}, g.Rules(), g.Options(), scripting.DefaultLimits())
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	benchMoves(b, func(g *engine.Game) { g.SetHooks(h) }, func(g *engine.Game, d engine.Direction) (engine.Result, error) {
		res, err := h.Move(g, d)
		if r := h.TakeReports(); len(r) > 0 {
			b.Fatal(r)
		}
		return res, err
	})
}

// BenchmarkCallByParam: a bare gopher-lua state calls an empty Lua function
// with one table argument, as the host calls a handler (one result,
// protected): with the same table every time, and with a fresh table of
// two fields every time, as the host's before_move payload, made as the
// host makes it (L.NewTable) and made for its size.
func BenchmarkCallByParam(b *testing.B) {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	if err := L.DoString(`function handler(e) end`); err != nil {
		b.Fatal(err)
	}
	fn := L.GetGlobal("handler").(*lua.LFunction)
	b.Run("table_reused", func(b *testing.B) {
		t := L.NewTable()
		b.ReportAllocs()
		for b.Loop() {
			if err := L.CallByParam(lua.P{Fn: fn, NRet: 1, Protect: true}, t); err != nil {
				b.Fatal(err)
			}
			L.Pop(1)
		}
	})
	b.Run("table_fresh", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			t := L.NewTable()
			t.RawSetString("dir", lua.LString("left"))
			t.RawSetString("turn", lua.LNumber(1))
			if err := L.CallByParam(lua.P{Fn: fn, NRet: 1, Protect: true}, t); err != nil {
				b.Fatal(err)
			}
			L.Pop(1)
		}
	})
	// As table_fresh, with the table made for its two fields
	// (L.CreateTable(0, 2)): NewTable's first string key makes a hash
	// part for 32 keys.
	b.Run("table_sized", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			t := L.CreateTable(0, 2)
			t.RawSetString("dir", lua.LString("left"))
			t.RawSetString("turn", lua.LNumber(1))
			if err := L.CallByParam(lua.P{Fn: fn, NRet: 1, Protect: true}, t); err != nil {
				b.Fatal(err)
			}
			L.Pop(1)
		}
	})
}

// BenchmarkDispatchPerEvent: the host's cost for one event, the engine left
// out: Host.BeforeMove called directly against a mod with one empty
// before_move handler (payload, budget, call, result check).
func BenchmarkDispatchPerEvent(b *testing.B) {
	m, err := mod.Load("testdata/mods/idle")
	if err != nil {
		b.Fatal(err)
	}
	g := benchGame(b)
	h, err := scripting.NewHost([]*mod.Mod{m}, g.Rules(), g.Options(), scripting.DefaultLimits())
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	g.SetHooks(h)
	ev := &engine.MoveEvent{Dir: engine.Left, State: g.State()}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if err := h.BeforeMove(ev); err != nil {
			b.Fatal(err)
		}
		// The host counts a mod's time per turn and only Host.Move starts
		// a new turn: play one (off the clock) now and then, so that the
		// calls never add up to the turn's budget.
		if i++; i%1024 == 0 {
			b.StopTimer()
			if g.Status() == engine.Lost {
				g = benchGame(b)
				g.SetHooks(h)
			}
			if _, err := h.Move(g, g.LegalMoves().List()[0]); err != nil {
				b.Fatal(err)
			}
			ev.State = g.State()
			b.StartTimer()
		}
	}
}

// BenchmarkHandlerLoop: one tick handler that runs a loop of 10000 steps
// (about 20000 instructions), called directly through the host: the
// budget's cost per instruction (the VM calls its Done before each one).
func BenchmarkHandlerLoop(b *testing.B) {
	m := luaMod(b, "loop", `game.on("tick", function() local x = 0 for i = 1, 10000 do x = x + i end end)`)
	b.ReportAllocs()
	benchTicks(b, benchGame(b), m, 64, false)
}

// benchTicks calls m's tick handler through a host on g's state, in a
// loop. BeforeMove opens a new turn's budget every `every` calls, so that
// the calls never add up to the turn's budget; with reports, a call that
// reports an error fails the benchmark.
func benchTicks(b *testing.B, g *engine.Game, m *mod.Mod, every int, reports bool) {
	h, err := scripting.NewHost([]*mod.Mod{m}, g.Rules(), g.Options(), scripting.DefaultLimits())
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	g.SetHooks(h)
	st := g.State()
	ev := &engine.TickEvent{Turn: 1, State: st}
	mv := &engine.MoveEvent{Dir: engine.Left, State: st}
	i := 0
	for b.Loop() {
		if err := h.OnTick(ev); err != nil {
			b.Fatal(err)
		}
		if r := h.TakeReports(); reports && len(r) > 0 {
			b.Fatal(r)
		}
		ev.Data, ev.Edits, ev.MarkEdits = nil, ev.Edits[:0], ev.MarkEdits[:0]
		if i++; i%every == 0 {
			if err := h.BeforeMove(mv); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkHandlerConcat: one tick handler that makes 1000 short strings
// with `..` chains, called directly through the host: the cost of the
// host's metered concatenation (internal/sandbox/concat.go) against the VM's.
func BenchmarkHandlerConcat(b *testing.B) {
	m := luaMod(b, "concat", `game.on("tick", function(ev) local s for i = 1, 1000 do s = "tile " .. i .. " of " .. ev.turn end end)`)
	b.ReportAllocs()
	benchTicks(b, benchGame(b), m, 64, false)
}

// BenchmarkAPICalls is what a statement costs in a handler, on a
// cellular 4×4 board: each sub-benchmark runs it 40 times in one tick
// handler and reports ns/iter, the time of one (the loop's own cost is
// "empty"). MODDING.md's "What costs time in a handler" quotes it.
func BenchmarkAPICalls(b *testing.B) {
	setup := `
local H = game.hazard{ name = "h", glyph = "h" }
local F = { hazard = H }
local FREE = { cell = "^%.$", marked = false }
local cell, match, floor = game.cell, string.match, math.floor
local M = {}
`
	for _, c := range []struct{ name, body string }{
		{"empty", `local x = i`},
		{"cell", `local x = cell(1, 1)`},
		{"cells", `local x = game.cells(F)`},
		{"cellsfree", `local x = game.cells(FREE)`},
		{"match", `local e, c = match("a3+C", "^a(%d+)/?%d*(.*)$")`},
		{"concat", `local s = "a" .. i .. "x"`},
		{"table3", `local t = {row = 1, col = 2, name = "h"}`},
		{"array3", `local t = {1, 2, "h"}`},
		{"set", `game.set(1, 1, "a2")`},
		{"mark", `game.mark(1, 1, "h")`},
		{"storage", `storage.x = i`},
		{"random", `local x = game.random(20)`},
		{"storagenew", `storage.x = nil storage.x = i`},
		{"unmark", `game.unmark(1, 1, "h")`},
		{"cellset", `game.set(1, 1, cell(1, 1))`},
		{"memo", `local x = M[cell(1, 1)]`},
		{"marks", `local x = game.marks(F)`},
		{"floor", `local x = floor(i / 4)`},
		{"settings", `local x = game.settings`},
		{"log", `game.log("x")`},
	} {
		b.Run(c.name, func(b *testing.B) {
			m := writeModVersion(b, "api", "2", setup+`game.on("tick", function(ev) for i = 1, 40 do `+c.body+` end end)`)
			g := cellularGame(b, false, []string{". a3 a1/2 d2", "C a2+C B2 b", ". . . a8", "d1 . . ."})
			benchTicks(b, g, m, 8, true)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/40, "ns/iter")
		})
	}
}
