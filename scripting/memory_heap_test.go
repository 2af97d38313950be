package scripting

import (
	"github.com/mod2048/mod2048/scripting/mod"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
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
