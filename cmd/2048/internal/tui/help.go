package tui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"github.com/mod2048/mod2048/cellular"
	"github.com/mod2048/mod2048/engine"
)

// helpWidth is the widest the help box's text gets.
const helpWidth = 68

// overlayLines are the lines of an overlay (the help, the log view) for
// an inside width of width columns, as they are made.
type overlayLines struct {
	out   [][]seg
	width int
	head  tcell.Style // the headings' style
}

// text adds s, wrapped to the width, each line indented by indent columns.
func (o *overlayLines) text(indent int, s string, style tcell.Style) {
	pad := strings.Repeat(" ", indent)
	for _, l := range wrap(s, max(o.width-indent, 1)) {
		o.out = append(o.out, []seg{{pad + l, style}})
	}
}

// heading adds a heading, after a blank line unless it comes first.
func (o *overlayLines) heading(s string) {
	if len(o.out) > 0 {
		o.out = append(o.out, nil)
	}
	o.out = append(o.out, []seg{{s, o.head}})
}

// helpLines returns the help overlay's lines for an inside width of
// width columns: every key, the goal, and the loaded mods with their
// descriptions and hazards.
func (a *App) helpLines(width int) [][]seg {
	t := a.th
	o := &overlayLines{width: width, head: t.heading}

	// table writes two columns: a name, and what it means, wrapped.
	table := func(rows [][2]string) {
		col := 0
		for _, k := range rows {
			col = max(col, uniseg.StringWidth(k[0]))
		}
		descW := max(width-col-4, 8)
		for _, k := range rows {
			pad := strings.Repeat(" ", col-uniseg.StringWidth(k[0])+2)
			for i, l := range wrap(k[1], descW) {
				if i == 0 {
					o.out = append(o.out, []seg{{"  ", t.overlay}, {k[0], t.heading}, {pad + l, t.overlay}})
					continue
				}
				o.out = append(o.out, []seg{{strings.Repeat(" ", col+4) + l, t.overlay}})
			}
		}
	}

	o.heading("Keys")
	if a.rp != nil {
		table(replayKeyHelp)
	} else {
		table(keyHelp)
	}

	o.heading("Goal")
	o.text(2, a.goal(), t.overlay)
	if r, ok := a.s.Rules().(*cellular.Rules); ok {
		o.heading("The goal line")
		table(goalLegend(r))
		o.heading("Cells")
		table(cellLegend)
	}

	o.heading("Mods")
	if len(a.s.Mods()) == 0 {
		o.text(2, "None loaded. Load one with: 2048 play --mod DIR", t.overlay)
		return o.out
	}
	hazards := a.s.Hazards()
	for _, m := range a.s.Mods() {
		title := fmt.Sprintf("%s %s (%s)", m.Manifest.Name, m.Manifest.Version, m.ID())
		if a.s.Disabled(m.ID()) {
			title += ": disabled after repeated errors (L tells how to bring it back)"
		}
		o.text(2, title, t.heading)
		if d := m.Manifest.Description; d != "" {
			o.text(4, d, t.overlay)
		}
		for _, hz := range hazards {
			if hz.Mod != m.ID() {
				continue
			}
			desc := hz.Name
			if hz.Description != "" {
				desc += ": " + hz.Description
			}
			lines := wrap(desc, max(width-6, 1))
			for i, l := range lines {
				if i == 0 {
					o.out = append(o.out, []seg{{"    ", t.overlay}, {hz.Glyph, t.hazard(hz.Color)}, {" " + l, t.overlay}})
					continue
				}
				o.out = append(o.out, []seg{{"      " + l, t.overlay}})
			}
		}
	}
	return o.out
}

// cellLegend explains the cellular notation the board uses.
var cellLegend = [][2]string{
	{"aE", "alive, energy E (aE/k: k turns without a merge)"},
	{"dE", "dormant, energy E (dim)"},
	{"C", "a catalyst: the next alive cell through it doubles its energy (a3+C: a cell on one)"},
	{"Bn", "blight with n charges: turns alive neighbours dormant"},
	{"bn", "incoming blight: active after the next turn"},
}

