package cellular

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// The values of the settings that name a choice.
const (
	DoubleAfterMerge = "after_merge" // catalyst.doubling: §10's order
	DoubleOnContact  = "on_contact"  // catalyst.doubling: §5's "immediately"
)

// legacy returns the settings that a save written before a setting existed
// played with: the keys it lacks keep these values when it is read back.
func legacy() Settings {
	var s Settings
	s.SpawnAlive, s.SpawnEvery, s.ExtinctionLoses = 1, 1, true
	s.Catalyst.Doubling = DoubleAfterMerge
	s.Score.Unstable = 0.75
	s.Goal.Hold = 1
	return s
}

// Settings are the tunables of Cellular 2048. Their toml tags are the keys
// of a cellular TOML file (tables for the nested structs) and their doc tags
// the comments `2048 config show` writes. Validate checks them.
type Settings struct {
	Width  int `toml:"width" doc:"Board width in cells (1 to 32; a board has at least 2 cells)."`
	Height int `toml:"height" doc:"Board height in cells (1 to 32; a board has at least 2 cells)."`
	ECap   int `toml:"e_cap" doc:"E_cap: the highest energy a cell can hold (2 to 255)."`

	InitialCells    int     `toml:"initial_cells" doc:"Alive cells of energy 1 a new game starts with, on random empty cells."`
	SpawnCells      int     `toml:"spawn_cells" doc:"Cells of energy 1 spawned after a turn that spawns (0 to 4)."`
	SpawnAlive      float64 `toml:"spawn_alive" doc:"The chance that a spawned cell is alive(1), which the next Life tick judges; otherwise it is dormant(1), inert until an alive cell merges with it (0 to 1)."`
	SpawnEvery      int     `toml:"spawn_every" doc:"Cells spawn after every k-th turn (1: after every turn)."`
	StopOnWin       bool    `toml:"stop_on_win" doc:"true: reaching the stabilize goal stops the game until the player keeps going; false: play goes on."`
	ExtinctionLoses bool    `toml:"extinction_loses" doc:"A turn that ends with no alive cell on the board loses (the colony is extinct); false: only a board no swipe can change loses."`
	UndoLimit       int     `toml:"undo_limit" doc:"Turns undo can take back: 0 disables undo and redo, -1 keeps every turn."`
	IdleTicks       bool    `toml:"idle_swipe_ticks" doc:"A swipe that moves nothing: false, it is a no-op (as in classic); true, the turn's other phases still run."`

	Life     Life     `toml:"life" doc:"Phase 2, the Life tick."`
	Dormancy Dormancy `toml:"dormancy" doc:"Phase 3, dormancy."`
	Colony   Colony   `toml:"colony" doc:"The colony bonus of merges (§3.5)."`
	Catalyst Catalyst `toml:"catalyst" doc:"Catalysts (§5)."`
	Blight   Blight   `toml:"blight" doc:"Blight tokens (§6), phase 4."`
	Decay    Decay    `toml:"decay" doc:"Isolation decay (§7), phase 4."`
	Score    Score    `toml:"score" doc:"Phase 5, scoring (§8)."`
	Goal     Goal     `toml:"goal" doc:"The stabilize goal (§8)."`
}

// Life tunes the Life tick.
type Life struct {
	Enabled         bool `toml:"enabled" doc:"Run the Life tick (switch it off to check the swipe phase alone)."`
	BirthRelaxation bool `toml:"birth_relaxation" doc:"Births on 2 or 3 alive neighbours instead of exactly 3 (the early relaxation)."`
	Wrap            bool `toml:"wrap" doc:"Neighbourhoods wrap around the board's edges (a torus); false: beyond the edge is empty."`
	BirthOnCatalyst bool `toml:"birth_on_catalyst" doc:"A cell holding only a catalyst counts as empty for births (seeds/004 §1 knows no other kind of cell); false: nothing is born on a catalyst."`
}

// Dormancy tunes phase 3.
type Dormancy struct {
	Ticks int `toml:"ticks" doc:"Turns without a merge after which an alive cell of energy 1 goes dormant (0: never)."`
}

// Colony tunes the colony bonus.
type Colony struct {
	Bonus   int `toml:"bonus" doc:"Energy added to a merge whose two cells both belong to large colonies (0: no bonus)."`
	MinSize int `toml:"min_size" doc:"Alive cells a 4-connected colony needs to count as large."`
}

