package engine

// Property-based tests of the classic ruleset, after the invariants of
// seeds/000 (§7.4 and §20) and the correctness properties of seeds/002
// (Properties 1–11). Every property plays random games on random square
// boards of sizes 2 to 8 and checks one invariant after every step; the
// moves are checked against propRefMove, a deliberately plain reference
// implementation of a move written here (compress, merge pairs from the
// front, compress), which shares no code with the engine.
//
// Status rules these tests hold the engine to: a merge that creates a tile at
// or above the win value while the game is Playing makes it Won (stop on win:
// no spawn, further moves ignored) or Won (continue) (the spawn happens); a
// board given to NewFromBoard starts Lost if no move changes it and it holds
// a tile, else Won (continue) if it holds a winning tile; LegalMoves is empty
// in Won and Lost. A move in a Won (stop) or Lost game is ignored: a no-op,
// no error.

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/big"
	"reflect"
	"testing"

	"pgregory.net/rapid"
)

// ---------------------------------------------------------------------------
// Generators.

// propGenSize draws a board side from 2 to 8.
func propGenSize(t *rapid.T) int {
	return rapid.SampledFrom([]int{2, 3, 4, 4, 5, 6, 7, 8}).Draw(t, "n")
}

// propGenRules draws valid classic rules: a win value (from 8, as Validate
// requires: above any spawn) that merges often reach or one far away, stop on
// win or not, and a four probability that is sometimes 0 or 1 so that the
// spawned value is known.
func propGenRules(t *rapid.T) *Classic {
	r := NewClassic()
	winLog := rapid.OneOf(rapid.IntRange(3, 12), rapid.IntRange(13, 24)).Draw(t, "winLog")
	r.WinValue = uint64(1) << winLog
	r.StopOnWin = rapid.Bool().Draw(t, "stopOnWin")
	r.FourProbability = rapid.SampledFrom([]float64{0.1, 0, 1, 0.5}).Draw(t, "fourP")
	if err := r.Validate(); err != nil {
		t.Fatalf("generated rules: %v", err)
	}
	return r
}

// propLevelBands are the ranges board levels are drawn from: small levels
// (frequent merges), levels around 15 and 16 (the 4×4 lookup table holds
// levels up to 15), and now and then levels past 2^63 (scores beyond 64 bits)
// or at MaxLevel (tiles that no longer merge).
var propLevelBands = [][2]int{{1, 1}, {1, 2}, {1, 3}, {1, 4}, {1, 6}, {1, 11}, {1, 16}, {12, 20}, {1, 20}, {60, 66}, {MaxLevel - 4, MaxLevel}}

// propGenBoard draws an n×n board: some share of empty cells, and tiles of
// one band of levels.
func propGenBoard(t *rapid.T, n int) Board {
	band := rapid.SampledFrom(propLevelBands).Draw(t, "levels")
	emptyPct := rapid.IntRange(0, 100).Draw(t, "emptyPct")
	b := NewBoard(n, n)
	for i := range b.Cells {
		if rapid.IntRange(0, 99).Draw(t, "roll") < emptyPct {
			continue
		}
		b.Cells[i] = Cell{Kind: KindTile, Level: uint16(rapid.IntRange(band[0], band[1]).Draw(t, "level"))}
	}
	return b
}

// propGenStuckBoard draws a full n×n board with no two equal orthogonal
// neighbours: a board with no legal move.
func propGenStuckBoard(t *rapid.T, n int) Board {
	b := NewBoard(n, n)
	top := rapid.IntRange(3, 20).Draw(t, "stuckTop")
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			var allowed []int
			for lv := 1; lv <= top; lv++ {
				if c > 0 && int(b.At(Pos{r, c - 1}).Level) == lv {
					continue
				}
				if r > 0 && int(b.At(Pos{r - 1, c}).Level) == lv {
					continue
				}
				allowed = append(allowed, lv)
			}
			lv := rapid.SampledFrom(allowed).Draw(t, "stuckLevel")
			b.Set(Pos{r, c}, Cell{Kind: KindTile, Level: uint16(lv)})
		}
	}
	return b
}

func propOptions(n int, seed uint64) Options {
	return Options{Width: n, Height: n, Seed: seed, UndoLimit: -1}
}

func propFromBoard(t *rapid.T, rules *Classic, b Board, seed uint64) *Game {
	g, err := NewFromBoard(rules, propOptions(b.Width, seed), b)
	if err != nil {
		t.Fatalf("NewFromBoard: %v", err)
	}
	return g
}

// propGenGame draws a whole setting: rules, a board (random, sometimes
// stuck) and a seed, and starts a game from it, with unlimited undo.
func propGenGame(t *rapid.T) (*Game, *Classic) { return propGenGameUndo(t, -1) }

// propGenGameUndo is propGenGame with the given undo limit.
func propGenGameUndo(t *rapid.T, undoLimit int) (*Game, *Classic) {
	rules := propGenRules(t)
	n := propGenSize(t)
	var b Board
	if rapid.IntRange(0, 9).Draw(t, "stuck") == 0 {
		b = propGenStuckBoard(t, n)
	} else {
		b = propGenBoard(t, n)
	}
	// Now and then a win value just above the largest tile, so that wins
	// by merge are frequent.
	if top := propMaxLevel(b); top < 62 && rapid.IntRange(0, 2).Draw(t, "winNear") == 0 {
		rules.WinValue = uint64(1) << max(3, top+1)
	}
	opt := propOptions(n, rapid.Uint64().Draw(t, "seed"))
	opt.UndoLimit = undoLimit
	g, err := NewFromBoard(rules, opt, b)
	if err != nil {
		t.Fatalf("NewFromBoard: %v", err)
	}
	return g, rules
}

// ---------------------------------------------------------------------------
// The reference implementation.

// propLine lists the positions of the k-th line for direction d, front (the
// edge the move goes toward) first.
func propLine(d Direction, k, w, h int) []Pos {
	var ps []Pos
	switch d {
	case Left:
		for c := 0; c < w; c++ {
			ps = append(ps, Pos{k, c})
		}
	case Right:
		for c := w - 1; c >= 0; c-- {
			ps = append(ps, Pos{k, c})
		}
	case Up:
		for r := 0; r < h; r++ {
			ps = append(ps, Pos{r, k})
		}
	case Down:
		for r := h - 1; r >= 0; r-- {
			ps = append(ps, Pos{r, k})
		}
	}
	return ps
}

func propLineCount(d Direction, w, h int) int {
	if d == Left || d == Right {
		return h
	}
	return w
}

// propRef is what the reference makes of a move, before any spawn.
type propRef struct {
	board     Board
	changed   bool
	merges    int
	gained    *big.Int // the sum of the merged tiles' values
	topMerged int      // the highest level a merge made, 0 for none
}

// propPow2 returns 2^lv.
func propPow2(lv int) *big.Int { return new(big.Int).Lsh(big.NewInt(1), uint(lv)) }

// propRefMove plays a move the textbook way, on levels (tile value 2^level,
// 0 for a gap): compress each line toward the front, merge each pair of
// equal neighbours from the front (the merged tile's partner becomes a gap,
// and the scan skips past it), compress again. Tiles at MaxLevel do not
// merge (the engine's documented bound).
func propRefMove(b Board, d Direction) propRef {
	out := propRef{board: b.Clone(), gained: new(big.Int)}
	for k := 0; k < propLineCount(d, b.Width, b.Height); k++ {
		ps := propLine(d, k, b.Width, b.Height)
		var vals []int
		for _, p := range ps {
			if c := b.At(p); c.Kind != KindEmpty {
				vals = append(vals, int(c.Level))
			}
		}
		for i := 0; i+1 < len(vals); i++ {
			if vals[i] == vals[i+1] && vals[i] < MaxLevel {
				vals[i]++
				vals[i+1] = 0
				out.merges++
				out.gained.Add(out.gained, propPow2(vals[i]))
				out.topMerged = max(out.topMerged, vals[i])
				i++
			}
		}
		var packed []int
		for _, v := range vals {
			if v != 0 {
				packed = append(packed, v)
			}
		}
		for i, p := range ps {
			var c Cell
			if i < len(packed) {
				c = Cell{Kind: KindTile, Level: uint16(packed[i])}
			}
			if c != b.At(p) {
				out.changed = true
			}
			out.board.Set(p, c)
		}
	}
	return out
}

// propCanMove reports whether some move changes b, by the reference.
func propCanMove(b Board) bool {
	for _, d := range Directions {
		if propRefMove(b, d).changed {
			return true
		}
	}
	return false
}

// propLost reports whether b is a lost board: no move changes it and it
// holds a tile. A board with no tile has no move either, but it is Playing
// (see TestProp_000_7_4_LostIffNoLegalMoves).
func propLost(b Board) bool { return !propCanMove(b) && propTiles(b) > 0 }

