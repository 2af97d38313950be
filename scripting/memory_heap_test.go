package scripting

import (
	"fmt"
	"github.com/mod2048/mod2048/scripting/mod"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"
	"github.com/mod2048/mod2048/scripting/internal/sandbox"

	"github.com/mod2048/mod2048/engine"
)

// weighShapes are what mods build, each big enough that what it holds
// stands well above the heap's noise: main.lua's source, and whether its
// table `t` is to be stored and loaded again (storage after a reload).
var weighShapes = []struct {
	name, src string
	reload    bool
}{
	{"small tables with string keys", `t = {} for i = 1, 20000 do t[i] = {a = i} end`, false},
	{"small tables, keys set after", `t = {} for i = 1, 20000 do local x = {} x.a = i x.b = i t[i] = x end`, false},
	{"a long array of numbers", `t = {} for i = 1, 200000 do t[i] = i + 0.5 end`, false},
	{"a long array of small integers", `t = {} for i = 1, 200000 do t[i] = i % 100 end`, false},
	{"a sparse array", `t = {} for i = 1, 20000 do t[i * 1000] = true end`, false},
	{"a far key after a list", `t = {} for i = 1, 20000 do t[i] = true end t[67108863] = true`, false},
	{"string keys", `t = {} for i = 1, 20000 do t["key" .. i] = i end`, false},
	{"keys that come and go", `t = {} for i = 1, 100000 do t["k" .. i] = i if i % 10 ~= 0 then t["k" .. i] = nil end end`, false},
	{"deep nesting", `t = {} local x = t for i = 1, 20000 do x.next = {} x = x.next end`, false},
	{"closures with upvalues", `t = {} for i = 1, 20000 do local a, b = i, {} t[i] = function() return a, b end end`, false},
	{"one long string", `t = string.rep("x", 1000000)`, false},
	{"many short strings", `t = {} for i = 1, 50000 do t[i] = "s" .. i end`, false},
	{"many mid strings", `t = {} for i = 1, 5000 do t[i] = string.rep("m", 200) .. i end`, false},
	{"metatables", `t = {} local mt = {__index = function() return 0 end} for i = 1, 20000 do t[i] = setmetatable({}, mt) end`, false},
	{"a metatable each", `t = {} for i = 1, 5000 do t[i] = setmetatable({}, {__index = t}) end`, false},
	{"rows of a grid", `t = {} for i = 1, 20000 do t[i] = {i, i + 1, i + 2, i + 3} end`, false},
	{"tables as keys", `t = {} for i = 1, 20000 do t[{}] = i end`, false},
	{"mixed list and fields", `t = {} for i = 1, 5000 do t[i] = {i, i, name = "n" .. i, on = true} end`, false},
	{"tables named by tostring", `t = {} for i = 1, 20000 do t[i] = {} tostring(t[i]) end`, false},
	{"functions named by string.format", `t = {} for i = 1, 20000 do local a = i t[i] = function() return a end string.format("%s", t[i]) end`, false},
	{"a piece of each of many long strings", `t = {} for i = 1, 50000 do t[i] = (string.rep("x", 1000) .. i):sub(1, 2) end`, false},
	{"a capture of each of many long strings", `t = {} for i = 1, 50000 do t[i] = (string.rep("y", 1000) .. i):match("(yy)") end`, false},
	{"a gmatch piece of each of many long strings", `t = {} for i = 1, 50000 do for w in (i .. string.rep("z", 200)):gmatch("%d+") do t[i] = w end end`, false},
	{"one number kept of every eight made", `t = {} for i = 1, 400000 do local x = i + 0.5 if i % 8 == 0 then t[#t + 1] = x end end`, false},
	{"storage after a reload", `t = {} for i = 1, 5000 do t[i] = {x = i, y = i * 2, tag = "t" .. i} end`, true},
}

