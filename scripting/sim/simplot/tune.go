package simplot

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/mod2048/mod2048/scripting/sim/simtune"
)

// Tune draws a tune's search into a file, .svg or .png by its name: each
// candidate's win rate at every target's skill, in the order measured,
// with the targets as dashed lines and the generations' and rounds'
// bounds as grey ones; and each lever's value, as a share of its range,
// so that what moved and where it settled shows. The last candidate
// measured near the answer is ringed.
func Tune(r *simtune.Result, path string) error {
	if err := plotPath(path); err != nil {
		return err
	}
	if len(r.Steps) == 0 {
		return fmt.Errorf("%s: no candidate to plot", path)
	}
	n := float64(len(r.Steps))
	rates := newPlot("Win rates of the candidates, targets dashed", "candidate", "win rate")
	rates.Y.Min, rates.Y.Max = 0, 1
	levers := newPlot("The levers, as a share of their range", "candidate", "share of the range")
	levers.Y.Min, levers.Y.Max = 0, 1
	var rs, ls []series
	for i, t := range r.Targets {
		var xys plotter.XYs
		for j, s := range r.Steps {
			if s.Refused == "" {
				xys = append(xys, plotter.XY{X: float64(j + 1), Y: s.Rates[i]})
			}
		}
		c := palette[i%len(palette)]
		rs = append(rs, series{t.Skill, xys, c, false},
			series{"", plotter.XYs{{X: 1, Y: t.Rate}, {X: n, Y: t.Rate}}, c, true})
	}
	for i, l := range r.Levers {
		var xys plotter.XYs
		for j, s := range r.Steps {
			xys = append(xys, plotter.XY{X: float64(j + 1), Y: (s.Values[i] - l.Lo) / (l.Hi - l.Lo)})
		}
		ls = append(ls, series{l.Key, xys, palette[(i+3)%len(palette)], false})
	}
	if err := addLines(rates, rs); err != nil {
		return err
	}
	if err := addLines(levers, ls); err != nil {
		return err
	}
	for _, p := range []*plot.Plot{rates, levers} {
		if err := stageBounds(p, r.Steps); err != nil {
			return err
		}
		best := r.Steps[r.Best]
		var ring plotter.XYs
		if p == rates {
			for i := range r.Targets {
				ring = append(ring, plotter.XY{X: float64(r.Best + 1), Y: best.Rates[i]})
			}
		} else {
			for i, l := range r.Levers {
				ring = append(ring, plotter.XY{X: float64(r.Best + 1), Y: (best.Values[i] - l.Lo) / (l.Hi - l.Lo)})
			}
		}
		sc, err := plotter.NewScatter(ring)
		if err != nil {
			return err
		}
		sc.GlyphStyle.Shape = draw.CircleGlyph{}
		sc.GlyphStyle.Radius = vg.Points(5)
		sc.GlyphStyle.Color = palette[2]
		p.Add(sc)
		p.Legend.Add("last round", sc)
	}
	// Room above the curves for the legend, a line an entry.
	rates.Y.Max = 1 + 0.09*float64(len(r.Targets)+1)
	levers.Y.Max = 1 + 0.09*float64(len(r.Levers)+1)
	return drawRow(path, []*plot.Plot{rates, levers})
}

// stageBounds draws a grey line where each generation of the exploration
// and each refining round begins.
func stageBounds(p *plot.Plot, steps []simtune.Step) error {
	for j := 1; j < len(steps); j++ {
		if steps[j].Round == steps[j-1].Round && steps[j].Generation == steps[j-1].Generation {
			continue
		}
		x := float64(j) + 0.5
		l, err := plotter.NewLine(plotter.XYs{{X: x, Y: 0}, {X: x, Y: 1}})
		if err != nil {
			return err
		}
		l.Color = color.Gray{Y: 0xc8}
		l.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
		p.Add(l)
	}
	return nil
}
