package scripting

import (
	"strconv"

	"github.com/mod2048/mod2048/engine"
)

// Notice is a short message a mod shows the player (game.notify): the
// terminal puts it on the status line, the browser in a toast. It is not
// part of the game's state: a replay or an undo shows none.
type Notice struct {
	Mod  string // the mod's id
	Text string // printable, at most MaxNotice bytes
}

// TakeNotices returns the messages of the moves played since the last
// call, oldest first. A move that fails or is refused, and a dry run,
// leave none.
func (h *Host) TakeNotices() []Notice {
	n := h.notices
	h.notices = nil
	return n
}

// keepNotices keeps the notices of the attempt that became the move: the
// last maxKeptNotices of them, for a frontend that does not take them (the
// lab), so that what the host keeps of the mods' messages stays small.
func (h *Host) keepNotices() {
	h.notices = append(h.notices, h.pending...)
	h.pending = h.pending[:0]
	if over := len(h.notices) - maxKeptNotices; over > 0 {
		h.notices = append(h.notices[:0], h.notices[over:]...)
	}
}

// maxKeptNotices is how many notices the host keeps until a frontend takes
// them.
const maxKeptNotices = 64

// Shown is what a frontend draws for mark m of hazard h: its turns left or
// its count where the hazard has a counter, else the glyph.
func (h Hazard) Shown(m engine.Mark) string {
	switch h.Counter {
	case CounterTurns:
		return strconv.Itoa(m.Turns)
	case CounterCount:
		return strconv.Itoa(m.Count)
	}
	return h.Glyph
}
