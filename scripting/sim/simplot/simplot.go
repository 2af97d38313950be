// Package simplot draws the balance lab's reports and studies (package
// sim) with gonum/plot, apart from the lab itself, so that a program that
// imports the lab to run games or pick a policy does not pull in the
// plotting library, its fonts and its writers.
package simplot

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/mod2048/mod2048/scripting/sim"
)

// Report draws the run into a file, .svg or .png by its name (gonum/plot):
// its score distribution (a histogram); its survival curve split by how
// games end (the share still going at each turn, and the shares won and
// lost by then, so that an easier configuration whose games are won
// sooner does not look harder); its hazard, the chance that a game
// still going ends at each turn: the difficulty curve; and how its games
// ended, by cause (sim.Report.Ends).
func Report(r *sim.Report, path string) error {
	if err := plotPath(path); err != nil {
		return err
	}
	if len(r.Results) == 0 {
		return fmt.Errorf("%s: no game to plot", path)
	}
	scores, err := scorePlot(r)
	if err != nil {
		return err
	}
	c := curvesOf(r)
	survival := newPlot("Survival: games still going, won, lost", "turn", "share of games")
	survival.Y.Min, survival.Y.Max = 0, 1
	if err := addLines(survival, []series{
		{"still going", c.going, palette[0], false},
		{"won by then", c.won, palette[1], false},
		{"lost by then", c.lost, palette[2], true},
	}); err != nil {
		return err
	}
	hazard := newPlot("Hazard: chance a game still going ends", "turn", "per turn")
	if err := addLines(hazard, []series{{"ends", c.hazard, palette[0], false}}); err != nil {
		return err
	}
	roomForLegend(survival)
	roomForLegend(hazard)
	ends, err := endsPlot([]string{r.Policy}, []*sim.Report{r})
	if err != nil {
		return err
	}
	return drawRow(path, []*plot.Plot{scores, survival, hazard, ends})
}

// Study draws the study's runs overlaid, one line each, into a file (.svg
// or .png): the share of games won by each turn, the share lost by each
// turn, the hazard (the chance that a game still going ends at each
// turn, the difficulty curve of Isaksen, Gopstein and Nealen's survival
// analysis of game variants), and how each run's games ended, by cause:
// a bar a run (each skill's, in a study of the ladder).
func Study(s *sim.Study, path string) error {
	if err := plotPath(path); err != nil {
		return err
	}
	won := newPlot("Won by turn", "turn", "share of games")
	lost := newPlot("Lost by turn", "turn", "share of games")
	hazard := newPlot("Hazard: chance a game still going ends", "turn", "per turn")
	won.Y.Min, won.Y.Max, lost.Y.Min, lost.Y.Max = 0, 1, 0, 1
	var ws, ls, hs []series
	label := func(e sim.Entry) string {
		switch {
		case len(s.Configs()) == 1:
			return e.Skill
		case len(s.Skills()) == 1:
			return e.Config
		}
		return e.Config + " · " + e.Skill
	}
	for i, e := range s.Entries {
		if len(e.Report.Results) == 0 {
			continue
		}
		c := curvesOf(e.Report)
		col := palette[i%len(palette)]
		dashed := i >= len(palette)
		ws = append(ws, series{label(e), c.won, col, dashed})
		ls = append(ls, series{"", c.lost, col, dashed})
		hs = append(hs, series{"", c.hazard, col, dashed})
	}
	if len(ws) == 0 {
		return fmt.Errorf("%s: no game to plot", path)
	}
	for _, p := range []struct {
		p  *plot.Plot
		ss []series
	}{{won, ws}, {lost, ls}, {hazard, hs}} {
		if err := addLines(p.p, p.ss); err != nil {
			return err
		}
	}
	for _, p := range []*plot.Plot{won, lost, hazard} {
		roomForLegend(p)
	}
	var names []string
	var reports []*sim.Report
	for _, e := range s.Entries {
		names, reports = append(names, label(e)), append(reports, e.Report)
	}
	ends, err := endsPlot(names, reports)
	if err != nil {
		return err
	}
	return drawRow(path, []*plot.Plot{won, lost, hazard, ends})
}

