package sandbox

import (
	"math/bits"
	"strings"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"
	"github.com/mod2048/mod2048/scripting/internal/workcount"
)

// New makes the Lua state of one mod: only the base, table, string
// and math libraries, trimmed and capped as MODDING.md says, with print
// going to log. The builtins that loop charge b for their work, an
// instruction for each element, step or value and for every
// BytesPerInstruction bytes they copy, so that the Budget counts them as
// it counts the VM's instructions.
//
// The libraries are copies of stdTables, which hold the sandbox's own
// functions (sandboxFuncs) as well as gopher-lua's: every function is one
// object that all sandboxes share, and finds the sandbox it runs in
// through the state's context, b (Of).
func New(l Limits, b *Budget, log *Log) *lua.LState {
	L := lua.NewState(lua.Options{
		SkipOpenLibs:        true,
		CallStackSize:       l.CallStack,
		RegistrySize:        256,
		RegistryMaxSize:     l.Registry,
		RegistryGrowStep:    256,
		MinimizeStackMemory: true,
	})
	b.box = &Box{l: l, b: b, log: log}
	b.box.names.ids = &nameIDs{m: map[any]uint64{}}
	b.box.f = formatter{l: l, b: b, names: &b.box.names}
	openStdlibs(L)
	L.Meter = &b.meter
	L.Patterns = lua.PatternLimits{Subject: l.MaxPattern, Result: l.MaxString}
	b.box.names.meter = L.Meter
	meterStdlibs(L)
	L.SetContext(b)
	return L
}

// Box is what a sandbox's own functions read, and what the host keeps
// for it (Host).
type Box struct {
	l     Limits
	b     *Budget
	log   *Log
	names names     // tostring's and string.format's names for tables and functions (format.go)
	f     formatter // string.format
	Host  any       // what the host keeps for the state (its mod), for its functions; nil in some tests
}

// Of returns the sandbox L is.
func Of(L *lua.LState) *Box { return L.Context().(*Budget).box }

// capString raises an error when n bytes exceed the mod limit.
func (s *Box) capString(L *lua.LState, n int, what string) {
	if n > s.l.MaxString {
		L.RaiseError("%s: %d bytes exceed the mod limit of %d", what, n, s.l.MaxString)
	}
}

// capItems raises an error when first..last are more items than the mod
// limit.
func (s *Box) capItems(L *lua.LState, first, last int, what string) {
	// In floating point: last-first+1 overflows int for extreme bounds.
	if n := float64(last) - float64(first) + 1; n > float64(s.l.MaxItems) {
		L.RaiseError("%s: %.0f %s exceed the mod limit of %d", what, n, itemWord(what), s.l.MaxItems)
	}
}

// sandboxField is one of the sandbox's own functions: in library lib (as
// stdlibs names them), under name. check, if set, wraps gopher-lua's
// function of that name: it runs first, then gopher-lua's; fn replaces it.
type sandboxField struct {
	lib, name string
	check     func(L *lua.LState, s *Box)
	fn        lua.LGFunction
}