// propStuck is seeds/002 Property 11's condition: every cell occupied and no
// two orthogonal neighbours equal.
func propStuck(b Board) bool {
	for r := 0; r < b.Height; r++ {
		for c := 0; c < b.Width; c++ {
			cell := b.At(Pos{r, c})
			if cell.Kind == KindEmpty {
				return false
			}
			// Tiles at MaxLevel do not merge, so equal ones do not count.
			if c+1 < b.Width && b.At(Pos{r, c + 1}) == cell && cell.Level < MaxLevel {
				return false
			}
			if r+1 < b.Height && b.At(Pos{r + 1, c}) == cell && cell.Level < MaxLevel {
				return false
			}
		}
	}
	return true
}

// propWinLevel is the smallest level whose tile is at or above the win value.
func propWinLevel(r *Classic) int {
	lv := 0
	for uint64(1)<<lv < r.WinValue {
		lv++
	}
	return lv
}

// propWonStop reports whether a move the reference describes as ref, from a
// game of status pre, must stop on a win (and so not spawn).
func propWonStop(r *Classic, pre Status, ref propRef) bool {
	return ref.changed && r.StopOnWin && pre == Playing && ref.topMerged >= propWinLevel(r)
}

// propExpectStatus is the status a move described by ref must leave, given
// the board after its spawn.
func propExpectStatus(r *Classic, pre Status, ref propRef, post Board) Status {
	if !ref.changed {
		return pre
	}
	st := pre
	if pre == Playing && ref.topMerged >= propWinLevel(r) {
		if r.StopOnWin {
			return Won
		}
		st = WonContinue
	}
	if propLost(post) {
		return Lost
	}
	return st
}

// ---------------------------------------------------------------------------
// Board measures.

func propMaxLevel(b Board) int {
	m := 0
	for _, c := range b.Cells {
		if c.Kind != KindEmpty {
			m = max(m, int(c.Level))
		}
	}
	return m
}

func propTiles(b Board) int {
	n := 0
	for _, c := range b.Cells {
		if c.Kind != KindEmpty {
			n++
		}
	}
	return n
}

func propSum(b Board) *big.Int {
	s := new(big.Int)
	for _, c := range b.Cells {
		if c.Kind != KindEmpty {
			s.Add(s, propPow2(int(c.Level)))
		}
	}
	return s
}

// propMultiset counts the tiles of each level.
func propMultiset(b Board) map[int]int {
	m := map[int]int{}
	for _, c := range b.Cells {
		if c.Kind != KindEmpty {
			m[int(c.Level)]++
		}
	}
	return m
}

// propDiff lists the indices where two boards of the same size differ.
func propDiff(a, b Board) []int {
	var d []int
	for i := range a.Cells {
		if a.Cells[i] != b.Cells[i] {
			d = append(d, i)
		}
	}
	return d
}

// propPacked reports whether every line of b, for direction d, holds its
// tiles at the front with no gap, treating the cell at skip (if any) as empty.
func propPacked(b Board, d Direction, skip *Pos) bool {
	for k := 0; k < propLineCount(d, b.Width, b.Height); k++ {
		gap := false
		for _, p := range propLine(d, k, b.Width, b.Height) {
			empty := b.At(p).Kind == KindEmpty || (skip != nil && *skip == p)
			if empty {
				gap = true
			} else if gap {
				return false
			}
		}
	}
	return true
}

// propScoreDiff returns post − pre, failing if it is negative.
func propScoreDiff(t *rapid.T, pre, post Score) *big.Int {
	d := post.Big()
	d.Sub(d, pre.Big())
	if d.Sign() < 0 {
		t.Fatalf("score went from %v to %v", pre, post)
	}
	return d
}

func propStateJSON(t *rapid.T, g *Game) []byte {
	b, err := json.Marshal(g.saveState(g.cur))
	if err != nil {
		t.Fatalf("state json: %v", err)
	}
	return b
}

func propMarshal(t *rapid.T, g *Game) []byte {
	b, err := g.Marshal()
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	return b
}

// ---------------------------------------------------------------------------
// The driver.

type propMode int

const (
	propNoHooks   propMode = iota // no hooks: the lookup table on 4×4
	propEmptyHook                 // HookFuncs{}: the generic path everywhere
	propRecord                    // hooks that record merges and spawns
)

func (m propMode) String() string {
	return [...]string{"no hooks", "empty hooks", "recording hooks"}[m]
}

// propRec records the events of one step.
type propRec struct {
	merges      []MergeEvent
	spawns      []SpawnEvent
	spawnBoards []Board // the board as each spawn found it
	ticks       int
}

func (r *propRec) hooks() Hooks {
	return HookFuncs{
		AfterMergeFunc: func(e *MergeEvent) error {
			c := *e
			c.State = nil
			r.merges = append(r.merges, c)
			return nil
		},
		OnSpawnFunc: func(e *SpawnEvent) error {
			c := *e
			c.State = nil
			r.spawns = append(r.spawns, c)
			r.spawnBoards = append(r.spawnBoards, e.State.Board.Clone())
			return nil
		},
		OnTickFunc: func(*TickEvent) error {
			r.ticks++
			return nil
		},
	}
}

type propAction int

const (
	propMove propAction = iota
	propUndo
	propRedo
)

// propStep is one step of a game, for the properties to judge.
type propStep struct {
	g      *Game
	rules  *Classic
	mode   propMode
	act    propAction
	dir    Direction
	pre    State  // the state before the step
	legal  DirSet // LegalMoves before the step
	ref    propRef
	queued *SpawnEntry // the spawn-queue entry the move must use, if any
	res    Result
	err    error
	post   State    // the state after the step
	rec    *propRec // nil unless mode is propRecord
}

// wonStop reports whether the step is a move that must stop on a win.
func (s *propStep) wonStop() bool {
	return s.act == propMove && !s.pre.Status.Over() && propWonStop(s.rules, s.pre.Status, s.ref)
}

// changing reports whether the step is a move that must change the game.
func (s *propStep) changing() bool {
	return s.act == propMove && !s.pre.Status.Over() && s.ref.changed && s.err == nil
}

// spawned returns where the move's spawn went and what it placed: from the
// recording hooks, else as the one cell where the board differs from the
// reference's (which the reference-comparison property checks is so).
func (s *propStep) spawned(t *rapid.T) (Pos, Cell) {
	if s.rec != nil {
		if len(s.rec.spawns) != 1 {
			t.Fatalf("%v: %d spawn events, want 1", s.dir, len(s.rec.spawns))
		}
		return s.rec.spawns[0].Pos, s.rec.spawns[0].Cell
	}
	d := propDiff(s.ref.board, s.post.Board)
	if len(d) != 1 {
		t.Fatalf("%v: the board differs from the reference in %d cells, want 1 (the spawn)\npre  %v\nref  %v\npost %v", s.dir, len(d), s.pre.Board.Cells, s.ref.board.Cells, s.post.Board.Cells)
	}
	return s.post.Board.PosOf(d[0]), s.post.Board.Cells[d[0]]
}

type propRun struct {
	mode     propMode
	minSteps int
	maxSteps int
	undo     bool // mix Undo and Redo in among the moves
	queue    bool // sometimes queue a scripted spawn before a move
	keepWon  bool // sometimes call KeepPlaying on a Won game
}

// propDrawDir draws a direction, now and then one that changes nothing.
func propDrawDir(t *rapid.T, g *Game) Direction {
	if rapid.IntRange(0, 7).Draw(t, "tryNoop") == 0 {
		var noop []Direction
		legal := g.LegalMoves()
		for _, d := range Directions {
			if !legal.Has(d) {
				noop = append(noop, d)
			}
		}
		if len(noop) > 0 {
			return rapid.SampledFrom(noop).Draw(t, "noopDir")
		}
	}
	return rapid.SampledFrom(Directions[:]).Draw(t, "dir")
}

