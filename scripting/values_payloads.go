package scripting

// Go values become Lua tables: each event's payload, a turn's motions, the
// marks game.marks returns, the cells game.cells finds, the settings
// (values.go's banner says what the values files hold).

import (
	lua "github.com/mod2048/mod2048/scripting/internal/lua"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/internal/workcount"
)

// payload returns the table of an event's payload for the i-th handler of
// ev: the mod's reused one where the handler cannot keep it (see
// payloadReuse), else a fresh one. The caller sets every field; on the
// reused table only those the handler's code can read are set (reads), so
// a field no handler reads costs nothing, not even its value (wants).
func (m *modRun) payload(ev event, i int, r reuse, n int) fields {
	if r == reuseNone {
		return fields{t: m.L.CreateTable(0, n), want: allFields}
	}
	f := m.payloads[ev].fields(m.L, n)
	f.want = m.reads[ev][i]
	return f
}

// allFields is a read mask of every field of a payload; tickMotions a
// tick's moves and merged (payloadKeys).
const (
	allFields   = 1<<maxFields - 1
	tickMotions = 1<<5 | 1<<6
)

// payloadBox is a reused payload table and the values its fields hold.
type payloadBox struct {
	t    *lua.LTable
	last [maxFields]lua.LValue
}

const maxFields = 7

func (b *payloadBox) fields(L *lua.LState, n int) fields {
	if b.t == nil {
		b.t = L.CreateTable(0, n)
	}
	return fields{t: b.t, last: &b.last}
}

// fields sets the fields of a payload table. On a reused table, whose
// fields no handler can change (payloadReuse), a field that holds the
// value already is not set again.
type fields struct {
	t    *lua.LTable
	last *[maxFields]lua.LValue
	want uint8 // the fields to set, a bit each
}

// wants reports whether field i is set: a value that costs to make is
// made only then.
func (f fields) wants(i int) bool { return f.want&(1<<i) != 0 }

func (f fields) set(i int, key string, v lua.LValue) {
	if !f.wants(i) {
		return
	}
	if f.last != nil {
		if f.last[i] == v {
			return
		}
		f.last[i] = v
	}
	f.t.RawSetString(key, v)
}

// beforeMovePayload is the payload of before_move for the i-th handler.
func (m *modRun) beforeMovePayload(i int, r reuse, e *engine.MoveEvent) value {
	f := m.payload(evBeforeMove, i, r, 2)
	f.set(0, "dir", dirValue(e.Dir))
	f.set(1, "turn", number(e.State.Turn+1))
	return f.t
}

// afterMergePayload is the payload of after_merge for m's i-th handler.
func (h *Host) afterMergePayload(m *modRun, i int, r reuse, e *engine.MergeEvent) value {
	L := m.L
	f := m.payload(evAfterMerge, i, r, 5)
	f.set(0, "row", number(e.Pos.Row))
	f.set(1, "col", number(e.Pos.Col))
	from, sources := m.lists[0], m.lists[1]
	if !f.wants(2) && !f.wants(3) {
		// Neither list can be read: make neither.
	} else if r != reuseNested || from == nil {
		from, sources = L.CreateTable(2, 0), L.CreateTable(2, 0)
		if r == reuseNested {
			m.lists = [2]*lua.LTable{from, sources}
		}
	}
	for i := 0; i < 2 && (f.wants(2) || f.wants(3)); i++ {
		workcount.Step()
		var p fields
		if r == reuseNested {
			p = m.points[i].fields(L, 2)
			p.want = allFields
		} else {
			p = fields{t: L.CreateTable(0, 2), want: allFields}
		}
		p.set(0, "row", number(e.From[i].Row))
		p.set(1, "col", number(e.From[i].Col))
		from.RawSetInt(i+1, p.t)
		sources.RawSetInt(i+1, h.cellValue(e.Sources[i]))
	}
	f.set(2, "from", from)
	f.set(3, "sources", sources)
	f.set(4, "result", h.cellValue(e.Result))
	return f.t
}

// spawnPayload is the payload of spawn for m's i-th handler.
func (h *Host) spawnPayload(m *modRun, i int, r reuse, e *engine.SpawnEvent) value {
	f := m.payload(evSpawn, i, r, 4)
	f.set(0, "row", number(e.Pos.Row))
	f.set(1, "col", number(e.Pos.Col))
	f.set(2, "cell", h.cellValue(e.Cell))
	f.set(3, "scripted", lua.LBool(e.Scripted))
	return f.t
}

