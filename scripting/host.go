package scripting

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"

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

// Hazard is a kind of marker a mod defines: its full name (modid:name), how
// the terminal shows it, and whether it blocks movement.
type Hazard struct {
	Name   string
	Mod    string
	Glyph  string
	Color  string
	Blocks bool
	// Follow: its marks move with their tiles (API version 2), and OnMerge
	// says what a merge does to them.
	Follow      bool
	OnMerge     engine.MergeRule
	Description string
	// Counter says what number its marks show in place of the glyph:
	// "turns" (the turns left), "count" (the count the mod keeps on each
	// mark), or "" (none: the glyph).
	Counter string
}

// The hazards' counters.
const (
	CounterTurns = "turns"
	CounterCount = "count"
)

// Report is a mod's error: which mod, in which event, where in its Lua
// files, and what. The game goes on without the mod's effects on that turn.
type Report struct {
	Mod       string
	Event     string
	File      string
	Line      int
	Message   string
	Traceback string
	Disabled  bool // the mod failed too often and is now off
	// Failsafe says the host's failsafe stopped the call (Limits.FailsafeTime
	// or MaxHeapGrowth): unlike every other failure, it depends on the
	// machine and its load, so a replay must take the record's word for it.
	Failsafe bool
}

func (r Report) Error() string {
	where := r.Mod
	if r.File != "" {
		where = fmt.Sprintf("%s (%s:%d)", r.Mod, r.File, r.Line)
	}
	msg := fmt.Sprintf("mod %s: %s: %s", where, r.Event, r.Message)
	if r.Disabled {
		msg += " (the mod is now disabled)"
	}
	return msg
}

// ModError is the error a mod's failure gives the engine, which undoes the
// step; Host.Move then plays the move again without the mod.
type ModError struct{ Report }

func (e *ModError) Error() string { return e.Report.Error() }

// FailLimit is how many turns in a row a mod may fail before it is disabled.
// The count, and the disable, are the game state's record (engine.Fault).
const FailLimit = 3

// Host runs a game's mods. It implements engine.Hooks; play moves through
// Host.Move, which handles a failing mod.
type Host struct {
	limits   Limits
	rules    engine.Rules
	opt      engine.Options
	mods     []*modRun
	hazards  []Hazard
	watchdog *watchdog
	reports  []Report
	// The errors of a spent budget, made once.
	callReason, turnReason, heldReason string
	state                              *engine.State  // the state the running event reads
	loading                            *modRun        // the mod whose main chunk runs, while mods load
	game                               *engine.Game   // the game last attached or moved
	recorded                           []engine.Fault // the recorded turn's faults, while MoveAsRecorded plays it
	faults                             []engine.Fault
	cells                              map[engine.Cell]lua.LValue  // cellValue's boxes
	scores                             map[engine.Score]lua.LValue // scoreValue's boxes
	// pending are the notices of the move being tried; notices those of
	// the moves played (notice.go).
	pending, notices []Notice
}

type modRun struct {
	host     *Host
	mod      *Mod
	key      string // the key of its record in the state's Data
	L        *lua.LState
	budget   *budget
	meters   meters // the mod's `..` and `...` (concat.go)
	held     held   // what the mod holds (memory.go)
	log      *logBuffer
	handlers [numEvents][]*lua.LFunction
	reuse    [numEvents][]reuse    // per handler: what of its payload the host may reuse
	motions  []bool                // per tick handler: whether it may read the moves and merged
	payloads [numEvents]payloadBox // the payloads reused, made on first use
	lists    [2]*lua.LTable        // after_merge's from and sources, reused
	points   [2]payloadBox         // after_merge's from[1] and from[2], reused
	touches  bool                  // the mod's code can reach storage (mentionsStorage)
	disabled bool                  // the state's record disables the mod (set by begin)
	muted    bool                  // off for the rest of this move, after an error in it
	spent    int64                 // instructions run in this turn
	// Storage (storage.go): the live table and the random stream are
	// loaded's, unless a handler ran since.
	ran     bool       // a handler ran since storage was last saved or loaded
	rngUsed bool       // the random stream was drawn from since then
	guard   bool       // the live table must stay as it is: a handler gets a copy
	loaded  string     // the record storage and rng came from, or were saved as
	initial string     // the record of storage and rng as loading left them
	rng     engine.RNG // the random stream
	rngFrom engine.RNG // the random stream as loaded held it
	kept    keptTables // storage tables a dry run must not change
	enc     encoder
	modules map[string]lua.LValue // results of require
}

