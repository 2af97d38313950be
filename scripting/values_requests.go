package scripting

// Lua values become Go values: what handlers return (refuse, a merge's
// result, a spawn's changes, the set, mark and unmark lists), checked and
// made engine requests; cells, positions and hazards' names; the tables
// game.on, game.hazard, game.marks and game.cells take (values.go's banner
// says what the values files hold).

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"
	"github.com/mod2048/mod2048/scripting/internal/sandbox"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/internal/workcount"
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
			workcount.Step()
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
		workcount.Step()
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
		return Hazard{}, fmt.Errorf("%q is not a hazard this mod defined", shorten(string(s)))
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

// The longest reason a before_move handler may refuse a move with, and
// the most of its mod's name the refusal shows before it, in bytes.
const (
	maxReason      = 200
	maxRefusalName = 64
)

// beforeMoveRequest reads a before_move handler's return: nothing, or a
// refusal.
func (m *modRun) beforeMoveRequest(ret value) error {
	req, err := m.request(ret, EventBeforeMove, "refuse")
	if err != nil || req == nil {
		return err
	}
	if v := req.RawGetString("refuse"); v != lua.LNil {
		reason, ok := v.(lua.LString)
		if !ok || len(reason) == 0 || len(reason) > maxReason {
			return m.invalid(EventBeforeMove, "refuse: want a reason of 1 to %d bytes, got %s", maxReason, describe(v))
		}
		return &engine.Refusal{Reason: sandbox.Printable(m.mod.Manifest.Name, maxRefusalName) + ": " + sandbox.Printable(string(reason), maxReason), By: m.mod.ID()}
	}
	return nil
}

// afterMergeRequest reads an after_merge handler's return: nothing, or the
// merge's result, which it sets in e.
func (h *Host) afterMergeRequest(m *modRun, ret value, e *engine.MergeEvent) error {
	req, err := m.request(ret, EventAfterMerge, "result")
	if err != nil || req == nil {
		return err
	}
	if v := req.RawGetString("result"); v != lua.LNil {
		cell, err := h.parseCell(v)
		if err != nil {
			return m.invalid(EventAfterMerge, "result: %v", err)
		}
		if cell.Kind == engine.KindEmpty {
			return m.invalid(EventAfterMerge, "result: a merge cannot make an empty cell")
		}
		e.Result = cell
	}
	return nil
}

// spawnRequest reads a spawn handler's return and changes e as it asks:
// done says there is nothing more to check (no request, or the spawn is
// cancelled).
func (h *Host) spawnRequest(m *modRun, ret value, e *engine.SpawnEvent) (done bool, err error) {
	req, err := m.request(ret, EventSpawn, "cancel", "row", "col", "cell")
	if err != nil || req == nil {
		return true, err
	}
	if v := req.RawGetString("cancel"); v != lua.LNil {
		b, ok := v.(lua.LBool)
		if !ok {
			return true, m.invalid(EventSpawn, "cancel: want true or false, got %s", describe(v))
		}
		if b {
			e.Cancel = true
			return true, nil
		}
	}
	b := &e.State.Board
	if v := req.RawGetString("row"); v != lua.LNil {
		if e.Pos.Row, err = wholeIn(v, 0, b.Height-1); err != nil {
			return true, m.invalid(EventSpawn, "row: %v", err)
		}
	}
	if v := req.RawGetString("col"); v != lua.LNil {
		if e.Pos.Col, err = wholeIn(v, 0, b.Width-1); err != nil {
			return true, m.invalid(EventSpawn, "col: %v", err)
		}
	}
	if v := req.RawGetString("cell"); v != lua.LNil {
		if e.Cell, err = h.parseCell(v); err != nil {
			return true, m.invalid(EventSpawn, "cell: %v", err)
		}
	}
	return false, nil
}

// turnRequest reads a tick, start or expire handler's return and adds its
// requests to the event; asked says it returned a request table.
func (m *modRun) turnRequest(ret value, ev string, e *engine.TickEvent) (asked bool, err error) {
	req, err := m.request(ret, ev, "set", "mark", "unmark")
	if err != nil || req == nil {
		return false, err
	}
	return true, m.tickRequests(ev, req, e)
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
		workcount.Step()
		if s, ok := k.(lua.LString); !ok || !slices.Contains(allowed, string(s)) {
			return k
		}
	}
	return lua.LNil
}

