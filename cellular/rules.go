package cellular

import (
	"encoding/json"
	"fmt"

	"github.com/mod2048/mod2048/engine"
)

// Name is the ruleset's name.
const Name = "cellular"

// The occupants and tokens of a cellular cell. An occupant (alive or
// dormant, with energy in Cell.Level) and a catalyst may share a cell; a
// blight token (active or incoming, with its charges in Cell.Charges) stands
// alone and blocks movement.
const (
	KindAlive   engine.Kind = 2
	KindDormant engine.Kind = 3

	TokenCatalyst engine.Token = 1
	TokenBlight   engine.Token = 2
	TokenIncoming engine.Token = 3 // telegraphed blight: blocks, converts nothing yet
)

// Var names of the ruleset's counters in engine.State.Vars.
const (
	VarStreak = "streak" // consecutive stable turns, this one included
	VarBase   = "base"   // S_base of the last turn
	VarBirths = "births" // births of the last Life tick
	VarDeaths = "deaths" // deaths of the last Life tick
	// VarHeld counts the consecutive turns, this one included, that were
	// stable and reached the threshold: a game with goal.hold above 1
	// wins when it reaches goal.hold (kept only in such games).
	VarHeld = "held"
)

// Rules is Cellular 2048 with one set of tunables.
type Rules struct {
	s         Settings
	threshold int
	nb        *neighbours // its board's cells' neighbours
}

// New returns the rules for s, which must be valid.
func New(s Settings) (*Rules, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &Rules{s: s, threshold: s.Threshold(), nb: newNeighbours(s.Width, s.Height, s.Life.Wrap)}, nil
}

func init() {
	engine.RegisterRuleset(Name, func(config json.RawMessage) (engine.Rules, error) {
		s := legacy()
		if err := json.Unmarshal(config, &s); err != nil {
			return nil, fmt.Errorf("cellular rules: %w", err)
		}
		r, err := New(s)
		if err != nil {
			return nil, fmt.Errorf("cellular rules: %w", err)
		}
		return r, nil
	})
}

// Name returns "cellular".
func (r *Rules) Name() string { return Name }

// Settings returns the rules' tunables.
func (r *Rules) Settings() Settings { return r.s }

// Config returns the tunables for saving.
func (r *Rules) Config() any { return r.s }

// Threshold returns StabilizeThreshold (0 when the goal is off).
func (r *Rules) Threshold() int { return r.threshold }

func isOccupant(c engine.Cell) bool { return c.Kind == KindAlive || c.Kind == KindDormant }

func isWall(c engine.Cell) bool { return c.Token == TokenBlight || c.Token == TokenIncoming }

func aliveCell(e int) engine.Cell { return engine.Cell{Kind: KindAlive, Level: uint16(e)} }

func aliveOne(*engine.RNG) engine.Cell { return aliveCell(1) }

// Setup places the initial alive cells and settles the status.
func (r *Rules) Setup(t *engine.Turn) error {
	for i := 0; i < r.s.InitialCells; i++ {
		if _, err := t.SpawnWith(aliveOne); err != nil {
			return err
		}
	}
	r.Settle(t.State)
	return nil
}

// Play plays one turn: the five phases of seeds/004 §2 (swipe; Life tick;
// dormancy; blight and decay; scoring), then the spawns and the status.
func (r *Rules) Play(t *engine.Turn) (bool, error) {
	s := t.State
	b := &s.Board
	sc := getScratch()
	defer sc.put()
	moved, merged, err := r.swipe(t, sc)
	if err != nil {
		return false, err
	}
	if !moved && !r.s.IdleTicks {
		return false, nil
	}
	born := bools(sc.born, len(b.Cells))
	sc.born = born
	births, deaths := 0, 0
	if r.s.Life.Enabled {
		births, deaths = r.life(s, born, sc)
	}
	r.dormancy(b, merged, born)
	r.blight(b, sc)
	r.decay(b, sc)
	stable := births == 0 && deaths == 0
	base := r.score(t, stable)
	setVar(s, VarBirths, int64(births))
	setVar(s, VarDeaths, int64(deaths))
	reached := r.threshold > 0 && stable && base >= r.threshold
	if r.s.Goal.Hold > 1 {
		held := int64(0)
		if reached {
			held = s.Vars[VarHeld] + 1
		}
		setVar(s, VarHeld, held)
		reached = held >= int64(r.s.Goal.Hold)
	}
	if reached && s.Status == engine.Playing {
		if r.s.StopOnWin {
			s.Status = engine.Won
			return true, nil
		}
		s.Status = engine.WonContinue
	}
	if err := r.spawn(t); err != nil {
		return false, err
	}
	if r.lost(s) || (s.Status == engine.Playing && r.outOfTime(s.Turn+1)) {
		s.Status = engine.Lost
	}
	return true, nil
}

// outOfTime reports whether a game that has played turns turns and not
// reached the goal has run out of time (goal.turns).
func (r *Rules) outOfTime(turns int) bool {
	return r.s.Goal.Turns > 0 && turns >= r.s.Goal.Turns
}

