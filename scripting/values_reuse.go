package scripting

// Go values boxed for Lua once, the caches every host shares, and what of
// a payload the host may reuse (values.go's banner says what the values
// files hold).

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/internal/workcount"
)

// What the host may reuse from one handler call to the next, proved from
// the mods' compiled code. A handler can never see a table change under it:
// the host reuses a table only where no handler could have kept a
// reference to it, nor anything of it but plain values.

// reuse is what one handler lets the host reuse of its event's payload.
type reuse uint8

const (
	reuseNone   reuse = iota // a fresh payload every call
	reuseTop                 // the payload table; any nested tables fresh
	reuseNested              // the payload and the tables in it
)

// payloadReuse works out, from a handler's code, whether its payload (its
// first argument) can outlive the call. The payload cannot be kept, passed
// on or written when the handler's code does nothing with the register that
// holds it but read fields of it (e.payload_field); with no parameter and
// no varargs the payload is out of reach altogether. Every other use of the
// register, by any instruction, counts as an escape: a conservative
// analysis, which may give a fresh table where none is needed, never the
// other way round. Reads of fields by a constant name in scalars give
// plain values; any other field read may give a nested table, which then
// stays fresh (reuseTop).
func payloadReuse(p *lua.FunctionProto, scalars []string) reuse {
	if p.NumParameters == 0 {
		if p.IsVarArg != 0 {
			return reuseNone
		}
		return reuseNested
	}
	out := reuseNested
	for _, inst := range p.Code {
		workcount.Step()
		op := int(inst >> 26)
		a := int(inst>>18) & 0xff
		b := int(inst & 0x1ff)
		c := int(inst>>9) & 0x1ff
		rk := func(x int) bool { return x&0x100 == 0 && x == 0 } // RK(x) is register 0
		switch op {
		case lua.OP_LOADK, lua.OP_LOADBOOL, lua.OP_LOADNIL, lua.OP_GETUPVAL, lua.OP_GETGLOBAL,
			lua.OP_NEWTABLE, lua.OP_JMP, lua.OP_CLOSE, lua.OP_CLOSURE, lua.OP_VARARG, lua.OP_NOP:
			// Read no register (a closure's captures follow it as MOVEs).
		case lua.OP_MOVE, lua.OP_MOVEN, lua.OP_UNM, lua.OP_NOT, lua.OP_LEN, lua.OP_TESTSET:
			if b == 0 {
				return reuseNone
			}
		case lua.OP_GETTABLE, lua.OP_GETTABLEKS:
			if rk(c) {
				return reuseNone
			}
			if b == 0 && !constantIn(p, c, scalars) {
				out = reuseTop
			}
		case lua.OP_SELF:
			if b == 0 || rk(c) {
				return reuseNone
			}
		case lua.OP_ADD, lua.OP_SUB, lua.OP_MUL, lua.OP_DIV, lua.OP_MOD, lua.OP_POW,
			lua.OP_EQ, lua.OP_LT, lua.OP_LE:
			if rk(b) || rk(c) {
				return reuseNone
			}
		case lua.OP_SETTABLE, lua.OP_SETTABLEKS:
			if a == 0 || rk(b) || rk(c) {
				return reuseNone
			}
		case lua.OP_SETGLOBAL, lua.OP_SETUPVAL, lua.OP_TEST:
			if a == 0 {
				return reuseNone
			}
		case lua.OP_CONCAT:
			if b == 0 {
				return reuseNone
			}
		case lua.OP_CALL, lua.OP_TAILCALL, lua.OP_FORLOOP, lua.OP_FORPREP, lua.OP_TFORLOOP, lua.OP_SETLIST:
			// Read registers from A on.
			if a == 0 {
				return reuseNone
			}
		case lua.OP_RETURN:
			if a == 0 && b != 1 {
				return reuseNone
			}
		default:
			return reuseNone
		}
	}
	return out
}

// payloadReads reports whether a handler may read the field name of its
// payload: it reads a field of the payload's register by that constant
// name, or by a key that is not a constant. For a handler whose payload
// cannot escape (payloadReuse), no is a proof: the field is out of its
// reach, and the host need not make it (a tick's moves and merged).
func payloadReads(p *lua.FunctionProto, name string) bool {
	for _, inst := range p.Code {
		workcount.Step()
		op := int(inst >> 26)
		b := int(inst & 0x1ff)
		c := int(inst>>9) & 0x1ff
		switch op {
		case lua.OP_GETTABLE, lua.OP_GETTABLEKS, lua.OP_SELF:
			if b == 0 && (c&0x100 == 0 || constantIn(p, c, []string{name})) {
				return true
			}
		}
	}
	return false
}

// constantIn reports whether RK(x) is a constant string of names.
func constantIn(p *lua.FunctionProto, x int, names []string) bool {
	if x&0x100 == 0 {
		return false
	}
	i := x & 0xff
	if i >= len(p.Constants) {
		return false
	}
	s, ok := p.Constants[i].(lua.LString)
	return ok && slices.Contains(names, string(s))
}

// mentionsStorage reports whether a function, or any function defined in
// it, names the global storage or _G (through which storage can be named
// by a computed key). Without either, code cannot reach the storage table:
// a global is read only by a constant name, and the sandbox has no
// getfenv, debug or package. It looks at constants only, whatever uses
// them, so it errs on the side of "it does".
func mentionsStorage(p *lua.FunctionProto) bool {
	workcount.Step()
	for _, k := range p.Constants {
		workcount.Step()
		if s, ok := k.(lua.LString); ok && (s == "storage" || s == "_G") {
			return true
		}
	}
	for _, child := range p.FunctionPrototypes {
		workcount.Step()
		if mentionsStorage(child) {
			return true
		}
	}
	return false
}

