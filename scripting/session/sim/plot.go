package sim

import (
	"fmt"
	"image/color"
	"io"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Plot draws the run's score distribution (a histogram) beside its
// survival curve (the share of games still going at each turn) into a
// file: .svg or .png by its name (gonum/plot).
func (r *Report) Plot(path string) error {
	ext := strings.ToLower(filepath.Ext(path))
	if ext != ".svg" && ext != ".png" {
		return fmt.Errorf("%s: --plot writes .svg or .png", path)
	}
	if len(r.Results) == 0 {
		return fmt.Errorf("%s: no game to plot", path)
	}
	scores, err := r.scorePlot()
	if err != nil {
		return err
	}
	survival, err := r.survivalPlot()
	if err != nil {
		return err
	}
	const w, h = 10 * vg.Inch, 4 * vg.Inch
	var c draw.Canvas
	var save func() error
	switch ext {
	case ".svg":
		svg := vgsvg.New(w, h)
		c = draw.New(svg)
		save = func() error { return writeTo(path, svg) }
	default:
		img := vgimg.New(w, h)
		c = draw.New(img)
		save = func() error { return writeTo(path, vgimg.PngCanvas{Canvas: img}) }
	}
	tiles := draw.Tiles{Rows: 1, Cols: 2, PadX: vg.Centimeter, PadY: vg.Centimeter, PadTop: vg.Centimeter / 2, PadBottom: vg.Centimeter / 2, PadLeft: vg.Centimeter / 2, PadRight: vg.Centimeter / 2}
	canvases := plot.Align([][]*plot.Plot{{scores, survival}}, tiles, c)
	scores.Draw(canvases[0][0])
	survival.Draw(canvases[0][1])
	return save()
}

func (r *Report) scorePlot() (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Score (%d games, %s)", r.Games, r.Policy)
	p.X.Label.Text = "final score"
	p.Y.Label.Text = "games"
	values := make(plotter.Values, len(r.Results))
	for i, g := range r.Results {
		values[i] = g.ScoreValue
	}
	bins := min(40, max(5, len(values)/5))
	hist, err := plotter.NewHist(values, bins)
	if err != nil {
		return nil, err
	}
	hist.FillColor = color.RGBA{R: 0xed, G: 0xc2, B: 0x2e, A: 0xff}
	p.Add(hist)
	return p, nil
}

func (r *Report) survivalPlot() (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Survival: games still going"
	p.X.Label.Text = "turn"
	p.Y.Label.Text = "share of games"
	p.Y.Min, p.Y.Max = 0, 1
	last := 0
	for _, g := range r.Results {
		last = max(last, g.Turns)
	}
	// ended[t]: the games that ended (won or lost) at turn t.
	ended := make([]int, last+2)
	for _, g := range r.Results {
		if g.Outcome != Unfinished {
			ended[g.Turns]++
		}
	}
	pts := make(plotter.XYs, 0, last+1)
	going := len(r.Results)
	for t := 0; t <= last; t++ {
		going -= ended[t]
		pts = append(pts, plotter.XY{X: float64(t), Y: float64(going) / float64(len(r.Results))})
	}
	line, err := plotter.NewLine(pts)
	if err != nil {
		return nil, err
	}
	line.Color = color.RGBA{R: 0x77, G: 0x6e, B: 0x65, A: 0xff}
	line.Width = vg.Points(1.5)
	p.Add(line)
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
