package scripting

import (
	"strings"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/internal/workcount"
)

// expire runs the expire handlers (API version 2) of the turn's expired
// marks, in the tick phase before the tick handlers: each mod's handlers
// hear of its own marks only, one call a mark, in board order, and may
// answer as a tick handler does (set, mark, unmark).
func (h *Host) expire(e *engine.TickEvent) error {
	name := eventNames[evExpire]
	return h.each(evExpire, func(m *modRun, i int, fn handler, r reuse) error {
		prefix := m.mod.ID() + ":"
		for _, mk := range e.Expired {
			workcount.Step()
			if !strings.HasPrefix(mk.Name, prefix) {
				continue
			}
			arg := m.expirePayload(i, r, e, mk)
			m.edits.begin(e)
			ret, err := h.call(m, evExpire, fn, arg)
			m.edits.end()
			if err != nil {
				return err
			}
			asked, err := m.turnRequest(ret, name, e)
			if err != nil {
				return err
			}
			if !asked {
				continue
			}
			if n := len(e.State.Marks) + len(e.MarkEdits); n > engine.MaxMarks {
				return m.invalid(name, "mark: the board would hold %d marks, more than %d", n, engine.MaxMarks)
			}
		}
		return nil
	})
}
