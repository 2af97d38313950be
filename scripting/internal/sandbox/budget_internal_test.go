package sandbox

import (
	"runtime"
	"strings"
	"testing"
	"time"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"
)

// waitFor polls cond until it holds, failing after a long time: the test
// waits on a state, it does not measure time.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for start := time.Now(); !cond(); time.Sleep(time.Millisecond) {
		if time.Since(start) > 20*time.Second {
			t.Fatalf("waited 20s for %s", what)
		}
	}
}

// TestWatchdogSleepsWhenIdle: with no call running the Watchdog stops
// ticking and wakes when a call starts (item 8: a game waiting for a key
// costs nothing).
// testLimits are the host's default limits, as the sandbox keeps them.
var testLimits = Limits{CallStack: 200, Registry: 64 * 1024, MaxString: 1 << 20, MaxPattern: 64 << 10, MaxItems: 1 << 16}

func TestWatchdogSleepsWhenIdle(t *testing.T) {
	w := newWatchdog()
	defer w.close()
	b := NewBudget()
	w.Add(b, "idle")
	for round := 0; round < 3; round++ {
		waitFor(t, "the watchdog to sleep", w.asleep.Load)
		ticks := w.ticks.Load()
		time.Sleep(20 * watchdogTick)
		if got := w.ticks.Load(); got != ticks || !w.asleep.Load() {
			t.Fatalf("round %d: the watchdog woke %d times while no call ran", round, got-ticks)
		}
		b.Start(1000, "over", time.Hour)
		waitFor(t, "the watchdog to tick for the running call", func() bool { return w.ticks.Load() > ticks+1 && !w.asleep.Load() })
		if _, why := b.End(1000); why.Kind != NotStopped {
			t.Fatalf("round %d: the call was stopped: %+v", round, why)
		}
	}
}

// spin works until cond holds, failing after a long time (the call's own
// clock must move for the failsafe to fire: on Linux it is its CPU time).
func spin(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for start := time.Now(); !cond(); {
		if time.Since(start) > 20*time.Second {
			t.Fatalf("worked 20s waiting for %s", what)
		}
	}
}

// TestFailsafeStops: the failsafes stop a call, and their stop is told
// from the Budget's.
func TestFailsafeStops(t *testing.T) {
	t.Run("time", func(t *testing.T) {
		w := newWatchdog()
		defer w.close()
		b := NewBudget()
		w.Add(b, "slow")
		b.Start(1000, "over", time.Millisecond)
		spin(t, "the failsafe", func() bool { return b.Err() != nil })
		_, why := b.End(1000)
		if why.Kind != StopFailsafe || !strings.Contains(why.Reason, "stopped by the failsafe: the call ran for more than 1ms") {
			t.Errorf("stop %+v, want the time failsafe", why)
		}
	})
	t.Run("budget", func(t *testing.T) {
		b := NewBudget()
		b.Start(3, "exceeded", time.Hour)
		for range 3 {
			b.Done()
		}
		if b.Err() != nil {
			t.Fatal("stopped after 3 of 3 instructions")
		}
		b.Done()
		used, why := b.End(3)
		if why.Kind != StopBudget || why.Reason != "exceeded" || used != 3 {
			t.Errorf("stop %+v after %d instructions, want the budget's after 3", why, used)
		}
		// The next call starts afresh.
		b.Start(3, "exceeded", time.Hour)
		b.Done()
		if used, why := b.End(3); why.Kind != NotStopped || used != 1 {
			t.Errorf("next call: stop %+v after %d instructions", why, used)
		}
	})
}

// runSandbox runs src in a fresh sandbox and returns what it returns, as
// strings, or its error.
func runSandbox(t *testing.T, src string) ([]string, error) {
	t.Helper()
	b := NewBudget()
	L := New(testLimits, b, &Log{max: 1 << 10})
	defer L.Close()
	fn, err := L.LoadString(src)
	if err != nil {
		t.Fatal(err)
	}
	b.Start(1_000_000, "over", time.Hour)
	defer b.End(1_000_000)
	L.Push(fn)
	if err := L.PCall(0, lua.MultRet, nil); err != nil {
		return nil, err
	}
	var out []string
	for i := 1; i <= L.GetTop(); i++ {
		out = append(out, L.Get(i).String())
	}
	return out, nil
}

