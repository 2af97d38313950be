package sim

import (
	"fmt"
	"strings"
	"sync"

	"github.com/mod2048/mod2048/cellular"
	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine"
)

// TipPoint is one position of a game played by the tips: the expert's
// search value for the move it advised (Raw, its own chance of a win),
// the chance shown for it (Shown, which Reliability bins: Raw until a
// table's is put in its place; below 0 for none), and whether the game
// was won.
type TipPoint struct {
	Game       int
	Raw, Shown float64
	Won        bool
	// Cell is the position's cell of a chance table (ChanceCell): where
	// it stands in time and in energy against the goal; -1 where it has
	// none.
	Cell int
}

// TipPoints plays o's games (cellular) with a player who follows the
// expert's tips (Expert.Advise's first move), and returns every position's
// tip with the game's outcome: the data to measure whether a chance the
// tip could show would mean what it says (cellular/RULES.md, "The tip").
func TipPoints(o Options, po PolicyOptions) ([]TipPoint, error) {
	var mu sync.Mutex
	seen := map[uint64]*[]tipSeen{}
	o.Make = func(seed uint64) (Policy, error) {
		e, err := NewExpert(po)
		if err != nil {
			return nil, err
		}
		r := new([]tipSeen)
		mu.Lock()
		seen[seed] = r
		mu.Unlock()
		return &tipFollower{e: e, seen: r}, nil
	}
	rs, err := Run(o)
	if err != nil {
		return nil, err
	}
	var out []TipPoint
	for _, r := range rs {
		for _, t := range *seen[r.Seed] {
			out = append(out, TipPoint{Game: r.Game, Raw: t.raw, Shown: t.raw, Won: r.Outcome == Won, Cell: t.cell})
		}
	}
	return out, nil
}

// tipFollower plays the expert's tip, and keeps what it saw: the search's
// chance of a win for it, and the position's chance table cell.
type tipFollower struct {
	e    *Expert
	seen *[]tipSeen
}

type tipSeen struct {
	raw  float64
	cell int
}

func (p *tipFollower) Choose(v View) engine.Direction {
	adv, err := p.e.Advise(v)
	if err != nil {
		return v.Legal.List()[0]
	}
	cell := -1
	if r, ok := v.Rules.(*cellular.Rules); ok {
		cell = ChanceCell(r.Standing(v.State), v.State.Turn)
	}
	*p.seen = append(*p.seen, tipSeen{adv[0].Win, cell})
	return adv[0].Dir
}

// A chance table holds the share of games won, by players who follow the
// tips, from positions of each cell: chanceTurns bands of the turns played
// against the limit, and chanceEnergies of the alive energy against the
// goal (the last one the goal and above).
const (
	chanceTurns    = 5
	chanceEnergies = 6
	ChanceCells    = chanceTurns * chanceEnergies
)

// ChanceCell is the cell of a chance table of a cellular position: g its
// standing, turn its turns played; -1 for a game with no goal or no turn
// limit, whose chance no table holds.
func ChanceCell(g cellular.Standing, turn int) int {
	limit := turn + g.TurnsLeft
	if g.Goal <= 0 || g.TurnsLeft < 0 || limit <= 0 {
		return -1
	}
	t := min(turn*chanceTurns/limit, chanceTurns-1)
	e := min(g.Energy*(chanceEnergies-1)/g.Goal, chanceEnergies-1)
	return t*chanceEnergies + e
}

// ChanceTable is a preset's chance table: each cell's share of games won
// (ChanceCell).
type ChanceTable struct {
	Preset string
	Won    [ChanceCells]float64
}

// FitChances fits a chance table to points: each cell's share of games
// won, drawn toward the share of all of them by prior positions' worth,
// so that a cell that few positions reach says little of its own.
func FitChances(points []TipPoint, prior float64) [ChanceCells]float64 {
	var n, won [ChanceCells]float64
	all, allWon := 0.0, 0.0
	for _, p := range points {
		if p.Cell < 0 {
			continue
		}
		n[p.Cell]++
		all++
		if p.Won {
			won[p.Cell]++
			allWon++
		}
	}
	var out [ChanceCells]float64
	base := allWon / max(all, 1)
	for i := range out {
		out[i] = (won[i] + prior*base) / (n[i] + prior)
	}
	return out
}

// ChanceFor returns the chance of a win from the position of state in a
// game of rules r with no mods, from TipChances: the share of games won
// by players who follow the tips from positions like it, where r's
// settings are a preset's with a table; false elsewhere (another
// configuration, mods, a game with no goal or limit).
func ChanceFor(r *cellular.Rules, state *engine.State) (float64, bool) {
	t, ok := chanceTables()[r.Settings()]
	if !ok {
		return 0, false
	}
	cell := ChanceCell(r.Standing(state), state.Turn)
	if cell < 0 {
		return 0, false
	}
	return t.Won[cell], true
}

// chanceTables are TipChances by their presets' settings.
var chanceTables = sync.OnceValue(func() map[cellular.Settings]*ChanceTable {
	out := map[cellular.Settings]*ChanceTable{}
	for i, c := range TipChances {
		if p, err := config.Preset(c.Preset); err == nil {
			out[p.Cellular] = &TipChances[i]
		}
	}
	return out
})

// Bin is one bin of a reliability table: the positions whose shown chance
// fell in [Lo, Lo+0.1), from how many games, their mean shown chance and
// the share of them whose game was won.
type Bin struct {
	Lo           float64
	Positions    int
	Games        int
	Shown, Share float64
}

// ReliabilityTable is the bins of a reliability table, lowest first.
type ReliabilityTable []Bin

// Reliability bins points by their shown chance, ten bins of 10 points.
func Reliability(points []TipPoint) ReliabilityTable {
	t := make(ReliabilityTable, 10)
	games := make([]map[int]bool, 10)
	for i := range t {
		t[i].Lo = float64(i) / 10
		games[i] = map[int]bool{}
	}
	for _, p := range points {
		if p.Shown < 0 {
			continue // no chance shown
		}
		i := min(int(p.Shown*10), 9)
		b := &t[i]
		b.Positions++
		b.Shown += p.Shown
		if p.Won {
			b.Share++
		}
		games[i][p.Game] = true
	}
	for i := range t {
		if n := float64(t[i].Positions); n > 0 {
			t[i].Shown /= n
			t[i].Share /= n
		}
		t[i].Games = len(games[i])
	}
	return t
}

func (t ReliabilityTable) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-9s  %9s  %5s  %6s  %6s\n", "shown", "positions", "games", "mean", "won")
	for _, x := range t {
		if x.Positions == 0 {
			continue
		}
		fmt.Fprintf(&b, "%3.0f–%3.0f%%  %9d  %5d  %5.1f%%  %5.1f%%\n", 100*x.Lo, 100*x.Lo+10, x.Positions, x.Games, 100*x.Shown, 100*x.Share)
	}
	return b.String()
}