// NewHost loads mods (in dependency, priority and id order) for a game of
// the given rules and options (its board size and seed), running each mod's
// entry file. A mod that fails to load is an error naming it, its file and
// line.
func NewHost(mods []*Mod, rules engine.Rules, opt engine.Options, limits Limits) (*Host, error) {
	ordered, err := Order(mods, rules.Name())
	if err != nil {
		return nil, err
	}
	h := &Host{limits: limits, rules: rules, opt: opt, watchdog: newWatchdog(limits), callReason: callReason(limits), turnReason: turnReason(limits), heldReason: heldReason(limits)}
	for _, mod := range ordered {
		if err := h.load(mod); err != nil {
			h.Close()
			return nil, err
		}
	}
	return h, nil
}

// Close ends the mods' Lua states.
func (h *Host) Close() {
	h.watchdog.close()
	for _, m := range h.mods {
		m.L.Close()
	}
}

// Mods returns the loaded mods, in load order.
func (h *Host) Mods() []*Mod {
	out := make([]*Mod, len(h.mods))
	for i, m := range h.mods {
		out[i] = m.mod
	}
	return out
}

// Hazards returns the hazards the mods defined, in load order.
func (h *Host) Hazards() []Hazard { return append([]Hazard(nil), h.hazards...) }

// Hazard returns the hazard of a mark's name.
func (h *Host) Hazard(name string) (Hazard, bool) {
	for _, hz := range h.hazards {
		if hz.Name == name {
			return hz, true
		}
	}
	return Hazard{}, false
}

// TakeReports returns the errors mods have had since the last call.
func (h *Host) TakeReports() []Report {
	r := h.reports
	h.reports = nil
	return r
}

// Log returns the lines a mod printed (print and game.log), the last
// Limits.MaxLog bytes.
func (h *Host) Log(id string) []string {
	for _, m := range h.mods {
		if m.mod.ID() == id {
			return m.log.Lines()
		}
	}
	return nil
}

// Attach attaches the host to g as its hooks; Disabled then reads g's
// record. When a mod reads tile motions (WantsMotions), g tracks them.
func (h *Host) Attach(g *engine.Game) {
	g.SetHooks(h)
	h.game = g
	if h.WantsMotions() {
		g.TrackMotions(true)
	}
}

// Disabled reports whether the mod with the given id is disabled in the
// current state of the game last attached (Attach) or moved (Move): the
// state's record says so, so undo past the disabling turn brings the mod
// back, and redo or a loaded save disables it again.
func (h *Host) Disabled(id string) bool {
	return h.game != nil && h.game.State().HookDisabled(id)
}

func (h *Host) load(mod *Mod) error {
	m := &modRun{host: h, mod: mod, key: dataKey(mod.ID()), budget: newBudget(), log: &logBuffer{max: h.limits.MaxLog}, modules: map[string]lua.LValue{}}
	m.L = newSandbox(h.limits, m.budget, m.log)
	m.meters = newMeters(m.L, m.budget)
	h.watchdog.add(m.budget, mod.ID())
	h.mods = append(h.mods, m)
	m.installAPI()
	m.rng = engine.DeriveRNG(h.opt.Seed, "mod:"+mod.ID())
	h.loading = m
	defer func() { h.loading = nil }()
	fn, err := m.compile(mod.Manifest.Entry)
	if err != nil {
		return err
	}
	m.budget.start(h.limits.LoadInstructions, loadReason(h.limits), h.limits.FailsafeTime)
	err = m.L.CallByParam(lua.P{Fn: fn, NRet: 0, Protect: true})
	used, stopped := m.budget.stop(h.limits.LoadInstructions)
	if err != nil {
		return m.report("load", err, stopped)
	}
	m.held.since += used
	if h.limits.MaxMemory > 0 && m.held.due(h.limits.MaxMemory) && m.weigh(h.limits.MaxMemory) {
		return &ModError{Report{Mod: mod.ID(), Event: "load", Message: h.heldReason}}
	}
	for ev, fns := range m.handlers {
		for _, fn := range fns {
			r := payloadReuse(fn.Proto, payloadScalars[ev])
			m.reuse[ev] = append(m.reuse[ev], r)
			if ev == int(evTick) {
				m.motions = append(m.motions, r == reuseNone || payloadReads(fn.Proto, "moves") || payloadReads(fn.Proto, "merged"))
			}
		}
	}
	// What the main chunk left in storage is where every game starts.
	if m.initial, err = m.save(); err != nil {
		return &ModError{Report{Mod: mod.ID(), Event: "load", Message: "storage: " + err.Error()}}
	}
	m.loaded, m.ran, m.rngUsed, m.rngFrom = m.initial, false, false, m.rng
	return nil
}

