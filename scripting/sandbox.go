package scripting

import (
	"fmt"
	"io"
	"regexp"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
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
	MaxString     int           // bytes a builtin may produce (string.rep, upper, lower, reverse, format, gsub, table.concat)
	MaxPattern    int           // bytes of subject (and of pattern) string.gsub, gmatch, find and match may scan
	MaxItems      int           // values unpack and string.byte may return, elements table.concat may join and table.sort may sort
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
//
// A call that has grown the heap a good part of its limit is armed: then
// Done itself reads the heap every few instructions, so that a string that
// doubles at each instruction stops at the first instruction past the limit
// rather than at the watchdog's next tick (which a long copy can delay).
type budget struct {
	mu       sync.Mutex
	done     chan struct{}
	reason   string
	deadline time.Time // zero while no call runs
	calls    uint64    // calls started, so the watchdog tells one call from the next

	armed   atomic.Bool   // Done checks the heap
	armBase atomic.Uint64 // the heap the growth counts from, once armed
	steps   int           // instructions since the armed call's last check
	limit   uint64        // Limits.MaxHeapGrowth
	heap    []metrics.Sample
}

func newBudget() *budget {
	return &budget{done: make(chan struct{}), heap: []metrics.Sample{{Name: heapMetric}}}
}

func (b *budget) Deadline() (time.Time, bool) { return time.Time{}, false }
func (b *budget) Value(any) any               { return nil }

func (b *budget) Done() <-chan struct{} {
	if b.armed.Load() {
		if b.steps++; b.steps >= armedCheckPeriod {
			b.steps = 0
			if heap := readHeap(b.heap); heap > b.armBase.Load() && heap-b.armBase.Load() > b.limit {
				b.cancel(memoryReason(b.limit), time.Now(), false)
			}
		}
	}
	return b.done
}

// armedCheckPeriod is how many instructions an armed call runs between two
// reads of the heap: fewer than a loop that doubles a string takes.
const armedCheckPeriod = 3

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
	b.armed.Store(false)
	b.deadline = deadline
	b.calls++
	b.mu.Unlock()
	b.steps = 0
}