// TestWeighedIsHeld: what the memory budget weighs of a mod's values is
// within 1.5× either way of what the process's heap holds for them, for
// every shape above. The heap is read with runtime/metrics, here in a
// test: play never reads it.
func TestWeighedIsHeld(t *testing.T) {
	if raceEnabled {
		t.Skip("weighs a mod's values, in the pass without the race detector")
	}
	emptyHeld, emptyWeighed := weighAndHold(t, "", false)
	for _, s := range weighShapes {
		held, weighed := weighAndHold(t, s.src, s.reload)
		held -= emptyHeld
		weighed -= emptyWeighed
		ratio := float64(weighed) / float64(held)
		t.Logf("| %s | %d | %d | %.2f |", s.name, weighed, held, ratio)
		if ratio < 1/1.5 || ratio > 1.5 {
			t.Errorf("%s: weighed %d bytes, the heap holds %d (%.2f×)", s.name, weighed, held, ratio)
		}
	}
}

// codeShapes are files whose compiled code the mod keeps (in its global
// t), each large enough that the prototypes stand well above the heap's
// noise: many small functions, long code, many constants, nested
// prototypes no closure was made of, many locals (debug data).
var codeShapes = []struct{ name, src string }{
	{"a table of empty functions", "t = {" + strings.Repeat("function() end, ", 12000) + "}\n"},
	{"a function of long operator chains", "local a = 1\nt = function()\nlocal x\n" + strings.Repeat("x = a"+strings.Repeat(" + a", 200)+"\n", 240) + "end\n"},
	{"a function of many constants", "t = function()\nlocal x\n" + numbered("x = \"constant %[1]d\" x = %[1]d.5\n", 8000) + "end\n"},
	{"nested prototypes", "t = {}\n" + strings.Repeat("t[#t + 1] = function() local a return function() return a, function() return a end end end\n", 2500)},
	{"many locals", "t = function()\n" + strings.Repeat("do local alpha, beta, gamma, delta = 1, 2, 3, 4 end\n", 4000) + "end\n"},
	{"closures of one prototype", "t = {} local function mk(i) return function() return i end end for i = 1, 20000 do t[i] = mk(i) end\n"},
}

// numbered writes format with 0, 1, … n-1.
func numbered(format string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, format, i)
	}
	return b.String()
}

// TestWeighedCodeIsHeld: what the memory budget weighs of a mod's compiled
// code (its prototypes, each once) is within 1.5× either way of what the
// heap holds for it, for every shape of codeShapes. Here the measured load
// compiles its file (a text the process has not compiled), and the heap's
// growth counts the prototypes and the compile cache's copy of the text
// (the Mod's own copy, which it keeps once read, is read before).
func TestWeighedCodeIsHeld(t *testing.T) {
	emptyHeld, emptyWeighed := weighCodeAndHold(t, "")
	for _, s := range codeShapes {
		held, weighed := weighCodeAndHold(t, s.src)
		held -= emptyHeld
		weighed -= emptyWeighed
		ratio := float64(weighed) / float64(held)
		t.Logf("| %s | %d | %d | %.2f |", s.name, weighed, held, ratio)
		if ratio < 1/1.5 || ratio > 1.5 {
			t.Errorf("%s: weighed %d bytes, the heap holds %d (%.2f×)", s.name, weighed, held, ratio)
		}
	}
}

