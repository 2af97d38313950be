package engine

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"sort"
)

// State is everything a game is at one moment: what undo restores, what a
// save holds. Rules change the State of a turn in place; everyone else reads
// it.
type State struct {
	Board  Board
	Score  Score
	Status Status
	Turn   int               // the number of turns played (moves that changed the board)
	RNG    RNG               // the random source, as it stands
	Next   int               // the spawn-queue cursor: the index of the next entry to use
	Vars   map[string]int64  // counters the ruleset and mods keep for the whole game
	Data   map[string]string // data mods keep with the game (their storage); never changed in place, so states may share it
	Marks  []Mark            // the marks on the board, in position and name order
	Faults []Fault           // the hooks' failures, in turn order (see Fault)
	// Tiles holds, while the game tracks motions (Game.TrackMotions), the
	// identity of the tile on each cell (0: no tile), and NextTile the next
	// identity to give; nil and 0 otherwise.
	Tiles    []uint32
	NextTile uint32
}

// copyFrom makes s a copy of o, reusing s's cells when they fit.
func (s *State) copyFrom(o *State) {
	cells := s.Board.Cells
	if cap(cells) < len(o.Board.Cells) {
		cells = make([]Cell, len(o.Board.Cells))
	}
	cells = cells[:len(o.Board.Cells)]
	copy(cells, o.Board.Cells)
	var marks []Mark
	if len(o.Marks) > 0 {
		marks = append(s.Marks[:0], o.Marks...)
	}
	var faults []Fault
	if len(o.Faults) > 0 {
		faults = append(s.Faults[:0], o.Faults...)
	}
	var tiles []uint32
	if o.Tiles != nil {
		tiles = append(s.Tiles[:0], o.Tiles...)
	}
	vars := s.Vars
	*s = *o
	s.Board.Cells = cells
	s.Marks, s.Faults, s.Tiles = marks, faults, tiles
	s.Vars = copyMap(vars, o.Vars)
	// Data is never changed in place (applyRequests makes a new map), so
	// the states of the history share it.
	s.Data = o.Data
}

// copyMap returns a copy of src, made in dst (a map of the state being
// overwritten, which no other state shares) when there is one.
func copyMap[V any](dst, src map[string]V) map[string]V {
	if src == nil {
		return nil
	}
	if dst == nil {
		return maps.Clone(src)
	}
	clear(dst)
	maps.Copy(dst, src)
	return dst
}

// Clone returns a copy of s that shares nothing with it.
func (s *State) Clone() State {
	var c State
	c.copyFrom(s)
	c.Data = maps.Clone(s.Data)
	return c
}

// Options are the ruleset-independent settings of a game.
type Options struct {
	Width, Height int
	// Seed seeds the random source.
	Seed uint64
	// UndoLimit is how many moves Undo can take back: 0 disables undo and
	// redo, a negative limit keeps every move.
	UndoLimit int
	// ScriptedOnly makes the game spawn only from its spawn queue: a spawn
	// with the queue empty is ErrNoSpawn. Fixtures without a seed use it.
	ScriptedOnly bool
}

// MaxBoardCells bounds the number of cells of a board, so that a hostile
// configuration or save cannot ask for gigabytes.
const MaxBoardCells = 1 << 16

func (o Options) check() error {
	if o.Width < 1 || o.Height < 1 {
		return fmt.Errorf("board size %d×%d: both sides must be at least 1", o.Width, o.Height)
	}
	if o.Width > MaxBoardCells || o.Height > MaxBoardCells || o.Width*o.Height > MaxBoardCells {
		return fmt.Errorf("board size %d×%d: at most %d cells", o.Width, o.Height, MaxBoardCells)
	}
	return nil
}

// SpawnEntry is one entry of the spawn queue: Cell to spawn at Pos. An entry
// whose value the ruleset could not read keeps the value as written in Text
// and the reason in Invalid: the step that comes to it fails.
type SpawnEntry struct {
	Pos     Pos
	Cell    Cell
	Text    string
	Invalid error
}

// InvalidSpawn returns a queue entry for a value the ruleset could not read.
func InvalidSpawn(p Pos, text string, err error) SpawnEntry {
	return SpawnEntry{Pos: p, Text: text, Invalid: err}
}

