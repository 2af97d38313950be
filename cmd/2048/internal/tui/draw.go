package tui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"github.com/mod2048/mod2048/cellular"
	"github.com/mod2048/mod2048/cmd/2048/internal/termtext"
	"github.com/mod2048/mod2048/engine"
)

// geom is the inside of one board cell: columns and rows.
type geom struct{ w, h int }

// geoms are the cell sizes the board may be drawn in, largest first; the
// largest whose frame fits the terminal is used. Every cell keeps a column
// on each side of its text for hazard glyphs, so the text gets w-2
// columns.
var geoms = [...]geom{{7, 3}, {7, 1}, {5, 1}}

const (
	chromeRows = 4  // two header lines above the board (three on cellular); the status and key lines below
	minWidth   = 24 // the status and key lines need some room
)

// boardSize returns the board's size on screen, lines included.
func boardSize(g geom, cols, rows int) (w, h int) {
	return cols*(g.w+1) + 1, rows*(g.h+1) + 1
}

// frameSize returns the size of the whole frame: the board, header, status
// and key lines, with extra header lines more than classic's two.
func frameSize(g geom, cols, rows, extra int) (w, h int) {
	bw, bh := boardSize(g, cols, rows)
	return max(bw, minWidth), bh + chromeRows + extra
}

// layout picks the largest cell size whose frame fits a sw×sh screen.
func layout(sw, sh, cols, rows, extra int) (geom, bool) {
	for _, g := range geoms {
		if w, h := frameSize(g, cols, rows, extra); w <= sw && h <= sh {
			return g, true
		}
	}
	return geoms[len(geoms)-1], false
}

// fits reports whether the game fits the screen as it is.
func (a *App) fits() bool {
	sw, sh := a.scr.Size()
	b := &a.s.State().Board
	_, ok := layout(sw, sh, b.Width, b.Height, a.extraHeader())
	return ok
}

// extraHeader is the header lines the game has more than classic's two:
// cellular's goal line.
func (a *App) extraHeader() int {
	if _, ok := a.s.Rules().(*cellular.Rules); ok {
		return 1
	}
	return 0
}

// MinSize returns the smallest terminal the game fits in for a board of
// cols×rows cells, with extra header lines (1 for cellular's goal line).
func MinSize(cols, rows, extra int) (w, h int) {
	return frameSize(geoms[len(geoms)-1], cols, rows, extra)
}

// seg is a run of text in one style.
type seg struct {
	text  string
	style tcell.Style
}

// put writes text from x on row y, stopping before column end, and returns
// the column after it. It steps by grapheme clusters, so wide characters
// take their two columns.
func (a *App) put(x, y, end int, text string, style tcell.Style) int {
	text = termtext.Printable(text) // a mod's message, a replay's warning: no control character
	state := -1
	for text != "" && x < end {
		var cluster string
		var width int
		cluster, text, width, state = uniseg.FirstGraphemeClusterInString(text, state)
		if width == 0 {
			continue
		}
		if x+width > end {
			break
		}
		runes := []rune(cluster)
		a.scr.SetContent(x, y, runes[0], runes[1:], style)
		x += width
	}
	return x
}

// line writes segments from x on row y within width columns, cutting the
// end with "…" when they do not fit.
func (a *App) line(x, y, width int, segs ...seg) {
	total := 0
	for _, s := range segs {
		total += uniseg.StringWidth(s.text)
	}
	end := x + width
	if total <= width {
		for _, s := range segs {
			x = a.put(x, y, end, s.text, s.style)
		}
		return
	}
	for _, s := range segs {
		x = a.put(x, y, end-1, s.text, s.style)
	}
	style := tcell.StyleDefault
	if len(segs) > 0 {
		style = segs[len(segs)-1].style
	}
	a.put(x, y, end, "…", style)
}

// fill paints a w×h rectangle with spaces in style.
func (a *App) fill(x, y, w, h int, style tcell.Style) {
	for dy := 0; dy < h; dy++ {
		for dx := 0; dx < w; dx++ {
			a.scr.SetContent(x+dx, y+dy, ' ', nil, style)
		}
	}
}

// Draw draws the whole frame and shows it.
func (a *App) Draw() {
	a.draw()
	a.scr.Show()
}

func (a *App) draw() {
	s := a.scr
	s.Clear()
	sw, sh := s.Size()
	b := &a.s.State().Board
	extra := a.extraHeader()
	g, ok := layout(sw, sh, b.Width, b.Height, extra)
	if !ok {
		a.drawTooSmall(sw, sh, b.Width, b.Height)
		return
	}
	bw, bh := boardSize(g, b.Width, b.Height)
	_, fh := frameSize(g, b.Width, b.Height, extra)
	y := (sh - fh) / 2
	// Every line is centered on the screen, the board too.
	for i, l := range a.header() {
		a.centered(y+i, sw, l...)
	}
	top := y + 2 + extra
	a.drawBoard((sw-bw)/2, top, g)
	a.drawStatus(top+bh, sw, bw)
	a.centered(top+1+bh, sw, a.keyLine(sw)...)
	if a.overlay == overlayHelp || a.overlay == overlayLog {
		a.drawHelp(sw, sh)
	}
}

