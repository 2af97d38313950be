package scripting

import (
	"strings"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"

	"github.com/mod2048/mod2048/engine"
)

// expire runs the expire handlers (API version 2) of the turn's expired
// marks, in the tick phase before the tick handlers: each mod's handlers
// hear of its own marks only, one call a mark, in board order, and may
// answer as a tick handler does (set, mark, unmark).
func (h *Host) expire(e *engine.TickEvent) error {
	name := eventNames[evExpire]
	return h.each(evExpire, func(m *modRun, i int, fn *lua.LFunction, r reuse) error {
		prefix := m.mod.ID() + ":"
		for _, mk := range e.Expired {
			if !strings.HasPrefix(mk.Name, prefix) {
				continue
			}
			f := m.payload(evExpire, i, r, 5)
			f.set(0, "turn", number(e.Turn))
			f.set(1, "row", number(mk.Pos.Row))
			f.set(2, "col", number(mk.Pos.Col))
			f.set(3, "name", lua.LString(mk.Name))
			f.set(4, "count", number(mk.Count))
			m.edits.begin(e)
			ret, err := h.call(m, evExpire, fn, f.t)
			m.edits.end()
			if err != nil {
				return err
			}
			req, err := m.request(ret, name, "set", "mark", "unmark")
			if err != nil {
				return err
			}
			if req == nil {
				continue
			}
			if err := m.tickRequests(name, req, e); err != nil {
				return err
			}
			if n := len(e.State.Marks) + len(e.MarkEdits); n > engine.MaxMarks {
				return m.invalid(name, "mark: the board would hold %d marks, more than %d", n, engine.MaxMarks)
			}
		}
		return nil
	})
}
