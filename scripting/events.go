package scripting

import (
	"errors"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"

	"github.com/mod2048/mod2048/engine"
)

// The events a mod can handle, by their Lua names.
const (
	EventBeforeMove = "before_move"
	EventAfterMerge = "after_merge"
	EventSpawn      = "spawn"
	EventTick       = "tick"
	EventStart      = "start"  // API version 2
	EventExpire     = "expire" // API version 2: a mark's turns ran out
)

// eventNames lists the events: a turn's in the order it meets them, then
// start, which a new game meets once, before its first turn.
var eventNames = []string{EventBeforeMove, EventAfterMerge, EventSpawn, EventTick, EventStart, EventExpire}

type event int

const (
	evBeforeMove event = iota
	evAfterMerge
	evSpawn
	evTick
	evStart
	evExpire
	numEvents
)

func eventOf(name string) (event, bool) {
	for i, n := range eventNames {
		if n == name {
			return event(i), true
		}
	}
	return 0, false
}

// call runs one handler under the mod's budgets and returns its first
// result.
func (h *Host) call(m *modRun, ev event, fn *lua.LFunction, arg lua.LValue) (lua.LValue, error) {
	n, over := h.limits.HandlerInstructions, h.callReason
	turn, turnOver := h.limits.TurnInstructions, h.turnReason
	if len(m.handlers[evBeforeMove]) > 0 {
		// The dry runs of its before_move come out of its turn.
		turn, turnOver = turn-dryRunsReserve(h.limits), h.dryTurnReason
	}
	if remaining := turn - m.spent; remaining < n {
		n, over = remaining, turnOver
	}
	if ev == evBeforeMove {
		if remaining := beforeMoveBudget(h.limits) - m.spentBM; remaining < n {
			n, over = remaining, h.beforeMoveReason
		}
	}
	if h.failed != nil {
		return nil, h.failed // a deterministic host the failsafe stopped runs no more Lua
	}
	if n <= 0 {
		return nil, &ModError{Report{Mod: m.mod.ID(), Event: eventNames[ev], Message: over}}
	}
	if (h.limits.MaxMemory > 0 && m.held.bytes > h.limits.MaxMemory) || m.held.overGame {
		// The mod held too much after its last call, or took the game
		// past its ceiling: it runs again only once it holds less (a
		// restored storage may have let go), or the mods do.
		if why := m.weigh(); why != "" {
			return nil, &ModError{Report{Mod: m.mod.ID(), Event: eventNames[ev], Message: why}}
		}
	}
	// The game's ceiling caps what the call may build: the room left.
	m.budget.SetCap(h.gameCap(), h.gameReason)
	m.beforeCall()
	m.budget.Start(n, over, h.limits.FailsafeTime)
	m.ran = true
	err := m.L.CallByParam(lua.P{Fn: fn, NRet: 1, Protect: true}, arg)
	used, stopped := m.budget.End(n)
	h.instructions += used
	m.spent += used
	if ev == evBeforeMove {
		m.spentBM += used
	}
	m.held.since += used
	m.held.built += m.budget.CallBuilt()
	tooMuch := ""
	if (h.limits.MaxMemory > 0 || h.limits.MaxGameMemory > 0) && m.held.due(memoryLimit(h.limits), h.roomInGame()) {
		tooMuch = m.weigh()
	}
	if err != nil {
		me := m.report(eventNames[ev], err, stopped)
		if me.Failsafe && h.deterministic {
			return nil, h.costModel(me)
		}
		return nil, me
	}
	ret := m.L.Get(-1)
	m.L.Pop(1)
	if tooMuch != "" {
		return nil, &ModError{Report{Mod: m.mod.ID(), Event: eventNames[ev], Message: tooMuch}}
	}
	return ret, nil
}

// each calls fn for every active mod with handlers for ev, in load order,
// with the handler's index among the mod's for ev and what it lets the
// host reuse of its payload.
func (h *Host) each(ev event, fn func(m *modRun, i int, handler *lua.LFunction, r reuse) error) error {
	for _, m := range h.mods {
		if m.disabled || m.muted {
			continue
		}
		for i, handler := range m.handlers[ev] {
			if err := fn(m, i, handler, m.reuse[ev][i]); err != nil {
				return err
			}
		}
	}
	return nil
}

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

