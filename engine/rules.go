package engine

import (
	"encoding/json"
	"fmt"
	"sort"
	"sync"
)

// Rules is a ruleset: how a turn plays, what a cell may hold and how cells
// are written. Classic implements it in this package; package cellular
// implements it without touching the classic code.
type Rules interface {
	// Name is the ruleset's name as configs, fixtures and saves write it.
	Name() string

	// Setup fills the board of a new game (classic: its initial spawns)
	// and sets its status.
	Setup(t *Turn) error

	// Play plays one turn in direction t.Dir on t.State and reports
	// whether the board changed. A turn that changes nothing must return
	// false before it spawns or scores anything: the engine then drops
	// t.State, and the move counts as a no-op.
	Play(t *Turn) (changed bool, err error)

	// Changes reports whether a move in direction d would change the board
	// of s. It must not change s.
	Changes(s *State, d Direction) bool

	// Settle works the status of s out again from its board: for a board
	// given as it is, after hooks have edited it, and after blocking marks
	// went. It changes only s.Status, and it leaves the status of every
	// state a game reaches as it is (Unmarshal refuses a state it would
	// change).
	Settle(s *State)

	// ParseCell reads one cell in the ruleset's notation.
	ParseCell(text string) (Cell, error)
	// FormatCell writes one cell in the ruleset's notation.
	FormatCell(c Cell) string
	// CheckCell reports whether c may stand on a board of this ruleset.
	CheckCell(c Cell) error
	// CheckSpawn reports whether the ruleset can spawn c.
	CheckSpawn(c Cell) error
	// RandomSpawn draws the cell of a random spawn from r.
	RandomSpawn(r *RNG) Cell

	// Config returns the ruleset's configuration as a value that
	// encoding/json writes and the ruleset's Loader reads back.
	Config() any
}

// ScoreFormatter is implemented by rules whose score is not a whole number
// of points (cellular keeps quarter points). Rules without it write and read
// scores as decimal integers.
type ScoreFormatter interface {
	FormatScore(Score) string
	ParseScore(string) (Score, error)
}

// FormatScore writes s as the rules write scores.
func FormatScore(r Rules, s Score) string {
	if f, ok := r.(ScoreFormatter); ok {
		return f.FormatScore(s)
	}
	return s.String()
}

// ParseScoreFor reads a score as the rules write scores.
func ParseScoreFor(r Rules, text string) (Score, error) {
	if f, ok := r.(ScoreFormatter); ok {
		return f.ParseScore(text)
	}
	return ParseScore(text)
}

// Loader makes Rules from a configuration that Rules.Config wrote as JSON.
type Loader func(config json.RawMessage) (Rules, error)

var (
	rulesetsMu sync.RWMutex
	rulesets   = map[string]Loader{}
)

// RegisterRuleset makes a ruleset known by name to Load, the way
// image.RegisterFormat makes image formats known. Registering a name twice
// panics: it is a programming error, found at start-up.
func RegisterRuleset(name string, load Loader) {
	rulesetsMu.Lock()
	defer rulesetsMu.Unlock()
	if _, dup := rulesets[name]; dup {
		panic("engine: ruleset " + name + " registered twice")
	}
	rulesets[name] = load
}