// Result tells what a move did.
type Result struct {
	Changed bool  // the board changed; false for a no-op
	Gained  Score // the score the move gained
	Merges  int
	Spawns  int
}

// Game is one game of a ruleset: its current state, the spawn queue, undo
// and redo history and the attached hooks. A Game is not safe for concurrent
// use.
type Game struct {
	rules Rules
	opt   Options
	hooks Hooks

	bufs      [2]State     // the current state and the scratch one a turn is built in
	cur, next *State       // point into bufs; a finished turn swaps them
	queue     []SpawnEntry // append-only; states keep a cursor into it

	history ring     // the states Undo goes back to, oldest first
	future  []State  // the states Redo goes forward to, the next last
	spare   [][]Cell // cell buffers of dropped states, for reuse

	tracking bool // the game records its moves' motions (TrackMotions)
	// recording: this move records its motions, because the game tracks
	// them or a follow mark needs them.
	recording bool
	motions   Motions // the last move's, while tracking
	// slow turns the classic 4×4 fast path off (fast4.go), for the tests
	// that hold the two paths together. packedOK says that the fast path
	// applies and packed is the current board packed for it: the fast
	// path sets it, and whatever else replaces the current state, or
	// attaches hooks or tracks motions, drops it. While stale, the current
	// state's cells still hold the board synced, and sync writes packed's
	// into them: the fast path's moves write no cells.
	slow     bool
	packed   uint64
	packedOK bool
	stale    bool
	synced   uint64

	// moves, when set (CountMoves), counts the moves this game and its
	// forks play.
	moves *uint64

	turn    Turn
	expired []Mark // the marks the last move's ageing removed, while hooked
	moveEv  MoveEvent
	tickEv  TickEvent
	applied []AppliedEdit // the cell edits of the last move or start (LastEdits)
	mergeEv MergeEvent
	spawnEv SpawnEvent
}

// New starts a new game: an empty board that the rules set up (classic:
// the initial spawns, from the queue given here first, then the random
// source).
func New(rules Rules, opt Options, queue ...SpawnEntry) (*Game, error) {
	if err := checkNew(rules, opt); err != nil {
		return nil, err
	}
	g, err := newGame(rules, opt, NewBoard(opt.Width, opt.Height), queue)
	if err != nil {
		return nil, err
	}
	g.turn = Turn{State: g.next, g: g}
	g.next.copyFrom(g.cur)
	if err := rules.Setup(&g.turn); err != nil {
		return nil, err
	}
	g.cur, g.next = g.next, g.cur
	return g, nil
}

// NewFromBoard starts a game from board as it is: no spawns, score 0, empty
// history. The rules settle its status (classic: Lost if no move changes it,
// Won (continue) if it already holds a winning tile).
func NewFromBoard(rules Rules, opt Options, board Board) (*Game, error) {
	if err := checkNew(rules, opt); err != nil {
		return nil, err
	}
	if board.Width != opt.Width || board.Height != opt.Height || len(board.Cells) != board.Width*board.Height {
		return nil, fmt.Errorf("board is %d×%d, options say %d×%d", board.Width, board.Height, opt.Width, opt.Height)
	}
	for i, c := range board.Cells {
		if err := rules.CheckCell(c); err != nil {
			return nil, fmt.Errorf("cell %v: %w", board.PosOf(i), err)
		}
	}
	g, err := newGame(rules, opt, board.Clone(), nil)
	if err != nil {
		return nil, err
	}
	rules.Settle(g.cur)
	return g, nil
}

// checkNew checks the rules (those with a Validate method) and options of a
// new game before anything is allocated for it.
func checkNew(rules Rules, opt Options) error {
	if rules == nil {
		return errors.New("no rules")
	}
	if v, ok := rules.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return err
		}
	}
	return opt.check()
}

func newGame(rules Rules, opt Options, board Board, queue []SpawnEntry) (*Game, error) {
	if err := checkNew(rules, opt); err != nil {
		return nil, err
	}
	g := &Game{rules: rules, opt: opt}
	g.cur, g.next = &g.bufs[0], &g.bufs[1]
	*g.cur = State{Board: board, RNG: NewRNG(opt.Seed)}
	g.queue = append([]SpawnEntry(nil), queue...)
	return g, nil
}

