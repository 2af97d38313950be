package tui

import (
	"github.com/gdamore/tcell/v2"

	"github.com/mod2048/mod2048/engine"
)

// The keys, as the help overlay lists them.
var keyHelp = [][2]string{
	{"←↑↓→ wasd hjkl", "move"},
	{"u", "undo"},
	{"U  Ctrl+R", "redo"},
	{"r", "new game (asks y/n while the game is on)"},
	{"c  Enter", "keep playing after a win"},
	{"f", "write the game so far as a fixture (.cases)"},
	{"t", "tip: the move the expert player suggests"},
	{"p", "autoplay on or off (+ - speed; any key stops)"},
	{"L", "the mods' logs and the recent messages, whole"},
	{"?", "this help (↑↓ scroll it)"},
	{"Esc", "close this help or a question"},
	{"q  Ctrl+C", "quit (the game is saved after every move)"},
}

// moveKeys maps the letter keys that move: WASD and the vi keys.
var moveKeys = map[rune]engine.Direction{
	'a': engine.Left, 'd': engine.Right, 'w': engine.Up, 's': engine.Down,
	'A': engine.Left, 'D': engine.Right, 'W': engine.Up, 'S': engine.Down,
	'h': engine.Left, 'l': engine.Right, 'k': engine.Up, 'j': engine.Down,
	'H': engine.Left, 'K': engine.Up, 'J': engine.Down, // L is the log

}

// key handles one key. A key clears the status message (a new one may
// follow). Ctrl+C quits at once wherever the game is, and q too unless the
// game is not saved: then q asks first (y quits). The help overlay and the
// questions take the other keys first; on a terminal too small for the
// board, no other key does anything.
func (a *App) key(ev *tcell.EventKey) {
	k := ev.Key()
	var r rune
	if k == tcell.KeyRune && ev.Modifiers()&(tcell.ModAlt|tcell.ModCtrl|tcell.ModMeta) == 0 {
		r = ev.Rune()
	}
	if k == tcell.KeyCtrlC {
		a.quit = true
		return
	}
	// A key finishes the slide being shown at once, and is played.
	a.finishAnim()
	if a.overlay == overlayQuit {
		a.overlay = overlayNone
		a.msg = ""
		if r == 'y' || r == 'Y' {
			a.quit = true
		} else {
			a.setInfo("kept playing; the game is still not saved")
		}
		return
	}
	if r == 'q' || r == 'Q' {
		a.msg = ""
		a.stopAuto("")
		a.quitKey()
		return
	}
	if a.auto {
		a.autoKey(r)
		return
	}
	a.msg = ""
	if !a.fits() {
		return // the player cannot see the board: only quitting works
	}
	switch a.overlay {
	case overlayHelp, overlayLog:
		switch {
		case k == tcell.KeyEscape || k == tcell.KeyEnter || r == '?' && a.overlay == overlayHelp || r == 'L' && a.overlay == overlayLog:
			a.overlay = overlayNone
		case k == tcell.KeyUp || r == 'k' || r == 'w':
			a.helpTop--
		case k == tcell.KeyDown || r == 'j' || r == 's':
			a.helpTop++
		case k == tcell.KeyPgUp:
			a.helpTop -= 10
		case k == tcell.KeyPgDn || r == ' ':
			a.helpTop += 10
		case k == tcell.KeyHome:
			a.helpTop = 0
		case k == tcell.KeyEnd:
			a.helpTop = 1 << 20
		}
		a.helpTop = max(a.helpTop, 0) // drawing clamps the bottom
		return
	case overlayConfirm:
		a.overlay = overlayNone
		if r == 'y' || r == 'Y' {
			a.newGame()
		} else {
			a.setInfo("kept this game")
		}
		return
	}
	if a.rp != nil {
		a.replayKey(k, r)
		return
	}
	switch k {
	case tcell.KeyLeft:
		a.move(engine.Left)
	case tcell.KeyRight:
		a.move(engine.Right)
	case tcell.KeyUp:
		a.move(engine.Up)
	case tcell.KeyDown:
		a.move(engine.Down)
	case tcell.KeyCtrlR:
		a.redo()
	case tcell.KeyEnter:
		a.keepPlaying()
	case tcell.KeyRune:
		if d, ok := moveKeys[r]; ok {
			a.move(d)
			return
		}
		switch r {
		case 'u':
			a.undo()
		case 'U':
			a.redo()
		case 'c', 'C':
			a.keepPlaying()
		case 'f', 'F':
			a.fixture()
		case 't', 'T':
			a.tip()
		case 'p', 'P':
			a.toggleAuto()
		case 'r', 'R':
			if a.s.Status().Over() {
				a.newGame()
			} else {
				a.overlay = overlayConfirm
			}
		case '?':
			a.overlay, a.helpTop = overlayHelp, 0
		case 'L':
			a.overlay, a.helpTop = overlayLog, 1<<20 // the newest at the bottom
		}
	}
}
