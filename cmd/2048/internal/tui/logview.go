package tui

import (
	"fmt"
)

// maxHistory is how many of the status line's messages the log view keeps.
const maxHistory = 200

// remember keeps a message the status line showed, whole, for the log
// view: the status line cuts a long one (a hot-reload error) at the
// screen's edge.
func (a *App) remember(msg string, isErr bool) {
	if msg == "" {
		return
	}
	if isErr {
		msg = "error: " + msg
	}
	a.history = append(a.history, fmt.Sprintf("turn %d: %s", a.s.State().Turn, msg))
	if len(a.history) > maxHistory {
		a.history = a.history[len(a.history)-maxHistory:]
	}
}

// notices puts the mods' messages (game.notify) of the moves just played
// on the status line, each with its mod's name.
func (a *App) notices() {
	for _, n := range a.s.TakeNotices() {
		name := n.Mod
		for _, m := range a.s.Mods() {
			if m.ID() == n.Mod && m.Manifest.Name != "" {
				name = m.Manifest.Name
			}
		}
		a.addInfo(name + ": " + n.Text)
	}
}

// logLines returns the log view's lines for an inside width of width
// columns: the recent messages, whole, then each mod's log.
func (a *App) logLines(width int) [][]seg {
	t := a.th
	o := &overlayLines{width: width, head: t.heading}
	o.heading("Messages")
	if len(a.history) == 0 {
		o.text(2, "None yet.", t.overlay)
	}
	for _, m := range a.history {
		o.text(2, m, t.overlay)
	}
	for _, m := range a.s.Mods() {
		title := fmt.Sprintf("%s (%s): its log", m.Manifest.Name, m.ID())
		if a.s.Disabled(m.ID()) {
			title = fmt.Sprintf("%s (%s): disabled in this game", m.Manifest.Name, m.ID())
		}
		o.heading(title)
		if a.s.Disabled(m.ID()) {
			o.text(2, disabledHelp, t.overlay)
		}
		lines := a.s.Log(m.ID())
		if len(lines) == 0 {
			o.text(2, "Nothing logged.", t.overlay)
		}
		for _, l := range lines {
			o.text(2, l, t.overlay)
		}
	}
	if len(a.s.Mods()) == 0 {
		o.heading("Mods")
		o.text(2, "None loaded. Load one with: 2048 play --mod DIR", t.overlay)
	}
	return o.out
}

// disabledHelp says how a disabled mod comes back.
const disabledHelp = "The game's record keeps it off. To bring it back once it is fixed (with --watch, saving its file loads the fix): u undoes to before its errors, or r starts a new game with it."