// centered writes segments centered on row y of a sw-wide screen, cut
// with "…" when they do not fit.
func (a *App) centered(y, sw int, segs ...seg) {
	w := min(segsWidth(segs), sw)
	a.line((sw-w)/2, y, w, segs...)
}

func segsWidth(segs []seg) int {
	n := 0
	for _, s := range segs {
		n += uniseg.StringWidth(s.text)
	}
	return n
}

// drawTooSmall replaces the frame with a message saying how large the
// terminal must be.
func (a *App) drawTooSmall(sw, sh, cols, rows int) {
	w, h := MinSize(cols, rows, a.extraHeader())
	lines := wrap(fmt.Sprintf("terminal too small: need %d×%d", w, h), max(sw, 1))
	lines = append(lines, wrap(fmt.Sprintf("(now %d×%d)", sw, sh), max(sw, 1))...)
	y := max((sh-len(lines))/2, 0)
	for i, l := range lines {
		if y+i >= sh {
			break
		}
		x := max((sw-uniseg.StringWidth(l))/2, 0)
		a.put(x, y+i, sw, l, a.th.tooSmall)
	}
}

// header returns the header lines: what is played, then the numbers, and
// on cellular how the game stands against its goal (goalLine).
func (a *App) header() [][]seg {
	t := a.th
	first := []seg{{"2048", t.title}, {" · ", t.text}, {a.cfg.Ruleset, t.value}}
	if a.cfg.Difficulty != "" && a.cfg.Difficulty != a.cfg.Ruleset {
		// "classic · difficulty classic" says nothing twice.
		first = append(first, seg{" · difficulty ", t.text}, seg{a.cfg.Difficulty, t.value})
	}
	if names := a.modNames(); names != "" {
		first = append(first, seg{" · mods ", t.text}, seg{names, t.value})
	}
	st := a.s.State()
	rules := a.s.Rules()
	second := []seg{
		{"Score ", t.text}, {engine.FormatScore(rules, st.Score), t.value},
		{"  Best ", t.text}, {engine.FormatScore(rules, a.best), t.value},
		{"  Turn ", t.text}, {strconv.Itoa(st.Turn), t.value},
	}
	if st.Status != engine.Playing {
		second = append(second, seg{"  " + st.Status.String(), t.value})
	}
	if r, ok := rules.(*cellular.Rules); ok {
		return [][]seg{first, second, a.goalLine(r, st)}
	}
	return [][]seg{first, second}
}

// goalLine is cellular's third header line: the alive energy against the
// goal, whether the last turn was stable and the score multiplier it
// earned (its streak's), the turns left, and, once the game is over, the
// best stable energy reached: Energy 9/14 · stable ×1.25 · 112 turns left.
func (a *App) goalLine(r *cellular.Rules, st *engine.State) []seg {
	t := a.th
	g := r.Standing(st)
	sep := seg{" · ", t.text}
	energy := strconv.Itoa(g.Energy)
	if g.Goal > 0 {
		energy += "/" + strconv.Itoa(g.Goal)
	}
	line := []seg{{"Energy ", t.text}, {energy, t.value}}
	if g.Hold > 1 {
		line = append(line, sep, seg{fmt.Sprintf("held %d of %d", g.Held, g.Hold), t.value})
	}
	if g.Played {
		word := "unstable"
		if g.Stable {
			word = "stable"
		}
		line = append(line, sep, seg{word + " ", t.text}, seg{g.Multiplier(), t.value})
	}
	if g.TurnsLeft >= 0 && !st.Status.Over() {
		line = append(line, sep, seg{strconv.Itoa(g.TurnsLeft), t.value}, seg{" turns left", t.text})
	}
	if st.Status.Over() && g.Goal > 0 {
		line = append(line, sep, seg{"best stable ", t.text}, seg{fmt.Sprintf("%d/%d", a.stableBest, g.Goal), t.value})
	}
	return line
}

// keyLine returns the line under the status line: the keys, or, while the
// game is not saved, the warning that says so, with as much of the reason
// and the keys as the screen has room for. "NOT SAVED" itself fits the
// narrowest screen the game draws on, so it is never cut.
func (a *App) keyLine(sw int) []seg {
	if a.unsaved == nil || a.overlay != overlayNone {
		return a.hint(sw)
	}
	t := a.th
	warn := seg{"NOT SAVED: " + reason(a.unsaved), t.err}
	keys := append([]seg{warn, {" · ", t.text}}, a.hint(sw-uniseg.StringWidth(warn.text)-3)...)
	if segsWidth(keys) <= sw {
		return keys
	}
	return []seg{warn} // cut with "…" if need be, never before the reason starts
}