// sandboxFuncs are the sandbox's own functions, in the order they are set
// over the template's (a new name goes at the end of its library).
var sandboxFuncs = []sandboxField{
	{lib: lua.StringLibName, name: "rep", check: func(L *lua.LState, s *Box) {
		str := L.CheckString(1)
		n := L.CheckInt(2)
		sep := L.OptString(3, "")
		if n > 0 {
			size := float64(n)*float64(len(str)) + float64(n-1)*float64(len(sep))
			if size > float64(s.l.MaxString) {
				L.RaiseError("string.rep: %.0f bytes exceed the mod limit of %d", size, s.l.MaxString)
			}
			s.b.Spend(L, 1+n/BytesPerInstruction+int(size)/BytesPerInstruction)
			if s.b.tooBig(int(size)) {
				s.b.Spend(L, 0)
			}
		}
	}},
	{lib: lua.StringLibName, name: "upper", check: caseCheck("upper")},
	{lib: lua.StringLibName, name: "lower", check: caseCheck("lower")},
	{lib: lua.StringLibName, name: "reverse", check: caseCheck("reverse")},
	{lib: lua.StringLibName, name: "byte", check: func(L *lua.LState, s *Box) {
		n := len(L.CheckString(1))
		i := L.OptInt(2, 1)
		j := L.OptInt(3, i)
		if i < 0 {
			i = n + i + 1
		}
		if j < 0 {
			j = n + j + 1
		}
		s.capItems(L, max(i, 1), min(j, n), "string.byte")
		s.b.Spend(L, max(min(j, n)-max(i, 1)+1, 0))
	}},
	// tostring and string.format name tables, functions and userdata
	// without their addresses (format.go).
	{lib: lua.StringLibName, name: "format", fn: func(L *lua.LState) int { return Of(L).f.format(L) }},
	{lib: "_G", name: "tostring", fn: func(L *lua.LState) int {
		L.Push(Of(L).names.tostring(L, L.CheckAny(1)))
		return 1
	}},
	// An error that pcall catches, or that xpcall's handler sees, may be a
	// message gopher-lua wrote with an address: replace it. A caught error
	// is charged errorCost: raising it built a traceback of the call stack.
	{lib: "_G", name: "pcall", fn: func(L *lua.LState) int {
		top := L.GetTop()
		L.Push(stdPcall())
		for i := 1; i <= top; i++ {
			workcount.Step()
			L.Push(L.Get(i))
		}
		L.Call(top, lua.MultRet)
		if L.GetTop() >= top+2 && L.Get(top+1) == lua.LFalse {
			Of(L).b.Spend(L, errorCost+messageCost(L.Get(top+2)))
			if s, ok := L.Get(top + 2).(lua.LString); ok {
				L.Replace(top+2, lua.LString(Scrub(string(s))))
			}
		}
		return L.GetTop() - top
	}},
	{lib: "_G", name: "xpcall", fn: func(L *lua.LState) int {
		fn := L.CheckFunction(1)
		handler := L.CheckFunction(2)
		L.Push(stdXpcall())
		L.Push(fn)
		L.Push(L.NewFunction(func(L *lua.LState) int {
			msg := L.Get(1)
			Of(L).b.Spend(L, errorCost+messageCost(msg))
			if s, ok := msg.(lua.LString); ok {
				msg = lua.LString(Scrub(string(s)))
			}
			L.Push(handler)
			L.Push(msg)
			L.Call(1, 1)
			return 1
		}))
		top := L.GetTop() - 3
		L.Call(2, lua.MultRet)
		return L.GetTop() - top
	}},
	// table.concat joins in Go, as gopher-lua's does, but without pushing
	// every element and separator on the stack: two values for each
	// element overflowed the stack at 32,768 elements, after work that
	// no count saw.
	{lib: lua.TabLibName, name: "concat", fn: func(L *lua.LState) int { return Of(L).concat(L) }},
	// table.sort runs in Go: it is charged n·log2(n) comparisons up front.
	// With a comparator each comparison is also a Lua call, which counts
	// its own instructions.
	{lib: lua.TabLibName, name: "sort", check: func(L *lua.LState, s *Box) {
		n := L.CheckTable(1).Len()
		s.capItems(L, 1, n, "table.sort")
		s.b.Spend(L, n*bits.Len(uint(n)))
	}},
	// insert and remove at a position move the elements after it.
	{lib: lua.TabLibName, name: "insert", check: shiftCheck("insert")},
	{lib: lua.TabLibName, name: "remove", check: shiftCheck("remove")},
	{lib: "_G", name: "unpack", check: func(L *lua.LState, s *Box) {
		t := L.CheckTable(1)
		i := L.OptInt(2, 1)
		j := L.OptInt(3, t.Len())
		s.capItems(L, i, j, "unpack")
		s.b.Spend(L, max(j-i+1, 0))
	}},
	// rawequal compares two strings' bytes, as == does.
	{lib: "_G", name: "rawequal", check: func(L *lua.LState, s *Box) {
		a, aok := L.Get(1).(lua.LString)
		b, bok := L.Get(2).(lua.LString)
		if aok && bok && len(a) == len(b) {
			L.Meter.Scanned(len(a))
		}
	}},
	{lib: "_G", name: "setmetatable", check: func(L *lua.LState, s *Box) {
		L.CheckTable(1)
	}},
	// Only the start of a line is kept: print does not copy a huge string.
	{lib: "_G", name: "print", fn: func(L *lua.LState) int {
		s := Of(L)
		LogArgs(L, s.b, s.log, maxLogLine)
		return 0
	}},
}

