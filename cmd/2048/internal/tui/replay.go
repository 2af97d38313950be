package tui

import (
	"fmt"
	"strconv"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/mod2048/mod2048/scripting/session"
)

// Replayer drives the terminal game from a replay instead of the player's
// moves (2048 replay FILE).
type Replayer interface {
	// Session is the session the replay plays in; Seek and Restart may
	// replace it.
	Session() *session.Session
	// Pos returns how many actions were played, of how many.
	Pos() (done, total int)
	// Step plays the next action.
	Step() error
	// Seek plays from the start up to the first action that reaches turn.
	Seek(turn int) error
	// Restart goes back to where the replay starts.
	Restart() error
}

// The speeds of playback: the time between two actions.
var replaySpeeds = []time.Duration{2 * time.Second, time.Second, 500 * time.Millisecond, 250 * time.Millisecond, 120 * time.Millisecond, 60 * time.Millisecond, 30 * time.Millisecond}

const replayDefaultSpeed = 2

// replayState is the playback's state.
type replayState struct {
	r       Replayer
	paused  bool
	speed   int    // index in replaySpeeds
	jump    string // the turn typed after g, while typing
	jumping bool
	tick    int // the number of the step timer that counts
}

// replayTick is the event the step timer posts.
type replayTick struct {
	tcell.EventTime
	n int
}

func (a *App) startReplay() {
	a.rp = &replayState{r: a.cfg.Replay, speed: replayDefaultSpeed}
	a.s = a.rp.r.Session()
	a.schedule()
}

// schedule starts the timer of the next step, unless paused or at the end.
func (a *App) schedule() {
	rp := a.rp
	rp.tick++
	done, total := rp.r.Pos()
	if rp.paused || done >= total {
		return
	}
	n := rp.tick
	time.AfterFunc(replaySpeeds[rp.speed], func() {
		ev := &replayTick{n: n}
		ev.SetEventNow()
		a.scr.PostEvent(ev)
	})
}

// replayStep plays the next action and says what went wrong.
func (a *App) replayStep() {
	if err := a.rp.r.Step(); err != nil {
		a.rp.paused = true
		a.setError(err.Error())
	}
	a.s = a.rp.r.Session()
	a.updateBest()
}

// replayKey handles a key in playback.
func (a *App) replayKey(k tcell.Key, r rune) {
	rp := a.rp
	if rp.jumping {
		switch {
		case r >= '0' && r <= '9':
			rp.jump += string(r)
			a.setInfo("jump to turn " + rp.jump + " (Enter)")
		case k == tcell.KeyBackspace || k == tcell.KeyBackspace2:
			if rp.jump != "" {
				rp.jump = rp.jump[:len(rp.jump)-1]
			}
			a.setInfo("jump to turn " + rp.jump + " (Enter)")
		case k == tcell.KeyEnter:
			rp.jumping = false
			turn, err := strconv.Atoi(rp.jump)
			if err != nil {
				a.setError("no turn to jump to")
				return
			}
			if err := rp.r.Seek(turn); err != nil {
				a.setError(err.Error())
			}
			a.s = rp.r.Session()
			rp.paused = true
			a.setInfo(fmt.Sprintf("at turn %d (paused: space goes on)", a.s.State().Turn))
		default:
			rp.jumping = false
		}
		return
	}
	switch {
	case r == ' ':
		rp.paused = !rp.paused
		if rp.paused {
			a.setInfo("paused: space goes on, → or n steps")
		}
		a.schedule()
	case k == tcell.KeyRight || r == 'n':
		rp.paused = true
		rp.tick++
		a.replayStep()
	case r == '+' || r == '=':
		rp.speed = min(rp.speed+1, len(replaySpeeds)-1)
		a.setInfo(fmt.Sprintf("an action every %v", replaySpeeds[rp.speed]))
		a.schedule()
	case r == '-':
		rp.speed = max(rp.speed-1, 0)
		a.setInfo(fmt.Sprintf("an action every %v", replaySpeeds[rp.speed]))
		a.schedule()
	case r == 'g':
		rp.jumping, rp.jump = true, ""
		a.setInfo("jump to turn: type it, then Enter")
	case k == tcell.KeyHome:
		if err := rp.r.Restart(); err != nil {
			a.setError(err.Error())
		}
		a.s = rp.r.Session()
		rp.paused = true
		a.setInfo("at the start (paused: space plays)")
	case r == '?':
		a.overlay, a.helpTop = overlayHelp, 0
	}
}

// onReplayTick plays the step the timer asked for, if it still counts.
func (a *App) onReplayTick(ev *replayTick) {
	if a.rp == nil || ev.n != a.rp.tick || a.rp.paused {
		return
	}
	a.replayStep()
	a.schedule()
}

// replayHint is the key line in playback.
func (a *App) replayHint() (long, short string) {
	done, total := a.rp.r.Pos()
	state := "playing"
	switch {
	case done >= total:
		state = "the end"
	case a.rp.paused:
		state = "paused"
	}
	where := fmt.Sprintf("replay %d/%d, %s", done, total, state)
	return where + " · space pause · → step · + - speed · g turn · Home start · q quit", where + " · space · → · q"
}

// replayKeyHelp lists the keys of playback, for the help.
var replayKeyHelp = [][2]string{
	{"space", "pause, go on"},
	{"→  n", "play one action (pauses)"},
	{"+  -", "faster, slower"},
	{"g", "jump to a turn: type it, then Enter"},
	{"Home", "back to the start"},
	{"?", "this help (↑↓ scroll it)"},
	{"q  Ctrl+C", "quit"},
}