// describe writes a save's error for the status line: what went wrong
// first, then the file, so that a cut keeps the part that matters.
func describe(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return reason(err) + " (" + pe.Path + ")"
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return reason(err) + " (" + le.New + ")"
	}
	return err.Error()
}

// reason returns what went wrong in err without the operation and path
// that os's errors repeat: "permission denied", "no space left on device".
func reason(err error) string {
	for {
		var next error
		var pe *fs.PathError
		var le *os.LinkError
		var se *os.SyscallError
		switch {
		case errors.As(err, &pe):
			next = pe.Err
		case errors.As(err, &le):
			next = le.Err
		case errors.As(err, &se):
			next = se.Err
		default:
			return err.Error()
		}
		err = next
	}
}

// hint returns the key line for the game's state, the long form when it
// fits the screen (sw columns).
func (a *App) hint(sw int) []seg {
	var long, short string
	switch {
	case a.overlay == overlayHelp:
		long, short = "Esc or ? close the help · q quit", "Esc close · q quit"
	case a.overlay == overlayLog:
		long, short = "↑↓ scroll · Esc or L close the log · q quit", "Esc close · q quit"
	case a.overlay == overlayConfirm:
		long, short = "y start a new game · any other key keeps this one", "y new game · n keep"
	case a.overlay == overlayQuit:
		long, short = "y quit without saving · any other key keeps playing", "y quit · n stay"
	case a.rp != nil:
		long, short = a.replayHint()
	case a.auto:
		long, short = "autoplay · + faster · - slower · any key stops · q quit", "autoplay · any key stops"
	case a.s.Status() == engine.Won:
		long, short = "c or Enter keep playing · r new game · u undo · q quit", "c keep playing · r new · q quit"
	case a.s.Status() == engine.Lost:
		long, short = "r new game · u undo · ? help · q quit", "r new · u undo · q quit"
	default:
		long, short = "←↑↓→ wasd hjkl move · u undo · U redo · r new · ? help · q quit", "arrows move · u undo · ? help · q quit"
	}
	if uniseg.StringWidth(long) <= sw {
		return []seg{{long, a.th.text}}
	}
	return []seg{{short, a.th.text}}
}

// drawStatus draws the status line, row y of a sw-wide screen under a
// board bw wide: the new-game question, else the message of the last key,
// else the win or lose banner, else nothing.
func (a *App) drawStatus(y, sw, bw int) {
	t := a.th
	switch {
	case a.overlay == overlayConfirm:
		a.banner(y, sw, bw, "New game? This one will be gone. (y/n)", t.prompt)
	case a.overlay == overlayQuit:
		text := "Not saved. Quit anyway? (y/n)"
		if uniseg.StringWidth(text) > sw {
			text = "Quit unsaved? (y/n)"
		}
		a.banner(y, sw, bw, text, t.prompt)
	case a.msg != "":
		style := t.info
		if a.msgErr {
			style = t.err
		}
		a.centered(y, sw, seg{a.msg, style})
	case a.s.Status() == engine.Won:
		a.banner(y, sw, bw, a.wonText(), t.won)
	case a.s.Status() == engine.Lost:
		a.banner(y, sw, bw, a.lostText(), t.lost)
	}
}

// banner draws text centered on row y in a band of style as wide as the
// board (bw), or the text, whichever is wider.
func (a *App) banner(y, sw, bw int, text string, style tcell.Style) {
	w := min(max(bw, uniseg.StringWidth(text)+2), sw)
	x := (sw - w) / 2
	a.fill(x, y, w, 1, style)
	tw := uniseg.StringWidth(text)
	if tw > w {
		a.line(x, y, w, seg{text, style})
		return
	}
	a.put(x+(w-tw)/2, y, x+w, text, style)
}

func (a *App) wonText() string {
	switch r := a.s.Rules().(type) {
	case *engine.Classic:
		return fmt.Sprintf("You win! You made %d.", r.WinValue)
	case *cellular.Rules:
		return "You win! The colony is stable."
	}
	return "You win!"
}

func (a *App) lostText() string {
	if m := a.s.StatusMessage(); m != "" {
		// Why: no move left, the colony died out, the turn limit, or the
		// mods refuse every move left.
		return "Game over: " + m + "."
	}
	return "Game over."
}