// Rules returns the game's ruleset.
func (g *Game) Rules() Rules { return g.rules }

// Options returns the game's options.
func (g *Game) Options() Options { return g.opt }

// SetHooks attaches h (nil detaches).
func (g *Game) SetHooks(h Hooks) {
	g.sync()
	g.hooks, g.packedOK = h, false
}

// Hooked reports whether the game has hooks: a search that plays the rules
// by itself (a packed board) would not see them.
func (g *Game) Hooked() bool { return g.hooks != nil }

// State returns the current state. It is the game's own: read it, do not
// change it, and do not keep it across calls that change the game.
func (g *Game) State() *State {
	g.sync()
	return g.cur
}

// Board returns a copy of the current board.
func (g *Game) Board() Board {
	g.sync()
	return g.cur.Board.Clone()
}

// Score returns the current score.
func (g *Game) Score() Score { return g.cur.Score }

// Status returns the current status.
func (g *Game) Status() Status { return g.cur.Status }

// AddSpawns appends entries to the spawn queue. They are checked when they
// are used: a step whose spawn names an occupied cell, a cell off the board
// or a cell the ruleset cannot spawn fails.
func (g *Game) AddSpawns(entries ...SpawnEntry) {
	g.queue = append(g.queue, entries...)
}

// Queue returns the spawn-queue entries not yet used.
func (g *Game) Queue() []SpawnEntry {
	return append([]SpawnEntry(nil), g.queue[g.cur.Next:]...)
}

// Remaining returns the number of spawn-queue entries not yet used.
func (g *Game) Remaining() int { return len(g.queue) - g.cur.Next }

// Legal reports whether a move in direction d would be accepted and change
// the board.
func (g *Game) Legal(d Direction) bool {
	if !d.Valid() || g.cur.Status.Over() {
		return false
	}
	if p, ok := g.fastClassic(); ok {
		return legal4(p).Has(d)
	}
	return g.rules.Changes(g.cur, d)
}

// LegalMoves returns the directions that would change the board: none when
// the game is over.
func (g *Game) LegalMoves() DirSet {
	if g.cur.Status.Over() {
		return 0
	}
	if p, ok := g.fastClassic(); ok {
		return legal4(p)
	}
	var s DirSet
	for _, d := range Directions {
		if g.Legal(d) {
			s = s.With(d)
		}
	}
	return s
}

// CanMove reports whether any move would change the board.
func (g *Game) CanMove() bool { return g.LegalMoves() != 0 }

// Move plays one move. A move that changes nothing is a no-op: it returns
// a zero Result and no error, and changes nothing, not even the history. A
// move in a game that is over (Lost, or Won with stop on win) is such a
// no-op too, as seeds/000 C13 and §17 ("ignore further moves") and the
// original game have it: no spawn, no score, no history, no turn, and no
// hook hears of it; Status says why. A move that fails returns an error and
// leaves the game exactly as it was: a *Refusal or *HookError from hooks, a
// *SpawnError or ErrNoSpawn from the spawn queue.
func (g *Game) Move(d Direction) (res Result, err error) {
	if !d.Valid() {
		return Result{}, fmt.Errorf("invalid direction %v", d)
	}
	if g.cur.Status.Over() {
		return Result{}, nil
	}
	if g.moves != nil {
		*g.moves++
	}
	if p, ok := g.fastClassic(); ok && g.moveFast(p, d, &res) {
		return res, nil
	}
	g.sync()
	if g.hooks != nil {
		g.applied = g.applied[:0] // only hooks edit cells (LastEdits)
		g.moveEv = MoveEvent{Dir: d, State: g.cur}
		err := g.hooks.BeforeMove(&g.moveEv)
		g.moveEv = MoveEvent{}
		if err != nil {
			var ref *Refusal
			if errors.As(err, &ref) {
				return Result{}, ref
			}
			return Result{}, &HookError{Event: "before move", Err: err}
		}
	}
	g.next.copyFrom(g.cur)
	t := &g.turn
	*t = Turn{Dir: d, State: g.next, g: g}
	g.recording = g.tracking || g.cur.hasFollow()
	if g.recording {
		g.motions.Moves, g.motions.Merged = g.motions.Moves[:0], g.motions.Merged[:0]
	}
	changed, err := g.rules.Play(t)
	if err != nil || !changed {
		return Result{}, err
	}
	if g.next.Turn < math.MaxInt {
		g.next.Turn++
	}
	if g.recording {
		g.next.followMarks(&g.motions)
	}
	var expired *[]Mark
	if g.hooks != nil {
		g.expired = g.expired[:0]
		expired = &g.expired
	}
	if g.next.ageMarks(expired) {
		// The rules settled the status with the mark still standing: a
		// thawed cell may open a move (or close one), so settle again.
		g.rules.Settle(g.next)
	}
	if g.hooks != nil {
		if err := g.tick(t); err != nil {
			return Result{}, err
		}
	}
	if g.tracking {
		g.next.identify(g.cur, &g.motions)
	} else {
		g.next.Tiles, g.next.NextTile = nil, 0
	}
	g.push()
	g.cur, g.next = g.next, g.cur
	g.packedOK = false
	return Result{Changed: true, Gained: t.Gained, Merges: t.Merges, Spawns: t.Spawns}, nil
}

