package scripting

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"

	"github.com/mod2048/mod2048/engine"
)

// tickRequests checks a tick or start handler's set, mark and unmark lists
// and adds them to the event, for the engine to apply.
func (m *modRun) tickRequests(ev string, req *lua.LTable, e *engine.TickEvent) error {
	b := &e.State.Board
	list := func(key string, each func(i int, item *lua.LTable) error) error {
		v := req.RawGetString(key)
		if v == lua.LNil {
			return nil
		}
		t, ok := v.(*lua.LTable)
		if !ok {
			return m.invalid(ev, "%s: want a list of tables, got %s", key, describe(v))
		}
		n := t.Len()
		if n > len(b.Cells)*4 {
			return m.invalid(ev, "%s: %d entries, more than a turn may ask for", key, n)
		}
		for i := 1; i <= n; i++ {
			item, ok := t.RawGetInt(i).(*lua.LTable)
			if !ok {
				return m.invalid(ev, "%s[%d]: want a table, got %s", key, i, describe(t.RawGetInt(i)))
			}
			if err := each(i, item); err != nil {
				return err
			}
		}
		return nil
	}
	if err := list("set", func(i int, item *lua.LTable) error {
		if err := m.keys(item, ev, fmt.Sprintf("set[%d]", i), "row", "col", "cell"); err != nil {
			return err
		}
		ed, field, err := m.checkSet(b, item.RawGetString("row"), item.RawGetString("col"), item.RawGetString("cell"))
		if err != nil {
			return m.invalid(ev, "set[%d].%s: %v", i, field, err)
		}
		e.Edits = append(e.Edits, ed)
		return nil
	}); err != nil {
		return err
	}
	for _, key := range []string{"mark", "unmark"} {
		remove := key == "unmark"
		if err := list(key, func(i int, item *lua.LTable) error {
			allowed := tickEntries[key]
			if err := m.keys(item, ev, fmt.Sprintf("%s[%d]", key, i), allowed...); err != nil {
				return err
			}
			turns, count := lua.LValue(lua.LNil), lua.LValue(lua.LNil)
			if !remove {
				turns, count = item.RawGetString("turns"), item.RawGetString("count")
			}
			me, field, err := m.checkMark(b, item.RawGetString("row"), item.RawGetString("col"), item.RawGetString("name"), turns, count, remove)
			if err != nil {
				return m.invalid(ev, "%s[%d].%s: %v", key, i, field, err)
			}
			e.MarkEdits = append(e.MarkEdits, me)
			return nil
		}); err != nil {
			return err
		}
	}
	return nil
}

// checkPos checks a request's row and col; on an error it names the field.
func checkPos(b *engine.Board, row, col lua.LValue) (engine.Pos, string, error) {
	var p engine.Pos
	var err error
	if p.Row, err = wholeIn(row, 0, b.Height-1); err != nil {
		return p, "row", err
	}
	if p.Col, err = wholeIn(col, 0, b.Width-1); err != nil {
		return p, "col", err
	}
	return p, "", nil
}

// checkSet checks one set request (a set entry, or game.set's arguments):
// the cell (row, col) becomes cell. On an error it names the field.
func (m *modRun) checkSet(b *engine.Board, row, col, cell lua.LValue) (engine.Edit, string, error) {
	p, field, err := checkPos(b, row, col)
	if err != nil {
		return engine.Edit{}, field, err
	}
	c, err := m.host.parseCell(cell)
	if err != nil {
		return engine.Edit{}, "cell", err
	}
	return engine.Edit{Pos: p, Cell: c, By: m.mod.ID()}, "", nil
}

// checkMark checks one mark or unmark request (an entry, or game.mark's
// and game.unmark's arguments): turns and count are nil when not given
// (and always for an unmark). On an error it names the field.
func (m *modRun) checkMark(b *engine.Board, row, col, name, turns, count lua.LValue, remove bool) (engine.MarkEdit, string, error) {
	p, field, err := checkPos(b, row, col)
	if err != nil {
		return engine.MarkEdit{}, field, err
	}
	hz, err := m.ownHazard(name)
	if err != nil {
		return engine.MarkEdit{}, "name", err
	}
	t, n := 0, 0
	if turns != lua.LNil {
		if t, err = wholeIn(turns, 0, 1_000_000); err != nil {
			return engine.MarkEdit{}, "turns", err
		}
	}
	if count != lua.LNil {
		if n, err = wholeIn(count, 0, engine.MaxCount); err != nil {
			return engine.MarkEdit{}, "count", err
		}
	}
	mark := engine.Mark{Pos: p, Name: hz.Name, Turns: t, Block: hz.Blocks, Follow: hz.Follow, OnMerge: hz.OnMerge, Count: n}
	return engine.MarkEdit{Mark: mark, Remove: remove}, "", nil
}

// ownHazard returns the hazard a mark request names: "name" for the mod's
// own hazard, or its full "modid:name"; a mod marks only with its own.
func (m *modRun) ownHazard(v lua.LValue) (Hazard, error) {
	s, ok := v.(lua.LString)
	if !ok {
		return Hazard{}, fmt.Errorf("want a hazard's name, got %s", describe(v))
	}
	// A handler names the same hazard call after call (a constant of its
	// code, the same string each time): the last one found is kept.
	if m.lastOwn.ok && string(s) == m.lastOwn.name {
		return m.lastOwn.hz, nil
	}
	if hz, ok := m.own[string(s)]; ok {
		m.lastOwn.name, m.lastOwn.hz, m.lastOwn.ok = string(s), hz, true
		return hz, nil
	}
	name := string(s)
	if !strings.Contains(name, ":") {
		name = m.mod.ID() + ":" + name
	}
	hz, ok := m.host.Hazard(name)
	if !ok || hz.Mod != m.mod.ID() {
		return Hazard{}, fmt.Errorf("%q is not a hazard this mod defined", string(s))
	}
	return hz, nil
}