// turnPayload is the payload of tick or start (ev) for m's i-th handler.
func (h *Host) turnPayload(m *modRun, ev event, i int, r reuse, e *engine.TickEvent) value {
	var f fields
	switch {
	case ev == evStart:
		f = m.payload(ev, i, r, 1)
		f.set(0, "turn", number(0))
	case m.mod.Manifest.APIVersion >= 2:
		f = m.payload(ev, i, r, 7)
	default:
		f = m.payload(ev, i, r, 5)
	}
	if ev == evTick {
		f.set(0, "turn", number(e.Turn))
		f.set(1, "dir", dirValue(e.Dir))
		if f.wants(2) {
			f.set(2, "gained", h.scoreValue(e.Gained))
		}
		f.set(3, "merges", number(e.Merges))
		f.set(4, "spawns", number(e.Spawns))
		if m.mod.Manifest.APIVersion >= 2 && f.want&tickMotions != 0 {
			// A handler that cannot read them gets neither
			// (payloadReads): they cost most of a turn.
			moves, merged := motionTables(m.L, e.Motions)
			f.set(5, "moves", moves)
			f.set(6, "merged", merged)
		}
	}
	return f.t
}

// expirePayload is the payload of expire for the i-th handler, of the
// expired mark mk.
func (m *modRun) expirePayload(i int, r reuse, e *engine.TickEvent, mk engine.Mark) value {
	f := m.payload(evExpire, i, r, 5)
	f.set(0, "turn", number(e.Turn))
	f.set(1, "row", number(mk.Pos.Row))
	f.set(2, "col", number(mk.Pos.Col))
	f.set(3, "name", lua.LString(mk.Name))
	f.set(4, "count", number(mk.Count))
	return f.t
}

// motionTables writes a turn's motions for Lua: moves, a list of
// {from = {row =, col =}, to = {row =, col =}}, and merged, a list of
// {into = {row =, col =}, from = {{row =, col =}, {row =, col =}}}. Fresh
// tables each turn: a handler may keep them.
func motionTables(L *lua.LState, mo *engine.Motions) (moves, merged *lua.LTable) {
	pos := func(p engine.Pos) *lua.LTable {
		t := L.CreateTable(0, 2)
		t.RawSetString("row", number(p.Row))
		t.RawSetString("col", number(p.Col))
		return t
	}
	if mo == nil {
		return L.CreateTable(0, 0), L.CreateTable(0, 0)
	}
	moves = L.CreateTable(len(mo.Moves), 0)
	for _, mv := range mo.Moves {
		workcount.Step()
		t := L.CreateTable(0, 2)
		t.RawSetString("from", pos(mv.From))
		t.RawSetString("to", pos(mv.To))
		moves.Append(t)
	}
	merged = L.CreateTable(len(mo.Merged), 0)
	for _, mg := range mo.Merged {
		workcount.Step()
		t := L.CreateTable(0, 2)
		t.RawSetString("into", pos(mg.Into))
		from := L.CreateTable(2, 0)
		from.Append(pos(mg.From[0]))
		from.Append(pos(mg.From[1]))
		t.RawSetString("from", from)
		merged.Append(t)
	}
	return moves, merged
}

// toLua makes a setting's value a Lua value.
func toLua(v any) lua.LValue {
	switch v := v.(type) {
	case int64:
		return lua.LNumber(v)
	case float64:
		return lua.LNumber(v)
	case bool:
		return lua.LBool(v)
	case string:
		return lua.LString(v)
	}
	return lua.LNil
}

// marksTable is the list of game.marks: the n marks that want picks, as
// {row=, col=, name=, turns=, blocks=, count=} tables.
func (h *Host) marksTable(L *lua.LState, marks []engine.Mark, n int, want func(engine.Mark) bool) *lua.LTable {
	// Sized tables: gopher-lua's NewTable reserves 32 slots and a map of 32.
	out := L.CreateTable(n, 0)
	for _, mk := range marks {
		workcount.Step()
		if !want(mk) {
			continue
		}
		t := L.CreateTable(0, 6)
		t.RawSetString("row", number(mk.Pos.Row))
		t.RawSetString("col", number(mk.Pos.Col))
		t.RawSetString("name", h.nameValue(mk.Name))
		t.RawSetString("turns", number(mk.Turns))
		t.RawSetString("blocks", lua.LBool(mk.Block))
		t.RawSetString("count", number(mk.Count))
		out.Append(t)
	}
	return out
}

// numberList is a Lua list of the numbers ns (game.cells' cells).
func numberList(L *lua.LState, ns []int) *lua.LTable {
	t := L.CreateTable(len(ns), 0)
	for _, i := range ns {
		workcount.Step()
		t.Append(number(i))
	}
	return t
}