// Catalyst tunes catalysts.
type Catalyst struct {
	Rate float64 `toml:"rate" doc:"Chance per turn that a catalyst spawns on a random empty cell (0 to 1)."`
	Max  int     `toml:"max" doc:"M: the most catalysts on the board at once."`
	// Doubling and StartOnPath settle §5 against §10.
	Doubling    string `toml:"doubling" doc:"When a catalyst doubles a mover that merges: \"after_merge\" (the merge's result, after the same-E increment and the colony bonus: §10's order) or \"on_contact\" (the mover, before it merges: §5's \"immediately\")."`
	StartOnPath bool   `toml:"start_on_path" doc:"A mover's start cell is on its path, so a catalyst under an alive cell doubles it when it moves; false: the path starts at the next cell."`
}

// Blight tunes blight tokens.
type Blight struct {
	Rate      float64 `toml:"rate" doc:"Chance per turn that a blight token spawns on a random empty cell (0: no blight)."`
	Charges   int     `toml:"charges" doc:"Applications a token makes before it is removed (L; 1: it applies once)."`
	Telegraph bool    `toml:"telegraph" doc:"A new token first shows as incoming (b): it blocks movement but blights nothing until the end of the next turn, when it turns active (B)."`
}

// Decay tunes isolation decay.
type Decay struct {
	Amount int `toml:"amount" doc:"Energy an alive cell with at most one alive neighbour loses each turn, down to 1 (0: no decay)."`
}

// Score tunes phase 5.
type Score struct {
	Unstable float64 `toml:"unstable_multiplier" doc:"M of a turn whose Life tick had a birth or a death (streak 0), in quarters from 0 to 3; §8's formula taken at streak 0 gives 0.75."`
}

// Goal tunes the stabilize goal.
type Goal struct {
	PerCell float64 `toml:"stabilize_per_cell" doc:"StabilizeThreshold = ceil(stabilize_per_cell × width × height): the total energy a stable turn needs to win (0: no goal)."`
	Hold    int     `toml:"hold" doc:"Consecutive turns that must each be stable and reach the threshold to win (1: one full cycle, as seeds/004 §8 says)."`
	Turns   int     `toml:"turns" doc:"The turn limit: a game that has not reached the goal after this many turns is lost (0: no limit)."`
}

// Threshold returns StabilizeThreshold, the total alive energy a stable turn
// must reach to win; 0 when the goal is off.
//
// It is computed exactly, in decimal: stabilize_per_cell is taken as the
// decimal it was written as (the shortest decimal that reads back as the
// same float64, which is what a TOML file or --set gives for any number of
// up to 15 significant digits), multiplied by width × height in integers,
// and rounded up. Floating point would make ceil(0.28 × 25) 8, not 7,
// because 0.28 is stored a little above 0.28.
func (s *Settings) Threshold() int {
	return exactCeilMul(s.Goal.PerCell, s.Width*s.Height)
}

// Played returns the settings as a game plays them, to compare: two
// settings that make the same games return equal values. The goal a
// cell counts only through its threshold (0.362 and 0.388 a cell on 6 × 6
// both ask 14), so Goal.PerCell holds the threshold itself.
func (s Settings) Played() Settings {
	s.Goal.PerCell = float64(s.Threshold())
	return s
}

// exactCeilMul returns ceil(x × n), with x read as its shortest decimal
// form: 0 for x ≤ 0, NaN or n ≤ 0, and the largest int for a result that
// does not fit (or an infinite x).
func exactCeilMul(x float64, n int) int {
	if !(x > 0) || n <= 0 {
		return 0
	}
	if math.IsInf(x, 1) {
		return math.MaxInt
	}
	// d.ddddde±XX: the digits of x and the power of ten of the first one.
	text := strconv.FormatFloat(x, 'e', -1, 64)
	mant, exp, _ := strings.Cut(text, "e")
	digits := strings.Replace(mant, ".", "", 1)
	e, _ := strconv.Atoi(exp)
	scale := e - (len(digits) - 1) // x = digits × 10^scale
	num, _ := new(big.Int).SetString(digits, 10)
	num.Mul(num, big.NewInt(int64(n)))
	ten := big.NewInt(10)
	if scale >= 0 {
		num.Mul(num, new(big.Int).Exp(ten, big.NewInt(int64(scale)), nil))
	} else {
		den := new(big.Int).Exp(ten, big.NewInt(int64(-scale)), nil)
		var rem big.Int
		num.QuoRem(num, den, &rem)
		if rem.Sign() > 0 {
			num.Add(num, big.NewInt(1))
		}
	}
	if !num.IsInt64() || num.Int64() > math.MaxInt {
		return math.MaxInt
	}
	return int(num.Int64())
}

// SettingError is a setting out of range; Key is its TOML key.
type SettingError struct {
	Key string
	Msg string
}

func (e *SettingError) Error() string { return e.Key + ": " + e.Msg }

// Validate checks every setting and reports the first one out of range (a
// *SettingError); Problems lists them all.
func (s *Settings) Validate() error {
	if p := s.Problems(); len(p) > 0 {
		return p[0]
	}
	return nil
}