// stop closes the call; after a cancellation it makes a fresh channel, so
// the state stays usable.
func (b *budget) stop() (cancelled string) {
	b.armed.Store(false)
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

// arm makes call number calls check the heap itself, counting from base,
// if it still runs.
func (b *budget) arm(calls, base uint64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.calls == calls && !b.deadline.IsZero() && !b.armed.Load() {
		b.armBase.Store(base)
		b.armed.Store(true)
	}
}

// cancelCall cancels call number calls, if it still runs.
func (b *budget) cancelCall(calls uint64, reason string, now time.Time) {
	b.mu.Lock()
	same := b.calls == calls
	b.mu.Unlock()
	if same {
		b.cancel(reason, now, false)
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
	b.limit = w.limits.MaxHeapGrowth
	w.mu.Lock()
	w.budgets[b] = id
	w.mu.Unlock()
}

func (w *watchdog) close() { w.once.Do(func() { close(w.stop) }) }

const heapMetric = "/memory/classes/heap/objects:bytes"

// readHeap returns the bytes of the Go heap's objects, live or not yet
// collected.
func readHeap(sample []metrics.Sample) uint64 {
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return sample[0].Value.Uint64()
}

func memoryReason(limit uint64) string {
	return fmt.Sprintf("exceeded its memory budget (%d MiB)", limit>>20)
}

// run checks the calls every tick. A call's memory is the growth of the
// Go heap since the tick before the call started (garbage collection during
// the call lowers the base); a call past an eighth of its limit is armed.
func (w *watchdog) run() {
	t := time.NewTicker(watchdogTick)
	defer t.Stop()
	sample := []metrics.Sample{{Name: heapMetric}}
	prev := readHeap(sample) // the heap at the last tick
	base := prev             // the heap when the running calls started
	seen := map[*budget]uint64{}
	limit := w.limits.MaxHeapGrowth
	timeReason := fmt.Sprintf("exceeded its time budget (%v a call, %v a turn)", w.limits.HandlerTime, w.limits.TurnTime)
	for {
		select {
		case <-w.stop:
			return
		case now := <-t.C:
			heap := readHeap(sample)
			w.mu.Lock()
			type call struct {
				b     *budget
				calls uint64
			}
			var running []call
			started := false
			for b := range w.budgets {
				b.mu.Lock()
				on, calls := !b.deadline.IsZero(), b.calls
				b.mu.Unlock()
				if on {
					running = append(running, call{b, calls})
					if seen[b] != calls {
						seen[b], started = calls, true
					}
					b.cancel(timeReason, now, true)
				}
			}
			w.mu.Unlock()
			switch {
			case len(running) == 0:
				base = heap
			case started: // a call began since the last tick
				base = min(prev, heap)
			case heap < base:
				base = heap
			}
			for _, c := range running {
				switch growth := heap - min(base, heap); {
				case growth > limit:
					c.b.cancelCall(c.calls, memoryReason(limit), now)
				case growth > limit/8:
					c.b.arm(c.calls, base)
				}
			}
			prev = heap
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
	capItems := func(first, last int, what string) {
		// In floating point: last-first+1 overflows int for extreme bounds.
		if n := float64(last) - float64(first) + 1; n > float64(l.MaxItems) {
			L.RaiseError("%s: %.0f %s exceed the mod limit of %d", what, n, itemWord(what), l.MaxItems)
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
		if n > 0 {
			if size := float64(n)*float64(len(s)) + float64(n-1)*float64(len(sep)); size > float64(l.MaxString) {
				L.RaiseError("string.rep: %.0f bytes exceed the mod limit of %d", size, l.MaxString)
			}
		}
	})
	for _, name := range []string{"upper", "lower", "reverse"} {
		name := name
		wrap(str, name, func(L *lua.LState) {
			capString(len(L.CheckString(1)), "string."+name)
		})
	}
	wrap(str, "byte", func(L *lua.LState) {
		n := len(L.CheckString(1))
		i := L.OptInt(2, 1)
		j := L.OptInt(3, i)
		if i < 0 {
			i = n + i + 1
		}
		if j < 0 {
			j = n + j + 1
		}
		capItems(max(i, 1), min(j, n), "string.byte")
	})
	wrap(str, "format", func(L *lua.LState) {
		f := L.CheckString(1)
		if hugeWidth.MatchString(f) {
			L.RaiseError("string.format: field widths and precisions above 99 are not allowed")
		}
		n := len(f)
		for i := 2; i <= L.GetTop(); i++ {
			if s, ok := L.Get(i).(lua.LString); ok {
				n += len(s)
			}
		}
		capString(n, "string.format")
	})
	// find, match, gmatch and gsub: Lua 5.1's own matcher (gopher-lua's
	// backtracks without bound and rebuilds gsub's result once per match),
	// which checks the budget as it goes.
	pat := &patterns{l: l, b: b}
	str.RawSetString("find", L.NewFunction(pat.find))
	str.RawSetString("match", L.NewFunction(pat.match))
	str.RawSetString("gmatch", L.NewFunction(pat.gmatch))
	str.RawSetString("gfind", L.NewFunction(pat.gmatch))
	str.RawSetString("gsub", L.NewFunction(pat.gsub))
	wrap(tbl, "concat", func(L *lua.LState) {
		t := L.CheckTable(1)
		sep := L.OptString(2, "")
		i := L.OptInt(3, 1)
		j := L.OptInt(4, t.Len())
		capItems(i, j, "table.concat")
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
	// table.sort runs in Go; with a comparator each comparison is a Lua
	// call that checks the budget, without one nothing does.
	wrap(tbl, "sort", func(L *lua.LState) {
		capItems(1, L.CheckTable(1).Len(), "table.sort")
	})
	wrap(g, "unpack", func(L *lua.LState) {
		t := L.CheckTable(1)
		i := L.OptInt(2, 1)
		j := L.OptInt(3, t.Len())
		capItems(i, j, "unpack")
	})
	wrap(g, "setmetatable", func(L *lua.LState) {
		L.CheckTable(1)
	})
	g.RawSetString("print", L.NewFunction(func(L *lua.LState) int {
		parts := make([]string, L.GetTop())
		for i := range parts {
			// Only the start of a line is kept: do not copy a huge string.
			if parts[i] = safeString(L.Get(i + 1)); len(parts[i]) > maxLogLine {
				parts[i] = parts[i][:maxLogLine]
			}
		}
		log.println(strings.Join(parts, "\t"))
		return 0
	}))
	// The string metatable is shared by every string of the state: hide it.
	// It is the string library's table itself, so a mod can still change
	// its own string functions and methods, in its own state only.
	if mt, ok := L.GetMetatable(lua.LString("")).(*lua.LTable); ok {
		mt.RawSetString("__metatable", lua.LString("the string metatable is protected"))
	}
	L.SetContext(b)
	return L
}

// itemWord names what a capped builtin counts.
func itemWord(what string) string {
	switch what {
	case "unpack":
		return "values"
	case "string.byte":
		return "bytes"
	}
	return "elements"
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

// maxLogLine is the longest line a mod's log keeps; longer ones are cut.
const maxLogLine = 1024

// logBuffer keeps the last bytes a mod printed, up to a limit. Each line
// counts one byte more than its text (its newline), so that empty lines
// cannot pile up without bound.
type logBuffer struct {
	mu    sync.Mutex
	max   int
	lines []string
	size  int
	out   io.Writer // also copies each line here, if set
	// discard drops what is printed, while the host asks the mods a
	// question that must leave no trace (Host.Refused).
	discard bool
}

func (b *logBuffer) println(s string) {
	if len(s) > maxLogLine {
		s = s[:maxLogLine] + "…"
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.discard {
		return
	}
	b.lines = append(b.lines, s)
	b.size += len(s) + 1
	for b.size > b.max && len(b.lines) > 1 {
		b.size -= len(b.lines[0]) + 1
		b.lines[0] = ""
		b.lines = b.lines[1:]
	}
	if b.out != nil {
		fmt.Fprintln(b.out, s)
	}
}

// setDiscard turns discarding on or off.
func (b *logBuffer) setDiscard(on bool) {
	b.mu.Lock()
	b.discard = on
	b.mu.Unlock()
}

// Lines returns the kept log lines.
func (b *logBuffer) Lines() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.lines...)
}

// Lua patterns, after Lua 5.1's lstrlib.c. gopher-lua's own matcher
// backtracks without bound inside one Go call (string.find(s, ".-.-.-x")
// on a few kilobytes runs for minutes), which the VM's budget check cannot
// stop, and its gsub copies the whole result once per match (seconds on 64
// KiB). This one checks the mod's budget every few thousand steps, bounds
// its recursion, and builds gsub's result once, within Limits.MaxString.

const (
	patternSpecials  = "^$*+?.([%-"
	maxCaptures      = 32
	maxMatchDepth    = 200
	capUnfinished    = -1
	capPosition      = -2
	matchCheckPeriod = 4096
)

// patterns holds what the pattern functions of one sandbox share.
type patterns struct {
	l Limits
	b *budget
}

type patternCapture struct{ init, len int }

// matcher is one matching of pat against src.
type matcher struct {
	L       *lua.LState
	b       *budget
	src     string
	pat     string
	level   int
	capture [maxCaptures]patternCapture
	depth   int
	steps   int
}

func (p *patterns) matcher(L *lua.LState, src, pat string, what string) *matcher {
	if len(src) > p.l.MaxPattern {
		L.RaiseError("string.%s: a subject of %d bytes exceeds the mod limit of %d", what, len(src), p.l.MaxPattern)
	}
	if len(pat) > p.l.MaxPattern {
		L.RaiseError("string.%s: a pattern of %d bytes exceeds the mod limit of %d", what, len(pat), p.l.MaxPattern)
	}
	return &matcher{L: L, b: p.b, src: src, pat: pat}
}

// step counts a step of the matching and, every matchCheckPeriod steps,
// stops it if the mod's call has run out of budget.
func (ms *matcher) step() {
	ms.steps++
	if ms.steps%matchCheckPeriod != 0 {
		return
	}
	select {
	case <-ms.b.Done():
		ms.L.RaiseError("%s", ms.b.Err())
	default:
	}
}

func (ms *matcher) classEnd(p int) int {
	pat := ms.pat
	c := pat[p]
	p++
	switch c {
	case '%':
		if p >= len(pat) {
			ms.L.RaiseError("malformed pattern (ends with '%%')")
		}
		return p + 1
	case '[':
		if p < len(pat) && pat[p] == '^' {
			p++
		}
		for { // look for a ']'
			if p >= len(pat) {
				ms.L.RaiseError("malformed pattern (missing ']')")
			}
			c := pat[p]
			p++
			if c == '%' && p < len(pat) {
				p++ // skip escapes (e.g. '%]')
			}
			if p < len(pat) && pat[p] == ']' {
				break
			}
		}
		return p + 1
	}
	return p
}

func asciiLower(c byte) bool { return 'a' <= c && c <= 'z' }
func asciiUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
func asciiDigit(c byte) bool { return '0' <= c && c <= '9' }

func patternClass(c int, cl byte) bool {
	lower := cl
	if asciiUpper(cl) {
		lower = cl + 'a' - 'A'
	}
	var res bool
	switch lower {
	case 'a':
		res = c < 256 && (asciiLower(byte(c)) || asciiUpper(byte(c)))
	case 'c':
		res = c < 32 || c == 127
	case 'd':
		res = c < 256 && asciiDigit(byte(c))
	case 'l':
		res = c < 256 && asciiLower(byte(c))
	case 'p':
		res = (33 <= c && c <= 47) || (58 <= c && c <= 64) || (91 <= c && c <= 96) || (123 <= c && c <= 126)
	case 's':
		res = c == ' ' || ('\t' <= c && c <= '\r')
	case 'u':
		res = c < 256 && asciiUpper(byte(c))
	case 'w':
		res = c < 256 && (asciiLower(byte(c)) || asciiUpper(byte(c)) || asciiDigit(byte(c)))
	case 'x':
		res = c < 256 && (asciiDigit(byte(c)) || ('a' <= c|0x20 && c|0x20 <= 'f'))
	case 'z':
		res = c == 0
	default:
		return int(cl) == c
	}
	if asciiLower(cl) {
		return res
	}
	return !res
}

// matchBracketClass matches c against the set from p (its '[') to ec (its
// ']').
func (ms *matcher) matchBracketClass(c, p, ec int) bool {
	pat := ms.pat
	sig := true
	if pat[p+1] == '^' {
		sig = false
		p++
	}
	for p++; p < ec; p++ {
		switch {
		case pat[p] == '%':
			p++
			if patternClass(c, pat[p]) {
				return sig
			}
		case p+2 < ec && pat[p+1] == '-':
			p += 2
			if int(pat[p-2]) <= c && c <= int(pat[p]) {
				return sig
			}
		case int(pat[p]) == c:
			return sig
		}
	}
	return !sig
}

func (ms *matcher) singleMatch(c, p, ep int) bool {
	switch ms.pat[p] {
	case '.':
		return true
	case '%':
		return patternClass(c, ms.pat[p+1])
	case '[':
		return ms.matchBracketClass(c, p, ep-1)
	}
	return int(ms.pat[p]) == c
}

// match matches the pattern from p against the subject from s and returns
// where the match ends, or -1.
func (ms *matcher) match(s, p int) int {
	ms.depth++
	if ms.depth > maxMatchDepth {
		ms.L.RaiseError("pattern too complex")
	}
	r := ms.doMatch(s, p)
	ms.depth--
	return r
}

func (ms *matcher) doMatch(s, p int) int {
	src, pat := ms.src, ms.pat
	for {
		ms.step()
		if p == len(pat) {
			return s
		}
		switch pat[p] {
		case '(':
			if p+1 < len(pat) && pat[p+1] == ')' {
				return ms.startCapture(s, p+2, capPosition)
			}
			return ms.startCapture(s, p+1, capUnfinished)
		case ')':
			return ms.endCapture(s, p+1)
		case '$':
			if p+1 == len(pat) {
				if s == len(src) {
					return s
				}
				return -1
			}
		case '%':
			if p+1 < len(pat) {
				switch c := pat[p+1]; {
				case c == 'b':
					if s = ms.matchBalance(s, p+2); s == -1 {
						return -1
					}
					p += 4
					continue
				case c == 'f':
					p += 2
					if p >= len(pat) || pat[p] != '[' {
						ms.L.RaiseError("missing '[' after '%%f' in pattern")
					}
					ep := ms.classEnd(p)
					prev, cur := 0, 0
					if s > 0 {
						prev = int(src[s-1])
					}
					if s < len(src) {
						cur = int(src[s])
					}
					if ms.matchBracketClass(prev, p, ep-1) || !ms.matchBracketClass(cur, p, ep-1) {
						return -1
					}
					p = ep
					continue
				case asciiDigit(c):
					if s = ms.matchCapture(s, c); s == -1 {
						return -1
					}
					p += 2
					continue
				}
			}
		}
		// A single-character class, maybe with a repetition.
		ep := ms.classEnd(p)
		m := s < len(src) && ms.singleMatch(int(src[s]), p, ep)
		if ep < len(pat) {
			switch pat[ep] {
			case '?':
				if m {
					if r := ms.match(s+1, ep+1); r != -1 {
						return r
					}
				}
				p = ep + 1
				continue
			case '*':
				return ms.maxExpand(s, p, ep)
			case '+':
				if !m {
					return -1
				}
				return ms.maxExpand(s+1, p, ep)
			case '-':
				return ms.minExpand(s, p, ep)
			}
		}
		if !m {
			return -1
		}
		s++
		p = ep
	}
}

func (ms *matcher) matchBalance(s, p int) int {
	if p+1 >= len(ms.pat) {
		ms.L.RaiseError("unbalanced pattern")
	}
	src := ms.src
	if s >= len(src) || src[s] != ms.pat[p] {
		return -1
	}
	b, e := ms.pat[p], ms.pat[p+1]
	cont := 1
	for s++; s < len(src); s++ {
		ms.step()
		if src[s] == e {
			if cont--; cont == 0 {
				return s + 1
			}
		} else if src[s] == b {
			cont++
		}
	}
	return -1
}

func (ms *matcher) maxExpand(s, p, ep int) int {
	i := 0
	for s+i < len(ms.src) && ms.singleMatch(int(ms.src[s+i]), p, ep) {
		ms.step()
		i++
	}
	for ; i >= 0; i-- { // the longest repetition that lets the rest match
		if r := ms.match(s+i, ep+1); r != -1 {
			return r
		}
	}
	return -1
}

func (ms *matcher) minExpand(s, p, ep int) int {
	for {
		if r := ms.match(s, ep+1); r != -1 {
			return r
		}
		if s < len(ms.src) && ms.singleMatch(int(ms.src[s]), p, ep) {
			s++
		} else {
			return -1
		}
	}
}

func (ms *matcher) startCapture(s, p, what int) int {
	if ms.level >= maxCaptures {
		ms.L.RaiseError("too many captures")
	}
	ms.capture[ms.level] = patternCapture{init: s, len: what}
	ms.level++
	r := ms.match(s, p)
	if r == -1 {
		ms.level--
	}
	return r
}

func (ms *matcher) endCapture(s, p int) int {
	l := -1
	for i := ms.level - 1; i >= 0; i-- {
		if ms.capture[i].len == capUnfinished {
			l = i
			break
		}
	}
	if l < 0 {
		ms.L.RaiseError("invalid pattern capture")
	}
	ms.capture[l].len = s - ms.capture[l].init
	r := ms.match(s, p)
	if r == -1 {
		ms.capture[l].len = capUnfinished
	}
	return r
}

func (ms *matcher) matchCapture(s int, c byte) int {
	l := int(c) - '1'
	if l < 0 || l >= ms.level || ms.capture[l].len == capUnfinished {
		ms.L.RaiseError("invalid capture index")
	}
	cp := ms.capture[l]
	if cp.len < 0 || len(ms.src)-s < cp.len { // a position capture matches nothing
		return -1
	}
	if ms.src[cp.init:cp.init+cp.len] == ms.src[s:s+cp.len] {
		return s + cp.len
	}
	return -1
}

// get returns capture i of the match from s to e (the whole match for
// capture 0 of a pattern without captures).
func (ms *matcher) get(i, s, e int) lua.LValue {
	if i >= ms.level {
		if i == 0 {
			return lua.LString(ms.src[s:e])
		}
		ms.L.RaiseError("invalid capture index")
	}
	cp := ms.capture[i]
	switch cp.len {
	case capUnfinished:
		ms.L.RaiseError("unfinished capture")
	case capPosition:
		return lua.LNumber(cp.init + 1)
	}
	return lua.LString(ms.src[cp.init : cp.init+cp.len])
}

// push pushes the captures of the match from s to e (with whole, the whole
// match if the pattern has none) and returns how many it pushed.
func (ms *matcher) push(s, e int, whole bool) int {
	n := ms.level
	if n == 0 && whole {
		n = 1
	}
	for i := 0; i < n; i++ {
		ms.L.Push(ms.get(i, s, e))
	}
	return n
}

// start reads the init argument of find and match: where in src to start.
func patternInit(L *lua.LState, n int, src string) int {
	init := L.OptInt(n, 1)
	if init < 0 {
		init += len(src) + 1
	}
	init--
	if init < 0 {
		return 0
	}
	return min(init, len(src))
}

// string.find(s, pattern [, init [, plain]])
func (p *patterns) find(L *lua.LState) int {
	src, pat := L.CheckString(1), L.CheckString(2)
	ms := p.matcher(L, src, pat, "find")
	init := patternInit(L, 3, src)
	if lua.LVAsBool(L.Get(4)) || !strings.ContainsAny(pat, patternSpecials) {
		if i := strings.Index(src[init:], pat); i >= 0 {
			L.Push(lua.LNumber(init + i + 1))
			L.Push(lua.LNumber(init + i + len(pat)))
			return 2
		}
		L.Push(lua.LNil)
		return 1
	}
	return ms.find(init, true)
}

// string.match(s, pattern [, init])
func (p *patterns) match(L *lua.LState) int {
	src, pat := L.CheckString(1), L.CheckString(2)
	return p.matcher(L, src, pat, "match").find(patternInit(L, 3, src), false)
}

func (ms *matcher) find(s1 int, find bool) int {
	p := 0
	anchor := len(ms.pat) > 0 && ms.pat[0] == '^'
	if anchor {
		p = 1
	}
	for {
		ms.level = 0
		if e := ms.match(s1, p); e != -1 {
			if find {
				ms.L.Push(lua.LNumber(s1 + 1))
				ms.L.Push(lua.LNumber(e))
				return ms.push(-1, -1, false) + 2
			}
			return ms.push(s1, e, true)
		}
		if anchor || s1 >= len(ms.src) {
			break
		}
		s1++
	}
	ms.L.Push(lua.LNil)
	return 1
}

// string.gmatch(s, pattern): an iterator over the matches. As in Lua 5.1,
// a leading '^' is no anchor here.
func (p *patterns) gmatch(L *lua.LState) int {
	src, pat := L.CheckString(1), L.CheckString(2)
	p.matcher(L, src, pat, "gmatch") // checks the sizes
	pos := 0
	L.Push(L.NewFunction(func(L *lua.LState) int {
		ms := p.matcher(L, src, pat, "gmatch")
		for s := pos; s <= len(src); s++ {
			ms.level = 0
			if e := ms.match(s, 0); e != -1 {
				pos = e
				if e == s {
					pos++ // an empty match: go on at the next position
				}
				return ms.push(s, e, true)
			}
		}
		pos = len(src) + 1
		return 0
	}))
	return 1
}

// string.gsub(s, pattern, repl [, n])
func (p *patterns) gsub(L *lua.LState) int {
	src, pat := L.CheckString(1), L.CheckString(2)
	repl := L.Get(3)
	switch repl.Type() {
	case lua.LTNumber, lua.LTString, lua.LTFunction, lua.LTTable:
	default:
		L.ArgError(3, "string/function/table expected")
	}
	maxN := L.OptInt(4, len(src)+1)
	ms := p.matcher(L, src, pat, "gsub")
	pi := 0
	anchor := len(pat) > 0 && pat[0] == '^'
	if anchor {
		pi = 1
	}
	out := &gsubBuffer{L: L, max: p.l.MaxString}
	s, n := 0, 0
	for n < maxN {
		ms.level = 0
		e := ms.match(s, pi)
		if e != -1 {
			n++
			ms.addValue(out, s, e, repl)
		}
		switch {
		case e != -1 && e > s: // a non-empty match: go on after it
			s = e
		case s < len(src):
			out.add(src[s : s+1])
			s++
		default:
			s = len(src) + 1
		}
		if s > len(src) || anchor {
			break
		}
	}
	if s < len(src) {
		out.add(src[s:])
	}
	L.Push(lua.LString(out.buf.String()))
	L.Push(lua.LNumber(n))
	return 2
}

// gsubBuffer is gsub's result, kept within the mod's string limit.
type gsubBuffer struct {
	L   *lua.LState
	buf strings.Builder
	max int
}

func (b *gsubBuffer) add(s string) {
	if b.buf.Len()+len(s) > b.max {
		b.L.RaiseError("string.gsub: the result exceeds the mod limit of %d bytes", b.max)
	}
	b.buf.WriteString(s)
}

func (ms *matcher) addValue(out *gsubBuffer, s, e int, repl lua.LValue) {
	L := ms.L
	var v lua.LValue
	switch r := repl.(type) {
	case lua.LString, lua.LNumber:
		news := lua.LVAsString(r)
		for {
			ms.step()
			i := strings.IndexByte(news, '%')
			if i < 0 || i+1 == len(news) {
				out.add(news)
				return
			}
			out.add(news[:i])
			switch c := news[i+1]; {
			case !asciiDigit(c):
				out.add(news[i+1 : i+2])
			case c == '0':
				out.add(ms.src[s:e])
			default:
				out.add(lua.LVAsString(ms.get(int(c-'1'), s, e)))
			}
			news = news[i+2:]
		}
	case *lua.LFunction:
		L.Push(r)
		n := ms.push(s, e, true)
		L.Call(n, 1)
		v = L.Get(-1)
		L.Pop(1)
	case *lua.LTable:
		v = L.GetTable(r, ms.get(0, s, e))
	}
	switch v.(type) {
	case lua.LString, lua.LNumber:
		out.add(lua.LVAsString(v))
	default:
		if lua.LVAsBool(v) {
			L.RaiseError("invalid replacement value (a %s)", v.Type().String())
		}
		out.add(ms.src[s:e]) // nil or false: keep the match
	}
}