// drawBoard draws the board with its top-left corner at x0, y0.
func (a *App) drawBoard(x0, y0 int, g geom) {
	st := a.s.State()
	b := &st.Board
	bw, bh := boardSize(g, b.Width, b.Height)
	cw, ch := g.w+1, g.h+1
	for y := 0; y < bh; y++ {
		rowLine := y%ch == 0
		for x := 0; x < bw; x++ {
			colLine := x%cw == 0
			if rowLine || colLine {
				a.scr.SetContent(x0+x, y0+y, boxRune(x, y, bw, bh, rowLine, colLine), nil, a.th.frame)
			}
		}
	}
	if a.anim != nil {
		a.drawSlide(x0, y0, g)
		return
	}
	marks := st.Marks
	for i, c := range b.Cells {
		p := b.PosOf(i)
		x, y := x0+1+p.Col*cw, y0+1+p.Row*ch
		text, style := a.cellText(c, g)
		a.fill(x, y, g.w, g.h, style)
		tw := uniseg.StringWidth(text)
		a.put(x+(g.w-tw)/2, y+g.h/2, x+g.w-1, text, style)
		slot := 0
		for len(marks) > 0 && marks[0].Pos == p {
			a.badge(x, y, g, slot, marks[0])
			slot++
			marks = marks[1:]
		}
	}
}

// cellText returns the text and style of a cell of the board.
func (a *App) cellText(c engine.Cell, g geom) (string, tcell.Style) {
	rules := a.s.Rules()
	switch {
	case c.IsEmpty():
		return "", a.th.empty
	}
	switch rules.(type) {
	case *engine.Classic:
		return TileText(int(c.Level), g.w-2), a.th.tile(int(c.Level))
	case *cellular.Rules:
		return CellularText(rules, c, g.w-2), a.th.cellular(c)
	}
	return rules.FormatCell(c), a.th.tile(1)
}

// badge draws the glyph of a mark's hazard in the cell at x, y: along the
// top row of a tall cell, else in the columns left and right of the text.
func (a *App) badge(x, y int, g geom, slot int, m engine.Mark) {
	glyph, color := "!", ""
	if hz, ok := a.s.Hazard(m.Name); ok {
		glyph, color = hz.Shown(m), hz.Color
	}
	style := a.th.hazard(color)
	gw := uniseg.StringWidth(glyph)
	if g.h >= 3 {
		bx := x + slot*gw
		if bx+gw <= x+g.w {
			a.put(bx, y, x+g.w, glyph, style)
		}
		return
	}
	if gw != 1 {
		glyph = "!"
	}
	switch slot {
	case 0:
		a.put(x, y, x+1, glyph, style)
	case 1:
		a.put(x+g.w-1, y, x+g.w, glyph, style)
	}
}

// boxRune returns the line-drawing character at x, y of a w×h grid whose
// lines cross there (row: a horizontal line, col: a vertical one).
func boxRune(x, y, w, h int, row, col bool) rune {
	switch {
	case row && !col:
		return '─'
	case col && !row:
		return '│'
	}
	top, bottom, left, right := y == 0, y == h-1, x == 0, x == w-1
	switch {
	case top && left:
		return '┌'
	case top && right:
		return '┐'
	case bottom && left:
		return '└'
	case bottom && right:
		return '┘'
	case top:
		return '┬'
	case bottom:
		return '┴'
	case left:
		return '├'
	case right:
		return '┤'
	}
	return '┼'
}

// wrap breaks text into lines of at most width columns, at spaces where it
// can: a word wider than a line is broken across lines, by columns (a wide
// character takes two), and each line break of text starts a new line, so
// that none of text is lost. The lines are the text as put shows it
// (termtext.Printable): a control or bidirectional character, which has no
// width, is measured as the escape that shows in its place (\u202e), and a
// line cannot grow past width when it is drawn, and be cut.
func wrap(text string, width int) []string {
	var lines []string
	for _, para := range strings.Split(text, "\n") {
		cur := ""
		for _, word := range strings.Fields(para) {
			word = termtext.Printable(word)
			for uniseg.StringWidth(word) > width {
				if cur != "" {
					lines = append(lines, cur)
					cur = ""
				}
				cut := cutWidth(word, width)
				lines = append(lines, word[:cut])
				word = word[cut:]
			}
			switch {
			case cur == "":
				cur = word
			case uniseg.StringWidth(cur)+1+uniseg.StringWidth(word) <= width:
				cur += " " + word
			default:
				lines = append(lines, cur)
				cur = word
			}
		}
		lines = append(lines, cur)
	}
	return lines
}

// cutWidth returns the byte length of the longest prefix of s at most
// width columns wide (at least one cluster).
func cutWidth(s string, width int) int {
	n, w, state := 0, 0, -1
	rest := s
	for rest != "" {
		var cluster string
		var cw int
		cluster, rest, cw, state = uniseg.FirstGraphemeClusterInString(rest, state)
		if w+cw > width && n > 0 {
			break
		}
		n += len(cluster)
		w += cw
	}
	return n
}