func TestStringFormat(t *testing.T) {
	tests := []struct {
		src  string
		want string // the result, or the error (a substring) after "error: "
	}{
		{`return string.format("%d|%5d|%-5d|%05d|%+d|%i", 42, 42, 42, 42, 42, -7)`, "42|   42|42   |00042|+42|-7"},
		{`return string.format("%d", 3.9)`, "3"},
		{`return string.format("%d", "12")`, "12"},
		{`return string.format("%x|%X|%#x|%o|%u", 255, 255, 255, 8, 3)`, "ff|FF|0xff|10|3"},
		{`return string.format("%x", -1)`, "ffffffffffffffff"},
		{`return string.format("%.2f|%8.3f|%e|%g|%g|%g", 3.14159, 2.5, 12345.678, 0.1, 1e20, 3.14159265)`, "3.14|   2.500|1.234568e+04|0.1|1e+20|3.14159"},
		{`return string.format("%c%c%c", 76, 117, 97)`, "Lua"},
		{`return string.format("%q", 'a "b"\n\\')`, "\"a \\\"b\\\"\\\n\\\\\""},
		{`return string.format("%s|%5s|%-5s|%.2s", "abc", "ab", "ab", "abc")`, "abc|   ab|ab   |ab"},
		{`return string.format("%s %s %s", 1, true, nil)`, "1 true nil"},
		{`return string.format("100%% %s", "sure")`, "100% sure"},
		{`local t = {} return string.format("%s %s", t, t)`, "table: 1 table: 1"},
		{`return string.format("%s", setmetatable({}, {__tostring = function() return "me" end}))`, "me"},
		{`return string.format("%d", {})`, "error: number expected, got table"},
		{`return string.format("%p", {})`, "error: invalid option '%p' to 'format'"},
		{`return string.format("%v", {})`, "error: invalid option '%v' to 'format'"},
		{`return string.format("%d")`, "error: number expected"},
		{`return string.format("%100d", 1)`, "error: above 99 are not allowed"},
		{`return string.format("%5.100f", 1)`, "error: above 99 are not allowed"},
		{`return string.format("%" .. string.rep("-", 100000) .. "d", 1)`, "error: invalid format (repeated flags)"},
		{`return string.format("%" .. string.rep("9", 100000) .. "d", 1)`, "error: above 99 are not allowed"},
		{`return string.format("%1." .. string.rep("9", 100000) .. "f", 1)`, "error: above 99 are not allowed"},
		{`return string.format("%", 1)`, "error: invalid option"},
	}
	for _, tt := range tests {
		got, err := runSandbox(t, tt.src)
		if want, ok := strings.CutPrefix(tt.want, "error: "); ok {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %q, %v; want the error %q", tt.src, got, err, want)
			}
			continue
		}
		if err != nil || len(got) != 1 || got[0] != tt.want {
			t.Errorf("%s: %q, %v; want %q", tt.src, got, err, tt.want)
		}
	}
}

