package scripting

import (
	lua "github.com/yuin/gopher-lua"

	"github.com/mod2048/mod2048/engine"
)

// game.cells{cell = PATTERN, marked = BOOL, hazard = NAME, without = NAME}
// (API version 2): the cells that pass every filter given, as cell numbers
// (row * game.width + col) in reading order. It asks of the whole board in
// one call what a scan of game.cell and game.marks asks of each cell, and
// makes one table of numbers where the scan makes a table for every mark
// it reads: a query in the manner of Factorio's find_entities_filtered.
//   - cell: the cell's text (game.cell's value; a classic number as its
//     digits) matches this Lua pattern, as string.find would find it;
//   - marked: true, the cell carries a mark (any mod's); false, none;
//   - hazard: the cell carries a mark of this mod's hazard NAME;
//   - without: the cell carries no mark of this mod's hazard NAME.
//
// It is charged an instruction for every cell and every mark, and the
// pattern's steps as string.find charges them.
func (m *modRun) luaCells(L *lua.LState) int {
	spec, ok := L.Get(1).(*lua.LTable)
	if !ok || L.GetTop() != 1 {
		L.RaiseError("game.cells: want one table of filters {cell =, marked =, hazard =, without =}, got %s", describe(L.Get(1)))
	}
	bad := ""
	spec.ForEach(func(k, _ lua.LValue) {
		if s, ok := k.(lua.LString); bad == "" && (!ok || !contains(cellsKeys, string(s))) {
			bad = describe(k)
		}
	})
	if bad != "" {
		L.RaiseError("game.cells: unknown key %s (allowed: cell, marked, hazard, without)", bad)
	}
	pattern, hasPattern := "", false
	switch v := spec.RawGetString("cell"); v := v.(type) {
	case *lua.LNilType:
	case lua.LString:
		pattern, hasPattern = string(v), true
	default:
		L.RaiseError("game.cells: cell: want a pattern string, got %s", describe(v))
	}
	marked := spec.RawGetString("marked")
	if marked != lua.LNil && marked.Type() != lua.LTBool {
		L.RaiseError("game.cells: marked: want true or false, got %s", describe(marked))
	}
	hazard := func(key string) string {
		v := spec.RawGetString(key)
		if v == lua.LNil {
			return ""
		}
		hz, err := m.ownHazard(v)
		if err != nil {
			L.RaiseError("game.cells: %s: %v", key, err)
		}
		return hz.Name
	}
	with, without := hazard("hazard"), hazard("without")

	s := m.state()
	b := &s.Board
	n := b.Width * b.Height
	m.budget.spend(L, n+len(s.Marks))
	// flags[i]: bit 1 any mark, 2 a mark of with, 4 a mark of without.
	if cap(m.cellFlags) < n {
		m.cellFlags = make([]uint8, n)
	}
	flags := m.cellFlags[:n]
	clear(flags)
	for _, mk := range s.Marks {
		i := mk.Pos.Row*b.Width + mk.Pos.Col
		if i < 0 || i >= n {
			continue
		}
		flags[i] |= 1
		if mk.Name == with {
			flags[i] |= 2
		}
		if mk.Name == without {
			flags[i] |= 4
		}
	}
	var out []int
	for i := range n {
		f := flags[i]
		switch {
		case marked == lua.LTrue && f&1 == 0, marked == lua.LFalse && f&1 != 0,
			with != "" && f&2 == 0, without != "" && f&4 != 0:
			continue
		}
		if hasPattern && !m.pat.contains(L, m.host.cellString(b.Cells[i]), pattern) {
			continue
		}
		out = append(out, i)
	}
	t := L.CreateTable(len(out), 0)
	for _, i := range out {
		t.Append(number(i))
	}
	L.Push(t)
	return 1
}

// cellsKeys are the filters of game.cells.
var cellsKeys = []string{"cell", "marked", "hazard", "without"}

// cellString is a cell's text as game.cells matches it, made once per
// cell.
func (h *Host) cellString(c engine.Cell) string {
	if s, ok := h.texts[c]; ok {
		return s
	}
	return h.texts.keep(c, h.rules.FormatCell(c))
}