func setVar(s *engine.State, name string, v int64) {
	if s.Vars == nil {
		s.Vars = map[string]int64{}
	}
	s.Vars[name] = v
}

// score is phase 5: S_base, the sum of the energy of the alive cells, times
// the streak multiplier M = min(1 + 0.25 × (streak − 1), 3), kept exact in
// quarter points: S_base × min(3 + streak, 12) quarters. It returns S_base.
func (r *Rules) score(t *engine.Turn, stable bool) int {
	s := t.State
	base := 0
	for _, c := range s.Board.Cells {
		if c.Kind == KindAlive {
			base += int(c.Level)
		}
	}
	streak := int64(0)
	if stable {
		streak = s.Vars[VarStreak] + 1
	}
	setVar(s, VarStreak, streak)
	setVar(s, VarBase, int64(base))
	m := int64(r.s.Score.Unstable * 4) // quarters
	if streak > 0 {
		m = min(3+streak, 12)
	}
	quarters := uint64(base) * uint64(m)
	s.Score.AddUint64(quarters)
	t.Gained.AddUint64(quarters)
	return base
}

// lost reports whether the game is lost: no alive cell is left, or no swipe
// would change the board.
func (r *Rules) lost(s *engine.State) bool {
	alive := false
	for _, c := range s.Board.Cells {
		if c.Kind == KindAlive {
			alive = true
			break
		}
	}
	if !alive && r.s.ExtinctionLoses {
		return true
	}
	for _, d := range engine.Directions {
		if r.Changes(s, d) {
			return false
		}
	}
	return true
}

// Settle works out the status of a board that did not come from a turn.
func (r *Rules) Settle(s *engine.State) {
	if s.Status == engine.Won {
		return
	}
	if r.lost(s) || (s.Status != engine.WonContinue && r.outOfTime(s.Turn)) {
		s.Status = engine.Lost
		return
	}
	if s.Status == engine.Lost {
		s.Status = engine.Playing
	}
}

// spawn places the turn's spawns: incoming blight turns active; spawn_cells
// alive cells of energy 1; then, when the game has a random source, a
// catalyst with chance catalyst.rate (while fewer than catalyst.max stand)
// and a blight token with chance blight.rate. The spawn queue comes first
// for every one of them.
func (r *Rules) spawn(t *engine.Turn) error {
	b := &t.State.Board
	for i, c := range b.Cells {
		if c.Token == TokenIncoming {
			b.Cells[i].Token = TokenBlight
		}
	}
	if (t.State.Turn+1)%r.s.SpawnEvery == 0 {
		for i := 0; i < r.s.SpawnCells; i++ {
			if _, err := t.SpawnWith(r.spawnCell); err != nil {
				return err
			}
		}
	}
	if !t.RandomAllowed() {
		return nil
	}
	if r.s.Catalyst.Rate > 0 && countToken(b, TokenCatalyst) < r.s.Catalyst.Max && t.RNG().Chance(r.s.Catalyst.Rate) {
		if _, err := t.SpawnWith(func(*engine.RNG) engine.Cell { return engine.Cell{Token: TokenCatalyst} }); err != nil {
			return err
		}
	}
	if r.s.Blight.Rate > 0 && t.RNG().Chance(r.s.Blight.Rate) {
		token := TokenBlight
		if r.s.Blight.Telegraph {
			token = TokenIncoming
		}
		blight := engine.Cell{Token: token, Charges: uint16(r.s.Blight.Charges)}
		if _, err := t.SpawnWith(func(*engine.RNG) engine.Cell { return blight }); err != nil {
			return err
		}
	}
	return nil
}

func countToken(b *engine.Board, tok engine.Token) int {
	n := 0
	for _, c := range b.Cells {
		if c.Token == tok {
			n++
		}
	}
	return n
}

// CheckSpawn accepts what a spawn may place on an empty cell: an alive or
// dormant cell of energy 1 to e_cap, a catalyst, or a blight token (active
// or incoming) with its charges.
func (r *Rules) CheckSpawn(c engine.Cell) error {
	if err := r.CheckCell(c); err != nil {
		return err
	}
	switch {
	case c.IsEmpty():
		return fmt.Errorf("cannot spawn an empty cell")
	case isOccupant(c) && (c.Token != 0 || c.Counter != 0):
		return fmt.Errorf("cannot spawn %s: a spawn is one cell or one token", r.FormatCell(c))
	}
	return nil
}

// RandomSpawn returns the cell of a random spawn: energy 1, alive with
// chance spawn_alive, else dormant.
func (r *Rules) RandomSpawn(rng *engine.RNG) engine.Cell { return r.spawnCell(rng) }

// spawnCell draws a spawned cell; the random source is drawn from only when
// spawn_alive is strictly between 0 and 1.
func (r *Rules) spawnCell(rng *engine.RNG) engine.Cell {
	switch p := r.s.SpawnAlive; {
	case p >= 1:
		return aliveCell(1)
	case p > 0 && rng.Chance(p):
		return aliveCell(1)
	}
	return engine.Cell{Kind: KindDormant, Level: 1}
}