// propDrive plays random steps on g and calls check after each.
func propDrive(t *rapid.T, g *Game, rules *Classic, o propRun, check func(*rapid.T, *propStep)) {
	var rec *propRec
	switch o.mode {
	case propEmptyHook:
		g.SetHooks(HookFuncs{})
	case propRecord:
		rec = &propRec{}
		g.SetHooks(rec.hooks())
	}
	acts := []propAction{propMove}
	if o.undo {
		acts = []propAction{propMove, propMove, propMove, propUndo, propRedo}
	}
	overActs := acts
	if o.undo {
		overActs = []propAction{propUndo, propUndo, propMove, propRedo}
	}
	steps := rapid.IntRange(o.minSteps, o.maxSteps).Draw(t, "steps")
	over := 0 // steps taken in a game that is over
	for i := 0; i < steps; i++ {
		if g.Status().Over() {
			// A couple of refused moves show all there is to see; then
			// undo out of it, or stop.
			if over++; over > 2 && !o.undo {
				return
			}
		}
		if o.keepWon && g.Status() == Won && rapid.Bool().Draw(t, "keepPlaying") {
			if err := g.KeepPlaying(); err != nil {
				t.Fatalf("KeepPlaying on a Won game: %v", err)
			}
			want := WonContinue
			if propLost(g.State().Board) {
				want = Lost
			}
			if g.Status() != want {
				t.Fatalf("KeepPlaying: status %v, want %v", g.Status(), want)
			}
		}
		s := &propStep{g: g, rules: rules, mode: o.mode, rec: rec}
		if g.Status().Over() {
			s.act = rapid.SampledFrom(overActs).Draw(t, "act")
		} else {
			s.act = rapid.SampledFrom(acts).Draw(t, "act")
		}
		s.pre = g.State().Clone()
		s.legal = g.LegalMoves()
		if rec != nil {
			*rec = propRec{}
		}
		switch s.act {
		case propMove:
			s.dir = propDrawDir(t, g)
			s.ref = propRefMove(s.pre.Board, s.dir)
			if q := g.Queue(); len(q) > 0 {
				s.queued = &q[0]
			} else if o.queue && !s.pre.Status.Over() && s.ref.changed && !propWonStop(rules, s.pre.Status, s.ref) &&
				rapid.Bool().Draw(t, "script") {
				var empty []int
				for i, c := range s.ref.board.Cells {
					if c.Kind == KindEmpty {
						empty = append(empty, i)
					}
				}
				e := SpawnEntry{
					Pos:  s.ref.board.PosOf(rapid.SampledFrom(empty).Draw(t, "scriptAt")),
					Cell: Cell{Kind: KindTile, Level: uint16(rapid.IntRange(1, 2).Draw(t, "scriptLevel"))},
				}
				g.AddSpawns(e)
				s.queued = &e
			}
			s.res, s.err = g.Move(s.dir)
		case propUndo:
			s.err = g.Undo()
		case propRedo:
			s.err = g.Redo()
		}
		s.post = g.State().Clone()
		var spawnErr *SpawnError
		switch {
		case s.err == nil:
		case errors.Is(s.err, ErrNothingToUndo) && s.act == propUndo:
		case errors.Is(s.err, ErrNothingToRedo) && s.act == propRedo:
		case errors.Is(s.err, ErrUndoDisabled) && s.act != propMove && g.Options().UndoLimit == 0:
		case errors.As(s.err, &spawnErr) && s.act == propMove && s.queued != nil && !s.ref.board.At(s.queued.Pos).IsEmpty():
		default:
			t.Fatalf("step %d (%v, action %d, %v, status %v): unexpected error %v", i, o.mode, s.act, s.dir, s.pre.Status, s.err)
		}
		check(t, s)
	}
}

// propDriveRandom plays a random game with random hooks.
func propDriveRandom(t *rapid.T, o propRun, check func(*rapid.T, *propStep)) {
	g, rules := propGenGame(t)
	o.mode = rapid.SampledFrom([]propMode{propNoHooks, propEmptyHook, propRecord}).Draw(t, "mode")
	propDrive(t, g, rules, o, check)
}

var propDefault = propRun{minSteps: 5, maxSteps: 80}

// ---------------------------------------------------------------------------
// seeds/000 §7.4.

// TestProp_000_7_4_PowersOfTwo: after any step every cell is empty or a
// classic tile whose value is a power of two from 2 up.
func TestProp_000_7_4_PowersOfTwo(t *testing.T) {
	rules := NewClassic()
	rapid.Check(t, func(t *rapid.T) {
		o := propDefault
		o.undo = true
		propDriveRandom(t, o, func(t *rapid.T, s *propStep) {
			for i, c := range s.post.Board.Cells {
				if c == (Cell{}) {
					continue
				}
				if c.Kind != KindTile || c.Token != 0 || c.Counter != 0 || c.Charges != 0 || c.Level < 1 || c.Level > MaxLevel {
					t.Fatalf("cell %d is %+v: neither empty nor a classic tile", i, c)
				}
				v, ok := new(big.Int).SetString(rules.FormatCell(c), 10)
				if !ok || v.Cmp(big.NewInt(2)) < 0 || v.BitLen()-1 != int(v.TrailingZeroBits()) {
					t.Fatalf("cell %d writes as %q: not a power of two from 2 up", i, rules.FormatCell(c))
				}
			}
		})
	})
}

// TestProp_000_7_4_TileCount: a changing move leaves prev − merges + 1
// tiles (the spawn; none when it stops on a win), a no-op leaves prev.
func TestProp_000_7_4_TileCount(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		propDriveRandom(t, propDefault, func(t *rapid.T, s *propStep) {
			pre, post := propTiles(s.pre.Board), propTiles(s.post.Board)
			switch {
			case s.changing():
				if s.res.Merges != s.ref.merges {
					t.Fatalf("%v: %d merges, the reference makes %d", s.dir, s.res.Merges, s.ref.merges)
				}
				want := pre - s.res.Merges + 1
				if s.wonStop() {
					want--
				}
				if post != want {
					t.Fatalf("%v: %d tiles after, want %d − %d + spawn = %d (won-stop %v)", s.dir, post, pre, s.res.Merges, want, s.wonStop())
				}
			case s.err == nil && s.act == propMove:
				if post != pre {
					t.Fatalf("no-op %v: %d tiles after, %d before", s.dir, post, pre)
				}
			}
		})
	})
}

// TestProp_000_7_4_ScoreDelta: the score grows by exactly the sum of the
// merged tiles' values (Result.Gained and Score()), by nothing on a no-op.
func TestProp_000_7_4_ScoreDelta(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		propDriveRandom(t, propDefault, func(t *rapid.T, s *propStep) {
			if s.act != propMove {
				return
			}
			want := new(big.Int)
			if s.changing() {
				want = s.ref.gained
			}
			if got := propScoreDiff(t, s.pre.Score, s.post.Score); got.Cmp(want) != 0 {
				t.Fatalf("%v: score grew by %d, merges make %d", s.dir, got, want)
			}
			if s.res.Gained.Big().Cmp(want) != 0 {
				t.Fatalf("%v: Result.Gained %v, merges make %d", s.dir, s.res.Gained, want)
			}
			if s.g.Score() != s.post.Score {
				t.Fatalf("Score() %v, state %v", s.g.Score(), s.post.Score)
			}
		})
	})
}

// TestProp_000_7_4_Dimensions: the board keeps its size and cell count, and
// Board() is a faithful copy of it, through moves, undo and redo.
func TestProp_000_7_4_Dimensions(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		o := propDefault
		o.undo = true
		propDriveRandom(t, o, func(t *rapid.T, s *propStep) {
			b := s.g.Board()
			n := s.pre.Board.Width
			if b.Width != n || b.Height != n || len(b.Cells) != n*n {
				t.Fatalf("board is %d×%d with %d cells, want %d×%d", b.Width, b.Height, len(b.Cells), n, n)
			}
			if !b.Equal(&s.post.Board) {
				t.Fatalf("Board() differs from the state's board")
			}
			if opt := s.g.Options(); opt.Width != n || opt.Height != n {
				t.Fatalf("options say %d×%d", opt.Width, opt.Height)
			}
			for i := range b.Cells {
				if p := b.PosOf(i); !b.In(p) || p.Row*n+p.Col != i {
					t.Fatalf("cell %d has position %v", i, p)
				}
			}
		})
	})
}

// TestProp_000_7_4_WonIffWinningTile: in a game whose board starts without a
// winning tile (so any win comes from a merge: the win value, at least 8, is
// above any spawn), the game is Won or Won (continue)
// exactly when a tile at or above the win value stands on the board (a lost
// game may hold one or not). A board that starts with a winning tile is Won
// (continue) (or Lost) and never becomes Won or Playing.
func TestProp_000_7_4_WonIffWinningTile(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rules := propGenRules(t)
		win := propWinLevel(rules)
		n := propGenSize(t)
		b := propGenBoard(t, n)
		startsWon := rapid.IntRange(0, 3).Draw(t, "startsWon") == 0
		if startsWon {
			b.Cells[rapid.IntRange(0, n*n-1).Draw(t, "winAt")] = Cell{Kind: KindTile, Level: uint16(win + rapid.IntRange(0, 2).Draw(t, "over"))}
		} else {
			for i, c := range b.Cells {
				if c.Kind != KindEmpty && int(c.Level) >= win {
					b.Cells[i].Level = uint16(win - 1 - rapid.IntRange(0, min(2, win-2)).Draw(t, "under"))
				}
			}
		}
		g := propFromBoard(t, rules, b, rapid.Uint64().Draw(t, "seed"))
		check := func(t *rapid.T, st Status, board Board) {
			top := propMaxLevel(board)
			if startsWon {
				if st != WonContinue && st != Lost {
					t.Fatalf("a game that started with a winning tile is %v", st)
				}
				return
			}
			switch st {
			case Won, WonContinue:
				if top < win {
					t.Fatalf("status %v but the largest tile is 2^%d, under the win value %d", st, top, rules.WinValue)
				}
				if (st == Won) != rules.StopOnWin {
					t.Fatalf("status %v with stop on win %v", st, rules.StopOnWin)
				}
			case Playing:
				if top >= win {
					t.Fatalf("status Playing with a tile 2^%d at or above the win value %d", top, rules.WinValue)
				}
			}
		}
		check(t, g.Status(), g.State().Board)
		o := propDefault
		o.undo = true
		o.mode = rapid.SampledFrom([]propMode{propNoHooks, propEmptyHook}).Draw(t, "mode")
		propDrive(t, g, rules, o, func(t *rapid.T, s *propStep) { check(t, s.post.Status, s.post.Board) })
	})
}