// Values the payloads use, boxed once: a Go value put in a lua.LValue
// allocates, these do not.
var (
	smallNumbers = func() (out [1024]lua.LValue) {
		for i := range out {
			workcount.Step()
			out[i] = lua.LNumber(i)
		}
		return out
	}()
	dirNames = func() (out [4]lua.LValue) {
		for _, d := range engine.Directions {
			workcount.Step()
			out[d] = lua.LString(strings.ToLower(d.String()))
		}
		return out
	}()
)

// payloadScalars names the fields of each event's payload that hold plain
// values (the rest hold tables).
var payloadScalars = [numEvents][]string{
	evBeforeMove: {"dir", "turn"},
	evAfterMerge: {"row", "col", "result"},
	evSpawn:      {"row", "col", "cell", "scripted"},
	evTick:       {"turn", "dir", "gained", "merges", "spawns"},
	evExpire:     {"turn", "row", "col", "name", "count"},
}

// dirValue boxes a direction's Lua name.
func dirValue(d engine.Direction) lua.LValue {
	if int(d) < len(dirNames) && dirNames[d] != nil {
		return dirNames[d]
	}
	return lua.LString(strings.ToLower(d.String()))
}

// maxBoxed bounds each of the host's caches of boxed values.
const maxBoxed = 256

// boxes is one of the host's caches of values made for Lua once per key
// (cells, scores, names), at most maxBoxed of them.
type boxes[K comparable, V any] map[K]V

// keep caches v for k, while there is room, and returns v.
func (b *boxes[K, V]) keep(k K, v V) V {
	if len(*b) < maxBoxed {
		if *b == nil {
			*b = boxes[K, V]{}
		}
		(*b)[k] = v
	}
	return v
}

// cellValue writes a cell for Lua (see cellText), boxed once per cell.
func (h *Host) cellValue(c engine.Cell) lua.LValue {
	if v, ok := h.cells[c]; ok {
		return v
	}
	v := sharedValues.getOr(ruleCell{h.rulesName(), c}, func() lua.LValue { return h.cellText(c) })
	return h.cells.keep(c, v)
}

// cellText writes a cell for Lua: as its notation, a number where the
// notation is a number (classic tiles, which are powers of two and so held
// exactly by a Lua number however large; 0 for empty).
func (h *Host) cellText(c engine.Cell) lua.LValue {
	s := h.rules.FormatCell(c)
	if n, ok := exactNumber(s); ok {
		return lua.LNumber(n)
	}
	return lua.LString(s)
}

// exactNumber reads a decimal integer that a float64 holds exactly.
func exactNumber(s string) (float64, bool) {
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || strconv.FormatFloat(f, 'f', 0, 64) != strings.TrimLeft(s, "0") && s != "0" {
		return 0, false
	}
	return f, true
}

// A host's caches of cells start empty with every game; on a miss they
// ask these, which every host of the process shares, before they work a
// value out: a cell's text and Lua value, a text's cell, for one kind of
// rules, are the same in every game. A new game then makes no text of a
// cell (cellular's notation takes fmt) and parses none (a regular
// expression) that an earlier game made. The values are immutable (a Lua
// string or number is a Go value), so games on other goroutines share
// them safely.
var (
	sharedValues  sharedCache[ruleCell, lua.LValue]  // cellValue's
	sharedStrings sharedCache[ruleCell, string]      // cellString's
	sharedCells   sharedCache[ruleText, engine.Cell] // parseCell's
)

// ruleCell is a cell of one kind of rules (Host.rulesName); ruleText a
// text.
type (
	ruleCell struct {
		rules string
		cell  engine.Cell
	}
	ruleText struct{ rules, text string }
)

// sharedCache is a cache every host reads, of at most maxShared values.
type sharedCache[K comparable, V any] struct {
	mu sync.RWMutex
	m  map[K]V
}

const maxShared = 4096

func (s *sharedCache[K, V]) get(k K) (V, bool) {
	s.mu.RLock()
	v, ok := s.m[k]
	s.mu.RUnlock()
	return v, ok
}

// getOr returns the value kept for k, or the one make makes, kept.
func (s *sharedCache[K, V]) getOr(k K, make func() V) V {
	if v, ok := s.get(k); ok {
		return v
	}
	return s.put(k, make())
}

// put keeps v for k, while there is room, and returns v.
func (s *sharedCache[K, V]) put(k K, v V) V {
	s.mu.Lock()
	if s.m == nil {
		s.m = make(map[K]V)
	}
	if len(s.m) < maxShared {
		s.m[k] = v
	}
	s.mu.Unlock()
	return v
}

// nameValue is a mark's name for Lua, boxed once per name.
func (h *Host) nameValue(name string) lua.LValue {
	if v, ok := h.names[name]; ok {
		return v
	}
	return h.names.keep(name, lua.LString(name))
}

// scoreValue writes a score for Lua, boxed once per score.
func (h *Host) scoreValue(sc engine.Score) lua.LValue {
	if v, ok := h.scores[sc]; ok {
		return v
	}
	return h.scores.keep(sc, lua.LString(engine.FormatScore(h.rules, sc)))
}

// number boxes n, from the table of small numbers when it is one.
func number(n int) lua.LValue {
	if n >= 0 && n < len(smallNumbers) {
		return smallNumbers[n]
	}
	return lua.LNumber(n)
}