// TestNames: tostring names values by kind and number, in the order they
// are first named, a value keeps its name, and no address shows anywhere.
func TestNames(t *testing.T) {
	got, err := runSandbox(t, `
		local a, b = {}, {}
		local f = function() end
		local r = {tostring(b), tostring(a), tostring(b), tostring(f), tostring(print), string.format("%s", a)}
		local ok, msg = pcall(function() local x = nil; return x[a] end)
		r[#r + 1] = msg
		local _, msg2 = xpcall(function() local x = nil; return x[f] end, function(m) return "handled: " .. m end)
		r[#r + 1] = msg2
		r[#r + 1] = tostring(setmetatable({}, {__tostring = function() return "custom" end}))
		r[#r + 1] = tostring(1.5) .. tostring(nil) .. tostring(true) .. tostring("s")
		return unpack(r)`)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"table: 1", "table: 2", "table: 1", "function: 3", "function: 4", "table: 2",
		"<string>:5: attempt to index a non-table object(nil) with key '(table)'",
		"handled: <string>:7: attempt to index a non-table object(nil) with key '(function)'",
		"custom", "1.5niltrues"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// TestBuiltinsCharge: the builtins that loop charge the Budget for their
// work, so a call that only calls them still runs out.
func TestBuiltinsCharge(t *testing.T) {
	for _, src := range []string{
		`local s = string.rep("a", 60000) while true do s:find(".-b") end`,
		`local s = string.rep("a", 60000) while true do s:gsub("a", "b") end`,
		`local t = {} for i = 1, 60000 do t[i] = i end while true do table.sort(t) end`,
		`local t = {} for i = 1, 20000 do t[i] = "x" end while true do table.concat(t) end`,
		`local t = {} for i = 1, 60000 do t[i] = i end while true do unpack(t) end`,
		`while true do string.rep("x", 1000000) end`,
		`local t = {} for i = 1, 60000 do t[i] = i end while true do table.insert(t, 1, 0) table.remove(t, 1) end`,
		`while true do string.format("%s", string.rep("x", 100000)) end`,
	} {
		b := NewBudget()
		L := New(testLimits, b, &Log{max: 1 << 10})
		fn, err := L.LoadString(src)
		if err != nil {
			t.Fatal(err)
		}
		const n = 2_000_000
		b.Start(n, "exceeded", time.Hour) // no Watchdog: only the Budget can stop it
		L.Push(fn)
		err = L.PCall(0, 0, nil)
		used, why := b.End(n)
		L.Close()
		if err == nil || why.Kind != StopBudget || used != n {
			t.Errorf("%s: stopped by %+v after %d instructions, %v; want the budget", src, why, used, err)
		}
	}
}

// TestCapStopsBeforeTheCopy: a string that would take the call past its
// cap is refused before it is made: a doubling string.rep stops at the
// first copy past the cap, by the count, whatever the process's heap.
func TestCapStopsBeforeTheCopy(t *testing.T) {
	const limit = 32 << 20
	l := testLimits
	l.MaxString = 1 << 30
	b := NewBudget()
	L := New(l, b, &Log{max: 1 << 10})
	defer L.Close()
	fn, err := L.LoadString(`local s = "x" while true do s = string.rep(s, 2) end`)
	if err != nil {
		t.Fatal(err)
	}
	ballast := make([]byte, 3*limit) // the process's heap does not count
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	total := ms.TotalAlloc
	const n = 1 << 40
	b.SetCap(limit, "capped")
	b.Start(n, "exceeded", time.Hour)
	L.Push(fn)
	err = L.PCall(0, 0, nil)
	_, why := b.End(n)
	runtime.ReadMemStats(&ms)
	runtime.KeepAlive(ballast)
	if err == nil || why.Kind != StopBudget || why.Reason != "capped" {
		t.Fatalf("stopped by %+v, %v; want the cap", why, err)
	}
	if built := b.CallBuilt(); built <= limit || built > 2*limit {
		t.Errorf("the call counted %d bytes built; its cap is %d", built, limit)
	}
	if made := ms.TotalAlloc - total; made > limit {
		t.Errorf("the call made %d MiB before it stopped; its cap is %d MiB", made>>20, limit>>20)
	}
}

// TestFailsafeReadsItsOwnCall: the time failsafe reads the call's own
// clock (on Linux, its thread's CPU time). Another goroutine's work, here
// a call of its own that the failsafe stops, and another process's, do
// not count against a call that mostly waits meanwhile (as a call does
// on a loaded machine, its thread taken off the CPU between two of its
// instructions).
func TestFailsafeReadsItsOwnCall(t *testing.T) {
	if ClockKind != "the call's own CPU time" {
		t.Skipf("the failsafe reads %s here", ClockKind)
	}
	w := newWatchdog()
	defer w.close()
	waiting, busy := NewBudget(), NewBudget()
	w.Add(waiting, "waiting")
	w.Add(busy, "busy")
	defer w.Remove(waiting)
	defer w.Remove(busy)
	waiting.Start(1<<40, "over", 20*time.Millisecond)
	done := make(chan Stop)
	go func() {
		busy.Start(1<<40, "over", 100*time.Millisecond)
		for busy.Done() == nil {
		}
		_, why := busy.End(1 << 40)
		done <- why
	}()
	var why Stop
	for waitingDone := false; !waitingDone; {
		waiting.Done() // an instruction, then the thread is off the CPU
		select {
		case why = <-done: // 100 ms of the other call's work, 5 times the waiting call's failsafe
			waitingDone = true
		case <-time.After(time.Millisecond):
		}
	}
	if why.Kind != StopFailsafe {
		t.Errorf("the busy call: %+v, want the failsafe's stop", why)
	}
	ticks := w.ticks.Load()
	waitFor(t, "the watchdog to tick", func() bool { return w.ticks.Load() > ticks+2 })
	waiting.Done()
	if _, why := waiting.End(1 << 40); why.Kind != NotStopped {
		t.Errorf("the waiting call was stopped: %+v", why)
	}
}

// TestFailsafeAsksForTheClock: a call gives its clock only when the
// Watchdog asks, at its next instruction; one that runs none after it is
// asked (stuck in one Go function, which no count sees) is stopped by the
// wall clock, as a last resort.
func TestFailsafeAsksForTheClock(t *testing.T) {
	w := newWatchdog()
	defer w.close()
	b := NewBudget()
	w.Add(b, "stuck")
	defer w.Remove(b)
	b.Start(1<<40, "over", 10*time.Millisecond)
	if b.clockKnown {
		t.Fatal("the call gave its clock before it was asked")
	}
	waitFor(t, "the wall clock's failsafe", func() bool { return b.Err() != nil })
	if _, why := b.End(1 << 40); why.Kind != StopFailsafe {
		t.Errorf("stop %+v, want the failsafe's", why)
	}
	b.Start(1<<40, "over", time.Hour)
	waitFor(t, "the Watchdog to ask", func() bool { return b.state.Load()&stateWantClock != 0 })
	b.Done()
	b.mu.Lock()
	known := b.clockKnown
	b.mu.Unlock()
	if !known || b.state.Load()&stateWantClock != 0 {
		t.Errorf("asked, the call's next instruction did not give its clock")
	}
	b.End(1 << 40)
}