// TestProp_000_7_4_LostIffNoLegalMoves: LegalMoves is exactly the set of
// directions that change the board (by the reference) unless the game is
// over, when it is empty; the game is Lost exactly when no direction changes
// the board, except in the Won (stop) state and on a board without a tile.
//
// The exception: a board that holds no tile has no legal move (no move
// changes it), yet it is Playing, not Lost. seeds/000 §3.7 defines Lost as
// "no empty cells and no adjacent equal tiles", and seeds/001 §3.1,
// seeds/002 Property 11 and the original game's movesAvailable
// (cellsAvailable() || tileMatchesAvailable()) agree; §7.4's "Lost iff
// legal_moves is empty" is true of every other board. Only NewFromBoard (or
// a hook's edits, or a ruleset with no initial spawns) makes such a board:
// a move never empties one.
func TestProp_000_7_4_LostIffNoLegalMoves(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		check := func(t *rapid.T, g *Game) {
			st, b := g.Status(), g.State().Board
			legal := g.LegalMoves()
			var want DirSet
			for _, d := range Directions {
				if propRefMove(b, d).changed {
					want = want.With(d)
				}
			}
			if st == Won {
				if legal != 0 || g.CanMove() {
					t.Fatalf("Won game has legal moves %v", legal)
				}
				return
			}
			empty := propTiles(b) == 0
			if empty {
				if st != Playing || legal != 0 || g.CanMove() {
					t.Fatalf("board without a tile: status %v, LegalMoves %v; want Playing, none", st, legal)
				}
				return
			}
			if (st == Lost) != (want == 0) {
				t.Fatalf("status %v, but the moves that change the board are %v", st, want)
			}
			if st == Lost {
				want = 0
			}
			if legal != want {
				t.Fatalf("status %v: LegalMoves %v, want %v", st, legal, want)
			}
			if (st == Lost) != (legal == 0) {
				t.Fatalf("status %v with LegalMoves %v", st, legal)
			}
		}
		o := propDefault
		o.undo = true
		o.keepWon = true
		g, rules := propGenGame(t)
		check(t, g)
		o.mode = rapid.SampledFrom([]propMode{propNoHooks, propEmptyHook}).Draw(t, "mode")
		propDrive(t, g, rules, o, func(t *rapid.T, s *propStep) { check(t, s.g) })
	})
}

// TestProp_000_7_4_UndoRedoExact: undo and redo walk a timeline of states
// exactly: each lands on the state (board, score, status, turn, RNG, spawn
// cursor) recorded at that point, HistoryLen matches, empty stacks refuse,
// coming back to a point of an unchanged timeline gives the same Marshal
// bytes, and replaying an undone move (same direction, same queue) lands on
// the same state again. Mostly with unlimited undo, also with a small limit
// (the oldest state drops out) and with undo disabled (ErrUndoDisabled).
func TestProp_000_7_4_UndoRedoExact(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		limit := rapid.SampledFrom([]int{-1, -1, -1, 0, 1, 2, 3, 5}).Draw(t, "undoLimit")
		g, rules := propGenGameUndo(t, limit)
		timeline := [][]byte{propStateJSON(t, g)}
		dirs := []Direction{0}
		qlens := []int{0}
		idx := 0
		queueLen := 0
		seen := map[int][]byte{0: propMarshal(t, g)}
		o := propRun{minSteps: 5, maxSteps: 80, undo: true, queue: true}
		o.mode = rapid.SampledFrom([]propMode{propNoHooks, propEmptyHook}).Draw(t, "mode")
		propDrive(t, g, rules, o, func(t *rapid.T, s *propStep) {
			cur := propStateJSON(t, g)
			if len(g.queue) != queueLen {
				queueLen = len(g.queue)
				clear(seen) // the queue is part of the save
			}
			switch s.act {
			case propMove:
				if s.res.Changed {
					if idx+1 < len(timeline) && dirs[idx+1] == s.dir && qlens[idx+1] == len(g.queue) && !bytes.Equal(cur, timeline[idx+1]) {
						t.Fatalf("replaying %v after undo:\n got %s\nwant %s", s.dir, cur, timeline[idx+1])
					}
					timeline = append(timeline[:idx+1], cur)
					dirs = append(dirs[:idx+1], s.dir)
					qlens = append(qlens[:idx+1], len(g.queue))
					idx++
					if limit >= 0 && idx > limit { // the oldest state drops out
						timeline, dirs, qlens = timeline[1:], dirs[1:], qlens[1:]
						idx--
					}
					clear(seen)
				} else if !bytes.Equal(cur, timeline[idx]) {
					t.Fatalf("%v changed nothing (%v) but the state changed:\n got %s\nwant %s", s.dir, s.err, cur, timeline[idx])
				}
			case propUndo, propRedo:
				undo := s.act == propUndo
				switch {
				case limit == 0:
					if !errors.Is(s.err, ErrUndoDisabled) {
						t.Fatalf("undo %v with undo disabled: %v", undo, s.err)
					}
				case undo && idx == 0:
					if !errors.Is(s.err, ErrNothingToUndo) {
						t.Fatalf("Undo with no history: %v", s.err)
					}
				case !undo && idx == len(timeline)-1:
					if !errors.Is(s.err, ErrNothingToRedo) {
						t.Fatalf("Redo with nothing undone: %v", s.err)
					}
				case s.err != nil:
					t.Fatalf("undo %v: %v", undo, s.err)
				case undo:
					idx--
				default:
					idx++
				}
			}
			if !bytes.Equal(cur, timeline[idx]) {
				t.Fatalf("after action %d the state is\n%s\nwant\n%s", s.act, cur, timeline[idx])
			}
			if u, r := g.HistoryLen(); u != idx || r != len(timeline)-1-idx {
				t.Fatalf("HistoryLen %d, %d; want %d, %d", u, r, idx, len(timeline)-1-idx)
			}
			m := propMarshal(t, g)
			if prev, ok := seen[idx]; ok && !bytes.Equal(prev, m) {
				t.Fatalf("back at point %d of the same timeline, Marshal differs:\n%s\nthen\n%s", idx, m, prev)
			}
			seen[idx] = m
		})
	})
}

// ---------------------------------------------------------------------------
// seeds/000 §20.

// propMergeReachable reports whether the multiset after can come from before
// by replacing exactly merges disjoint pairs of equal original tiles {x, x}
// with {2x}: working up the levels, the merges out of each level follow from
// the counts and the merges into it.
func propMergeReachable(before, after map[int]int, merges int) bool {
	top := 0
	for lv := range before {
		top = max(top, lv)
	}
	for lv := range after {
		top = max(top, lv)
	}
	into, total := 0, 0
	for lv := 1; lv <= top+1; lv++ {
		diff := before[lv] + into - after[lv] // 2 × the merges out of lv
		if diff < 0 || diff%2 != 0 || diff > before[lv] {
			return false
		}
		into = diff / 2
		total += into
	}
	return total == merges
}

// TestProp_000_20_1_MultisetAfterMerges: the tiles after a move, the spawned
// one left out, are the tiles before with Result.Merges disjoint pairs {x, x}
// of original tiles replaced by {2x}; a no-op keeps the multiset.
func TestProp_000_20_1_MultisetAfterMerges(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		propDriveRandom(t, propDefault, func(t *rapid.T, s *propStep) {
			before, after := propMultiset(s.pre.Board), propMultiset(s.post.Board)
			if !s.changing() {
				if !reflect.DeepEqual(before, after) {
					t.Fatalf("%v changed nothing but the tiles went from %v to %v", s.dir, before, after)
				}
				return
			}
			if s.res.Merges != s.ref.merges {
				t.Fatalf("%v: Result.Merges %d, the reference makes %d", s.dir, s.res.Merges, s.ref.merges)
			}
			if s.wonStop() {
				if !propMergeReachable(before, after, s.res.Merges) {
					t.Fatalf("%v (won, no spawn): %v does not come from %v by %d merges", s.dir, after, before, s.res.Merges)
				}
				return
			}
			candidates := []int{1, 2}
			if s.rec != nil {
				_, c := s.spawned(t)
				candidates = []int{int(c.Level)}
			}
			for _, lv := range candidates {
				if after[lv] == 0 {
					continue
				}
				rest := propMultiset(s.post.Board)
				rest[lv]--
				if rest[lv] == 0 {
					delete(rest, lv)
				}
				if propMergeReachable(before, rest, s.res.Merges) {
					return
				}
			}
			t.Fatalf("%v: %v, less a spawned 2 or 4 (%v), does not come from %v by %d merges", s.dir, after, candidates, before, s.res.Merges)
		})
	})
}

