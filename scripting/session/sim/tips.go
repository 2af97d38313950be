package sim

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/mod2048/mod2048/engine"
)

// Knot is a point of the tip's calibration: the search's own chance of a
// win (Raw) and the share of games won from positions where it said so
// (Won), when the player follows the tips.
type Knot struct{ Raw, Won float64 }

// CalibratedWin is the chance of a win a search value raw stands for
// under knots (FitCalibration's: linear between them, flat beyond its
// ends).
func CalibratedWin(knots []Knot, raw float64) float64 {
	k := knots
	if len(k) == 0 {
		return raw
	}
	if raw <= k[0].Raw {
		return k[0].Won
	}
	for i := 1; i < len(k); i++ {
		if raw <= k[i].Raw {
			a, b := k[i-1], k[i]
			if b.Raw == a.Raw {
				return b.Won
			}
			return a.Won + (b.Won-a.Won)*(raw-a.Raw)/(b.Raw-a.Raw)
		}
	}
	return k[len(k)-1].Won
}

// TipPoint is one position of a game played by the tips: the expert's
// search value for the move it advised (Raw, its own chance of a win),
// the chance a calibration makes of it (Shown; Raw until one is applied),
// and whether the game was won.
type TipPoint struct {
	Game       int
	Raw, Shown float64
	Won        bool
}

// TipPoints plays o's games (cellular) with a player who follows the
// expert's tips (Expert.Advise's first move), and returns every position's
// tip with the game's outcome: the data to measure whether a chance the
// tip could show would mean what it says (cellular/RULES.md, "The tip").
func TipPoints(o Options, po PolicyOptions) ([]TipPoint, error) {
	var mu sync.Mutex
	raws := map[uint64]*[]float64{}
	o.Make = func(seed uint64) (Policy, error) {
		e, err := NewExpert(po)
		if err != nil {
			return nil, err
		}
		r := new([]float64)
		mu.Lock()
		raws[seed] = r
		mu.Unlock()
		return &tipFollower{e: e, raws: r}, nil
	}
	rs, err := Run(o)
	if err != nil {
		return nil, err
	}
	var out []TipPoint
	for _, r := range rs {
		for _, raw := range *raws[r.Seed] {
			out = append(out, TipPoint{Game: r.Game, Raw: raw, Shown: raw, Won: r.Outcome == Won})
		}
	}
	return out, nil
}

// tipFollower plays the expert's tip, and keeps the search's chance of a
// win for it.
type tipFollower struct {
	e    *Expert
	raws *[]float64
}

func (p *tipFollower) Choose(v View) engine.Direction {
	adv, err := p.e.Advise(v)
	if err != nil {
		return v.Legal.List()[0]
	}
	*p.raws = append(*p.raws, adv[0].Win)
	return adv[0].Dir
}

// FitCalibration fits a calibration's knots to points: the isotonic
// regression of the games' outcomes on the search's chance (pool adjacent
// violators), a non-decreasing step function whose steps are then pooled
// with their neighbours until each holds at least minPositions positions;
// each knot is a step's mean chance and share won.
func FitCalibration(points []TipPoint, minPositions int) []Knot {
	ps := slices.Clone(points)
	slices.SortStableFunc(ps, func(a, b TipPoint) int {
		switch {
		case a.Raw < b.Raw:
			return -1
		case a.Raw > b.Raw:
			return 1
		}
		return 0
	})
	// Pool adjacent violators: blocks of positions, each with its mean
	// outcome, merged while a block's mean is not below the next one's,
	// or while the last block is too small to stand for a step.
	type block struct {
		n        int
		won, raw float64 // sums
	}
	mean := func(b block) float64 { return b.won / float64(b.n) }
	var bs []block
	push := func(b block) {
		bs = append(bs, b)
		for len(bs) > 1 {
			x, y := bs[len(bs)-2], bs[len(bs)-1]
			if mean(x) < mean(y) && x.n >= minPositions {
				break
			}
			bs = append(bs[:len(bs)-2], block{x.n + y.n, x.won + y.won, x.raw + y.raw})
		}
	}
	for _, p := range ps {
		b := block{n: 1, raw: p.Raw}
		if p.Won {
			b.won = 1
		}
		push(b)
	}
	// The last block may be small: pool it with the one before.
	for len(bs) > 1 && bs[len(bs)-1].n < minPositions {
		x, y := bs[len(bs)-2], bs[len(bs)-1]
		bs = bs[:len(bs)-2]
		push(block{x.n + y.n, x.won + y.won, x.raw + y.raw})
	}
	out := make([]Knot, len(bs))
	for i, b := range bs {
		out[i] = Knot{Raw: b.raw / float64(b.n), Won: mean(b)}
	}
	return out
}

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