// weighCodeAndHold loads a mod whose main.lua is src, and then, measured,
// one whose main.lua is src with a comment more (a text not compiled yet),
// and returns the growth of the live heap while the second is loaded and
// what its walk weighs. A compile cache emptied by the second file's
// compile (the first is gone from it) would take from the growth what the
// cache let go: that measurement is made again.
func weighCodeAndHold(t *testing.T, src string) (held, weighed int64) {
	t.Helper()
	limits := defaultLimits
	limits.MaxMemory = 0
	limits.FailsafeTime = time.Hour
	load := func(md *mod.Mod) *Host {
		h, err := NewHost([]*mod.Mod{md}, engine.NewClassic(), engine.Options{Width: 4, Height: 4, Seed: 1}, limits)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	for try := 0; ; try++ {
		load(weighMod(t, src)).Close()
		md := weighMod(t, fmt.Sprintf("%s-- measured %d\n", src, try))
		if _, err := md.ReadFile("main.lua", mod.MaxSource); err != nil { // the Mod keeps what it read
			t.Fatal(err)
		}
		idleWatchdog(t)
		before := liveHeap()
		h := load(md)
		after := liveHeap()
		weighed = h.mods[0].measure()
		runtime.KeepAlive(h)
		h.Close()
		if _, ok := sandbox.CachedCompile(src, "main.lua"); ok || try == 2 {
			return int64(after) - int64(before), weighed
		}
	}
}

// weighAndHold loads a mod whose main.lua is src and returns the growth of
// the live heap while it is loaded and what its walk weighs. With reload,
// the mod's global t is stored and loaded again first, as a game loaded
// from a save does.
func weighAndHold(t *testing.T, src string, reload bool) (held, weighed int64) {
	t.Helper()
	md := weighMod(t, src)
	limits := defaultLimits
	limits.MaxMemory = 0
	limits.LoadInstructions = 50_000_000
	// Loading 50 million instructions under the race detector on a loaded
	// machine may take longer than the failsafe's 2 s: this test weighs,
	// it does not time.
	limits.FailsafeTime = time.Hour
	load := func() *Host {
		h, err := NewHost([]*mod.Mod{md}, engine.NewClassic(), engine.Options{Width: 4, Height: 4, Seed: 1}, limits)
		if err != nil {
			t.Fatal(err)
		}
		if reload {
			m := h.mods[0]
			m.enc.reset(m.L)
			if _, err := m.enc.table(m.L.GetGlobal("t").(*lua.LTable), 0); err != nil {
				t.Fatal(err)
			}
			data := append([]byte(nil), m.enc.buf...)
			m.L.SetGlobal("t", lua.LNil)
			m.enc = encoder{}
			back, err := decodeTable(m.L, data, 0)
			if err != nil {
				t.Fatal(err)
			}
			m.L.SetGlobal("t", back)
		}
		return h
	}
	load().Close() // compiled once a process: not part of what is measured
	idleWatchdog(t)
	before := liveHeap()
	h := load()
	after := liveHeap()
	weighed = h.mods[0].measure()
	runtime.KeepAlive(h)
	h.Close()
	return int64(after) - int64(before), weighed
}

// weighMod loads a mod whose main.lua is src.
func weighMod(t *testing.T, src string) *mod.Mod {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "weigh")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := "id = \"weigh\"\nname = \"Weigh\"\nversion = \"1.0.0\"\napi_version = 1\n"
	for name, s := range map[string]string{mod.ManifestName: manifest, "main.lua": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	md, err := mod.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return md
}

// liveHeap is the heap's live bytes after a collection, once the
// cleanups the collections queued have run (the names tostring gives are
// forgotten by cleanups, which free what they held only at the next
// collection): it collects until the figure stops falling.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	read := func() uint64 {
		runtime.GC()
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	last := read()
	for range 20 {
		time.Sleep(time.Millisecond) // the cleanups' goroutine runs
		now := read()
		if now >= last {
			return now
		}
		last = now
	}
	return last
}