// goalLegend explains cellular's goal line (goalLine), with the rules'
// own numbers.
func goalLegend(r *cellular.Rules) [][2]string {
	set := r.Settings()
	rows := [][2]string{
		{"Energy", fmt.Sprintf("the alive cells' energy now, against the %d a stable turn must end with to win", r.Threshold())},
		{"stable", "the last turn's Life tick had no birth and no death; unstable: it had some"},
		{"×1.25", fmt.Sprintf("the last turn's score multiplier: ×1 on a first stable turn, a quarter more for each stable turn in a row (the streak) up to ×3, ×%s on an unstable one", strconv.FormatFloat(set.Score.Unstable, 'f', -1, 64))},
	}
	if r.Threshold() == 0 {
		rows[0][1] = "the alive cells' energy now (this game has no goal)"
	}
	if set.Goal.Hold > 1 {
		rows = append(rows, [2]string{"held", fmt.Sprintf("the stable turns at the goal in a row so far, of the %d a win takes", set.Goal.Hold)})
	}
	if set.Goal.Turns > 0 {
		rows = append(rows, [2]string{"turns left", fmt.Sprintf("the turns before the limit of %d, when a game short of the goal is lost", set.Goal.Turns)})
	}
	return append(rows, [2]string{"best stable", "once the game is over: the energy of its best stable turn, against the goal (how close it came)"})
}

// goal says how the game is won.
func (a *App) goal() string {
	switch r := a.s.Rules().(type) {
	case *engine.Classic:
		s := fmt.Sprintf("Slide the tiles; equal tiles merge. Make a %d tile to win.", r.WinValue)
		if r.StopOnWin {
			s += " Then keep playing if you like."
		}
		return s
	case *cellular.Rules:
		if r.Threshold() == 0 {
			return "Keep the colony alive: this game has no stabilize goal."
		}
		g := r.Settings().Goal
		s := fmt.Sprintf("Swipe to merge cells; Life runs after every swipe. Win with a stable turn (no birth, no death) whose alive cells hold %d energy or more", r.Threshold())
		if g.Hold > 1 {
			s += fmt.Sprintf(", %d turns in a row", g.Hold)
		}
		if g.Turns > 0 {
			s += fmt.Sprintf(", within %d turns", g.Turns)
		}
		return s + "."
	}
	return "Play until no move is left."
}

// drawHelp draws the help box, or the log view's, over the middle of the
// screen. When its lines do not fit, it shows a window of them that the
// arrow keys scroll.
func (a *App) drawHelp(sw, sh int) {
	inner := min(helpWidth, sw-4)
	if inner < 8 || sh < 3 {
		return
	}
	title, closer := " Help ", "?"
	lines := a.helpLines
	if a.overlay == overlayLog {
		title, closer, lines = " Log ", "L", a.logLines
	}
	a.drawBox(sw, sh, inner, title, closer, lines(inner))
}

// drawBox draws a box of lines with a title, scrolled from helpTop.
func (a *App) drawBox(sw, sh, inner int, title, closer string, lines [][]seg) {
	t := a.th
	natural := 0
	for _, l := range lines {
		natural = max(natural, segsWidth(l))
	}
	inner = min(inner, max(natural, 24))
	boxW, boxH := inner+4, min(len(lines)+2, sh)
	x, y := (sw-boxW)/2, (sh-boxH)/2
	a.fill(x, y, boxW, boxH, t.overlay)
	for i := 0; i < boxW; i++ {
		a.scr.SetContent(x+i, y, '─', nil, t.overlay)
		a.scr.SetContent(x+i, y+boxH-1, '─', nil, t.overlay)
	}
	for j := 0; j < boxH; j++ {
		a.scr.SetContent(x, y+j, '│', nil, t.overlay)
		a.scr.SetContent(x+boxW-1, y+j, '│', nil, t.overlay)
	}
	a.scr.SetContent(x, y, '┌', nil, t.overlay)
	a.scr.SetContent(x+boxW-1, y, '┐', nil, t.overlay)
	a.scr.SetContent(x, y+boxH-1, '└', nil, t.overlay)
	a.scr.SetContent(x+boxW-1, y+boxH-1, '┘', nil, t.overlay)
	a.put(x+2, y, x+boxW-2, title, t.heading)
	rows := boxH - 2
	a.helpTop = max(min(a.helpTop, len(lines)-rows), 0)
	footer := " Esc or " + closer + " closes "
	if len(lines) > rows {
		footer = fmt.Sprintf(" ↑↓ %d–%d of %d · Esc closes ", a.helpTop+1, a.helpTop+rows, len(lines))
	}
	if fw := uniseg.StringWidth(footer); fw <= boxW-4 {
		a.put(x+boxW-2-fw, y+boxH-1, x+boxW-2, footer, t.overlay)
	}
	for i := 0; i < rows && a.helpTop+i < len(lines); i++ {
		a.line(x+2, y+1+i, inner, lines[a.helpTop+i]...)
	}
}
