package scripting

import (
	lua "github.com/mod2048/mod2048/scripting/internal/lua"

	"github.com/mod2048/mod2048/engine"
)

// game.set(row, col, cell), game.mark(row, col, name [, turns [, count]])
// and game.unmark(row, col, name) (API version 2): a tick, start or expire
// handler's requests as calls. Each adds one entry, checked as the entry of
// a returned request table is, to the turn's requests, in the order made
// and before those of the table the handler returns. They cost a call
// each, where an entry of a request table costs a table with string keys,
// several times more in gopher-lua (MODDING.md, "What costs time in a
// handler"). A bad argument is an error at the call, with its line.

// editing is the turn a tick, start or expire handler of the mod changes,
// while it runs.
type editing struct {
	e     *engine.TickEvent
	calls [3]int // set, mark and unmark calls of this handler call
}

// editCalls names the three functions, in editing.calls' order.
var editCalls = [3]string{"set", "mark", "unmark"}

// begin readies the calls for one handler call on e's turn; end closes
// them.
func (ed *editing) begin(e *engine.TickEvent) {
	ed.e, ed.calls = e, [3]int{}
}

func (ed *editing) end() { ed.e = nil }

// editTurn returns the turn the k-th function (editCalls) adds to, or raises
// the error of a call outside a tick, start or expire handler, or past what
// one handler call may ask for (as many as a request table's list).
func (m *modRun) editTurn(L *lua.LState, k, args int) *engine.TickEvent {
	name := editCalls[k]
	ed := &m.edits
	if ed.e == nil {
		L.RaiseError("game.%s: only a tick, start or expire handler changes the board", name)
	}
	if L.GetTop() > args {
		L.RaiseError("game.%s: %d arguments, want at most %d", name, L.GetTop(), args)
	}
	ed.calls[k]++
	if b := &ed.e.State.Board; ed.calls[k] > len(b.Cells)*4 {
		L.RaiseError("game.%s: %d calls, more than a turn may ask for", name, ed.calls[k])
	}
	m.budget.Spend(L, 1)
	return ed.e
}

func (m *modRun) luaSet(L *lua.LState) int {
	e := m.editTurn(L, 0, 3)
	ed, field, err := m.checkSet(&e.State.Board, L.Get(1), L.Get(2), L.Get(3))
	if err != nil {
		L.RaiseError("game.set: %s: %v", field, err)
	}
	e.Edits = append(e.Edits, ed)
	return 0
}

func (m *modRun) luaMark(L *lua.LState) int {
	return m.markCall(L, 1, L.Get(4), L.Get(5))
}

func (m *modRun) luaUnmark(L *lua.LState) int {
	return m.markCall(L, 2, lua.LNil, lua.LNil)
}

func (m *modRun) markCall(L *lua.LState, k int, turns, count lua.LValue) int {
	args := 5
	if k == 2 {
		args = 3
	}
	e := m.editTurn(L, k, args)
	me, field, err := m.checkMark(&e.State.Board, L.Get(1), L.Get(2), L.Get(3), turns, count, k == 2)
	if err != nil {
		L.RaiseError("game.%s: %s: %v", editCalls[k], field, err)
	}
	if n := len(e.State.Marks) + len(e.MarkEdits) + 1; !me.Remove && n > engine.MaxMarks {
		L.RaiseError("game.mark: the board would hold %d marks, more than %d", n, engine.MaxMarks)
	}
	e.MarkEdits = append(e.MarkEdits, me)
	return 0
}