// Move plays one move of g with the mods. A mod that errors is reported
// (TakeReports) and the move is played again without it, so the game goes
// on and the mod's effects on that turn are undone. The failure is kept in
// the turn's state (engine.Fault), and a mod whose record shows FailLimit
// failing turns in a row is disabled there: a move that makes no turn (a
// refused move, one that changes nothing) keeps nothing, and its failures
// are reported but do not count. A move a mod refuses returns the
// *engine.Refusal. In a deterministic host (Deterministic), a call the
// failsafe stops is no mod's failure: the move returns the
// *CostModelError, and the game and the host's reports are left as they
// were.
func (h *Host) Move(g *engine.Game, d engine.Direction) (engine.Result, error) {
	h.game = g
	for _, m := range h.mods {
		m.spent, m.muted = 0, false
	}
	// The turn's attempts (Move plays it again without a mod that fails)
	// share its budget.
	h.inMove = true
	defer func() { h.inMove = false }()
	h.faults = h.faults[:0]
	if h.failed != nil {
		return engine.Result{}, h.failed
	}
	first := len(h.reports)
	for _, f := range h.recorded {
		if f.Kind == engine.FaultFailsafe {
			h.fail(g.State(), &ModError{Report{Mod: f.Hook, Event: f.Event, Message: failsafeFault + ", as recorded", Failsafe: true}})
		}
	}
	for {
		h.begin(g)
		h.pending = h.pending[:0]
		res, err := g.Move(d)
		if h.failed != nil {
			// The failsafe stopped a call of a deterministic host: the
			// engine undid the move, and nothing of it is kept.
			h.reports = h.reports[:first]
			h.pending, h.faults, h.state = h.pending[:0], h.faults[:0], nil
			return engine.Result{}, h.failed
		}
		if err != nil {
			if me := (*ModError)(nil); errors.As(err, &me) {
				h.fail(g.State(), me)
				continue
			}
		}
		turn := err == nil && res.Changed
		if turn {
			h.keepNotices()
		}
		h.pending = h.pending[:0]
		for i := first; i < len(h.reports); i++ {
			h.reports[i].Disabled = h.reports[i].Disabled && turn
		}
		h.faults = h.faults[:0]
		h.state = nil
		return res, err
	}
}

// Start tells the mods that g, a new game, begins: their start handlers
// (API version 2) may place cells and marks on its first state. A mod that
// errors is reported and the start is played again without it, as Move
// does a turn; its failure is kept in the state, at turn 0.
func (h *Host) Start(g *engine.Game) error {
	h.game = g
	for _, m := range h.mods {
		m.spent, m.muted = 0, false
	}
	h.faults = h.faults[:0]
	if h.failed != nil {
		return h.failed
	}
	first := len(h.reports)
	for {
		h.begin(g)
		h.pending = h.pending[:0]
		err := g.Start()
		if h.failed != nil {
			h.reports = h.reports[:first]
			h.pending, h.faults, h.state = h.pending[:0], h.faults[:0], nil
			return h.failed
		}
		if me := (*ModError)(nil); errors.As(err, &me) {
			h.fail(g.State(), me)
			continue
		}
		if err == nil {
			h.keepNotices()
		}
		h.pending = h.pending[:0]
		h.faults = h.faults[:0]
		h.state = nil
		return err
	}
}

// MoveAsRecorded plays a move as a recording says it went, for replays:
// recorded holds the faults of the recorded turn. Whether a failsafe stops
// a call depends on the machine, so a mod that a failsafe stopped on the
// recorded turn is stopped again, without running, and recorded as it was
// (Move plays the turn again without a mod that fails, so this gives the
// turn the recording had); the turn's faults keep the recorded order.
// Everything else is played, and measured, as Move does: a replay whose
// mods now fail otherwise differs from its recording.
func (h *Host) MoveAsRecorded(g *engine.Game, d engine.Direction, recorded []engine.Fault) (engine.Result, error) {
	h.recorded = recorded
	defer func() { h.recorded = nil }()
	return h.Move(g, d)
}

// begin readies the mods for a move of g: which are disabled, and each
// mod's storage and random stream, come from the game's current state (so
// undo, redo, a loaded save and a failed attempt all start from what the
// state holds; values_storage.go keeps the live tables where they are the
// state's).
func (h *Host) begin(g *engine.Game) { h.beginAt(g.State(), false) }

// beginAt is begin from state s: a game's, or a fork's or a dry run's
// (dry: what the handlers change is thrown away).
func (h *Host) beginAt(s *engine.State, dry bool) {
	h.state = s
	for _, m := range h.mods {
		m.disabled = s.HookDisabled(m.mod.ID())
		m.ready(s.Data[m.key], dry)
	}
}