// endsPlot draws how the games of each run ended (sim.Report.Ends): a bar
// a run, stacked by cause, as shares of its games.
func endsPlot(names []string, reports []*sim.Report) (*plot.Plot, error) {
	p := newPlot("How the games ended", "", "share of games")
	p.Y.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "0"}, {Value: 0.25}, {Value: 0.5, Label: "0.5"}, {Value: 0.75}, {Value: 1, Label: "1"}})
	var causes []string
	total := map[string]int{}
	for _, r := range reports {
		for _, e := range r.Ends {
			if _, ok := total[e.Cause()]; !ok {
				causes = append(causes, e.Cause())
			}
			total[e.Cause()] += e.Games
		}
	}
	slices.SortStableFunc(causes, func(a, b string) int { return total[b] - total[a] })
	// Room above the bars for the legend of the causes.
	p.Y.Min, p.Y.Max = 0, 1+0.08*float64(len(causes)+1)
	w := vg.Points(max(8, 40-4*float64(len(reports))))
	var below *plotter.BarChart
	for i, cause := range causes {
		values := make(plotter.Values, len(reports))
		for j, r := range reports {
			for _, e := range r.Ends {
				if e.Cause() == cause && r.Games > 0 {
					values[j] = float64(e.Games) / float64(r.Games)
				}
			}
		}
		bars, err := plotter.NewBarChart(values, w)
		if err != nil {
			return nil, err
		}
		bars.Color = palette[i%len(palette)]
		bars.LineStyle.Width = 0
		if below != nil {
			bars.StackOn(below)
		}
		below = bars
		p.Add(bars)
		p.Legend.Add(cause, bars)
	}
	p.NominalX(names...)
	// The runs' names, slanted, so that long ones do not run together.
	p.X.Tick.Label.Rotation = math.Pi / 8
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter
	p.Legend.Top = true
	return p, nil
}

// curves are a run's survival curves, turn by turn from 0, and its hazard.
type curves struct {
	going, won, lost plotter.XYs
	hazard           plotter.XYs // at the first turn of each bin of turns
}

func curvesOf(r *sim.Report) curves {
	last := 0
	for _, g := range r.Results {
		last = max(last, g.Turns)
	}
	wonAt := make([]int, last+1)
	lostAt := make([]int, last+1)
	for _, g := range r.Results {
		switch g.Outcome {
		case sim.Won:
			wonAt[g.Turns]++
		case sim.Lost:
			lostAt[g.Turns]++
		}
	}
	n := float64(len(r.Results))
	var c curves
	going, won, lost := len(r.Results), 0, 0
	goingAt := make([]int, last+1) // games still going when turn t starts
	for t := 0; t <= last; t++ {
		goingAt[t] = going
		won += wonAt[t]
		lost += lostAt[t]
		going -= wonAt[t] + lostAt[t]
		c.going = append(c.going, plotter.XY{X: float64(t), Y: float64(going) / n})
		c.won = append(c.won, plotter.XY{X: float64(t), Y: float64(won) / n})
		c.lost = append(c.lost, plotter.XY{X: float64(t), Y: float64(lost) / n})
	}
	// The hazard in bins of turns, so that each bin sees games enough:
	// the games that ended in the bin over the game-turns played in it,
	// drawn at the bin's first turn, while at least a twentieth of the
	// games (and 5) are still going: a tail of a few games is noise.
	bin := max(1, (last+39)/40)
	least := max(5, len(r.Results)/20)
	for start := 1; start <= last; start += bin {
		if goingAt[start] < least {
			break
		}
		ended, exposure := 0, 0
		for t := start; t < start+bin && t <= last; t++ {
			ended += wonAt[t] + lostAt[t]
			exposure += goingAt[t]
		}
		c.hazard = append(c.hazard, plotter.XY{X: float64(start), Y: float64(ended) / float64(exposure)})
	}
	return c
}

// series is one line of a plot; a line without a name has no legend entry.
type series struct {
	name   string
	xys    plotter.XYs
	color  color.Color
	dashed bool
}

// palette is the original game's tile colours, darkest first, then a few
// more that read apart from them.
var palette = []color.Color{
	color.RGBA{R: 0x77, G: 0x6e, B: 0x65, A: 0xff},
	color.RGBA{R: 0xed, G: 0xc2, B: 0x2e, A: 0xff},
	color.RGBA{R: 0xf6, G: 0x5e, B: 0x3b, A: 0xff},
	color.RGBA{R: 0x3c, G: 0x7a, B: 0xb8, A: 0xff},
	color.RGBA{R: 0x4a, G: 0xa8, B: 0x5c, A: 0xff},
	color.RGBA{R: 0x8e, G: 0x44, B: 0xad, A: 0xff},
	color.RGBA{R: 0xf2, G: 0xb1, B: 0x79, A: 0xff},
}