// ErrStarted is Start's error for a game that has begun: it has a turn,
// or a history.
var ErrStarted = errors.New("the game has begun: a start hook runs only on a new game")

// Start tells the hooks (when they are a StartHook) that a new game
// begins, and applies what they ask for to its first state: cell edits,
// marks and data, checked as a tick's are. It is for a new game, before its
// first move; a failed start leaves the game exactly as it was.
func (g *Game) Start() error {
	h, ok := g.hooks.(StartHook)
	if !ok {
		return nil
	}
	if g.cur.Turn != 0 || g.history.len() > 0 || len(g.future) > 0 {
		return ErrStarted
	}
	g.sync()
	g.next.copyFrom(g.cur)
	g.applied = g.applied[:0]
	ev := &g.tickEv
	*ev = TickEvent{State: g.next, Edits: ev.Edits[:0], MarkEdits: ev.MarkEdits[:0], Faults: ev.Faults[:0]}
	if err := g.runHook("on start", h.OnStart, ev); err != nil {
		return err
	}
	if g.cur.Tiles != nil {
		// The tiles that were there keep their identities.
		var stay Motions
		for i, c := range g.cur.Board.Cells {
			if c.Kind != KindEmpty && g.next.Board.Cells[i].Kind != KindEmpty {
				p := g.cur.Board.PosOf(i)
				stay.Moves = append(stay.Moves, Motion{From: p, To: p})
			}
		}
		g.next.identify(g.cur, &stay)
	}
	g.cur, g.next = g.next, g.cur
	g.packedOK = false
	return nil
}

// tick runs the OnTick hook on the finished turn and applies its edits.
func (g *Game) tick(t *Turn) error {
	ev := &g.tickEv
	*ev = TickEvent{Dir: t.Dir, Turn: t.State.Turn, Gained: t.Gained, Merges: t.Merges, Spawns: t.Spawns, State: t.State,
		Expired: g.expired, Edits: ev.Edits[:0], MarkEdits: ev.MarkEdits[:0], Faults: ev.Faults[:0]}
	if g.tracking {
		ev.Motions = &g.motions
	}
	return g.runHook("on tick", g.hooks.OnTick, ev)
}

// runHook runs the OnTick or OnStart hook on ev and applies what it asks
// for to ev's state: cell edits, marks, data and the hooks' faults.
func (g *Game) runHook(name string, hook func(*TickEvent) error, ev *TickEvent) error {
	s := ev.State
	err := hook(ev)
	ev.State = nil
	if err != nil {
		return &HookError{Event: name, Err: err}
	}
	if err := g.applyRequests(s, ev.Edits, ev.MarkEdits, ev.Data); err != nil {
		return &HookError{Event: name, Err: err}
	}
	if err := s.recordFaults(ev.Faults); err != nil {
		return &HookError{Event: name, Err: err}
	}
	ev.Data = nil
	return nil
}

// MaxData bounds the bytes of a state's Data, keys and values together.
const MaxData = 1 << 20