func dataKey(id string) string { return "mod:" + id }

// BeforeMove asks the mods whether a move may be played. It opens the
// budget of this evaluation of before_move, and, outside Move, the move's
// turn budget.
func (h *Host) BeforeMove(e *engine.MoveEvent) error {
	h.state = e.State
	for _, m := range h.mods {
		m.spentBM = 0
		if !h.inMove {
			m.spent = 0
		}
	}
	return h.each(evBeforeMove, func(m *modRun, i int, fn *lua.LFunction, r reuse) error {
		f := m.payload(evBeforeMove, i, r, 2)
		f.set(0, "dir", dirValue(e.Dir))
		f.set(1, "turn", number(e.State.Turn+1))
		ret, err := h.call(m, evBeforeMove, fn, f.t)
		if err != nil {
			return err
		}
		req, err := m.request(ret, EventBeforeMove, "refuse")
		if err != nil || req == nil {
			return err
		}
		if v := req.RawGetString("refuse"); v != lua.LNil {
			reason, ok := v.(lua.LString)
			if !ok || len(reason) == 0 || len(reason) > 200 {
				return m.invalid(EventBeforeMove, "refuse: want a reason of 1 to 200 characters, got %s", describe(v))
			}
			return &engine.Refusal{Reason: printable(m.mod.Manifest.Name + ": " + string(reason)), By: m.mod.ID()}
		}
		return nil
	})
}

// AfterMerge shows each merge to the mods, which may change its result.
func (h *Host) AfterMerge(e *engine.MergeEvent) error {
	h.state = e.State
	return h.each(evAfterMerge, func(m *modRun, i int, fn *lua.LFunction, r reuse) error {
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
		ret, err := h.call(m, evAfterMerge, fn, f.t)
		if err != nil {
			return err
		}
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
	})
}

// OnSpawn shows each spawn to the mods, which may move, change or cancel it.
func (h *Host) OnSpawn(e *engine.SpawnEvent) error {
	h.state = e.State
	return h.each(evSpawn, func(m *modRun, i int, fn *lua.LFunction, r reuse) error {
		if e.Cancel {
			return nil
		}
		if hz := m.filter[evSpawn][i].near; hz != "" && !nextToMark(e.State, e.Pos, hz) {
			return nil // the handler's filter passes the spawn by
		}
		f := m.payload(evSpawn, i, r, 4)
		f.set(0, "row", number(e.Pos.Row))
		f.set(1, "col", number(e.Pos.Col))
		f.set(2, "cell", h.cellValue(e.Cell))
		f.set(3, "scripted", lua.LBool(e.Scripted))
		ret, err := h.call(m, evSpawn, fn, f.t)
		if err != nil {
			return err
		}
		req, err := m.request(ret, EventSpawn, "cancel", "row", "col", "cell")
		if err != nil || req == nil {
			return err
		}
		if v := req.RawGetString("cancel"); v != lua.LNil {
			b, ok := v.(lua.LBool)
			if !ok {
				return m.invalid(EventSpawn, "cancel: want true or false, got %s", describe(v))
			}
			if b {
				e.Cancel = true
				return nil
			}
		}
		b := &e.State.Board
		if v := req.RawGetString("row"); v != lua.LNil {
			if e.Pos.Row, err = wholeIn(v, 0, b.Height-1); err != nil {
				return m.invalid(EventSpawn, "row: %v", err)
			}
		}
		if v := req.RawGetString("col"); v != lua.LNil {
			if e.Pos.Col, err = wholeIn(v, 0, b.Width-1); err != nil {
				return m.invalid(EventSpawn, "col: %v", err)
			}
		}
		if v := req.RawGetString("cell"); v != lua.LNil {
			if e.Cell, err = h.parseCell(v); err != nil {
				return m.invalid(EventSpawn, "cell: %v", err)
			}
		}
		if err := h.rules.CheckSpawn(e.Cell); err != nil {
			return m.invalid(EventSpawn, "cell: %v", err)
		}
		if !b.At(e.Pos).IsEmpty() {
			return m.invalid(EventSpawn, "cell (%d,%d) is not empty", e.Pos.Row, e.Pos.Col)
		}
		if e.State.Blocked(e.Pos.Row*b.Width + e.Pos.Col) {
			return m.invalid(EventSpawn, "cell (%d,%d) is blocked by a mark", e.Pos.Row, e.Pos.Col)
		}
		return nil
	})
}

