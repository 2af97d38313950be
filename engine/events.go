package engine

// Hooks receives the game's events. The engine calls them from the goroutine
// that calls Move; it works with none attached (a nil Hooks).
//
// A hook may change the fields of its event that the event's documentation
// names; the engine validates the change with the ruleset and applies it. A
// hook that returns an error, or asks for something invalid, makes the whole
// step fail: the game stays exactly as it was before the step, and the step
// returns a *HookError (or, from BeforeMove, the hook's *Refusal).
type Hooks interface {
	// BeforeMove is called before a move is tried; returning a *Refusal
	// refuses the move, with a reason for the player.
	BeforeMove(*MoveEvent) error
	// AfterMerge is called for each merge, in resolution order.
	AfterMerge(*MergeEvent) error
	// OnSpawn is called for each spawn before the spawned cell is placed.
	OnSpawn(*SpawnEvent) error
	// OnTick is called once per finished turn (a move that changed the
	// board), after its spawns, with the turn's totals.
	OnTick(*TickEvent) error
}

// StartHook is Hooks that also hear of a new game's beginning
// (Game.Start).
type StartHook interface {
	// OnStart is called once when a new game begins, after its initial
	// spawns, with a TickEvent of turn 0 (no direction, no totals, no
	// motions); its edits, marks and data apply to the game's first state.
	OnStart(*TickEvent) error
}

// MoveEvent is the payload of BeforeMove. State is the game's state before
// the move; hooks must not change it.
type MoveEvent struct {
	Dir   Direction
	State *State
}

// MergeEvent is the payload of AfterMerge: two cells that started at From[0]
// (the one nearer the edge the move goes toward) and From[1] merged into
// Result at Pos. A hook may replace Result with another cell the ruleset
// allows (not an empty one); the rules score the result that stands.
// State is the turn's state as built so far; hooks must not change it.
type MergeEvent struct {
	Pos     Pos
	From    [2]Pos
	Sources [2]Cell
	Result  Cell
	State   *State
}

// SpawnEvent is the payload of OnSpawn: Cell is about to be placed at Pos.
// Scripted tells whether it comes from the spawn queue (rather than the
// random source). A hook may change Pos and Cell (to an empty cell on the
// board and a cell the ruleset can spawn) or set Cancel to place nothing.
// State is the turn's state as built so far; hooks must not change it.
type SpawnEvent struct {
	Pos      Pos
	Cell     Cell
	Scripted bool
	Cancel   bool
	State    *State
}

// TickEvent is the payload of OnTick, once per finished turn. A hook may
// append Edits (cells to put on the board, each checked by the ruleset),
// MarkEdits (marks to set or remove) and Data (values to keep in the
// state's Data; an empty value deletes its key); they are applied in that
// order after the hook returns, and the game's status is then worked out
// again. Faults are failures of hooks to keep in the turn's state (see
// Fault; the engine sets their Turn). State is the turn's finished state;
// hooks must not change it.
type TickEvent struct {
	Dir    Direction
	Turn   int   // the number of the turn just finished, from 1
	Gained Score // score gained this turn
	Merges int
	Spawns int
	State  *State
	// Motions are the turn's tile motions and merges, when the game
	// tracks them (Game.TrackMotions); nil otherwise.
	Motions *Motions
	// Expired are the marks whose turns ran out this turn (they are off
	// the board already), for the mods' expire event.
	Expired   []Mark
	Edits     []Edit
	MarkEdits []MarkEdit
	Data      map[string]string
	Faults    []Fault
}

// Edit puts Cell at Pos.
type Edit struct {
	Pos  Pos
	Cell Cell
	By   string // who asked for it (a mod's id), for Blame; the engine does not read it
}

// HookFuncs adapts plain functions to Hooks; a nil function does nothing.
type HookFuncs struct {
	BeforeMoveFunc func(*MoveEvent) error
	AfterMergeFunc func(*MergeEvent) error
	OnSpawnFunc    func(*SpawnEvent) error
	OnTickFunc     func(*TickEvent) error
	OnStartFunc    func(*TickEvent) error
}

// BeforeMove calls BeforeMoveFunc if it is set.
func (h HookFuncs) BeforeMove(e *MoveEvent) error { return call(h.BeforeMoveFunc, e) }

// AfterMerge calls AfterMergeFunc if it is set.
func (h HookFuncs) AfterMerge(e *MergeEvent) error { return call(h.AfterMergeFunc, e) }

// OnSpawn calls OnSpawnFunc if it is set.
func (h HookFuncs) OnSpawn(e *SpawnEvent) error { return call(h.OnSpawnFunc, e) }

// OnTick calls OnTickFunc if it is set.
func (h HookFuncs) OnTick(e *TickEvent) error { return call(h.OnTickFunc, e) }

// OnStart calls OnStartFunc if it is set.
func (h HookFuncs) OnStart(e *TickEvent) error { return call(h.OnStartFunc, e) }

func call[E any](f func(*E) error, e *E) error {
	if f == nil {
		return nil
	}
	return f(e)
}
