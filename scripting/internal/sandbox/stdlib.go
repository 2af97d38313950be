package sandbox

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"
	"github.com/mod2048/mod2048/scripting/internal/workcount"
)

// The standard libraries of a sandbox are built from a template that the
// process reads once from gopher-lua's own: for every library, its fields
// sorted by name. gopher-lua's Open functions fill a library from a Go map,
// in Go's random map order, and pairs visits a table's keys in the order
// they were set: with them, `for k in pairs(math)` would visit the
// functions in a different order in every process, and a mod that relied
// on it would not replay. Built from the template, the order is the same
// everywhere, and a new state does no map iteration and no rehashing.

// stdlib is one library: "_G" (the base library, in the globals table),
// "math", "string" or "table".
type stdlib struct {
	name   string
	fields []stdField
}

// stdField is one field of a library: a Go function (with Go functions as
// its upvalues), the library table itself (string.__index, _G._G), another
// library (the globals' math), or a plain value.
//
// A function is one object that every sandbox shares (fn): a Go function
// of these libraries keeps no state in its object, and no sandbox can
// change one (getfenv and setfenv, which read and write a function's
// environment, are removed; a Go function reads none). A new sandbox
// makes none of them: a hundred objects fewer for every new game.
type stdField struct {
	name  string
	fn    *lua.LFunction
	self  bool
	lib   string
	value lua.LValue
}

// removed are the fields no sandbox has: they reach files, the collector,
// environments, bytecode or an unseeded random source (print is the
// sandbox's own, added after).
var removed = map[string]bool{
	"_G.dofile": true, "_G.loadfile": true, "_G.load": true, "_G.loadstring": true,
	"_G.require": true, "_G.module": true, "_G.collectgarbage": true,
	"_G.getfenv": true, "_G.setfenv": true, "_G.newproxy": true, "_G._printregs": true,
	"_G.print": true, "string.dump": true, "math.random": true, "math.randomseed": true,
}

// stdlibs reads the template from a state with gopher-lua's libraries.
var stdlibs = sync.OnceValue(func() []stdlib {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	for _, open := range []lua.LGFunction{lua.OpenBase, lua.OpenTable, lua.OpenString, lua.OpenMath} {
		workcount.Step()
		L.Push(L.NewFunction(open))
		L.Call(0, 0)
	}
	tables := map[*lua.LTable]string{L.G.Global: "_G"}
	names := []string{"_G", lua.TabLibName, lua.StringLibName, lua.MathLibName}
	for _, name := range names[1:] {
		workcount.Step()
		tables[L.GetGlobal(name).(*lua.LTable)] = name
	}
	libs := make([]stdlib, 0, len(names))
	for _, name := range names {
		workcount.Step()
		var t *lua.LTable
		if name == "_G" {
			t = L.G.Global
		} else {
			t = L.GetGlobal(name).(*lua.LTable)
		}
		lib := stdlib{name: name}
		t.ForEach(func(k, v lua.LValue) {
			key := string(k.(lua.LString))
			if removed[name+"."+key] {
				return
			}
			f := stdField{name: key}
			switch v := v.(type) {
			case *lua.LFunction:
				if !v.IsG {
					panic("stdlib: " + name + "." + key + " is a Lua function")
				}
				for _, up := range v.Upvalues {
					workcount.Step()
					u, ok := up.Value().(*lua.LFunction)
					if !ok || !u.IsG || len(u.Upvalues) > 0 {
						panic("stdlib: an upvalue of " + name + "." + key + " is not a Go function")
					}
				}
				f.fn = v
			case *lua.LTable:
				other, ok := tables[v]
				if !ok {
					panic("stdlib: " + name + "." + key + " is a table of no library")
				}
				f.self, f.lib = other == name, other
			case lua.LNumber, lua.LString, lua.LBool:
				f.value = v
			default:
				panic(fmt.Sprintf("stdlib: %s.%s is a %s", name, key, v.Type()))
			}
			lib.fields = append(lib.fields, f)
		})
		slices.SortFunc(lib.fields, func(a, b stdField) int { return strings.Compare(a.name, b.name) })
		libs = append(libs, lib)
	}
	return libs
})

