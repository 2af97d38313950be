package ai

import (
	"math"

	"github.com/mod2048/mod2048/engine"
)

// rankForked searches through the engine's own rules: each move is played
// on Samples forks of the game at the root (DeepSamples below it), each
// reseeded, so that their spawns sample
// what chance may bring, and the search goes ForkDepth moves deep. It
// works for any ruleset, board size and marks, and sees the mods where the
// game's hooks give its forks a dry run (engine.Forker); a mod's refusal
// at the root comes in through legal.
func (p *Player) rankForked(g *engine.Game, legal engine.DirSet) []Suggestion {
	var out []Suggestion
	// The seeds come from the position, so the same position gives the
	// same samples and the same move.
	seed := engine.PositionSeed(g.State())
	for _, d := range engine.Directions {
		if !legal.Has(d) {
			continue
		}
		if v := p.sampled(g, d, seed, p.s.ForkDepth); !math.IsInf(v, -1) {
			out = append(out, Suggestion{Dir: d, Value: v})
		}
	}
	return out
}

// sampled is the mean value of playing d on forks of g, depth moves deep.
func (p *Player) sampled(g *engine.Game, d engine.Direction, seed uint64, depth int) float64 {
	sum := 0.0
	for len(p.forks) < depth {
		p.forks = append(p.forks, new(engine.Game))
	}
	f := p.forks[depth-1] // the fork of this level, played into again and again
	n := p.s.Samples
	if depth < p.s.ForkDepth {
		n = p.s.Deep()
	}
	for i := 0; i < n; i++ {
		seed = engine.Mix(seed + uint64(i) + 1)
		g.ForkInto(f, seed)
		res, err := f.Move(d)
		if err != nil || !res.Changed {
			return math.Inf(-1)
		}
		sum += p.forkValue(f, seed, depth-1)
	}
	return sum / float64(n)
}

// forkValue is the value of a fork's position with depth moves to look.
func (p *Player) forkValue(f *engine.Game, seed uint64, depth int) float64 {
	if depth == 0 || f.Status().Over() {
		p.Nodes++
		return p.evalState(f)
	}
	best := math.Inf(-1)
	for _, d := range engine.Directions {
		if f.Legal(d) {
			best = max(best, p.sampled(f, d, seed, depth))
		}
	}
	if math.IsInf(best, -1) {
		p.Nodes++
		return p.evalState(f)
	}
	return best
}

// evalState evaluates any game's position: lost is worst and won is best;
// otherwise the rows' and columns' evaluation of the board's levels
// (tiles' exponents, cells' energies), plus the score, so that a ruleset
// whose goal the board does not show (cellular's stability) still counts.
func (p *Player) evalState(g *engine.Game) float64 {
	st := g.State()
	switch st.Status {
	case engine.Lost:
		return 0
	case engine.Won: // the move won (a game that stops on a win)
		return 1e12
	}
	w := p.s.Weights
	b := st.Board
	v := 0.0
	line := p.line[:0]
	for r := 0; r < b.Height; r++ {
		line = line[:0]
		for c := 0; c < b.Width; c++ {
			line = append(line, level(b.At(engine.Pos{Row: r, Col: c})))
		}
		v += p.tables.line(w, line)
	}
	for c := 0; c < b.Width; c++ {
		line = line[:0]
		for r := 0; r < b.Height; r++ {
			line = append(line, level(b.At(engine.Pos{Row: r, Col: c})))
		}
		v += p.tables.line(w, line)
	}
	p.line = line
	score, _ := st.Score.Uint64()
	return v + float64(score)
}

func level(c engine.Cell) uint16 {
	if c.Kind == engine.KindEmpty {
		return 0
	}
	return c.Level
}

// line evaluates a row or column of any length as w.row does a 4-cell
// one: a longer line is the sum of its 4-cell windows. A window of levels
// below 16 is looked up in t, w's tables, to the same value.
func (t *tables) line(w Weights, l []uint16) float64 {
	// Scale a longer or shorter line's terms as a 4-cell row's.
	total := 0.0
	for i := 0; i+4 <= len(l); i++ {
		a, b, c, d := l[i], l[i+1], l[i+2], l[i+3]
		if a|b|c|d < 16 {
			total += t.exact[int(a)|int(b)<<4|int(c)<<8|int(d)<<12]
		} else {
			total += w.row([4]uint16{a, b, c, d})
		}
	}
	if len(l) < 4 {
		var pad [4]uint16
		copy(pad[:], l)
		total = w.row(pad)
	}
	return total
}