// TestProp_000_20_2_SumPlusSpawn: merges keep the sum of the tiles, so a
// changing move adds exactly the spawned value (2 or 4; the one the hooks
// saw or the queue gave; 2 when FourProbability is 0, 4 when it is 1); a
// move that stops on a win and a no-op add nothing.
func TestProp_000_20_2_SumPlusSpawn(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		o := propDefault
		o.queue = true
		propDriveRandom(t, o, func(t *rapid.T, s *propStep) {
			if s.act != propMove {
				return
			}
			pre, post := propSum(s.pre.Board), propSum(s.post.Board)
			diff := new(big.Int).Sub(post, pre)
			if diff.Sign() < 0 || !diff.IsUint64() {
				t.Fatalf("%v: the tile sum went from %d to %d", s.dir, pre, post)
			}
			got := diff.Uint64()
			if !s.changing() || s.wonStop() {
				if got != 0 {
					t.Fatalf("%v (changing %v, won-stop %v): the tile sum grew by %d", s.dir, s.changing(), s.wonStop(), got)
				}
				return
			}
			if got != 2 && got != 4 {
				t.Fatalf("%v: the tile sum grew by %d, not by a spawned 2 or 4", s.dir, got)
			}
			var want uint64
			switch {
			case s.rec != nil:
				_, c := s.spawned(t)
				want = 1 << c.Level
			case s.queued != nil:
				want = 1 << s.queued.Cell.Level
			case s.rules.FourProbability == 0:
				want = 2
			case s.rules.FourProbability == 1:
				want = 4
			default:
				return
			}
			if got != want {
				t.Fatalf("%v: the tile sum grew by %d, the spawn was %d", s.dir, got, want)
			}
		})
	})
}

// TestProp_000_20_3_EmptiesAfterMove: a changing move leaves
// prev_empties − 1 + merges empty cells (no −1 when it stops on a win), a
// no-op leaves prev_empties.
func TestProp_000_20_3_EmptiesAfterMove(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		propDriveRandom(t, propDefault, func(t *rapid.T, s *propStep) {
			if s.act != propMove {
				return
			}
			pre, post := s.pre.Board.EmptyCount(), s.post.Board.EmptyCount()
			n := len(s.post.Board.Cells)
			if pre != n-propTiles(s.pre.Board) || post != n-propTiles(s.post.Board) {
				t.Fatalf("EmptyCount disagrees with the tile count")
			}
			want := pre
			if s.changing() {
				want = pre + s.ref.merges
				if !s.wonStop() {
					want--
				}
				if s.res.Merges != s.ref.merges {
					t.Fatalf("%v: Result.Merges %d, the reference makes %d", s.dir, s.res.Merges, s.ref.merges)
				}
			}
			if post != want {
				t.Fatalf("%v (changing %v, won-stop %v): %d empty cells after, %d before, %d merges", s.dir, s.changing(), s.wonStop(), post, pre, s.res.Merges)
			}
		})
	})
}

// TestProp_000_20_4_NoLegalMovesMeansLost: when LegalMoves is empty, CanMove
// is false and the game is Lost, or Won with stop on win, or its board holds
// no tile at all; every move is then a no-op (no error, zero Result) and
// changes nothing. A Lost game has no legal move.
//
// The empty board is the one exception to seeds/000 §7.4's "Lost iff
// legal_moves is empty": no move changes it, yet it is Playing, because
// §3.7 loses only with "no empty cells and no adjacent equal tiles", and so
// do seeds/001 §3.1, seeds/002 Property 11 and the original game's
// movesAvailable (cells available or tile matches available).
func TestProp_000_20_4_NoLegalMovesMeansLost(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		check := func(t *rapid.T, g *Game, rules *Classic) {
			st := g.Status()
			if st == Lost && g.LegalMoves() != 0 {
				t.Fatalf("Lost game with legal moves %v", g.LegalMoves())
			}
			if g.LegalMoves() != 0 {
				return
			}
			if g.CanMove() {
				t.Fatalf("no legal moves but CanMove")
			}
			empty := propTiles(g.State().Board) == 0
			if empty && st != Playing {
				t.Fatalf("empty board, status %v, want Playing", st)
			}
			if st != Lost && !(st == Won && rules.StopOnWin) && !empty {
				t.Fatalf("no legal moves, status %v (stop on win %v)", st, rules.StopOnWin)
			}
			before := propMarshal(t, g)
			for _, d := range Directions {
				if g.Legal(d) {
					t.Fatalf("Legal(%v) with no legal moves", d)
				}
				res, err := g.Move(d)
				if err != nil || res != (Result{}) {
					t.Fatalf("%v in a %v game: %+v, %v; want an ignored move", d, st, res, err)
				}
			}
			if !bytes.Equal(before, propMarshal(t, g)) {
				t.Fatalf("ignored moves changed the game")
			}
		}
		g, rules := propGenGame(t)
		check(t, g, rules)
		o := propDefault
		o.undo = true
		o.mode = rapid.SampledFrom([]propMode{propNoHooks, propEmptyHook}).Draw(t, "mode")
		propDrive(t, g, rules, o, func(t *rapid.T, s *propStep) { check(t, s.g, rules) })
	})
}

// TestProp_000_20_5_UndoRestoresRNGAndCursor: Undo restores the exact state
// before the move, random source and spawn-queue cursor included, and Redo
// the exact state after it; a copy of the game made (Marshal, Unmarshal)
// right after an Undo plays the undone move again to the very same state.
func TestProp_000_20_5_UndoRestoresRNGAndCursor(t *testing.T) {
	type done struct {
		pre, post State
		dir       Direction
		qlen      int
	}
	rapid.Check(t, func(t *rapid.T) {
		g, rules := propGenGame(t)
		var history, future []done
		o := propRun{minSteps: 5, maxSteps: 80, undo: true, queue: true}
		o.mode = rapid.SampledFrom([]propMode{propNoHooks, propEmptyHook, propRecord}).Draw(t, "mode")
		propDrive(t, g, rules, o, func(t *rapid.T, s *propStep) {
			switch {
			case s.act == propMove && s.res.Changed:
				history = append(history, done{s.pre, s.post, s.dir, len(g.queue)})
				future = future[:0]
			case s.act == propUndo && s.err == nil:
				d := history[len(history)-1]
				history = history[:len(history)-1]
				future = append(future, d)
				if s.post.RNG != d.pre.RNG || s.post.Next != d.pre.Next {
					t.Fatalf("Undo: rng %x next %d, want rng %x next %d", s.post.RNG.State, s.post.Next, d.pre.RNG.State, d.pre.Next)
				}
				if !reflect.DeepEqual(s.post, d.pre) {
					t.Fatalf("Undo: state\n%+v\nwant\n%+v", s.post, d.pre)
				}
				if len(g.queue) == d.qlen {
					c, err := Unmarshal(propMarshal(t, g))
					if err != nil {
						t.Fatalf("Unmarshal: %v", err)
					}
					if _, err := c.Move(d.dir); err != nil {
						t.Fatalf("replay %v: %v", d.dir, err)
					}
					if !reflect.DeepEqual(*c.State(), d.post) {
						t.Fatalf("replaying %v after Undo: state\n%+v\nwant\n%+v", d.dir, *c.State(), d.post)
					}
				}
			case s.act == propRedo && s.err == nil:
				d := future[len(future)-1]
				future = future[:len(future)-1]
				history = append(history, d)
				if !reflect.DeepEqual(s.post, d.post) {
					t.Fatalf("Redo: state\n%+v\nwant\n%+v", s.post, d.post)
				}
			case s.act == propUndo:
				if len(history) != 0 {
					t.Fatalf("Undo failed with %d moves to take back: %v", len(history), s.err)
				}
			case s.act == propRedo:
				if len(future) != 0 {
					t.Fatalf("Redo failed with %d moves to replay: %v", len(future), s.err)
				}
			}
		})
	})
}

// ---------------------------------------------------------------------------
// seeds/002 Correctness Properties.

// TestProp_002_P1_InitialState: a new game has exactly two tiles, each a 2
// or a 4, score 0, status Playing, no history, turn 0.
func TestProp_002_P1_InitialState(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rules := propGenRules(t)
		n := propGenSize(t)
		g, err := New(rules, propOptions(n, rapid.Uint64().Draw(t, "seed")))
		if err != nil {
			t.Fatalf("New: %v", err)
		}
		b := g.Board()
		if b.Width != n || b.Height != n || len(b.Cells) != n*n {
			t.Fatalf("board %d×%d, %d cells", b.Width, b.Height, len(b.Cells))
		}
		if got := propTiles(b); got != 2 {
			t.Fatalf("new game has %d tiles: %v", got, b.Cells)
		}
		for _, c := range b.Cells {
			if c != (Cell{}) && c != (Cell{Kind: KindTile, Level: 1}) && c != (Cell{Kind: KindTile, Level: 2}) {
				t.Fatalf("new game holds %+v", c)
			}
		}
		if !g.Score().IsZero() || g.Status() != Playing || g.State().Turn != 0 {
			t.Fatalf("new game: score %v, status %v, turn %d", g.Score(), g.Status(), g.State().Turn)
		}
		if u, r := g.HistoryLen(); u != 0 || r != 0 {
			t.Fatalf("new game history %d, %d", u, r)
		}
	})
}

