package ai

import (
	"math"

	"github.com/mod2048/mod2048/engine"
)

// rankForked searches through the engine's own rules (Search, Chained):
// each move is played on Samples forks of the game at the root
// (DeepSamples below it), ForkDepth moves deep, valuing positions with the
// ruleset's evaluation where it has one, by its weights for the expert
// (ExpertEvalFor), else evalState. The seeds come from the position, so
// the same position gives the same ranking; a mod's refusal at the root
// comes in through legal.
func (p *Player) rankForked(g *engine.Game, legal engine.DirSet) ([]Suggestion, error) {
	eval, err := ExpertEvalFor(g.Rules(), nil, p.evalState)
	if err != nil {
		return nil, err
	}
	s := &p.search
	s.Depth, s.Samples, s.Deep, s.Schedule, s.Eval, s.Evals = p.s.ForkDepth, p.s.Samples, p.s.Deep(), Chained, eval, 0
	var out []Suggestion
	seed := engine.PositionSeed(g.State())
	for _, d := range engine.Directions {
		if !legal.Has(d) {
			continue
		}
		if v := s.Value(g, d, seed); !math.IsInf(v, -1) {
			out = append(out, Suggestion{Dir: d, Value: v})
		}
	}
	p.Nodes += s.Evals
	return out, nil
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
