package scripting

import (
	"errors"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/internal/workcount"
)

// HasRefusers reports whether any mod that g's state has not disabled
// handles before_move, the one event that can refuse a move: without one,
// Refused never refuses.
func (h *Host) HasRefusers(g *engine.Game) bool {
	s := g.State()
	for _, m := range h.mods {
		workcount.Step()
		if len(m.handlers[evBeforeMove]) > 0 && !s.HookDisabled(m.mod.ID()) {
			return true
		}
	}
	return false
}

// Refused asks the mods' before_move handlers whether they would refuse a
// move of g in direction d, without playing it and without side effects:
// what the handlers change in storage, the random numbers they draw and the
// lines they log are all thrown away, and an error is not reported (the
// move itself, if played, reports it). It returns the refusal, or nil when
// the mods let the move through (or fail on it).
//
// The play session uses it for its legal moves and its lose check, so a
// direction that a mod refuses counts as illegal.
func (h *Host) Refused(g *engine.Game, d engine.Direction) *engine.Refusal {
	if !h.HasRefusers(g) {
		return nil
	}
	h.beginAt(g.State(), true)
	for _, m := range h.mods {
		workcount.Step()
		m.muted = false
	}
	h.quiet(true)
	reports := len(h.reports)
	// The handlers play copies of storage (beginAt's dry), and the next
	// move starts from the state's own.
	err := h.BeforeMove(&engine.MoveEvent{Dir: d, State: g.State()})
	h.quiet(false)
	h.reports = h.reports[:reports]
	h.state = nil
	var ref *engine.Refusal
	if errors.As(err, &ref) {
		return ref
	}
	return nil
}