// stdTables are the libraries of a sandbox as tables, in stdlibs' order:
// the template's fields in its order, then the sandbox's own functions
// (sandboxFuncs) set over them, and the strings' metatable protected. A
// field that holds a library holds false here: openStdlibs puts the
// sandbox's own library in its place.
var stdTables = sync.OnceValue(func() []*lua.LTable {
	libs := stdlibs()
	tables := make([]*lua.LTable, len(libs))
	index := map[string]*lua.LTable{}
	for i, lib := range libs {
		workcount.Step()
		t := &lua.LTable{Metatable: lua.LNil}
		for _, f := range lib.fields {
			workcount.Step()
			switch {
			case f.fn != nil:
				t.RawSetString(f.name, f.fn)
			case f.lib != "":
				t.RawSetString(f.name, lua.LFalse)
			default:
				t.RawSetString(f.name, f.value)
			}
		}
		tables[i] = t
		index[lib.name] = t
	}
	for _, f := range sandboxFuncs {
		workcount.Step()
		fn := f.fn
		if f.check != nil {
			fn = wrapped(stdFunction(f.lib, f.name), f.check)
		}
		index[f.lib].RawSetString(f.name, SharedFunction(fn))
	}
	// The string metatable is shared by every string of the state: hide
	// it. It is the string library's table itself, so a mod can still
	// change its own string functions and methods, in its own state only.
	index[lua.StringLibName].RawSetString("__metatable", lua.LString("the string metatable is protected"))
	for _, t := range tables {
		workcount.Step()
		t.Compact()
		// The functions are every sandbox's: no walk of a sandbox's
		// values visits them (the tables are copied for each).
		t.ForEachHeld(func(v lua.LValue) {
			if fn, ok := v.(*lua.LFunction); ok {
				fn.MarkShared()
			}
		})
	}
	return tables
})

// stdFunction returns gopher-lua's function name of library lib, as the
// template has it.
func stdFunction(lib, name string) *lua.LFunction {
	for _, l := range stdlibs() {
		workcount.Step()
		if l.name != lib {
			continue
		}
		for _, f := range l.fields {
			workcount.Step()
			if f.name == name && f.fn != nil {
				return f.fn
			}
		}
	}
	panic("stdlib: no function " + lib + "." + name)
}

// stdPcall and stdXpcall are gopher-lua's pcall and xpcall, which the
// sandbox's own call.
var (
	stdPcall  = sync.OnceValue(func() *lua.LFunction { return stdFunction("_G", "pcall") })
	stdXpcall = sync.OnceValue(func() *lua.LFunction { return stdFunction("_G", "xpcall") })
)

// openStdlibs gives L the libraries of the template: the base library as
// its globals, the others as tables, and the string library as the
// strings' metatable, as gopher-lua's OpenString does. Each is a copy of
// its table in stdTables (LTable.Clone).
func openStdlibs(L *lua.LState) {
	libs := stdlibs()
	tables := make(map[string]*lua.LTable, len(libs))
	for i, t := range stdTables() {
		workcount.Step()
		tables[libs[i].name] = t.Clone()
	}
	L.G.Global = tables["_G"]
	L.Env = L.G.Global
	for _, lib := range libs {
		workcount.Step()
		t := tables[lib.name]
		for _, f := range lib.fields {
			workcount.Step()
			if f.lib != "" {
				t.RawSetString(f.name, tables[f.lib])
			}
		}
	}
	L.SetMetatable(lua.LString(""), tables[lua.StringLibName])
}

// meterStdlibs makes the state's copies of the library tables count on
// its meter, as the tables it makes do: a long key looked up in _G or in
// string is work too.
func meterStdlibs(L *lua.LState) {
	for _, t := range []lua.LValue{L.G.Global, L.GetMetaField(lua.LString(""), "__index")} {
		workcount.Step()
		t, ok := t.(*lua.LTable)
		if !ok {
			continue
		}
		t.SetMeter(L.Meter)
		t.ForEach(func(_, v lua.LValue) {
			if lib, ok := v.(*lua.LTable); ok {
				lib.SetMeter(L.Meter)
			}
		})
	}
}

// SharedFunction makes a Go function that every sandbox shares. Its
// environment is a table of its own, which nothing reads: a Go function
// looks up no globals, and no sandbox has getfenv.
//
// It is marked shared (lua.LFunction.MarkShared): no walk of a sandbox's
// values visits it, so that walks of different sandboxes, which may run
// at once, never write to it.
func SharedFunction(fn lua.LGFunction) *lua.LFunction {
	f := &lua.LFunction{IsG: true, Env: &lua.LTable{Metatable: lua.LNil}, GFunction: fn, Upvalues: []*lua.Upvalue{}}
	f.MarkShared()
	return f
}
