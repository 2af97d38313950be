package tui

import (
	"fmt"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/session"
)

// Advisor suggests the next move of a session's game (the t and p keys):
// a direction and a few words on it, or an error when it has none.
type Advisor func(*session.Session) (engine.Direction, string, error)

// The speeds of autoplay: the time between two moves.
var autoSpeeds = []time.Duration{time.Second, 500 * time.Millisecond, 250 * time.Millisecond, 120 * time.Millisecond, 60 * time.Millisecond, 20 * time.Millisecond}

const autoDefaultSpeed = 2

// autoTick is the event the autoplay timer posts.
type autoTick struct {
	tcell.EventTime
	n int
}

// tip shows the suggested move (the t key).
func (a *App) tip() {
	if a.cfg.Advisor == nil {
		a.setError("no hints in this game")
		return
	}
	if a.s.Status().Over() {
		a.setInfo("no move to suggest: the game is over")
		return
	}
	d, why, err := a.cfg.Advisor(a.s)
	if err != nil {
		a.setError("no hint: " + err.Error())
		return
	}
	a.setInfo(fmt.Sprintf("tip: %v: %s", d, why))
}

// toggleAuto starts or stops autoplay (the p key).
func (a *App) toggleAuto() {
	if a.cfg.Advisor == nil {
		a.setError("no autoplay in this game")
		return
	}
	if a.auto {
		a.stopAuto("autoplay stopped")
		return
	}
	if a.s.Status().Over() {
		a.setInfo("the game is over: r for a new game")
		return
	}
	a.auto = true
	a.setInfo(fmt.Sprintf("autoplay: a move every %v (+ - speed, any key stops)", autoSpeeds[a.autoSpeed]))
	a.scheduleAuto()
}

func (a *App) stopAuto(why string) {
	a.auto = false
	a.autoTick++
	if why != "" {
		a.setInfo(why)
	}
}

// scheduleAuto starts the timer of the next autoplay move.
func (a *App) scheduleAuto() {
	a.autoTick++
	n := a.autoTick
	time.AfterFunc(autoSpeeds[a.autoSpeed], func() {
		ev := &autoTick{n: n}
		ev.SetEventNow()
		a.scr.PostEvent(ev)
	})
}

// onAutoTick plays the move autoplay is due, if it still counts: the
// advisor's move, as a key would; a win, a loss or a failure stops it.
func (a *App) onAutoTick(ev *autoTick) {
	if !a.auto || ev.n != a.autoTick {
		return
	}
	d, _, err := a.cfg.Advisor(a.s)
	if err != nil {
		a.stopAuto("autoplay stopped: " + err.Error())
		return
	}
	a.msg = ""
	a.move(d)
	switch st := a.s.Status(); {
	case st == engine.Won:
		a.stopAuto("autoplay stopped on the win: c or Enter keeps playing, p goes on after")
		return
	case st == engine.Lost:
		a.stopAuto("autoplay stopped: " + a.s.StatusMessage())
		return
	}
	a.scheduleAuto()
}

// autoKey handles a key during autoplay: + and - change the speed, any
// other key stops it (and does nothing else).
func (a *App) autoKey(r rune) {
	switch r {
	case '+', '=':
		a.autoSpeed = min(a.autoSpeed+1, len(autoSpeeds)-1)
		a.setInfo(fmt.Sprintf("autoplay: a move every %v", autoSpeeds[a.autoSpeed]))
	case '-':
		a.autoSpeed = max(a.autoSpeed-1, 0)
		a.setInfo(fmt.Sprintf("autoplay: a move every %v", autoSpeeds[a.autoSpeed]))
	default:
		a.stopAuto("autoplay stopped")
	}
}
