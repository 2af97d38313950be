package scripting

import (
	"maps"
	"reflect"
	"slices"
	"sync"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// A new sandbox needs the same few hundred table entries every time: the
// standard libraries' and the game table's. Set one by one, each entry costs
// gopher-lua three map writes and an allocation, and a new game spent a
// quarter of its time there. cloneTable copies a template table whole
// instead: its maps and its key list are copied in one piece each.
//
// gopher-lua gives no way to copy a table but entry by entry, so cloneTable
// reads the table's fields through luaTable, which mirrors gopher-lua's
// LTable. It does so only if the mirror matches the LTable it was compiled
// with, field for field (names, types and offsets: tableMirrorOK); with
// another version of gopher-lua it sets the entries one by one, which makes
// the same table, slower. TestCloneTable holds the two ways to the same
// table, and fails if the mirror no longer matches.

// luaTable is gopher-lua's LTable (value.go), field for field.
type luaTable struct {
	Metatable lua.LValue
	array     []lua.LValue
	dict      map[lua.LValue]lua.LValue
	strdict   map[string]lua.LValue
	keys      []lua.LValue
	k2i       map[lua.LValue]int
}

// tableMirrorOK says whether luaTable matches lua.LTable.
var tableMirrorOK = sync.OnceValue(func() bool {
	return sameLayout(reflect.TypeFor[lua.LTable](), reflect.TypeFor[luaTable]())
})

func sameLayout(a, b reflect.Type) bool {
	if a.Size() != b.Size() || a.NumField() != b.NumField() {
		return false
	}
	for i := range a.NumField() {
		fa, fb := a.Field(i), b.Field(i)
		if fa.Name != fb.Name || fa.Type != fb.Type || fa.Offset != fb.Offset {
			return false
		}
	}
	return true
}

// cloneTable returns a new table with t's entries, which visits them in
// t's order, as if they had been set one by one in that order. t's
// metatable is not copied: the new table has none.
func cloneTable(t *lua.LTable) *lua.LTable {
	if !tableMirrorOK() {
		return cloneBySetting(t)
	}
	out := &lua.LTable{Metatable: lua.LNil}
	src, dst := (*luaTable)(unsafe.Pointer(t)), (*luaTable)(unsafe.Pointer(out))
	dst.array = slices.Clone(src.array)
	dst.dict = maps.Clone(src.dict)
	dst.strdict = maps.Clone(src.strdict)
	dst.keys = slices.Clone(src.keys)
	dst.k2i = maps.Clone(src.k2i)
	return out
}

// cloneBySetting is cloneTable for another gopher-lua: it sets t's entries
// one by one, in t's order.
func cloneBySetting(t *lua.LTable) *lua.LTable {
	out := &lua.LTable{Metatable: lua.LNil}
	for k, v := t.Next(lua.LNil); k != lua.LNil; k, v = t.Next(k) {
		out.RawSet(k, v)
	}
	return out
}

// compactTable remakes t's maps with room for their entries and no more,
// so that its copies are as small as they can be (a map that grew as its
// entries were set has up to twice the room it needs). t keeps its
// entries and their order.
func compactTable(t *lua.LTable) {
	if !tableMirrorOK() {
		return
	}
	tb := (*luaTable)(unsafe.Pointer(t))
	tb.strdict = compactMap(tb.strdict)
	tb.dict = compactMap(tb.dict)
	tb.k2i = compactMap(tb.k2i)
	tb.keys = slices.Clip(tb.keys)
}

// compactMap returns a copy of m made for its size; nil stays nil.
func compactMap[K comparable, V any](m map[K]V) map[K]V {
	if m == nil {
		return nil
	}
	out := make(map[K]V, len(m))
	maps.Copy(out, m)
	return out
}