// TestProp_002_P2_SpawnValues: every spawned tile, at the start and after
// each move, is a 2 or a 4 (only 2s when FourProbability is 0, only 4s when
// it is 1), placed on an empty cell.
func TestProp_002_P2_SpawnValues(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rules := propGenRules(t)
		n := propGenSize(t)
		g, err := New(rules, propOptions(n, rapid.Uint64().Draw(t, "seed")))
		if err != nil {
			t.Fatalf("New: %v", err)
		}
		checkCell := func(t *rapid.T, c Cell) {
			ok := c == Cell{Kind: KindTile, Level: 1} || c == Cell{Kind: KindTile, Level: 2}
			if rules.FourProbability == 0 {
				ok = c == Cell{Kind: KindTile, Level: 1}
			} else if rules.FourProbability == 1 {
				ok = c == Cell{Kind: KindTile, Level: 2}
			}
			if !ok {
				t.Fatalf("spawned %+v (four probability %v)", c, rules.FourProbability)
			}
		}
		for _, c := range g.State().Board.Cells {
			if c.Kind != KindEmpty {
				checkCell(t, c)
			}
		}
		o := propDefault
		o.mode = rapid.SampledFrom([]propMode{propNoHooks, propRecord}).Draw(t, "mode")
		propDrive(t, g, rules, o, func(t *rapid.T, s *propStep) {
			if s.changing() && !s.wonStop() {
				p, c := s.spawned(t)
				checkCell(t, c)
				if s.post.Board.At(p) != c {
					t.Fatalf("spawn %+v at %v, the board holds %+v", c, p, s.post.Board.At(p))
				}
			}
			if s.rec != nil {
				for i, e := range s.rec.spawns {
					checkCell(t, e.Cell)
					if e.Scripted {
						t.Fatalf("random spawn reported as scripted")
					}
					if !s.rec.spawnBoards[i].At(e.Pos).IsEmpty() {
						t.Fatalf("spawn at occupied %v", e.Pos)
					}
				}
			}
		})
	})
}

// TestProp_002_P3_PackedAgainstEdge: after a move every line holds its tiles
// against the edge the move goes toward with no gap, the spawned tile left
// out (it is known from the spawn hook, else any spawnable cell may be it).
func TestProp_002_P3_PackedAgainstEdge(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		o := propDefault
		o.undo = true
		propDriveRandom(t, o, func(t *rapid.T, s *propStep) {
			if !s.changing() {
				return
			}
			b := s.post.Board
			if s.wonStop() || propPacked(b, s.dir, nil) {
				if !propPacked(b, s.dir, nil) {
					t.Fatalf("%v (won, no spawn): not packed: %v", s.dir, b.Cells)
				}
				return
			}
			if s.rec != nil {
				p, _ := s.spawned(t)
				if !propPacked(b, s.dir, &p) {
					t.Fatalf("%v: not packed with the spawn at %v left out: %v", s.dir, p, b.Cells)
				}
				return
			}
			for i, c := range b.Cells {
				if c.Kind == KindTile && c.Level <= 2 {
					p := b.PosOf(i)
					if propPacked(b, s.dir, &p) {
						return
					}
				}
			}
			t.Fatalf("%v: not packed, whichever tile is the spawn: %v", s.dir, b.Cells)
		})
	})
}

// TestProp_002_P4_OneSpawnPerChangingMove: a move that changes the board
// spawns exactly one tile (Result.Spawns, the spawn hook, one tick) in a cell
// that was empty, except when it stops on a win; a no-op spawns nothing.
func TestProp_002_P4_OneSpawnPerChangingMove(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		propDriveRandom(t, propDefault, func(t *rapid.T, s *propStep) {
			if s.act != propMove {
				return
			}
			want := 0
			if s.changing() && !s.wonStop() {
				want = 1
			}
			if s.res.Spawns != want {
				t.Fatalf("%v (changing %v, won-stop %v): %d spawns, want %d", s.dir, s.changing(), s.wonStop(), s.res.Spawns, want)
			}
			if s.rec != nil {
				if len(s.rec.spawns) != want {
					t.Fatalf("%v: %d spawn events, want %d", s.dir, len(s.rec.spawns), want)
				}
				ticks := 0
				if s.changing() {
					ticks = 1
				}
				if s.rec.ticks != ticks {
					t.Fatalf("%v: %d ticks, want %d", s.dir, s.rec.ticks, ticks)
				}
			}
			if want == 1 {
				p, c := s.spawned(t)
				if !s.ref.board.At(p).IsEmpty() {
					t.Fatalf("%v: spawn at %v, which the move left holding %+v", s.dir, p, s.ref.board.At(p))
				}
				if s.rec != nil && !s.rec.spawnBoards[0].At(p).IsEmpty() {
					t.Fatalf("%v: spawn at occupied %v", s.dir, p)
				}
				if s.post.Board.At(p) != c || s.pre.Board.EmptyCount()+s.res.Merges == 0 {
					t.Fatalf("%v: spawn %+v at %v not on the board", s.dir, c, p)
				}
			}
		})
	})
}

// TestProp_002_P5_NoOpPreservesState: a move that cannot move or merge
// anything returns a zero Result and leaves the game byte for byte as it was
// (Marshal: board, score, status, RNG, cursor, history); so does any move in
// a Won or Lost game, which is ignored (no error). No hook hears of it.
func TestProp_002_P5_NoOpPreservesState(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g, rules := propGenGame(t)
		o := propDefault
		o.undo = true
		o.mode = rapid.SampledFrom([]propMode{propNoHooks, propEmptyHook, propRecord}).Draw(t, "mode")
		last := propMarshal(t, g)
		propDrive(t, g, rules, o, func(t *rapid.T, s *propStep) {
			now := propMarshal(t, g)
			defer func() { last = now }()
			if s.act != propMove || (s.ref.changed && !s.pre.Status.Over()) {
				return
			}
			if s.pre.Status.Over() {
				if s.err != nil {
					t.Fatalf("%v in a %v game: %v, want an ignored move", s.dir, s.pre.Status, s.err)
				}
			} else if s.err != nil || s.legal.Has(s.dir) {
				t.Fatalf("no-op %v: error %v, legal %v", s.dir, s.err, s.legal)
			}
			if s.res != (Result{}) {
				t.Fatalf("no-op %v: %+v", s.dir, s.res)
			}
			if !bytes.Equal(now, last) {
				t.Fatalf("no-op %v changed the game:\n%s\nwas\n%s", s.dir, now, last)
			}
			if s.rec != nil && (len(s.rec.merges) != 0 || len(s.rec.spawns) != 0 || s.rec.ticks != 0) {
				t.Fatalf("no-op %v: hooks heard %d merges, %d spawns, %d ticks", s.dir, len(s.rec.merges), len(s.rec.spawns), s.rec.ticks)
			}
		})
	})
}

// propCheckMergeEvents checks the AfterMerge events of a move against the
// boards before and after it: each merge takes two equal original tiles that
// stood at From, on one line with Pos, in the order Pos, From[0], From[1]
// counted from the edge the move goes toward (Pos may be From[0]), and puts
// one tile of the next level at Pos.
func propCheckMergeEvents(t *rapid.T, s *propStep) {
	for i, e := range s.rec.merges {
		if e.Sources[0] != e.Sources[1] || e.Sources[0].Kind != KindTile {
			t.Fatalf("%v: merge %d of unequal or empty sources %+v", s.dir, i, e.Sources)
		}
		want := Cell{Kind: KindTile, Level: e.Sources[0].Level + 1}
		if e.Result != want {
			t.Fatalf("%v: merge %d of two %+v made %+v, want %+v", s.dir, i, e.Sources[0], e.Result, want)
		}
		for j := range 2 {
			if got := s.pre.Board.At(e.From[j]); got != e.Sources[j] {
				t.Fatalf("%v: merge %d source %d from %v is %+v, the board held %+v", s.dir, i, j, e.From[j], e.Sources[j], got)
			}
		}
		if got := s.post.Board.At(e.Pos); got != e.Result {
			t.Fatalf("%v: merge %d made %+v at %v, the board holds %+v", s.dir, i, e.Result, e.Pos, got)
		}
		// Distances from the edge the move goes toward, along the line.
		dist := func(p Pos) (line, d int) {
			w, h := s.pre.Board.Width, s.pre.Board.Height
			switch s.dir {
			case Left:
				return p.Row, p.Col
			case Right:
				return p.Row, w - 1 - p.Col
			case Up:
				return p.Col, p.Row
			default:
				return p.Col, h - 1 - p.Row
			}
		}
		l, dp := dist(e.Pos)
		l0, d0 := dist(e.From[0])
		l1, d1 := dist(e.From[1])
		if l0 != l || l1 != l || !(dp <= d0 && d0 < d1) {
			t.Fatalf("%v: merge %d at %v from %v, %v: not one line, or out of order", s.dir, i, e.Pos, e.From[0], e.From[1])
		}
	}
}

