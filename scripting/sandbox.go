package scripting

import (
	"math/bits"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// newSandbox makes the Lua state of one mod: only the base, table, string
// and math libraries, trimmed and capped as MODDING.md says, with print
// going to log. The builtins that loop charge b for their work, an
// instruction for each element, step or value and for every
// bytesPerInstruction bytes they copy, so that the budget counts them as
// it counts the VM's instructions.
func newSandbox(l Limits, b *budget, log *logBuffer) *lua.LState {
	L := lua.NewState(lua.Options{
		SkipOpenLibs:        true,
		CallStackSize:       l.CallStack,
		RegistrySize:        256,
		RegistryMaxSize:     l.Registry,
		RegistryGrowStep:    256,
		MinimizeStackMemory: true,
	})
	openStdlibs(L)
	g := L.G.Global
	str := L.GetGlobal("string").(*lua.LTable)
	tbl := L.GetGlobal("table").(*lua.LTable)

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
			size := float64(n)*float64(len(s)) + float64(n-1)*float64(len(sep))
			if size > float64(l.MaxString) {
				L.RaiseError("string.rep: %.0f bytes exceed the mod limit of %d", size, l.MaxString)
			}
			b.spend(L, 1+n/bytesPerInstruction+int(size)/bytesPerInstruction)
		}
	})
	for _, name := range []string{"upper", "lower", "reverse"} {
		name := name
		wrap(str, name, func(L *lua.LState) {
			n := len(L.CheckString(1))
			capString(n, "string."+name)
			b.spend(L, n/bytesPerInstruction)
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
		b.spend(L, max(min(j, n)-max(i, 1)+1, 0))
	})
	// tostring and string.format name tables, functions and userdata
	// without their addresses (format.go).
	names := newNames()
	f := &formatter{l: l, b: b, names: names}
	str.RawSetString("format", L.NewFunction(f.format))
	g.RawSetString("tostring", L.NewFunction(func(L *lua.LState) int {
		L.Push(names.tostring(L, L.CheckAny(1)))
		return 1
	}))
	// An error that pcall catches, or that xpcall's handler sees, may be a
	// message gopher-lua wrote with an address: replace it. A caught error
	// is charged errorCost: raising it built a traceback of the call stack.
	pcall := g.RawGetString("pcall").(*lua.LFunction)
	g.RawSetString("pcall", L.NewFunction(func(L *lua.LState) int {
		top := L.GetTop()
		L.Push(pcall)
		for i := 1; i <= top; i++ {
			L.Push(L.Get(i))
		}
		L.Call(top, lua.MultRet)
		if L.GetTop() >= top+2 && L.Get(top+1) == lua.LFalse {
			b.spend(L, errorCost)
			if s, ok := L.Get(top + 2).(lua.LString); ok {
				L.Replace(top+2, lua.LString(scrub(string(s))))
			}
		}
		return L.GetTop() - top
	}))
	xpcall := g.RawGetString("xpcall").(*lua.LFunction)
	g.RawSetString("xpcall", L.NewFunction(func(L *lua.LState) int {
		fn := L.CheckFunction(1)
		handler := L.CheckFunction(2)
		L.Push(xpcall)
		L.Push(fn)
		L.Push(L.NewFunction(func(L *lua.LState) int {
			b.spend(L, errorCost)
			msg := L.Get(1)
			if s, ok := msg.(lua.LString); ok {
				msg = lua.LString(scrub(string(s)))
			}
			L.Push(handler)
			L.Push(msg)
			L.Call(1, 1)
			return 1
		}))
		top := L.GetTop() - 3
		L.Call(2, lua.MultRet)
		return L.GetTop() - top
	}))
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
		b.spend(L, max(j-i+1, 0)+n/bytesPerInstruction)
	})
	// table.sort runs in Go: it is charged n·log2(n) comparisons up front.
	// With a comparator each comparison is also a Lua call, which counts
	// its own instructions.
	wrap(tbl, "sort", func(L *lua.LState) {
		n := L.CheckTable(1).Len()
		capItems(1, n, "table.sort")
		b.spend(L, n*bits.Len(uint(n)))
	})
	// insert and remove at a position move the elements after it.
	for _, name := range []string{"insert", "remove"} {
		wrap(tbl, name, func(L *lua.LState) {
			t := L.CheckTable(1)
			n := t.Len()
			if L.GetTop() >= 2 && (name == "remove" || L.GetTop() >= 3) {
				b.spend(L, max(n-L.CheckInt(2), 0))
			}
			b.spend(L, n/bytesPerInstruction) // Len scans from the end
		})
	}
	wrap(g, "unpack", func(L *lua.LState) {
		t := L.CheckTable(1)
		i := L.OptInt(2, 1)
		j := L.OptInt(3, t.Len())
		capItems(i, j, "unpack")
		b.spend(L, max(j-i+1, 0))
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
			b.spend(L, 1+len(parts[i])/bytesPerInstruction)
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