// concat is table.concat(t [, sep [, i [, j]]]): the elements i to j of
// t, strings or numbers, joined by sep (gopher-lua's bounds: i and j are
// kept within the list, and i past it with three arguments is ""). It is
// charged an instruction for each element and for every
// BytesPerInstruction bytes it joins, and refuses more than MaxItems
// elements or MaxString bytes before it copies a byte.
func (s *Box) concat(L *lua.LState) int {
	t := L.CheckTable(1)
	sep := L.OptString(2, "")
	n := t.Len()
	i := L.OptInt(3, 1)
	j := L.OptInt(4, n)
	s.capItems(L, i, j, "table.concat")
	if L.GetTop() == 3 && (i > n || i < 1) {
		L.Push(lua.LString(""))
		return 1
	}
	i, j = max(min(i, n), 1), min(j, n)
	if i > j {
		L.Push(lua.LString(""))
		return 1
	}
	parts := make([]string, 0, j-i+1)
	size := 0
	for k := i; k <= j; k++ {
		workcount.Step()
		switch v := t.RawGetInt(k).(type) {
		case lua.LString:
			parts = append(parts, string(v))
		case lua.LNumber:
			parts = append(parts, v.String())
		default:
			L.RaiseError("invalid value (%s) at index %d in table for concat", v.Type().String(), k)
		}
		size += len(parts[len(parts)-1])
		if k < j {
			size += len(sep)
		}
		s.capString(L, size, "table.concat")
	}
	s.b.Spend(L, j-i+1+size/BytesPerInstruction)
	if s.b.tooBig(size) {
		s.b.Spend(L, 0)
	}
	L.Push(lua.LString(strings.Join(parts, sep)))
	return 1
}

// messageCost is what catching an error costs besides errorCost: an
// instruction for every messageBytes bytes of its message, a string
// (raising it copied it with its position in front, catching it scrubs
// it), so that error(s) under pcall costs what it copies.
func messageCost(msg lua.LValue) int {
	if s, ok := msg.(lua.LString); ok {
		return len(s) / messageBytes
	}
	return 0
}

// messageBytes are the bytes of a caught message an instruction pays for:
// raising a message formats it and writes its position in front, two
// copies, and catching it reads it for addresses, and each copy is a
// fresh block for the collector (the cost search found error(s) of
// 16 MiB under pcall at six times an instruction's time when charged as
// one copy).
const messageBytes = 16

// LogArgs writes the call's arguments to log, tab-separated, each cut to
// cut bytes (0: whole), and charges b for them: print and game.log.
func LogArgs(L *lua.LState, b *Budget, log *Log, cut int) {
	parts := make([]string, L.GetTop())
	for i := range parts {
		workcount.Step()
		if parts[i] = SafeString(L.Get(i + 1)); cut > 0 && len(parts[i]) > cut {
			parts[i] = parts[i][:cut]
		}
		b.Spend(L, 1+len(parts[i])/BytesPerInstruction)
	}
	log.Println(strings.Join(parts, "\t"))
}

// caseCheck is string.upper's, lower's and reverse's check.
func caseCheck(name string) func(L *lua.LState, s *Box) {
	return func(L *lua.LState, s *Box) {
		n := len(L.CheckString(1))
		s.capString(L, n, "string."+name)
		s.b.Spend(L, n/BytesPerInstruction)
	}
}

// shiftCheck is table.insert's and table.remove's check.
func shiftCheck(name string) func(L *lua.LState, s *Box) {
	return func(L *lua.LState, s *Box) {
		t := L.CheckTable(1)
		n := t.Len()
		if L.GetTop() >= 2 && (name == "remove" || L.GetTop() >= 3) {
			s.b.Spend(L, max(n-L.CheckInt(2), 0))
		}
		s.b.Spend(L, n/BytesPerInstruction) // Len scans from the end
	}
}

// wrapped returns a function that runs check, then orig with the same
// arguments.
func wrapped(orig *lua.LFunction, check func(L *lua.LState, s *Box)) lua.LGFunction {
	return func(L *lua.LState) int {
		check(L, Of(L))
		top := L.GetTop()
		L.Push(orig)
		for i := 1; i <= top; i++ {
			workcount.Step()
			L.Push(L.Get(i))
		}
		L.Call(top, lua.MultRet)
		return L.GetTop() - top
	}
}

// errorCost is what an error caught by pcall or xpcall is charged: raising
// it wrote a traceback of up to Limits.CallStack frames, which takes about
// as long as this many instructions.
const errorCost = 1000

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

// SafeString writes a Lua value for a log or an error without running any
// of its metamethods (a __tostring that errors must not hide the error).
func SafeString(v lua.LValue) string {
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

// LogArgs writes L's arguments to the sandbox's log as print does (cut, if
// above 0, cuts each to as many bytes), charging the Budget for them.
func (s *Box) LogArgs(L *lua.LState, cut int) { LogArgs(L, s.b, s.log, cut) }

// SetHost sets what the host keeps for the state L is (its mod), which its
// functions read through Of(L).Host.
func SetHost(L *lua.LState, host any) { Of(L).Host = host }