// TestProp_002_P6_MergeDoubles: every merge (AfterMerge) takes two equal
// tiles that stood on the board and makes one tile of double the value where
// the board then holds it; the merge count matches Result.Merges and the
// reference.
func TestProp_002_P6_MergeDoubles(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g, rules := propGenGame(t)
		o := propDefault
		o.undo = true
		o.mode = propRecord
		propDrive(t, g, rules, o, func(t *rapid.T, s *propStep) {
			if s.act != propMove {
				return
			}
			if len(s.rec.merges) != s.res.Merges || (s.changing() && s.res.Merges != s.ref.merges) {
				t.Fatalf("%v: %d merge events, Result.Merges %d, reference %d", s.dir, len(s.rec.merges), s.res.Merges, s.ref.merges)
			}
			propCheckMergeEvents(t, s)
		})
	})
}

// TestProp_002_P7_ScorePerMerge: the score grows by exactly the value of
// each merged tile: the sum of 2^level over the AfterMerge events is
// Result.Gained and the growth of Score().
func TestProp_002_P7_ScorePerMerge(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g, rules := propGenGame(t)
		o := propDefault
		o.mode = propRecord
		propDrive(t, g, rules, o, func(t *rapid.T, s *propStep) {
			if s.act != propMove {
				return
			}
			sum := new(big.Int)
			for _, e := range s.rec.merges {
				sum.Add(sum, propPow2(int(e.Result.Level)))
			}
			if s.res.Gained.Big().Cmp(sum) != 0 {
				t.Fatalf("%v: Result.Gained %v, the merges made %v", s.dir, s.res.Gained, sum)
			}
			if got := propScoreDiff(t, s.pre.Score, s.post.Score); got.Cmp(sum) != 0 {
				t.Fatalf("%v: score grew by %d, the merges made %v", s.dir, got, sum)
			}
		})
	})
}

// TestProp_002_P8_SingleMergePerTile: in one move no cell receives two
// merges, no original tile takes part in two merges, a merge's sources are
// original tiles (never a cell an earlier merge of the move produced), and
// the result is one level up: [2 2 2 2] makes [4 4], never 8.
func TestProp_002_P8_SingleMergePerTile(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g, rules := propGenGame(t)
		o := propDefault
		o.mode = propRecord
		propDrive(t, g, rules, o, func(t *rapid.T, s *propStep) {
			if s.act != propMove {
				return
			}
			made := map[Pos]bool{}
			used := map[Pos]bool{}
			for i, e := range s.rec.merges {
				if made[e.Pos] {
					t.Fatalf("%v: merge %d makes a second tile at %v", s.dir, i, e.Pos)
				}
				for _, f := range e.From {
					if made[f] {
						t.Fatalf("%v: merge %d takes from %v, where an earlier merge of the move made a tile", s.dir, i, f)
					}
					if used[f] {
						t.Fatalf("%v: merge %d takes the tile from %v a second time", s.dir, i, f)
					}
					used[f] = true
				}
				made[e.Pos] = true
			}
			propCheckMergeEvents(t, s)
			// Without the events: no tile after the move is more than one
			// level above the largest before it.
			if top, pre := propMaxLevel(s.post.Board), propMaxLevel(s.pre.Board); top > max(pre+1, 2) {
				t.Fatalf("%v: largest tile went from 2^%d to 2^%d", s.dir, pre, top)
			}
		})
	})
}

// propCheckAgainstRef checks a step of g against the reference: a move in a
// game that is over is ignored, a move the reference leaves unchanged is a
// no-op, and any other makes exactly the reference board plus one spawn (none
// when it stops on a win), with the reference's merges, gain and status.
func propCheckAgainstRef(t *rapid.T, s *propStep) {
	if s.act != propMove {
		return
	}
	switch {
	case s.pre.Status.Over():
		if s.err != nil || s.res != (Result{}) || !reflect.DeepEqual(s.post, s.pre) {
			t.Fatalf("%v in a %v game: %v", s.dir, s.pre.Status, s.err)
		}
		return
	case !s.ref.changed:
		if s.err != nil || s.res != (Result{}) || !reflect.DeepEqual(s.post, s.pre) || s.legal.Has(s.dir) {
			t.Fatalf("%v changes nothing by the reference, but: %+v, %v, legal %v\npre  %v\npost %v", s.dir, s.res, s.err, s.legal, s.pre.Board.Cells, s.post.Board.Cells)
		}
		return
	case s.err != nil: // a queued spawn on a cell the move fills
		if !reflect.DeepEqual(s.post, s.pre) {
			t.Fatalf("%v failed (%v) but changed the game", s.dir, s.err)
		}
		return
	}
	if !s.legal.Has(s.dir) || !s.res.Changed || s.res.Merges != s.ref.merges || s.res.Gained.Big().Cmp(s.ref.gained) != 0 {
		t.Fatalf("%v: legal %v, %+v; the reference makes %d merges worth %d", s.dir, s.legal, s.res, s.ref.merges, s.ref.gained)
	}
	if s.post.Turn != s.pre.Turn+1 {
		t.Fatalf("%v: turn %d after %d", s.dir, s.post.Turn, s.pre.Turn)
	}
	if s.wonStop() {
		if !s.post.Board.Equal(&s.ref.board) || s.res.Spawns != 0 {
			t.Fatalf("%v (won, no spawn): %d spawns, board\n%v\nwant\n%v", s.dir, s.res.Spawns, s.post.Board.Cells, s.ref.board.Cells)
		}
	} else {
		p, c := s.spawned(t) // fails unless exactly one cell differs
		if !s.ref.board.At(p).IsEmpty() || (c.Level != 1 && c.Level != 2) || c.Kind != KindTile {
			t.Fatalf("%v: the board differs from the reference at %v: %+v, not a spawn", s.dir, p, c)
		}
		if s.queued != nil && (p != s.queued.Pos || c != s.queued.Cell) {
			t.Fatalf("%v: spawned %+v at %v, the queue said %+v", s.dir, c, p, *s.queued)
		}
		if s.rec != nil && !s.rec.spawnBoards[0].Equal(&s.ref.board) {
			t.Fatalf("%v: the board before the spawn\n%v\nwant\n%v", s.dir, s.rec.spawnBoards[0].Cells, s.ref.board.Cells)
		}
	}
	if want := propExpectStatus(s.rules, s.pre.Status, s.ref, s.post.Board); s.post.Status != want {
		t.Fatalf("%v: status %v after %v, want %v", s.dir, s.post.Status, s.pre.Status, want)
	}
}

// TestProp_002_P9_MergeDirectionPriority: every move, on boards of sizes 2
// to 8, makes exactly what the reference makes (compress, merge pairs from
// the edge the move goes toward, compress), so the pair nearest the edge
// merges first: [2 2 4] left makes [4 4], not [2 8]. Three copies of the game
// play in lockstep: without hooks (the lookup table on 4×4), with an empty
// HookFuncs (the generic path everywhere) and with recording hooks (whose
// spawn hook sees the board before the spawn); all three match the reference
// and each other, state for state and byte for byte.
func TestProp_002_P9_MergeDirectionPriority(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rules := propGenRules(t)
		n := propGenSize(t)
		b := propGenBoard(t, n)
		seed := rapid.Uint64().Draw(t, "seed")
		g := propFromBoard(t, rules, b, seed)
		hooked := propFromBoard(t, rules, b, seed)
		hooked.SetHooks(HookFuncs{})
		recorded := propFromBoard(t, rules, b, seed)
		rec := &propRec{}
		recorded.SetHooks(rec.hooks())
		o := propRun{minSteps: 5, maxSteps: 80, undo: true, queue: true}
		propDrive(t, g, rules, o, func(t *rapid.T, s *propStep) {
			propCheckAgainstRef(t, s)
			for _, h := range []*Game{hooked, recorded} {
				hs := *s
				hs.g, hs.rec = h, nil
				if h == recorded {
					*rec = propRec{}
					hs.rec = rec
				}
				hs.pre = h.State().Clone()
				hs.legal = h.LegalMoves()
				if s.act == propMove && len(h.queue) < len(g.queue) {
					h.AddSpawns(g.queue[len(h.queue):]...)
				}
				switch s.act {
				case propMove:
					hs.res, hs.err = h.Move(s.dir)
				case propUndo:
					hs.err = h.Undo()
				case propRedo:
					hs.err = h.Redo()
				}
				hs.post = h.State().Clone()
				propCheckAgainstRef(t, &hs)
				if hs.res != s.res || (hs.err == nil) != (s.err == nil) || !reflect.DeepEqual(hs.post, s.post) || hs.legal != s.legal {
					t.Fatalf("action %d %v with hooks: %+v, %v, legal %v\n%+v\nwithout: %+v, %v, legal %v\n%+v",
						s.act, s.dir, hs.res, hs.err, hs.legal, hs.post, s.res, s.err, s.legal, s.post)
				}
			}
		})
		m := propMarshal(t, g)
		if !bytes.Equal(m, propMarshal(t, hooked)) || !bytes.Equal(m, propMarshal(t, recorded)) {
			t.Fatalf("the games with and without hooks save differently")
		}
	})
}