// request checks a handler's return: nothing, or a table with only the
// allowed keys.
func (m *modRun) request(ret lua.LValue, ev string, allowed ...string) (*lua.LTable, error) {
	if ret == lua.LNil {
		return nil, nil
	}
	t, ok := ret.(*lua.LTable)
	if !ok {
		return nil, m.invalid(ev, "a handler returns nothing or a request table, not %s", describe(ret))
	}
	return t, m.keys(t, ev, "request", allowed...)
}

// keys checks that a request table has only the allowed string keys.
func (m *modRun) keys(t *lua.LTable, ev, what string, allowed ...string) error {
	if k := badKey(t, allowed); k != lua.LNil {
		return m.invalid(ev, "%s: unknown key %s (allowed: %s)", what, describe(k), strings.Join(allowed, ", "))
	}
	return nil
}

// badKey returns the first key of t, in the order next visits them, that
// is not one of the allowed strings (nil: none is). It stops there: a
// table of a million entries handed back at every call costs the host no
// more than its first few keys (ForEach walked them all, for nothing the
// mod was charged).
func badKey(t *lua.LTable, allowed []string) lua.LValue {
	for k, _ := t.Next(lua.LNil); k != lua.LNil; k, _ = t.Next(k) {
		if s, ok := k.(lua.LString); !ok || !slices.Contains(allowed, string(s)) {
			return k
		}
	}
	return lua.LNil
}

// printable replaces the control characters of text a mod wrote (escape
// codes would reach the player's terminal) with U+FFFD, and invalid UTF-8
// likewise.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' {
			return r
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return '\uFFFD'
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}

// invalid is a request the host refuses: an error of the mod.
func (m *modRun) invalid(ev, format string, args ...any) error {
	return &ModError{Report{Mod: m.mod.ID(), Event: ev, Message: printable("invalid request: " + fmt.Sprintf(format, args...))}}
}

// describe writes a Lua value for an error message, without calling any of
// its metamethods.
func describe(v lua.LValue) string {
	switch v := v.(type) {
	case lua.LString:
		s := string(v)
		if len(s) > 40 {
			s = s[:40] + "…"
		}
		return fmt.Sprintf("the string %q", s)
	case lua.LNumber:
		return "the number " + v.String()
	case lua.LBool:
		return "the boolean " + v.String()
	case *lua.LNilType:
		return "nil"
	}
	return "a " + v.Type().String()
}

// wholeIn reads a whole number from lo to hi.
func wholeIn(v lua.LValue, lo, hi int) (int, error) {
	n, ok := v.(lua.LNumber)
	if !ok {
		return 0, fmt.Errorf("want a whole number, got %s", describe(v))
	}
	f := float64(n)
	if f != f || f < float64(lo) || f > float64(hi) || f != float64(int64(f)) {
		return 0, fmt.Errorf("want a whole number from %d to %d, got %s", lo, hi, describe(v))
	}
	return int(f), nil
}

// cellText writes a cell for Lua: as its notation, a number where the
// notation is a number (classic tiles, which are powers of two and so held
// exactly by a Lua number however large; 0 for empty).
func (h *Host) cellText(c engine.Cell) lua.LValue {
	s := h.rules.FormatCell(c)
	if n, ok := exactNumber(s); ok {
		return lua.LNumber(n)
	}
	return lua.LString(s)
}

// exactNumber reads a decimal integer that a float64 holds exactly.
func exactNumber(s string) (float64, bool) {
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || strconv.FormatFloat(f, 'f', 0, 64) != strings.TrimLeft(s, "0") && s != "0" {
		return 0, false
	}
	return f, true
}

// parseCell reads a cell a mod asks for: a number or a notation string.
func (h *Host) parseCell(v lua.LValue) (engine.Cell, error) {
	var text string
	switch v := v.(type) {
	case lua.LNumber:
		f := float64(v)
		if math.IsNaN(f) || math.IsInf(f, 0) || f < 0 || f != math.Trunc(f) {
			return engine.Cell{}, fmt.Errorf("want a cell, got %s", describe(v))
		}
		text = strconv.FormatFloat(f, 'f', 0, 64)
	case lua.LString:
		text = string(v)
		if len(text) > 64 {
			return engine.Cell{}, fmt.Errorf("want a cell, got %s", describe(v))
		}
	default:
		return engine.Cell{}, fmt.Errorf("want a cell (a number or a notation string), got %s", describe(v))
	}
	// A mod sets the same few cells turn after turn: each text is parsed
	// once (cellular's notation takes a regular expression).
	if c, ok := h.parsed[text]; ok {
		return c, nil
	}
	k := ruleText{h.rulesName(), text}
	c, ok := sharedCells.get(k)
	if !ok {
		var err error
		if c, err = h.rules.ParseCell(text); err != nil {
			return engine.Cell{}, err
		}
		sharedCells.put(k, c)
	}
	return h.parsed.keep(text, c), nil
}