// nextToMark reports whether a mark of hazard name is on a cell next to p:
// above, below, left or right.
func nextToMark(s *engine.State, p engine.Pos, name string) bool {
	for k := range s.Marks {
		mk := &s.Marks[k]
		if d := abs(mk.Pos.Row-p.Row) + abs(mk.Pos.Col-p.Col); d == 1 && mk.Name == name {
			return true
		}
	}
	return false
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// WantsMotions reports whether a mod may read tile motions (API version 2,
// a tick handler whose code may read its payload's moves or merged): the
// game must then track them (engine.Game.TrackMotions). A handler that
// cannot read them costs the game no tracking.
func (h *Host) WantsMotions() bool {
	for _, m := range h.mods {
		if m.mod.Manifest.APIVersion < 2 {
			continue
		}
		for _, reads := range m.reads[evTick] {
			if reads&tickMotions != 0 {
				return true
			}
		}
	}
	return false
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
		t := L.CreateTable(0, 2)
		t.RawSetString("from", pos(mv.From))
		t.RawSetString("to", pos(mv.To))
		moves.Append(t)
	}
	merged = L.CreateTable(len(mo.Merged), 0)
	for _, mg := range mo.Merged {
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

// OnTick runs the mods' tick handlers on the finished turn, applies their
// requests through the engine, and keeps each mod's storage and random
// stream, and the mods' failures on the turn, in the state.
func (h *Host) OnTick(e *engine.TickEvent) error { return h.finish(evTick, e) }

// OnStart runs the mods' start handlers (API version 2) when a new game
// begins, as OnTick does a turn's: their requests apply to the game's first
// state. Start runs it.
func (h *Host) OnStart(e *engine.TickEvent) error { return h.finish(evStart, e) }

// finish runs the handlers of tick or start and keeps what they did.
func (h *Host) finish(ev event, e *engine.TickEvent) error {
	h.state = e.State
	e.Faults = append(e.Faults, h.turnFaults()...)
	if ev == evTick && len(e.Expired) > 0 {
		if err := h.expire(e); err != nil {
			return err
		}
	}
	name := eventNames[ev]
	err := h.each(ev, func(m *modRun, i int, fn *lua.LFunction, r reuse) error {
		if n := m.filter[ev][i].every; n > 1 && e.Turn%n != 0 {
			return nil // the handler's filter passes this turn by
		}
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
		m.edits.begin(e)
		ret, err := h.call(m, ev, fn, f.t)
		m.edits.end()
		if err != nil {
			return err
		}
		req, err := m.request(ret, name, "set", "mark", "unmark")
		if err != nil || req == nil {
			return err
		}
		if err := m.tickRequests(name, req, e); err != nil {
			return err
		}
		if n := len(e.State.Marks) + len(e.MarkEdits); n > engine.MaxMarks {
			return m.invalid(name, "mark: the board would hold %d marks, more than %d", n, engine.MaxMarks)
		}
		return nil
	})
	if err != nil {
		return err
	}
	total := -1 // the bytes of the state's Data, worked out when needed
	for _, m := range h.mods {
		if m.disabled || m.muted || !m.ran {
			continue
		}
		if !m.touches && !m.rngUsed {
			// Neither storage nor the random stream can have changed.
			m.ran = false
			continue
		}
		buf, err := m.record()
		if err != nil {
			return m.invalid(name, "storage: %v", err)
		}
		key := m.key
		old, had := e.State.Data[key]
		if had && string(buf) == old {
			// Storage and stream as the state has them: nothing to write.
			m.settled(old)
			continue
		}
		rec := string(buf)
		if total < 0 {
			total = dataSize(e.State.Data)
		}
		if had {
			total -= len(key) + len(old)
		}
		if total += len(key) + len(rec); total > engine.MaxData {
			return m.invalid(name, "storage: the mods' storage together would hold %d bytes, more than the game keeps (%d)", total, engine.MaxData)
		}
		if e.Data == nil {
			e.Data = map[string]string{}
		}
		e.Data[key] = rec
		// The live table is rec's now (save tidied it): the next move
		// plays it, unless the state changes underneath.
		m.settled(rec)
	}
	return nil
}

// dataSize returns the bytes of a state's Data, keys and values.
func dataSize(data map[string]string) int {
	n := 0
	for k, v := range data {
		n += len(k) + len(v)
	}
	return n
}