// TestProp_002_P10_WinDetection: a board that already holds a tile at or
// above the win value starts Won (continue) (Lost if stuck); a merge that
// makes such a tile in a Playing game makes it Won (stop on win: the board is
// the merged board, no spawn, every further move is ignored (no error) and
// changes nothing, LegalMoves is empty; KeepPlaying goes on
// as Won (continue)) or Won (continue) (the spawn happens); a game that has
// not won is Playing or Lost.
func TestProp_002_P10_WinDetection(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rules := propGenRules(t)
		n := propGenSize(t)
		b := propGenBoard(t, n)
		if rapid.Bool().Draw(t, "winNear") {
			rules.WinValue = uint64(1) << min(62, max(3, propMaxLevel(b)+rapid.IntRange(0, 1).Draw(t, "winAbove")))
		}
		win := propWinLevel(rules)
		g := propFromBoard(t, rules, b, rapid.Uint64().Draw(t, "seed"))
		want := Playing
		switch {
		case propLost(b):
			want = Lost
		case propMaxLevel(b) >= win:
			want = WonContinue
		}
		if g.Status() != want {
			t.Fatalf("board with largest tile 2^%d, win value %d, can move %v: status %v, want %v",
				propMaxLevel(b), rules.WinValue, propCanMove(b), g.Status(), want)
		}
		o := propDefault
		o.undo = true
		o.keepWon = true
		o.mode = rapid.SampledFrom([]propMode{propNoHooks, propEmptyHook}).Draw(t, "mode")
		propDrive(t, g, rules, o, func(t *rapid.T, s *propStep) {
			if s.changing() {
				if want := propExpectStatus(rules, s.pre.Status, s.ref, s.post.Board); s.post.Status != want {
					t.Fatalf("%v (merged up to 2^%d, win 2^%d): status %v after %v, want %v", s.dir, s.ref.topMerged, win, s.post.Status, s.pre.Status, want)
				}
				reached := s.ref.topMerged >= win
				if s.pre.Status == Playing && reached && !rules.StopOnWin && s.res.Spawns != 1 {
					t.Fatalf("%v: won (continue) but %d spawns", s.dir, s.res.Spawns)
				}
			}
			if s.post.Status == Won {
				if !rules.StopOnWin {
					t.Fatalf("Won without stop on win")
				}
				if s.wonStop() && (s.res.Spawns != 0 || !s.post.Board.Equal(&s.ref.board)) {
					t.Fatalf("%v: won (stop) with %d spawns", s.dir, s.res.Spawns)
				}
				if s.g.LegalMoves() != 0 {
					t.Fatalf("Won game has legal moves %v", s.g.LegalMoves())
				}
				before := propMarshal(t, s.g)
				for _, d := range Directions {
					if res, err := s.g.Move(d); err != nil || res != (Result{}) {
						t.Fatalf("%v in a Won game: %+v, %v", d, res, err)
					}
				}
				if !bytes.Equal(before, propMarshal(t, s.g)) {
					t.Fatalf("ignored moves changed a Won game")
				}
			}
			if s.post.Status.HasWon() && propMaxLevel(s.post.Board) < win {
				t.Fatalf("status %v without a winning tile", s.post.Status)
			}
		})
	})
}

// TestProp_002_P11_GameOverDetection: a full board with no two equal
// orthogonal neighbours is Lost from NewFromBoard (with no legal move, every
// move ignored), and after any step the game is Lost exactly when its board
// is such a board; a board with no tile at all (which no move changes
// either; only NewFromBoard makes one) is Playing; a Won (stop) game never
// has a stuck board.
func TestProp_002_P11_GameOverDetection(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rules := propGenRules(t)
		n := propGenSize(t)
		stuck := propGenStuckBoard(t, n)
		g := propFromBoard(t, rules, stuck, rapid.Uint64().Draw(t, "seed"))
		if g.Status() != Lost || g.LegalMoves() != 0 || g.CanMove() {
			t.Fatalf("stuck board %v: status %v, legal %v", stuck.Cells, g.Status(), g.LegalMoves())
		}
		for _, d := range Directions {
			if r, err := g.Move(d); err != nil || r != (Result{}) {
				t.Fatalf("%v on a stuck board: %+v, %v", d, r, err)
			}
		}
		if !g.State().Board.Equal(&stuck) {
			t.Fatalf("ignored moves changed the board")
		}

		g, rules = propGenGame(t)
		o := propDefault
		o.undo = true
		o.mode = rapid.SampledFrom([]propMode{propNoHooks, propEmptyHook}).Draw(t, "mode")
		propDrive(t, g, rules, o, func(t *rapid.T, s *propStep) {
			st := propStuck(s.post.Board)
			if st && s.post.Status == Won {
				t.Fatalf("Won (stop) game with a stuck board")
			}
			if st != (s.post.Status == Lost) {
				t.Fatalf("board stuck %v, status %v: %v", st, s.post.Status, s.post.Board.Cells)
			}
			if propTiles(s.post.Board) == 0 && s.post.Status != Playing {
				t.Fatalf("board without a tile, status %v", s.post.Status)
			}
		})
	})
}

// TestProp_000_4_Determinism: the same rules, seed and steps (moves, undo,
// redo) give byte-identical saves after every step, also for a copy saved
// and loaded (Marshal, Unmarshal) partway through, and a save reloads to the
// same bytes.
func TestProp_000_4_Determinism(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rules := propGenRules(t)
		n := propGenSize(t)
		seed := rapid.Uint64().Draw(t, "seed")
		fresh := rapid.Bool().Draw(t, "fresh")
		var b Board
		if !fresh {
			b = propGenBoard(t, n)
		}
		start := func() *Game {
			if fresh {
				g, err := New(rules, propOptions(n, seed))
				if err != nil {
					t.Fatalf("New: %v", err)
				}
				return g
			}
			return propFromBoard(t, rules, b, seed)
		}
		steps := rapid.SliceOfN(rapid.IntRange(0, 5), 1, 80).Draw(t, "steps")
		split := rapid.IntRange(0, len(steps)).Draw(t, "split")
		a, c := start(), start()
		var reloaded *Game
		play := func(g *Game, k int) error {
			switch {
			case steps[k] < 4:
				_, err := g.Move(Directions[steps[k]])
				return err
			case steps[k] == 4:
				return g.Undo()
			default:
				return g.Redo()
			}
		}
		for k := range steps {
			if k == split {
				data := propMarshal(t, c)
				var err error
				if reloaded, err = Unmarshal(data); err != nil {
					t.Fatalf("Unmarshal: %v", err)
				}
				if again := propMarshal(t, reloaded); !bytes.Equal(again, data) {
					t.Fatalf("save, load, save differs:\n%s\n%s", data, again)
				}
				c = reloaded
			}
			ea, ec := play(a, k), play(c, k)
			if (ea == nil) != (ec == nil) {
				t.Fatalf("step %d: errors %v and %v", k, ea, ec)
			}
			if ma, mc := propMarshal(t, a), propMarshal(t, c); !bytes.Equal(ma, mc) {
				t.Fatalf("step %d (reloaded %v): saves differ:\n%s\n%s", k, reloaded != nil, ma, mc)
			}
		}
	})
}

// ---------------------------------------------------------------------------
// Regression tests for engine bugs the properties found.

// TestSpawnCannotWin guards the fix of a bug the properties found: with a
// win value of 4, a spawned 4 made a new game Won (continue) but left a moved
// game Playing. Win values start at 8, above any spawn, so only a merge can
// reach one, whatever the path.
func TestSpawnCannotWin(t *testing.T) {
	r := NewClassic()
	for _, v := range []uint64{2, 4} {
		r.WinValue = v
		if err := r.Validate(); err == nil {
			t.Errorf("win_value %d is accepted; a spawn would reach it", v)
		}
		if _, err := New(r, Options{Width: 2, Height: 2}); err == nil {
			t.Errorf("New accepts rules with win_value %d", v)
		}
	}
	r.WinValue, r.FourProbability = 8, 1 // every spawn is a 4
	g, err := New(r, Options{Width: 2, Height: 2, Seed: 1, UndoLimit: -1})
	if err != nil {
		t.Fatal(err)
	}
	if g.Status() != Playing {
		t.Fatalf("a new game of spawned 4s is %v, want Playing", g.Status())
	}
	b := NewBoard(2, 2)
	b.Cells[0], b.Cells[1] = Cell{Kind: KindTile, Level: 2}, Cell{Kind: KindTile, Level: 2} // 4 4 / 0 0
	g, err = NewFromBoard(r, Options{Width: 2, Height: 2, Seed: 1, UndoLimit: -1}, b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Move(Left); err != nil { // the merge makes an 8
		t.Fatal(err)
	}
	if g.Status() != Won {
		t.Errorf("a merge to 8 left the game %v, want Won", g.Status())
	}
}