// compile reads and compiles one Lua file of the mod's folder; a file that
// lies (or links) outside the folder is refused.
func (m *modRun) compile(rel string) (*lua.LFunction, error) {
	src, err := m.mod.readFile(rel, MaxSource)
	if err != nil {
		return nil, fmt.Errorf("mod %s: %s: %v", m.mod.ID(), rel, err)
	}
	c, ok := cachedCompile(string(src), rel)
	if !ok {
		if err := checkSource(string(src)); err != nil {
			return nil, &ModError{Report{Mod: m.mod.ID(), Event: "load", File: rel, Message: err.Error()}}
		}
		if c, err = compileCached(string(src), rel); err != nil {
			return nil, m.report("load", err, stop{})
		}
	}
	fn, err := bindChunk(m.L, c.proto, m.meters)
	if err != nil {
		return nil, m.report("load", err, stop{})
	}
	m.touches = m.touches || c.touches
	return fn, nil
}

// insideDir returns the path of rel inside dir, following links, or an
// error when it does not exist or resolves outside dir.
func insideDir(dir, rel string) (string, error) {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", errors.New("the mod's folder cannot be read")
	}
	path, err := filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return "", errors.New("no such file in the mod's folder")
	}
	if r, err := filepath.Rel(root, path); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", errors.New("it lies outside the mod's folder")
	}
	return path, nil
}

var (
	luaWhere  = regexp.MustCompile(`^([A-Za-z0-9_./-]+\.lua):([0-9]+):\s*`)
	luaSyntax = regexp.MustCompile(`^([A-Za-z0-9_./-]+\.lua) line:([0-9]+)\(column:[0-9]+\)\s*`)
)

// report turns a Lua error into a *ModError naming the mod, the event, the
// file and line, with the traceback.
func (m *modRun) report(ev string, err error, stopped stop) *ModError {
	r := Report{Mod: m.mod.ID(), Event: ev}
	var api *lua.ApiError
	if errors.As(err, &api) {
		r.Message = safeString(api.Object)
		r.Traceback = api.StackTrace
		if api.Type == lua.ApiErrorSyntax && api.Cause != nil {
			r.Message = api.Cause.Error()
		}
	} else {
		r.Message = err.Error()
	}
	if loc := luaWhere.FindStringSubmatch(r.Message); loc != nil {
		r.File = loc[1]
		fmt.Sscan(loc[2], &r.Line)
		r.Message = r.Message[len(loc[0]):]
	} else if loc := luaWhere.FindStringSubmatch(firstTraceLine(r.Traceback)); loc != nil {
		r.File = loc[1]
		fmt.Sscan(loc[2], &r.Line)
	}
	if r.File == "" {
		if loc := luaSyntax.FindStringSubmatch(r.Message); loc != nil {
			r.File = loc[1]
			fmt.Sscan(loc[2], &r.Line)
			r.Message = r.Message[len(loc[0]):]
		}
	}
	if stopped.kind != notStopped {
		r.Message = stopped.reason
		r.Failsafe = stopped.kind == stopFailsafe
	}
	if strings.Contains(r.Message, "callstack overflow") {
		r.Message = "stack overflow (recursion too deep)"
	}
	if len(r.Message) > 512 {
		r.Message = r.Message[:512] + "…"
	}
	r.Message = printable(scrub(r.Message))
	r.Traceback = scrub(r.Traceback)
	return &ModError{r}
}

