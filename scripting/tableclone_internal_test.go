package scripting

import (
	"fmt"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// pairsOf lists t's entries in the order pairs visits them.
func pairsOf(t *lua.LTable) string {
	out := ""
	for k, v := t.Next(lua.LNil); k != lua.LNil; k, v = t.Next(k) {
		out += fmt.Sprintf("%v=%v ", k, v)
	}
	return out
}

// TestCloneTable: a copy made by cloneTable is the table its entries would
// make if set one by one: pairs visits the same entries in the same order,
// before and after the same changes, and the copy's changes leave the
// template as it was. It fails if gopher-lua's LTable no longer matches
// luaTable, so that an upgrade of gopher-lua does not quietly lose the
// fast copy.
func TestCloneTable(t *testing.T) {
	if !tableMirrorOK() {
		t.Fatal("luaTable no longer mirrors gopher-lua's LTable: update it (tableclone.go)")
	}
	L := lua.NewState()
	defer L.Close()
	build := func() *lua.LTable {
		tb := L.CreateTable(0, 0)
		for i, k := range []string{"zeta", "alpha", "mid", "beta"} {
			tb.RawSetString(k, lua.LNumber(i))
		}
		tb.RawSetInt(1, lua.LString("one"))
		tb.RawSetInt(2, lua.LString("two"))
		tb.RawSet(lua.LTrue, lua.LString("yes"))
		tb.RawSet(lua.LNumber(2.5), lua.LString("half"))
		return tb
	}
	change := func(tb *lua.LTable) {
		tb.RawSetString("alpha", lua.LString("changed"))
		tb.RawSetString("new", lua.LTrue)
		tb.RawSetString("mid", lua.LNil)
		tb.RawSetString("after", lua.LFalse)
		tb.RawSetString("mid", lua.LNumber(9))
		tb.RawSetInt(3, lua.LString("three"))
		tb.RawSet(lua.LFalse, lua.LString("no"))
	}
	tpl := build()
	before := pairsOf(tpl)
	compacted := func(t *lua.LTable) *lua.LTable {
		c := cloneTable(t)
		compactTable(c)
		return cloneTable(c)
	}
	for _, clone := range []func(*lua.LTable) *lua.LTable{cloneTable, cloneBySetting, compacted} {
		want, got := build(), clone(tpl)
		if g, w := pairsOf(got), pairsOf(want); g != w {
			t.Fatalf("copy: %s\nwant %s", g, w)
		}
		change(want)
		change(got)
		if g, w := pairsOf(got), pairsOf(want); g != w {
			t.Fatalf("copy after changes: %s\nwant %s", g, w)
		}
		if g := pairsOf(tpl); g != before {
			t.Fatalf("the template changed with its copy: %s\nwas %s", g, before)
		}
	}
}
