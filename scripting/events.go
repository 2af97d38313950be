package scripting

import (
	"errors"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/internal/workcount"
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
		workcount.Step()
		if n == name {
			return event(i), true
		}
	}
	return 0, false
}

// call runs one handler under the mod's budgets and returns its first
// result.
func (h *Host) call(m *modRun, ev event, fn handler, arg value) (value, error) {
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
		return nil, modError(Report{Mod: m.mod.ID(), Event: eventNames[ev], Message: over})
	}
	if (h.limits.MaxMemory > 0 && m.held.bytes > h.limits.MaxMemory) || m.held.overGame {
		// The mod held too much after its last call, or took the game
		// past its ceiling: it runs again only once it holds less (a
		// restored storage may have let go), or the mods do.
		if why := m.weigh(); why != "" {
			return nil, modError(Report{Mod: m.mod.ID(), Event: eventNames[ev], Message: why})
		}
	}
	// The game's ceiling caps what the call may build: the room left.
	m.budget.SetCap(h.callCap())
	m.beforeCall()
	m.budget.Start(n, over, h.limits.FailsafeTime)
	m.ran = true
	err := m.callLua(fn, arg)
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
	ret := m.result()
	if tooMuch != "" {
		return nil, modError(Report{Mod: m.mod.ID(), Event: eventNames[ev], Message: tooMuch})
	}
	return ret, nil
}

// each calls fn for every active mod with handlers for ev, in load order,
// with the handler's index among the mod's for ev and what it lets the
// host reuse of its payload.
func (h *Host) each(ev event, fn func(m *modRun, i int, fn handler, r reuse) error) error {
	for _, m := range h.mods {
		workcount.Step()
		if m.disabled || m.muted {
			continue
		}
		for i, handler := range m.handlers[ev] {
			workcount.Step()
			if err := fn(m, i, handler, m.reuse[ev][i]); err != nil {
				return err
			}
		}
	}
	return nil
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
		workcount.Step()
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
		workcount.Step()
		if f.Kind == engine.FaultFailsafe {
			h.fail(g.State(), modError(Report{Mod: f.Hook, Event: f.Event, Message: failsafeFault + ", as recorded", Failsafe: true}))
		}
	}
	for {
		workcount.Step()
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
			workcount.Step()
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
		workcount.Step()
		m.spent, m.muted = 0, false
	}
	h.faults = h.faults[:0]
	if h.failed != nil {
		return h.failed
	}
	first := len(h.reports)
	for {
		workcount.Step()
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
		workcount.Step()
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
		workcount.Step()
		m.spentBM = 0
		if !h.inMove {
			m.spent = 0
		}
	}
	return h.each(evBeforeMove, func(m *modRun, i int, fn handler, r reuse) error {
		ret, err := h.call(m, evBeforeMove, fn, m.beforeMovePayload(i, r, e))
		if err != nil {
			return err
		}
		return m.beforeMoveRequest(ret)
	})
}

// AfterMerge shows each merge to the mods, which may change its result.
func (h *Host) AfterMerge(e *engine.MergeEvent) error {
	h.state = e.State
	return h.each(evAfterMerge, func(m *modRun, i int, fn handler, r reuse) error {
		ret, err := h.call(m, evAfterMerge, fn, h.afterMergePayload(m, i, r, e))
		if err != nil {
			return err
		}
		return h.afterMergeRequest(m, ret, e)
	})
}

// OnSpawn shows each spawn to the mods, which may move, change or cancel it.
func (h *Host) OnSpawn(e *engine.SpawnEvent) error {
	h.state = e.State
	return h.each(evSpawn, func(m *modRun, i int, fn handler, r reuse) error {
		if e.Cancel {
			return nil
		}
		if hz := m.filter[evSpawn][i].near; hz != "" && !nextToMark(e.State, e.Pos, hz) {
			return nil // the handler's filter passes the spawn by
		}
		ret, err := h.call(m, evSpawn, fn, h.spawnPayload(m, i, r, e))
		if err != nil {
			return err
		}
		done, err := h.spawnRequest(m, ret, e)
		if err != nil || done {
			return err
		}
		b := &e.State.Board
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
		workcount.Step()
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
		workcount.Step()
		if m.mod.Manifest.APIVersion < 2 {
			continue
		}
		for _, reads := range m.reads[evTick] {
			workcount.Step()
			if reads&tickMotions != 0 {
				return true
			}
		}
	}
	return false
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
	err := h.each(ev, func(m *modRun, i int, fn handler, r reuse) error {
		if n := m.filter[ev][i].every; n > 1 && e.Turn%n != 0 {
			return nil // the handler's filter passes this turn by
		}
		arg := h.turnPayload(m, ev, i, r, e)
		m.edits.begin(e)
		ret, err := h.call(m, ev, fn, arg)
		m.edits.end()
		if err != nil {
			return err
		}
		asked, err := m.turnRequest(ret, name, e)
		if err != nil || !asked {
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
		workcount.Step()
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
		workcount.Step()
		n += len(k) + len(v)
	}
	return n
}