func firstTraceLine(tb string) string {
	for _, line := range strings.Split(tb, "\n") {
		line = strings.TrimSpace(line)
		if luaWhere.MatchString(line) {
			return line
		}
	}
	return ""
}

// call runs one handler under the mod's budgets and returns its first
// result.
func (h *Host) call(m *modRun, ev event, fn *lua.LFunction, arg lua.LValue) (lua.LValue, error) {
	n, over := h.limits.HandlerInstructions, h.callReason
	if remaining := h.limits.TurnInstructions - m.spent; remaining < n {
		n, over = remaining, h.turnReason
	}
	if n <= 0 {
		return nil, &ModError{Report{Mod: m.mod.ID(), Event: eventNames[ev], Message: h.turnReason}}
	}
	if h.limits.MaxMemory > 0 && m.held.bytes > h.limits.MaxMemory {
		// The mod held too much after its last call: it runs again only
		// once it holds less (a restored storage may have let go).
		if m.weigh(h.limits.MaxMemory) {
			return nil, &ModError{Report{Mod: m.mod.ID(), Event: eventNames[ev], Message: h.heldReason}}
		}
	}
	m.beforeCall()
	m.budget.start(n, over, h.limits.FailsafeTime)
	m.ran = true
	err := m.L.CallByParam(lua.P{Fn: fn, NRet: 1, Protect: true}, arg)
	used, stopped := m.budget.stop(n)
	m.spent += used
	m.held.since += used
	tooMuch := h.limits.MaxMemory > 0 && m.held.due(h.limits.MaxMemory) && m.weigh(h.limits.MaxMemory)
	if err != nil {
		return nil, m.report(eventNames[ev], err, stopped)
	}
	ret := m.L.Get(-1)
	m.L.Pop(1)
	if tooMuch {
		return nil, &ModError{Report{Mod: m.mod.ID(), Event: eventNames[ev], Message: h.heldReason}}
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

// payload returns the table of an event's payload for a handler: the
// mod's reused one where the handler cannot keep it (see payloadReuse),
// else a fresh one. Either way the caller sets every field.
func (m *modRun) payload(ev event, r reuse, n int) fields {
	if r == reuseNone {
		return fields{t: m.L.CreateTable(0, n)}
	}
	return m.payloads[ev].fields(m.L, n)
}

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
}

func (f fields) set(i int, key string, v lua.LValue) {
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
// *engine.Refusal.
func (h *Host) Move(g *engine.Game, d engine.Direction) (engine.Result, error) {
	h.game = g
	for _, m := range h.mods {
		m.spent, m.muted = 0, false
	}
	h.faults = h.faults[:0]
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
	for {
		h.begin(g)
		h.pending = h.pending[:0]
		err := g.Start()
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

// turnFaults returns the faults of the turn being played, in the recorded
// order when a recording is honoured (MoveAsRecorded): those the recording
// has first, as it has them, then any other.
func (h *Host) turnFaults() []engine.Fault {
	if len(h.recorded) == 0 || len(h.faults) < 2 {
		return h.faults
	}
	at := func(f engine.Fault) int {
		for i, r := range h.recorded {
			if r.Hook == f.Hook && r.Event == f.Event && r.Kind == f.Kind {
				return i
			}
		}
		return len(h.recorded)
	}
	slices.SortStableFunc(h.faults, func(a, b engine.Fault) int { return at(a) - at(b) })
	return h.faults
}

// failsafeFault is the message a failsafe stop keeps in the game's state.
const failsafeFault = "stopped by a failsafe (the wall clock or the memory watchdog)"

// fail mutes the mod of a failure for the rest of the move and readies its
// record for the turn, s being the state the move starts from: the
// failure, and a disable when it makes FailLimit turns in a row.
func (h *Host) fail(s *engine.State, me *ModError) {
	for _, m := range h.mods {
		if m.mod.ID() != me.Mod || m.muted {
			continue
		}
		m.muted = true
		kind, msg := engine.FaultError, me.Message
		if me.Failsafe {
			// Which failsafe fired, and where the call was when it did,
			// depend on the machine: the record keeps only that one did,
			// so the same game gives the same state everywhere. The report
			// says which.
			kind, msg = engine.FaultFailsafe, failsafeFault
		}
		h.faults = append(h.faults, engine.Fault{Hook: me.Mod, Event: me.Event, Kind: kind, Message: msg})
		if inARow := s.HookFailedInARow(me.Mod); inARow+1 >= FailLimit {
			me.Disabled = true
			h.faults = append(h.faults, engine.Fault{Hook: me.Mod, Event: me.Event, Kind: engine.FaultDisabled,
				Message: fmt.Sprintf("failed %d turns in a row", FailLimit)})
		}
	}
	h.reports = append(h.reports, me.Report)
}

// begin readies the mods for a move of g: which are disabled, and each
// mod's storage and random stream, come from the game's current state (so
// undo, redo, a loaded save and a failed attempt all start from what the
// state holds; storage.go keeps the live tables where they are the
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
// move's turn budget.
func (h *Host) BeforeMove(e *engine.MoveEvent) error {
	h.state = e.State
	for _, m := range h.mods {
		m.spent = 0
	}
	return h.each(evBeforeMove, func(m *modRun, i int, fn *lua.LFunction, r reuse) error {
		f := m.payload(evBeforeMove, r, 2)
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
			return &engine.Refusal{Reason: printable(m.mod.Manifest.Name + ": " + string(reason))}
		}
		return nil
	})
}

// AfterMerge shows each merge to the mods, which may change its result.
func (h *Host) AfterMerge(e *engine.MergeEvent) error {
	h.state = e.State
	return h.each(evAfterMerge, func(m *modRun, i int, fn *lua.LFunction, r reuse) error {
		L := m.L
		f := m.payload(evAfterMerge, r, 5)
		f.set(0, "row", number(e.Pos.Row))
		f.set(1, "col", number(e.Pos.Col))
		from, sources := m.lists[0], m.lists[1]
		if r != reuseNested || from == nil {
			from, sources = L.CreateTable(2, 0), L.CreateTable(2, 0)
			if r == reuseNested {
				m.lists = [2]*lua.LTable{from, sources}
			}
		}
		for i := 0; i < 2; i++ {
			var p fields
			if r == reuseNested {
				p = m.points[i].fields(L, 2)
			} else {
				p = fields{t: L.CreateTable(0, 2)}
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
		f := m.payload(evSpawn, r, 4)
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

// WantsMotions reports whether a mod reads tile motions (API version 2, a
// tick handler): the game must then track them (engine.Game.TrackMotions).
func (h *Host) WantsMotions() bool {
	for _, m := range h.mods {
		if m.mod.Manifest.APIVersion >= 2 && len(m.handlers[evTick]) > 0 {
			return true
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
		var f fields
		switch {
		case ev == evStart:
			f = m.payload(ev, r, 1)
			f.set(0, "turn", number(0))
		case m.mod.Manifest.APIVersion >= 2:
			f = m.payload(ev, r, 7)
		default:
			f = m.payload(ev, r, 5)
		}
		if ev == evTick {
			f.set(0, "turn", number(e.Turn))
			f.set(1, "dir", dirValue(e.Dir))
			f.set(2, "gained", h.scoreValue(e.Gained))
			f.set(3, "merges", number(e.Merges))
			f.set(4, "spawns", number(e.Spawns))
			if m.mod.Manifest.APIVersion >= 2 && m.motions[i] {
				// A handler that cannot read them gets neither
				// (payloadReads): they cost most of a turn.
				moves, merged := motionTables(m.L, e.Motions)
				f.set(5, "moves", moves)
				f.set(6, "merged", merged)
			}
		}
		ret, err := h.call(m, ev, fn, f.t)
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
		rec, err := m.save()
		if err != nil {
			return m.invalid(name, "storage: %v", err)
		}
		key := m.key
		if total < 0 {
			total = dataSize(e.State.Data)
		}
		if old, ok := e.State.Data[key]; ok {
			total -= len(key) + len(old)
		}
		if total += len(key) + len(rec); total > engine.MaxData {
			return m.invalid(name, "storage: the mods' storage together would hold %d bytes, more than the game keeps (%d)", total, engine.MaxData)
		}
		if rec != e.State.Data[key] {
			if e.Data == nil {
				e.Data = map[string]string{}
			}
			e.Data[key] = rec
		}
		// The live table is rec's now (save tidied it): the next move
		// plays it, unless the state changes underneath.
		m.loaded, m.ran, m.rngUsed, m.rngFrom = rec, false, false, m.rng
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

// tickRequests checks a tick or start handler's set, mark and unmark lists
// and adds them to the event, for the engine to apply.
func (m *modRun) tickRequests(ev string, req *lua.LTable, e *engine.TickEvent) error {
	h := m.host
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
	pos := func(key string, i int, item *lua.LTable) (engine.Pos, error) {
		var p engine.Pos
		var err error
		if p.Row, err = wholeIn(item.RawGetString("row"), 0, b.Height-1); err != nil {
			return p, m.invalid(ev, "%s[%d].row: %v", key, i, err)
		}
		if p.Col, err = wholeIn(item.RawGetString("col"), 0, b.Width-1); err != nil {
			return p, m.invalid(ev, "%s[%d].col: %v", key, i, err)
		}
		return p, nil
	}
	if err := list("set", func(i int, item *lua.LTable) error {
		if err := m.keys(item, ev, fmt.Sprintf("set[%d]", i), "row", "col", "cell"); err != nil {
			return err
		}
		p, err := pos("set", i, item)
		if err != nil {
			return err
		}
		cell, err := h.parseCell(item.RawGetString("cell"))
		if err != nil {
			return m.invalid(ev, "set[%d].cell: %v", i, err)
		}
		e.Edits = append(e.Edits, engine.Edit{Pos: p, Cell: cell})
		return nil
	}); err != nil {
		return err
	}
	for _, key := range []string{"mark", "unmark"} {
		remove := key == "unmark"
		if err := list(key, func(i int, item *lua.LTable) error {
			allowed := []string{"row", "col", "name", "turns", "count"}
			if remove {
				allowed = allowed[:3]
			}
			if err := m.keys(item, ev, fmt.Sprintf("%s[%d]", key, i), allowed...); err != nil {
				return err
			}
			p, err := pos(key, i, item)
			if err != nil {
				return err
			}
			hz, err := m.ownHazard(item.RawGetString("name"))
			if err != nil {
				return m.invalid(ev, "%s[%d].name: %v", key, i, err)
			}
			turns := 0
			if v := item.RawGetString("turns"); v != lua.LNil {
				if turns, err = wholeIn(v, 0, 1_000_000); err != nil {
					return m.invalid(ev, "%s[%d].turns: %v", key, i, err)
				}
			}
			count := 0
			if v := item.RawGetString("count"); v != lua.LNil {
				if count, err = wholeIn(v, 0, engine.MaxCount); err != nil {
					return m.invalid(ev, "%s[%d].count: %v", key, i, err)
				}
			}
			mark := engine.Mark{Pos: p, Name: hz.Name, Turns: turns, Block: hz.Blocks, Follow: hz.Follow, OnMerge: hz.OnMerge, Count: count}
			e.MarkEdits = append(e.MarkEdits, engine.MarkEdit{Mark: mark, Remove: remove})
			return nil
		}); err != nil {
			return err
		}
	}
	return nil
}

// ownHazard returns the hazard a mark request names: "name" for the mod's
// own hazard, or its full "modid:name"; a mod marks only with its own.
func (m *modRun) ownHazard(v lua.LValue) (Hazard, error) {
	s, ok := v.(lua.LString)
	if !ok {
		return Hazard{}, fmt.Errorf("want a hazard's name, got %s", describe(v))
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
	var bad error
	n := 0
	t.ForEach(func(k, _ lua.LValue) {
		n++
		if bad != nil {
			return
		}
		s, ok := k.(lua.LString)
		if !ok || !contains(allowed, string(s)) {
			bad = m.invalid(ev, "%s: unknown key %s (allowed: %s)", what, describe(k), strings.Join(allowed, ", "))
		}
	})
	return bad
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
	c, err := h.rules.ParseCell(text)
	if err != nil {
		return engine.Cell{}, err
	}
	return c, nil
}
