package tui

import (
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"github.com/mod2048/mod2048/engine"
)

// The slide animation: the tiles of a move glide from their cells to their
// new ones in animFrames steps, animStep apart (about the original's 100 ms
// slide), and then the board as it stands shows, merges and spawns
// included. A key pressed during it finishes it at once and is played.
const (
	animFrames = 4
	animStep   = 25 * time.Millisecond
)

// animation is a slide being shown: the board before the move, the
// motions, and the frame on screen (1 to animFrames−1).
type animation struct {
	before  engine.Board
	motions engine.Motions
	frame   int
	n       int // the number of the timer that counts
}

// animTick is the event the animation's timer posts.
type animTick struct {
	tcell.EventTime
	n int
}

// animate starts the slide of the move just played, from the board before
// it; no animation with --no-anim, or when the move has no motions.
func (a *App) animate(before engine.Board) {
	a.finishAnim()
	mo := a.s.LastMotions()
	if a.cfg.NoAnim || len(mo.Moves) == 0 {
		return
	}
	a.animN++
	a.anim = &animation{before: before, motions: engine.Motions{
		Moves:  append([]engine.Motion(nil), mo.Moves...),
		Merged: append([]engine.MergeMotion(nil), mo.Merged...),
	}, frame: 1, n: a.animN}
	a.scheduleAnim()
}

func (a *App) scheduleAnim() {
	n := a.animN
	time.AfterFunc(animStep, func() {
		ev := &animTick{n: n}
		ev.SetEventNow()
		a.scr.PostEvent(ev)
	})
}

// onAnimTick shows the next frame, or ends the animation.
func (a *App) onAnimTick(ev *animTick) {
	if a.anim == nil || ev.n != a.anim.n {
		return
	}
	a.anim.frame++
	if a.anim.frame >= animFrames {
		a.anim = nil
		return
	}
	a.scheduleAnim()
}

// Animating reports whether a slide is being shown.
func (a *App) Animating() bool { return a.anim != nil }

// Settle ends the slide being shown, if any: the next Draw shows the board
// as it stands (what a player sees once the animation is over).
func (a *App) Settle() { a.finishAnim() }

// finishAnim ends the animation at once: the board shows as it stands.
func (a *App) finishAnim() {
	if a.anim != nil {
		a.anim = nil
		a.animN++
	}
}

// drawSlide draws the cells of a board whose tiles are on their way: the
// empty cells, then each tile of the board before the move at its place
// between its two cells, in the style it had.
func (a *App) drawSlide(x0, y0 int, g geom) {
	an := a.anim
	b := &an.before
	cw, ch := g.w+1, g.h+1
	for i := range b.Cells {
		p := b.PosOf(i)
		a.fill(x0+1+p.Col*cw, y0+1+p.Row*ch, g.w, g.h, a.th.empty)
	}
	t := float64(an.frame) / animFrames
	for _, m := range an.motions.Moves {
		c := b.At(m.From)
		text, style := a.cellText(c, g)
		fx := float64(m.From.Col) + (float64(m.To.Col)-float64(m.From.Col))*t
		fy := float64(m.From.Row) + (float64(m.To.Row)-float64(m.From.Row))*t
		x, y := x0+1+int(fx*float64(cw)+0.5), y0+1+int(fy*float64(ch)+0.5)
		a.fill(x, y, g.w, g.h, style)
		tw := uniseg.StringWidth(text)
		a.put(x+(g.w-tw)/2, y+g.h/2, x+g.w-1, text, style)
	}
}