func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.X.Tick.Marker = wholeTicks{}
	p.Legend.Top = true
	return p
}

// wholeTicks marks an axis of whole things (turns, games) with whole
// numbers: gonum's ticks, those at whole values, labelled without
// decimals (not "25.00 100.00 175.00").
type wholeTicks struct{}

func (wholeTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	labelled := 0
	for _, t := range (plot.DefaultTicks{}).Ticks(lo, hi) {
		if t.Value != math.Trunc(t.Value) {
			continue
		}
		if t.Label != "" {
			t.Label = strconv.FormatFloat(t.Value, 'f', 0, 64)
			labelled++
		}
		out = append(out, t)
	}
	if labelled >= 2 {
		return out
	}
	// gonum's labelled ticks fell between whole numbers (12.5, 37.5):
	// label whole ones, 1, 2 or 5 times a power of ten apart, about five.
	step := math.Pow(10, math.Floor(math.Log10(math.Max((hi-lo)/5, 1))))
	for _, m := range []float64{1, 2, 5, 10} {
		if (hi-lo)/(m*step) <= 6 {
			step *= m
			break
		}
	}
	out = out[:0]
	for v := math.Ceil(lo/step) * step; v <= hi; v += step {
		out = append(out, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 0, 64)})
	}
	return out
}

// roomForLegend raises a plot's top by a fifth of its data's height, so
// that the legend, at the top, sits clear of the curves.
func roomForLegend(p *plot.Plot) {
	p.Y.Max += (p.Y.Max - p.Y.Min) / 5
}

func addLines(p *plot.Plot, ss []series) error {
	for _, s := range ss {
		if len(s.xys) == 0 {
			continue
		}
		line, err := plotter.NewLine(s.xys)
		if err != nil {
			return err
		}
		line.Color = s.color
		line.Width = vg.Points(1.5)
		if s.dashed {
			line.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
		}
		p.Add(line)
		if s.name != "" {
			p.Legend.Add(s.name, line)
		}
	}
	return nil
}

func plotPath(path string) error {
	if ext := strings.ToLower(filepath.Ext(path)); ext != ".svg" && ext != ".png" {
		return fmt.Errorf("%s: --plot writes .svg or .png", path)
	}
	return nil
}

// drawRow draws plots side by side into path.
func drawRow(path string, plots []*plot.Plot) error {
	w, h := vg.Length(len(plots))*5*vg.Inch, 4*vg.Inch
	var c draw.Canvas
	var save func() error
	if strings.ToLower(filepath.Ext(path)) == ".svg" {
		svg := vgsvg.New(w, h)
		c = draw.New(svg)
		save = func() error { return writeTo(path, svg) }
	} else {
		img := vgimg.New(w, h)
		c = draw.New(img)
		save = func() error { return writeTo(path, vgimg.PngCanvas{Canvas: img}) }
	}
	tiles := draw.Tiles{Rows: 1, Cols: len(plots), PadX: vg.Centimeter, PadY: vg.Centimeter, PadTop: vg.Centimeter / 2, PadBottom: vg.Centimeter / 2, PadLeft: vg.Centimeter / 2, PadRight: vg.Centimeter / 2}
	canvases := plot.Align([][]*plot.Plot{plots}, tiles, c)
	for i, p := range plots {
		p.Draw(canvases[0][i])
	}
	return save()
}

func scorePlot(r *sim.Report) (*plot.Plot, error) {
	p := newPlot(fmt.Sprintf("Score (%d games, %s)", r.Games, r.Policy), "final score", "games")
	values := make(plotter.Values, len(r.Results))
	for i, g := range r.Results {
		values[i] = g.ScoreValue
	}
	bins := min(40, max(5, len(values)/5))
	hist, err := plotter.NewHist(values, bins)
	if err != nil {
		return nil, err
	}
	hist.FillColor = palette[1]
	p.Add(hist)
	return p, nil
}

// writeTo writes what a canvas drew to path.
func writeTo(path string, w interface {
	WriteTo(io.Writer) (int64, error)
}) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := w.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