// Problems returns every setting out of range, in the keys' order.
func (s *Settings) Problems() []*SettingError {
	var out []*SettingError
	bad := func(key, format string, args ...any) {
		out = append(out, &SettingError{Key: key, Msg: fmt.Sprintf(format, args...)})
	}
	prob := func(p float64) bool { return !math.IsNaN(p) && p >= 0 && p <= 1 }
	if s.Width < 1 || s.Width > 32 {
		bad("width", "%d is outside 1 to 32", s.Width)
	}
	if s.Height < 1 || s.Height > 32 {
		bad("height", "%d is outside 1 to 32", s.Height)
	}
	if s.Width >= 1 && s.Height >= 1 && s.Width*s.Height < 2 {
		bad("height", "a %d×%d board has fewer than 2 cells", s.Width, s.Height)
	}
	if s.ECap < 2 || s.ECap > 255 {
		bad("e_cap", "%d is outside 2 to 255", s.ECap)
	}
	if s.InitialCells < 0 || s.InitialCells > s.Width*s.Height {
		bad("initial_cells", "%d is outside 0 to %d (the board's cells)", s.InitialCells, s.Width*s.Height)
	}
	if s.SpawnCells < 0 || s.SpawnCells > 4 {
		bad("spawn_cells", "%d is outside 0 to 4", s.SpawnCells)
	}
	if !prob(s.SpawnAlive) {
		bad("spawn_alive", "%v is outside 0 to 1", s.SpawnAlive)
	}
	if s.SpawnEvery < 1 || s.SpawnEvery > 1000 {
		bad("spawn_every", "%d is outside 1 to 1000", s.SpawnEvery)
	}
	if s.UndoLimit < -1 {
		bad("undo_limit", "%d is below -1 (-1 keeps every turn)", s.UndoLimit)
	}
	if s.Dormancy.Ticks < 0 || s.Dormancy.Ticks > 1000 {
		bad("dormancy.ticks", "%d is outside 0 to 1000", s.Dormancy.Ticks)
	}
	if s.Colony.Bonus < 0 || s.Colony.Bonus > s.ECap {
		bad("colony.bonus", "%d is outside 0 to e_cap (%d)", s.Colony.Bonus, s.ECap)
	}
	if s.Colony.MinSize < 1 || s.Colony.MinSize > s.Width*s.Height {
		bad("colony.min_size", "%d is outside 1 to %d (the board's cells)", s.Colony.MinSize, s.Width*s.Height)
	}
	if !prob(s.Catalyst.Rate) {
		bad("catalyst.rate", "%v is outside 0 to 1", s.Catalyst.Rate)
	}
	if s.Catalyst.Max < 0 || s.Catalyst.Max > s.Width*s.Height {
		bad("catalyst.max", "%d is outside 0 to %d (the board's cells)", s.Catalyst.Max, s.Width*s.Height)
	}
	if s.Catalyst.Doubling != DoubleAfterMerge && s.Catalyst.Doubling != DoubleOnContact {
		bad("catalyst.doubling", "%q is neither %q nor %q", s.Catalyst.Doubling, DoubleAfterMerge, DoubleOnContact)
	}
	if !prob(s.Blight.Rate) {
		bad("blight.rate", "%v is outside 0 to 1", s.Blight.Rate)
	}
	if s.Blight.Charges < 1 || s.Blight.Charges > 100 {
		bad("blight.charges", "%d is outside 1 to 100", s.Blight.Charges)
	}
	if s.Decay.Amount < 0 || s.Decay.Amount > s.ECap {
		bad("decay.amount", "%d is outside 0 to e_cap (%d)", s.Decay.Amount, s.ECap)
	}
	if math.IsNaN(s.Score.Unstable) || s.Score.Unstable < 0 || s.Score.Unstable > 3 || s.Score.Unstable*4 != math.Trunc(s.Score.Unstable*4) {
		bad("score.unstable_multiplier", "%v is not a quarter from 0 to 3 (0, 0.25, 0.5, … 3)", s.Score.Unstable)
	}
	if math.IsNaN(s.Goal.PerCell) || s.Goal.PerCell < 0 || s.Goal.PerCell > float64(s.ECap) {
		bad("goal.stabilize_per_cell", "%v is outside 0 to e_cap (%d)", s.Goal.PerCell, s.ECap)
	}
	if s.Goal.Hold < 1 || s.Goal.Hold > 100 {
		bad("goal.hold", "%d is outside 1 to 100", s.Goal.Hold)
	}
	if s.Goal.Turns < 0 || s.Goal.Turns > 1_000_000 {
		bad("goal.turns", "%d is outside 0 to 1000000 (0: no limit)", s.Goal.Turns)
	}
	return out
}