// describe writes a Lua value for an error message, without calling any of
// its metamethods.
func describe(v lua.LValue) string {
	switch v := v.(type) {
	case lua.LString:
		return fmt.Sprintf("the string %q", shorten(string(v)))
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

// filterKeys are the keys of each event's filter.
var filterKeys = map[event]string{evSpawn: "near", evTick: "every"}

// eventFilter reads game.on's third argument (API version 2): a spawn
// handler's {near = NAME}, which runs it only for a spawn on a cell next
// to (above, below, left or right of) a mark of this mod's hazard NAME,
// one defined before; a tick handler's {every = N}, which runs it only
// after the turns N divides (N, 2N, ...).
func (m *modRun) eventFilter(L *lua.LState, ev event, name string) handlerFilter {
	spec, ok := L.Get(3).(*lua.LTable)
	key, takes := filterKeys[ev]
	switch {
	case L.GetTop() > 3:
		L.RaiseError("game.on: %d arguments, want an event, a handler and a filter", L.GetTop())
	case !takes || m.mod.Manifest.APIVersion < 2:
		L.RaiseError("game.on: only a spawn or tick handler of an API version 2 mod takes a filter")
	case !ok:
		L.RaiseError("game.on: the filter: want a table {%s = ...}, got %s", key, describe(L.Get(3)))
	}
	for k, _ := spec.Next(lua.LNil); k != lua.LNil; k, _ = spec.Next(k) {
		workcount.Step()
		if k != lua.LString(key) {
			L.RaiseError("game.on: the filter: unknown key %s (allowed: %s)", describe(k), key)
		}
	}
	var f handlerFilter
	v := spec.RawGetString(key)
	if ev == evTick {
		n, err := wholeIn(v, 1, 1_000_000)
		if err != nil {
			L.RaiseError("game.on: the filter: every: %v", err)
		}
		f.every = n
		return f
	}
	hz, err := m.ownHazard(v)
	if err != nil {
		L.RaiseError("game.on: the filter: near: %v", err)
	}
	f.near = hz.Name
	return f
}

// hazardSpec reads game.hazard's table, but for its description, which
// the caller reads once the name is known to be new: the hazard's short
// name, and the hazard without its names and description.
func (m *modRun) hazardSpec(L *lua.LState, spec *lua.LTable) (string, Hazard) {
	str := func(key string, need bool, max int) string { return hazardString(L, spec, key, need, max) }
	// flag reads an optional true or false (false when absent).
	flag := func(key string) bool {
		v := spec.RawGetString(key)
		if v == lua.LNil {
			return false
		}
		b, ok := v.(lua.LBool)
		if !ok {
			L.RaiseError("game.hazard: %s: want true or false, got %s", key, describe(v))
		}
		return bool(b)
	}
	allowed := hazardKeys
	if m.mod.Manifest.APIVersion < 2 {
		allowed = hazardKeysV1
	}
	if k := badKey(spec, allowed); k != lua.LNil {
		L.RaiseError("game.hazard: unknown key %s (allowed: %s)", describe(k), strings.Join(allowed, ", "))
	}
	name := str("name", true, 32)
	if !hazardName.MatchString(name) {
		L.RaiseError("game.hazard: name %q is not lower-case letters, digits and _", name)
	}
	glyph := str("glyph", true, 8)
	if r := []rune(glyph); len(r) != 1 || !unicode.IsPrint(r[0]) || r[0] == ' ' {
		L.RaiseError("game.hazard: glyph: want one visible character, got %q", glyph)
	}
	color := str("color", false, 16)
	if color != "" && !validColor(color) {
		L.RaiseError("game.hazard: color %q is not a color name or #rrggbb", color)
	}
	blocks, follow := flag("blocks"), flag("follow")
	onMerge := engine.MergeRule("")
	if v := spec.RawGetString("on_merge"); v != lua.LNil {
		s, ok := v.(lua.LString)
		if !ok || !slices.Contains(engine.MergeRules(), engine.MergeRule(s)) {
			L.RaiseError("game.hazard: on_merge: want \"keep\", \"drop\" or \"spread\", got %s", describe(v))
		}
		if !follow {
			L.RaiseError("game.hazard: on_merge is for a hazard that follows its tile (follow = true)")
		}
		onMerge = engine.MergeRule(s)
	}
	if follow && onMerge == "" {
		onMerge = engine.MergeKeep
	}
	counter := ""
	if v := spec.RawGetString("counter"); v != lua.LNil {
		s, ok := v.(lua.LString)
		if !ok || (s != CounterTurns && s != CounterCount) {
			L.RaiseError("game.hazard: counter: want \"turns\" or \"count\", got %s", describe(v))
		}
		counter = string(s)
	}
	return name, Hazard{Glyph: glyph, Color: color, Blocks: blocks, Follow: follow, OnMerge: onMerge, Counter: counter}
}

// hazardString reads a string of game.hazard's table: of 1 to max bytes,
// or, when it need not be given, "" for none.
func hazardString(L *lua.LState, spec *lua.LTable, key string, need bool, max int) string {
	v := spec.RawGetString(key)
	s, ok := v.(lua.LString)
	if v == lua.LNil && !need {
		return ""
	}
	if !ok || len(s) == 0 || len(s) > max {
		L.RaiseError("game.hazard: %s: want a string of 1 to %d characters, got %s", key, max, describe(v))
	}
	return string(s)
}

// marksFilter reads game.marks' table, {hazard = NAME}: the full name of
// the mod's hazard NAME.
func (m *modRun) marksFilter(L *lua.LState, spec *lua.LTable) string {
	if k := badKey(spec, []string{"hazard"}); k != lua.LNil {
		L.RaiseError("game.marks: unknown key %s (allowed: hazard)", describe(k))
	}
	hz, err := m.ownHazard(spec.RawGetString("hazard"))
	if err != nil {
		L.RaiseError("game.marks: hazard: %v", err)
	}
	return hz.Name
}

// cellsFilter is a game.cells filter table, read and checked.
type cellsFilter struct {
	spec                   *lua.LTable
	raw                    [4]lua.LValue // the values of cellsKeys the table held
	pattern, with, without string
	hasPattern             bool
	marked                 lua.LValue
}

// cellsFilter reads and checks a filter table. A mod passes the same few
// tables turn after turn (made once, when it loads): the last ones read
// are kept, and a table seen before whose four values are still the same
// is not read again. Its keys are checked when it is first seen: an
// unknown key added to it later goes unnoticed.
func (m *modRun) cellsFilter(L *lua.LState, spec *lua.LTable) *cellsFilter {
	var raw [4]lua.LValue
	for i, k := range cellsKeys {
		workcount.Step()
		raw[i] = spec.RawGetString(k)
	}
	for i := range m.filters {
		workcount.Step()
		if f := &m.filters[i]; f.spec == spec && f.raw == raw {
			return f
		}
	}
	for k, _ := spec.Next(lua.LNil); k != lua.LNil; k, _ = spec.Next(k) {
		workcount.Step()
		if s, ok := k.(lua.LString); !ok || !slices.Contains(cellsKeys, string(s)) {
			L.RaiseError("game.cells: unknown key %s (allowed: cell, marked, hazard, without)", describe(k))
		}
	}
	f := cellsFilter{spec: spec, raw: raw, marked: raw[1]}
	switch v := raw[0].(type) {
	case *lua.LNilType:
	case lua.LString:
		f.pattern, f.hasPattern = string(v), true
	default:
		L.RaiseError("game.cells: cell: want a pattern string, got %s", describe(v))
	}
	if f.marked != lua.LNil && f.marked.Type() != lua.LTBool {
		L.RaiseError("game.cells: marked: want true or false, got %s", describe(f.marked))
	}
	for i, name := range []*string{&f.with, &f.without} {
		workcount.Step()
		if v := raw[2+i]; v != lua.LNil {
			hz, err := m.ownHazard(v)
			if err != nil {
				L.RaiseError("game.cells: %s: %v", cellsKeys[2+i], err)
			}
			*name = hz.Name
		}
	}
	// Keep it, in place of the oldest.
	m.filters[m.nextFilter] = f
	k := m.nextFilter
	m.nextFilter = (m.nextFilter + 1) % len(m.filters)
	return &m.filters[k]
}

// flags returns the flags (luaCells') a cell passes the filter with, need
// and want: a cell must carry those of need and none of those not in want.
func (f *cellsFilter) flags() (need, want uint8) {
	need, want = 0, 7
	switch f.marked {
	case lua.LTrue:
		need |= 1
	case lua.LFalse:
		want &^= 1
	}
	if f.with != "" {
		need |= 2
	}
	if f.without != "" {
		want &^= 4
	}
	return need, want
}

// cellsKeys are the filters of game.cells.
var cellsKeys = []string{"cell", "marked", "hazard", "without"}

// shorten cuts a mod's string to 40 bytes for an error that quotes it, so
// that an error's text does not grow with what the mod gives.
func shorten(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