// idleWatchdog waits until the process's watchdog sleeps: no call runs,
// and it holds none.
func idleWatchdog(t *testing.T) {
	t.Helper()
	for range 1000 {
		if sandbox.TheWatchdog().Asleep() {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("the watchdog does not go to sleep")
}

// TestClosedHostIsFreed: once a host is closed, nothing of the process
// (the watchdog, a cache) keeps its mods' Lua values alive. The watchdog
// kept the last calls' budgets, and so their whole states, while it slept.
func TestClosedHostIsFreed(t *testing.T) {
	// t is named (tostring): the name's cleanup must not keep the state.
	md := weighMod(t, `t = {} for i = 1, 1000 do t["key" .. i] = i end tostring(t) game.on("tick", function() t.x = 1 end)`)
	freed := make(chan struct{})
	func() {
		g, err := engine.New(engine.NewClassic(), engine.Options{Width: 4, Height: 4, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		h, err := NewHost([]*mod.Mod{md}, g.Rules(), g.Options(), defaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		g.SetHooks(h)
		for _, d := range []engine.Direction{engine.Left, engine.Up, engine.Right, engine.Down} {
			if _, err := h.Move(g, d); err != nil {
				t.Log(err)
			}
		}
		// A cleanup, not a finalizer: the table is in a cycle (its meter
		// is its state's), which a finalizer would keep alive.
		runtime.AddCleanup(h.mods[0].L.GetGlobal("t").(*lua.LTable), func(ch chan struct{}) { close(ch) }, freed)
		h.Close()
	}()
	idleWatchdog(t)
	for range 100 {
		runtime.GC()
		select {
		case <-freed:
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Fatal("a closed host's Lua values are still alive")
}

// TestRequireEachTurnIsWeighed: the red team's mod, whose tick handler
// requires a new module each turn (of 200 KiB, which a call's budget can
// pay to compile, each a table of functions the mod keeps), ends at its
// memory budget, with its error, long before it runs out of modules; and
// what the process's heap holds for it then is at most 1.5× what it is
// weighed at (its prototypes, the compile cache's and the Mod's copies of
// the files' text).
func TestRequireEachTurnIsWeighed(t *testing.T) {
	const size = 200 << 10
	files := map[string]string{mod.ManifestName: "id = \"redteam\"\nname = \"Red team\"\nversion = \"1.0.0\"\napi_version = 1\n",
		"main.lua": "local n = 0\ngame.on('tick', function() n = n + 1 require('m' .. n) end)\n"}
	for i := 1; i <= 63; i++ {
		head := fmt.Sprintf("weighed%d = {", i)
		files[fmt.Sprintf("m%d.lua", i)] = head + strings.Repeat("function() end,", (size-len(head)-2)/15) + "}\n"
	}
	dir := filepath.Join(t.TempDir(), "redteam")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, s := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	md, err := mod.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	limits := defaultLimits
	limits.GameTurnInstructions = 0 // a mod's own budgets: under the game's share, its first require is over its turn
	limits.FailsafeTime = time.Hour // it weighs; it does not time
	rules := engine.NewClassic()
	rules.StopOnWin = false
	g, err := engine.New(rules, engine.Options{Width: 4, Height: 4, Seed: 1, UndoLimit: -1})
	if err != nil {
		t.Fatal(err)
	}
	idleWatchdog(t)
	before := liveHeap()
	h, err := NewHost([]*mod.Mod{md}, g.Rules(), g.Options(), limits)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	g.SetHooks(h)
	dirs := [4]engine.Direction{engine.Left, engine.Up, engine.Right, engine.Down}
	var failed *Report
	turn := 0
	for ; turn < 70 && failed == nil && g.Status() != engine.Lost; turn++ {
		d := dirs[turn%4]
		for k := 1; !g.Legal(d) && k < 4; k++ {
			d = dirs[(turn+k)%4]
		}
		if _, err := h.Move(g, d); err != nil {
			t.Fatal(err)
		}
		for _, r := range h.TakeReports() {
			failed = &r
		}
	}
	if failed == nil {
		t.Fatalf("%d turns, and no report", turn)
	}
	if failed.Message != heldReason(limits) || failed.Failsafe || turn >= 63 {
		t.Fatalf("turn %d: %+v, want the memory budget's error", turn, *failed)
	}
	idleWatchdog(t)
	held := int64(liveHeap()) - int64(before)
	weighed := h.Weighed("redteam")
	runtime.KeepAlive(h)
	t.Logf("ended at turn %d: weighed %d bytes, the heap holds %d (%.2f×)", turn, weighed, held, float64(held)/float64(weighed))
	if weighed <= limits.MaxMemory || float64(held) > 1.5*float64(weighed) {
		t.Errorf("weighed %d bytes (the budget is %d), the heap holds %d", weighed, limits.MaxMemory, held)
	}
}