// Rulesets returns the names of the registered rulesets, sorted.
func Rulesets() []string {
	rulesetsMu.RLock()
	defer rulesetsMu.RUnlock()
	names := make([]string, 0, len(rulesets))
	for n := range rulesets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// LoadRules makes the named ruleset's Rules from its JSON configuration.
func LoadRules(name string, config json.RawMessage) (Rules, error) {
	rulesetsMu.RLock()
	load := rulesets[name]
	rulesetsMu.RUnlock()
	if load == nil {
		return nil, fmt.Errorf("unknown ruleset %q (known: %v)", name, Rulesets())
	}
	return load(config)
}

func init() {
	RegisterRuleset(ClassicName, loadClassic)
}

// Turn is what a ruleset gets to play one turn, or to set up a new game: the
// state being built and the engine's services for merges and spawns.
type Turn struct {
	Dir    Direction
	State  *State // the state being built; the rules change it in place
	Gained Score  // the score the turn gained; the rules add to it
	Merges int    // the merges so far, counted by Merge
	Spawns int    // the cells spawned so far, counted by Spawn

	g *Game
	// emptyHint is the number of empty cells, when the rules know it
	// without counting (no hooks, no blocking marks); 0 means unknown.
	emptyHint int
}

// Hooked reports whether a hook is attached, so that rules can skip
// building event payloads nobody reads.
func (t *Turn) Hooked() bool { return t.g.hooks != nil }

// Merge reports a merge to the hooks and counts it. The rules fill Pos, From,
// Sources and Result; on return, e.Result is the cell to place (a hook may
// have replaced it, and the engine has checked the replacement).
func (t *Turn) Merge(e *MergeEvent) error {
	t.Merges++
	if t.g.hooks == nil {
		return nil
	}
	e.State = t.State
	want := e.Result
	if err := t.g.hooks.AfterMerge(e); err != nil {
		return &HookError{Event: "after merge", Err: err}
	}
	e.State = nil
	if e.Result != want {
		if e.Result.Kind == KindEmpty {
			return &HookError{Event: "after merge", Err: fmt.Errorf("merge result at %v cannot be empty", e.Pos)}
		}
		if err := t.g.rules.CheckCell(e.Result); err != nil {
			return &HookError{Event: "after merge", Err: fmt.Errorf("merge result at %v: %w", e.Pos, err)}
		}
	}
	return nil
}

// Spawn places one spawned cell: the next spawn-queue entry if there is one,
// else, when the game has a random source, a random cell from
// Rules.RandomSpawn on a uniformly chosen empty cell. It reports whether a
// cell was placed (a hook may cancel a spawn; a random spawn on a full board
// places nothing). A queue entry the rules refuse is a *SpawnError, an empty
// queue with no random source is ErrNoSpawn.
func (t *Turn) Spawn() (bool, error) { return t.SpawnWith(nil) }

// RandomAllowed reports whether the game may spawn from its random source;
// false when it spawns only from its queue (fixtures without a seed). A
// ruleset that rolls for optional spawns (a rare token, say) rolls only when
// it is true.
func (t *Turn) RandomAllowed() bool { return !t.g.opt.ScriptedOnly }

// RNG returns the random source of the turn's state.
func (t *Turn) RNG() *RNG { return &t.State.RNG }

// SpawnWith is Spawn with random cells drawn by random instead of
// Rules.RandomSpawn (nil means Rules.RandomSpawn): a ruleset that spawns
// several kinds of thing uses it for each, and the spawn queue still comes
// first, whatever kind its next entry is.
func (t *Turn) SpawnWith(random func(*RNG) Cell) (bool, error) {
	g, s := t.g, t.State
	b := &s.Board
	var at Pos
	var cell Cell
	scripted := s.Next < len(g.queue)
	switch {
	case scripted:
		e := g.queue[s.Next]
		if e.Invalid != nil {
			return false, &SpawnError{Entry: fmt.Sprintf("{%d,%d,%s}", e.Pos.Row, e.Pos.Col, e.Text), Reason: "the ruleset cannot spawn it: " + e.Invalid.Error()}
		}
		if err := g.checkSpawn(s, e.Pos, e.Cell); err != nil {
			return false, err
		}
		s.Next++
		at, cell = e.Pos, e.Cell
	case g.opt.ScriptedOnly:
		return false, ErrNoSpawn
	default:
		blocks := s.HasBlocks()
		var n int
		switch {
		case blocks:
			n = s.spawnableCount()
		case t.emptyHint > 0:
			n = t.emptyHint
		default:
			n = b.EmptyCount()
		}
		if n == 0 {
			return false, nil
		}
		if random != nil {
			cell = random(&s.RNG)
		} else {
			cell = g.rules.RandomSpawn(&s.RNG)
		}
		if blocks {
			at = b.PosOf(s.nthSpawnable(s.RNG.IntN(n)))
		} else {
			at = b.PosOf(b.nthEmpty(s.RNG.IntN(n)))
		}
	}
	if g.hooks != nil {
		ev := &g.spawnEv
		*ev = SpawnEvent{Pos: at, Cell: cell, Scripted: scripted, State: s}
		err := g.hooks.OnSpawn(ev)
		ev.State = nil
		if err != nil {
			return false, &HookError{Event: "on spawn", Err: err}
		}
		if ev.Cancel {
			return false, nil
		}
		if ev.Pos != at || ev.Cell != cell {
			if err := g.checkSpawn(s, ev.Pos, ev.Cell); err != nil {
				return false, &HookError{Event: "on spawn", Err: err}
			}
			at, cell = ev.Pos, ev.Cell
		}
	}
	b.Set(at, cell)
	t.Spawns++
	return true, nil
}

// checkSpawn checks that c may spawn at p on the board of s.
func (g *Game) checkSpawn(s *State, p Pos, c Cell) error {
	b := &s.Board
	entry := fmt.Sprintf("{%d,%d,%s}", p.Row, p.Col, g.rules.FormatCell(c))
	if !b.In(p) {
		return &SpawnError{Entry: entry, Reason: fmt.Sprintf("cell %v is off the %d×%d board", p, b.Width, b.Height)}
	}
	if err := g.rules.CheckSpawn(c); err != nil {
		return &SpawnError{Entry: entry, Reason: err.Error()}
	}
	if !b.At(p).IsEmpty() {
		return &SpawnError{Entry: entry, Reason: fmt.Sprintf("cell %v is occupied by %s", p, g.rules.FormatCell(b.At(p)))}
	}
	if s.Blocked(p.Row*b.Width + p.Col) {
		return &SpawnError{Entry: entry, Reason: fmt.Sprintf("cell %v is blocked by a mark", p)}
	}
	return nil
}

// spawnableCount counts the empty cells no blocking mark stands on.
func (s *State) spawnableCount() int {
	n := 0
	for i, c := range s.Board.Cells {
		if c.IsEmpty() && !s.Blocked(i) {
			n++
		}
	}
	return n
}

// nthSpawnable returns the index of the k-th (from 0) empty, unblocked cell.
func (s *State) nthSpawnable(k int) int {
	for i, c := range s.Board.Cells {
		if c.IsEmpty() && !s.Blocked(i) {
			if k == 0 {
				return i
			}
			k--
		}
	}
	return -1
}