// applyRequests applies a hook's cell edits, mark edits and data to s, each
// checked, and settles the status when the board changed.
func (g *Game) applyRequests(s *State, edits []Edit, marks []MarkEdit, data map[string]string) error {
	b := &s.Board
	for _, e := range edits {
		if !b.In(e.Pos) {
			return fmt.Errorf("edit at %v is off the %d×%d board", e.Pos, b.Width, b.Height)
		}
		if err := g.rules.CheckCell(e.Cell); err != nil {
			return fmt.Errorf("edit at %v: %w", e.Pos, err)
		}
		g.applied = append(g.applied, AppliedEdit{Edit: e, Was: b.At(e.Pos)})
		b.Set(e.Pos, e.Cell)
	}
	for _, m := range marks {
		if err := s.applyMarkEdit(m); err != nil {
			return err
		}
	}
	if len(data) > 0 {
		keys := make([]string, 0, len(data))
		for k := range data {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		// A new map, never the old one changed: the history's states
		// share their maps (copyFrom).
		nd := maps.Clone(s.Data)
		for _, k := range keys {
			if k == "" {
				return errors.New("data key is empty")
			}
			if data[k] == "" {
				delete(nd, k)
				continue
			}
			if nd == nil {
				nd = map[string]string{}
			}
			nd[k] = data[k]
		}
		size := 0
		for k, v := range nd {
			size += len(k) + len(v)
		}
		s.Data = nd
		if size > MaxData {
			return fmt.Errorf("data holds %d bytes, more than %d", size, MaxData)
		}
	}
	if len(edits) > 0 || len(marks) > 0 {
		g.rules.Settle(s)
		// An edit may not take away what the status stands on (the
		// winning tile of a won classic game): a save of the game would
		// not load.
		if c, ok := g.rules.(StatusChecker); ok {
			if err := c.CheckStatus(s); err != nil {
				return fmt.Errorf("the edits leave a status that does not fit the board: %w", err)
			}
		}
	}
	return nil
}

// push records the current state in the history before a move replaces it,
// and clears the redo stack.
func (g *Game) push() {
	for i := range g.future {
		g.recycle(&g.future[i])
	}
	g.future = g.future[:0]
	if g.opt.UndoLimit == 0 {
		return
	}
	g.sync()
	s := g.history.slot(g.opt.UndoLimit)
	if n := len(g.spare); s.Board.Cells == nil && n > 0 {
		s.Board.Cells = g.spare[n-1]
		g.spare = g.spare[:n-1]
	}
	s.copyFrom(g.cur)
}

func (g *Game) recycle(s *State) {
	if s.Board.Cells != nil {
		g.spare = append(g.spare, s.Board.Cells)
	}
	*s = State{}
}

// Undo takes back the last move: the board, score, status, random source and
// spawn-queue cursor return to what they were before it.
func (g *Game) Undo() error {
	if g.opt.UndoLimit == 0 {
		return ErrUndoDisabled
	}
	if g.history.len() == 0 {
		return ErrNothingToUndo
	}
	g.sync()
	g.future = append(g.future, *g.cur)
	*g.cur = g.history.pop()
	g.packedOK = false
	return nil
}

// Redo plays again the last move taken back by Undo.
func (g *Game) Redo() error {
	if g.opt.UndoLimit == 0 {
		return ErrUndoDisabled
	}
	n := len(g.future)
	if n == 0 {
		return ErrNothingToRedo
	}
	// The history had room for the state Undo took from it.
	g.sync()
	g.history.push(*g.cur, 0)
	*g.cur = g.future[n-1]
	g.packedOK = false
	g.future[n-1] = State{}
	g.future = g.future[:n-1]
	return nil
}

// HistoryLen returns how many moves Undo and Redo can take back and replay.
func (g *Game) HistoryLen() (undo, redo int) { return g.history.len(), len(g.future) }

// KeepPlaying turns a Won game (stop on win) into Won (continue), the
// original game's "Keep going": the player plays on until the game is lost.
// It is not a move and is not recorded in the history.
func (g *Game) KeepPlaying() error {
	if g.cur.Status != Won {
		return fmt.Errorf("%w (%s)", ErrNotWon, g.cur.Status)
	}
	g.sync()
	g.cur.Status = WonContinue
	g.rules.Settle(g.cur)
	return nil
}
