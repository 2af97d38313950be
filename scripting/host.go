package scripting

import (
	"fmt"
	"github.com/mod2048/mod2048/scripting/mod"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"
	"github.com/mod2048/mod2048/scripting/internal/sandbox"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/internal/workcount"
)

// The host's files, by concern (each with its tests, NAME_test.go). The
// guarded Lua runtime the mods run in (the budget, the watchdog, the
// metered `..`, the pattern matcher, the library templates, the compile
// cache, value formatting, the memory walk) is package internal/sandbox,
// over our gopher-lua, internal/lua (its PATCHES.md lists our changes);
// this package hosts the mods in it:
//   - host.go: the Host and the state of each of its mods;
//   - limits.go: the Limits, and the errors of spent budgets;
//   - load.go: NewHost, loading a mod's files (compiled once a process by
//     the sandbox) and the API it gets (api.go);
//   - events.go: the engine's events dispatched to the handlers, and the
//     moves and turns around them (dryrun.go, forkhooks.go: the dry runs);
//     expire.go: the expire event;
//   - values.go and values_*.go: every conversion between a Lua value and
//     a Go value, and nowhere else (values.go's banner lists them): the
//     payloads, what handlers return checked and made engine requests
//     (values_requests.go), a mod's storage from turn to turn
//     (values_storage.go), the values boxed once and the tables reused
//     (values_reuse.go); their tests are requests_test.go, storage_*_test.go
//     and reuse_*test.go;
//   - cells.go, edits.go: game.cells, and game.set, game.mark and
//     game.unmark (API version 2);
//   - memory.go: the memory budgets, a mod's and the game's;
//   - reports.go: a mod's errors, faults, disables and log, and the
//     cost-model error of a deterministic host's failsafe stop.

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

// Host runs a game's mods. It implements engine.Hooks; play moves through
// Host.Move, which handles a failing mod.
type Host struct {
	limits Limits
	// deterministic: a failsafe's stop is the run's end (CostModelError),
	// not a mod's failure; failed is that end, once it came.
	deterministic bool
	failed        *CostModelError
	rules         engine.Rules
	rulesKey      string // rulesName's, worked out on first use
	opt           engine.Options
	mods          []*modRun
	hazards       []Hazard
	watchdog      *sandbox.Watchdog
	reports       []Report
	// The errors of a spent budget, made once.
	callReason, turnReason, heldReason string
	gameReason, builtReason            string
	beforeMoveReason, dryTurnReason    string
	// inMove: Move plays a turn (its attempts share the turn's budget);
	// otherwise each BeforeMove opens a turn of its own (a fork's move, a
	// dry run, a game moved without Move).
	inMove bool
	// instructions is what the mods' calls have run in all (Instructions).
	instructions int64
	state        *engine.State  // the state the running event reads
	loading      *modRun        // the mod whose main chunk runs, while mods load
	game         *engine.Game   // the game last attached or moved
	recorded     []engine.Fault // the recorded turn's faults, while MoveAsRecorded plays it
	faults       []engine.Fault
	cells        boxes[engine.Cell, lua.LValue]  // cellValue's boxes
	scores       boxes[engine.Score, lua.LValue] // scoreValue's boxes
	names        boxes[string, lua.LValue]       // nameValue's boxes
	texts        boxes[engine.Cell, string]      // cellString's texts
	parsed       boxes[string, engine.Cell]      // parseCell's cells, by text
	// pending are the notices of the move being tried; notices those of
	// the moves played (notice.go).
	pending, notices []Notice
}

type modRun struct {
	host *Host
	mod  *mod.Mod
	// required is the last file require could not compile or read, and
	// what it raised: a load that fails with that error is located in
	// the required file, not at the require.
	required struct {
		err    error
		raised string
	}
	key     string // the key of its record in the state's Data
	L       *lua.LState
	budget  *sandbox.Budget
	own     map[string]Hazard // the mod's hazards, by short and full name (ownHazard)
	lastOwn struct {          // the hazard ownHazard found last
		name string
		hz   Hazard
		ok   bool
	}
	cellFlags  []uint8        // game.cells' scratch
	cellsOut   []int          // game.cells' scratch
	filters    [4]cellsFilter // game.cells' filters read last (cellsFilter)
	nextFilter int
	edits      editing        // the turn game.set, game.mark and game.unmark change (edits.go)
	meters     sandbox.Meters // the mod's `..` and `...` (internal/sandbox/concat.go)
	held       held           // what the mod holds (memory.go)
	log        *sandbox.Log
	handlers   [numEvents][]*lua.LFunction
	filter     [numEvents][]handlerFilter // per handler: its filter (game.on's third argument)
	reuse      [numEvents][]reuse         // per handler: what of its payload the host may reuse
	reads      [numEvents][]uint8         // per handler: the payload's fields it may read, a bit each (payloadKeys' order)
	payloads   [numEvents]payloadBox      // the payloads reused, made on first use
	lists      [2]*lua.LTable             // after_merge's from and sources, reused
	points     [2]payloadBox              // after_merge's from[1] and from[2], reused
	touches    bool                       // the mod's code can reach storage (mentionsStorage)
	disabled   bool                       // the state's record disables the mod (set by begin)
	muted      bool                       // off for the rest of this move, after an error in it
	spent      int64                      // instructions run in this turn
	spentBM    int64                      // instructions run in this evaluation of before_move
	// Storage (values_storage.go): the live table and the random stream are
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

// rulesName tells the rules' kind apart from others' (the caches every
// host shares, values_reuse.go): their Go type and name, whose FormatCell writes
// a cell. It is worked out when a cache first asks, not for every new
// host.
func (h *Host) rulesName() string {
	if h.rulesKey == "" {
		h.rulesKey = fmt.Sprintf("%T %s", h.rules, h.rules.Name())
	}
	return h.rulesKey
}

// Close ends the mods' Lua states.
func (h *Host) Close() {
	for _, m := range h.mods {
		workcount.Step()
		h.watchdog.Remove(m.budget)
		m.L.Close()
	}
}

// callLua calls a handler with its payload, protected, for one result,
// which result then takes off the stack.
func (m *modRun) callLua(fn handler, arg value) error {
	return m.L.CallByParam(lua.P{Fn: fn, NRet: 1, Protect: true}, arg)
}

// result takes the result of the call callLua made off the stack.
func (m *modRun) result() value {
	ret := m.L.Get(-1)
	m.L.Pop(1)
	return ret
}

// Mods returns the loaded mods, in load order.
func (h *Host) Mods() []*mod.Mod {
	out := make([]*mod.Mod, len(h.mods))
	for i, m := range h.mods {
		workcount.Step()
		out[i] = m.mod
	}
	return out
}

// Hazards returns the hazards the mods defined, in load order.
func (h *Host) Hazards() []Hazard { return append([]Hazard(nil), h.hazards...) }

// Hazard returns the hazard of a mark's name.
func (h *Host) Hazard(name string) (Hazard, bool) {
	for _, hz := range h.hazards {
		workcount.Step()
		if hz.Name == name {
			return hz, true
		}
	}
	return Hazard{}, false
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

// Instructions returns how many instructions the mods' handler calls have
// run on this host in all, dry runs and forks included: what a move cost
// them is the difference across it.
func (h *Host) Instructions() int64 { return h.instructions }
