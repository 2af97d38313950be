package scripting

import (
	"fmt"
	"io"
	"regexp"
	"runtime/metrics"
	"strings"
	"sync"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// Limits bound what one mod may use. A handler that passes a limit stops
// with an error naming the limit; the game goes on without its effects.
type Limits struct {
	HandlerTime   time.Duration // one handler call
	TurnTime      time.Duration // all of one mod's handler calls in one turn
	CallStack     int           // Lua call frames (deep recursion ends in an error)
	Registry      int           // Lua data-stack slots
	MaxString     int           // bytes a builtin may produce
	MaxPattern    int           // bytes of subject string.gsub, gmatch, find and match may scan
	MaxItems      int           // values unpack may return, elements table.concat may join
	MaxHandlers   int           // handlers one mod may register for one event
	MaxHeapGrowth uint64        // Go heap growth during a call before the call is stopped
	MaxLog        int           // bytes of print output kept per mod
}

// DefaultLimits are the limits mods run under.
var DefaultLimits = Limits{
	HandlerTime:   50 * time.Millisecond,
	TurnTime:      200 * time.Millisecond,
	CallStack:     200,
	Registry:      64 * 1024,
	MaxString:     1 << 20,
	MaxPattern:    64 << 10,
	MaxItems:      1 << 16,
	MaxHandlers:   64,
	MaxHeapGrowth: 512 << 20,
	MaxLog:        64 << 10,
}

// budget is the context a mod's Lua state runs under: the VM checks Done on
// every instruction, and the watchdog closes it when a call runs out of time
// or memory. Unlike a context.WithTimeout, it costs nothing per call.
type budget struct {
	mu       sync.Mutex
	done     chan struct{}
	reason   string
	deadline time.Time // zero while no call runs
}

func newBudget() *budget { return &budget{done: make(chan struct{})} }

func (b *budget) Deadline() (time.Time, bool) { return time.Time{}, false }
func (b *budget) Done() <-chan struct{}       { return b.done }
func (b *budget) Value(any) any               { return nil }

func (b *budget) Err() error {
	select {
	case <-b.done:
		return budgetError(b.reason)
	default:
		return nil
	}
}

type budgetError string

func (e budgetError) Error() string { return string(e) }

// start opens a call that must end by deadline.
func (b *budget) start(deadline time.Time) {
	b.mu.Lock()
	b.deadline = deadline
	b.mu.Unlock()
}

// stop closes the call; after a cancellation it makes a fresh channel, so
// the state stays usable.
func (b *budget) stop() (cancelled string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.deadline = time.Time{}
	select {
	case <-b.done:
		cancelled = b.reason
		b.done = make(chan struct{})
		b.reason = ""
	default:
	}
	return cancelled
}

// cancel stops the running call, if one runs, with reason.
func (b *budget) cancel(reason string, now time.Time, timeOnly bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.deadline.IsZero() || (timeOnly && now.Before(b.deadline)) {
		return
	}
	select {
	case <-b.done:
	default:
		b.reason = reason
		close(b.done)
	}
}

// watchdog checks the running calls of a host's mods every tick: one past
// its deadline, or running while the heap has grown by more than the limit,
// is cancelled.
type watchdog struct {
	mu      sync.Mutex
	budgets map[*budget]string // budget → mod id
	limits  Limits
	stop    chan struct{}
	once    sync.Once
}

const watchdogTick = 2 * time.Millisecond

func newWatchdog(l Limits) *watchdog {
	w := &watchdog{budgets: map[*budget]string{}, limits: l, stop: make(chan struct{})}
	go w.run()
	return w
}

func (w *watchdog) add(b *budget, id string) {
	w.mu.Lock()
	w.budgets[b] = id
	w.mu.Unlock()
}

func (w *watchdog) close() { w.once.Do(func() { close(w.stop) }) }

func (w *watchdog) run() {
	t := time.NewTicker(watchdogTick)
	defer t.Stop()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var base uint64
	for {
		select {
		case <-w.stop:
			return
		case now := <-t.C:
			w.mu.Lock()
			busy := false
			for b := range w.budgets {
				b.mu.Lock()
				running := !b.deadline.IsZero()
				b.mu.Unlock()
				if running {
					busy = true
					b.cancel(fmt.Sprintf("exceeded its time budget (%v a call, %v a turn)", w.limits.HandlerTime, w.limits.TurnTime), now, true)
				}
			}
			metrics.Read(sample)
			heap := sample[0].Value.Uint64()
			if !busy || heap < base {
				base = heap
			} else if heap-base > w.limits.MaxHeapGrowth {
				for b := range w.budgets {
					b.cancel(fmt.Sprintf("exceeded its memory budget (%d MiB)", w.limits.MaxHeapGrowth>>20), now, false)
				}
			}
			w.mu.Unlock()
		}
	}
}

// newSandbox makes the Lua state of one mod: only the base, table, string
// and math libraries, trimmed and capped as MODDING.md says, with print
// going to log.
func newSandbox(l Limits, b *budget, log *logBuffer) *lua.LState {
	L := lua.NewState(lua.Options{
		SkipOpenLibs:        true,
		CallStackSize:       l.CallStack,
		RegistrySize:        1024,
		RegistryMaxSize:     l.Registry,
		RegistryGrowStep:    1024,
		MinimizeStackMemory: true,
	})
	for _, lib := range []struct {
		name string
		open lua.LGFunction
	}{{lua.BaseLibName, lua.OpenBase}, {lua.TabLibName, lua.OpenTable}, {lua.StringLibName, lua.OpenString}, {lua.MathLibName, lua.OpenMath}} {
		L.Push(L.NewFunction(lib.open))
		L.Push(lua.LString(lib.name))
		L.Call(1, 0)
	}
	g := L.G.Global
	for _, name := range []string{"dofile", "loadfile", "load", "loadstring", "require", "module", "collectgarbage", "getfenv", "setfenv", "newproxy", "_printregs", "print"} {
		g.RawSetString(name, lua.LNil)
	}
	str := L.GetGlobal("string").(*lua.LTable)
	str.RawSetString("dump", lua.LNil)
	tbl := L.GetGlobal("table").(*lua.LTable)
	math := L.GetGlobal("math").(*lua.LTable)
	math.RawSetString("random", lua.LNil)
	math.RawSetString("randomseed", lua.LNil)

	capString := func(n int, what string) {
		if n > l.MaxString {
			L.RaiseError("%s: %d bytes exceed the mod limit of %d", what, n, l.MaxString)
		}
	}
	wrap := func(t *lua.LTable, name string, check func(L *lua.LState)) {
		orig := t.RawGetString(name).(*lua.LFunction)
		t.RawSetString(name, L.NewFunction(func(L *lua.LState) int {
			check(L)
			top := L.GetTop()
			L.Push(orig)
			for i := 1; i <= top; i++ {
				L.Push(L.Get(i))
			}
			L.Call(top, lua.MultRet)
			return L.GetTop() - top
		}))
	}
	wrap(str, "rep", func(L *lua.LState) {
		s := L.CheckString(1)
		n := L.CheckInt(2)
		sep := L.OptString(3, "")
		if n > 0 && (len(s)+len(sep)) > 0 && n > (l.MaxString/(len(s)+len(sep)))+1 {
			capString(l.MaxString+1, "string.rep")
		}
	})
	for _, name := range []string{"gsub", "gmatch", "find", "match"} {
		name := name
		wrap(str, name, func(L *lua.LState) {
			if n := len(L.CheckString(1)); n > l.MaxPattern {
				L.RaiseError("string.%s: a subject of %d bytes exceeds the mod limit of %d", name, n, l.MaxPattern)
			}
		})
	}
	for _, name := range []string{"upper", "lower", "reverse"} {
		name := name
		wrap(str, name, func(L *lua.LState) {
			capString(len(L.CheckString(1)), "string."+name)
		})
	}
	wrap(str, "format", func(L *lua.LState) {
		f := L.CheckString(1)
		if hugeWidth.MatchString(f) {
			L.RaiseError("string.format: field widths and precisions above 99 are not allowed")
		}
	})
	wrap(tbl, "concat", func(L *lua.LState) {
		t := L.CheckTable(1)
		sep := L.OptString(2, "")
		i := L.OptInt(3, 1)
		j := L.OptInt(4, t.Len())
		if j-i+1 > l.MaxItems {
			L.RaiseError("table.concat: %d elements exceed the mod limit of %d", j-i+1, l.MaxItems)
		}
		n := 0
		for k := i; k <= j; k++ {
			if s, ok := t.RawGetInt(k).(lua.LString); ok {
				n += len(s) + len(sep)
			} else if num, ok := t.RawGetInt(k).(lua.LNumber); ok {
				n += len(num.String()) + len(sep)
			}
			capString(n, "table.concat")
		}
	})
	wrap(g, "unpack", func(L *lua.LState) {
		t := L.CheckTable(1)
		i := L.OptInt(2, 1)
		j := L.OptInt(3, t.Len())
		if j-i+1 > l.MaxItems {
			L.RaiseError("unpack: %d values exceed the mod limit of %d", j-i+1, l.MaxItems)
		}
	})
	wrap(g, "setmetatable", func(L *lua.LState) {
		L.CheckTable(1)
	})
	g.RawSetString("print", L.NewFunction(func(L *lua.LState) int {
		parts := make([]string, L.GetTop())
		for i := range parts {
			parts[i] = safeString(L.Get(i + 1))
		}
		log.println(strings.Join(parts, "\t"))
		return 0
	}))
	// The string metatable is shared by every string of the state: hide it.
	if mt, ok := L.GetMetatable(lua.LString("")).(*lua.LTable); ok {
		mt.RawSetString("__metatable", lua.LString("the string metatable is protected"))
	}
	L.SetContext(b)
	return L
}

var hugeWidth = regexp.MustCompile(`%[-+ #0]*[0-9]{3,}|%[-+ #0]*[0-9]*\.[0-9]{3,}`)

// safeString writes a Lua value for a log or an error without running any
// of its metamethods (a __tostring that errors must not hide the error).
func safeString(v lua.LValue) string {
	switch v := v.(type) {
	case lua.LString:
		return string(v)
	case lua.LNumber, lua.LBool:
		return v.String()
	case *lua.LNilType:
		return "nil"
	}
	return "(" + v.Type().String() + ")"
}

// logBuffer keeps the last bytes a mod printed, up to a limit.
type logBuffer struct {
	mu    sync.Mutex
	max   int
	lines []string
	size  int
	out   io.Writer // also copies each line here, if set
}

func (b *logBuffer) println(s string) {
	if len(s) > 1024 {
		s = s[:1024] + "…"
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.lines = append(b.lines, s)
	b.size += len(s)
	for b.size > b.max && len(b.lines) > 1 {
		b.size -= len(b.lines[0])
		b.lines = b.lines[1:]
	}
	if b.out != nil {
		fmt.Fprintln(b.out, s)
	}
}

// Lines returns the kept log lines.
func (b *logBuffer) Lines() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.lines...)
}
