package scripting

import (
	"errors"
	"fmt"
	"github.com/mod2048/mod2048/scripting/mod"
	"maps"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"
	"github.com/mod2048/mod2048/scripting/internal/sandbox"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/internal/workcount"
	"github.com/mod2048/mod2048/scripting/modapi"
)

// installAPI puts the mod API in the mod's state: the game table, storage,
// require and a deterministic math.random. The game and features tables
// are copies of their API version's templates (apiTemplates), with the
// mod's own values set in place.
func (m *modRun) installAPI() {
	L := m.L
	h := m.host
	tpl := apiTemplates()[m.mod.Manifest.APIVersion-1]
	game := tpl.game.Clone()
	game.RawSetString("api_version", lua.LNumber(m.mod.Manifest.APIVersion))
	game.RawSetString("features", tpl.features.Clone())
	game.RawSetString("mod_id", lua.LString(m.mod.ID()))
	game.RawSetString("ruleset", lua.LString(h.rules.Name()))
	// The settings in their names' order: pairs visits them in the same
	// order in every game (TestSettingsOrder).
	names := slices.Sorted(maps.Keys(m.mod.Values))
	settings := L.CreateTable(0, len(names))
	for _, name := range names {
		workcount.Step()
		settings.RawSetString(name, toLua(m.mod.Values[name]))
	}
	game.RawSetString("settings", settings)
	game.RawSetString("width", lua.LNumber(h.opt.Width))
	game.RawSetString("height", lua.LNumber(h.opt.Height))
	L.SetGlobal("game", game)
	L.SetGlobal("storage", L.CreateTable(0, 0))
	L.SetGlobal("require", apiRequire)
	L.GetGlobal("math").(*lua.LTable).RawSetString("random", apiRandom)
}

// runOf returns the mod whose state L is.
func runOf(L *lua.LState) *modRun { return sandbox.Of(L).Host.(*modRun) }

// apiFuncs are the game table's functions. Each finds its mod through the
// state it is called in (runOf), so one object serves every sandbox, as
// the standard library's functions do (stdlib.go).
var apiFuncs = map[string]lua.LGFunction{
	"on":     onRun((*modRun).luaOn),
	"hazard": onRun((*modRun).luaHazard),
	"cell":   onRun((*modRun).luaCell),
	"marks":  onRun((*modRun).luaMarks),
	"cells":  onRun((*modRun).luaCells),
	"turn": func(L *lua.LState) int {
		L.Push(lua.LNumber(runOf(L).state().Turn))
		return 1
	},
	"score": func(L *lua.LState) int {
		m := runOf(L)
		L.Push(lua.LString(engine.FormatScore(m.host.rules, m.state().Score)))
		return 1
	},
	"status": func(L *lua.LState) int {
		L.Push(lua.LString(runOf(L).state().Status.String()))
		return 1
	},
	"random": onRun((*modRun).luaRandom),
	"notify": onRun((*modRun).luaNotify),
	"set":    onRun((*modRun).luaSet),
	"mark":   onRun((*modRun).luaMark),
	"unmark": onRun((*modRun).luaUnmark),
	"log": func(L *lua.LState) int {
		sandbox.Of(L).LogArgs(L, 0)
		return 0
	},
}

// onRun makes a method of the mod a Go function of its sandbox.
func onRun(f func(*modRun, *lua.LState) int) lua.LGFunction {
	return func(L *lua.LState) int { return f(runOf(L), L) }
}

// apiRequire and apiRandom are require and math.random, shared as the
// game table's functions are.
var (
	apiRequire = sandbox.SharedFunction(onRun((*modRun).luaRequire))
	apiRandom  = sandbox.SharedFunction(onRun((*modRun).luaRandom))
)

// apiTemplate is an API version's game table and features table, made
// once a process. The game table's fields are in the order a mod's pairs
// visits them; those that differ from mod to mod hold false until
// installAPI sets them.
type apiTemplate struct {
	game, features *lua.LTable
}

// apiTemplates holds a template for each API version, the first at 0.
var apiTemplates = sync.OnceValue(func() []apiTemplate {
	tpls := make([]apiTemplate, mod.APIVersion)
	for i := range tpls {
		workcount.Step()
		version := i + 1
		features := &lua.LTable{Metatable: lua.LNil}
		for _, f := range apiSpec.Features.Fields {
			workcount.Step()
			if modapi.Since(f.Version) > version {
				continue // not in the API the mod was written for
			}
			features.RawSetString(f.Name, lua.LTrue)
		}
		game := &lua.LTable{Metatable: lua.LNil}
		for _, name := range []string{"api_version", "features", "mod_id", "ruleset", "settings"} {
			workcount.Step()
			game.RawSetString(name, lua.LFalse)
		}
		for _, f := range apiSpec.Functions {
			workcount.Step()
			if modapi.Since(f.Version) > version {
				continue // not in the API the mod was written for
			}
			fn, ok := apiFuncs[f.Name]
			if !ok {
				panic("scripting: the mod API's game." + f.Name + " has no Go function") // TestAPIListGameTable
			}
			game.RawSetString(f.Name, sandbox.SharedFunction(fn))
		}
		game.RawSetString("width", lua.LFalse)
		game.RawSetString("height", lua.LFalse)
		game.Compact()
		features.Compact()
		tpls[i] = apiTemplate{game: game, features: features}
	}
	return tpls
})

// state returns the state the running event reads; mods read nothing while
// no game runs.
func (m *modRun) state() *engine.State {
	if s := m.host.state; s != nil {
		return s
	}
	m.L.RaiseError("the game's state can be read only in an event handler")
	return nil
}

// game.on(event, handler): handlers are registered while the mod loads.
func (m *modRun) luaOn(L *lua.LState) int {
	name := L.CheckString(1)
	fn := L.CheckFunction(2)
	if m.host.loading != m {
		L.RaiseError("game.on: handlers are registered when the mod loads, not later")
	}
	ev, ok := eventOf(name)
	if ev >= evStart && m.mod.Manifest.APIVersion < 2 {
		ok = false // not in the API a version-1 mod was written for
	}
	if !ok {
		names := eventNames
		if m.mod.Manifest.APIVersion < 2 {
			names = names[:evStart]
		}
		L.RaiseError("game.on: unknown event %q (events: %s)", name, strings.Join(names, ", "))
	}
	if len(m.handlers[ev]) >= m.host.limits.MaxHandlers {
		L.RaiseError("game.on: a mod may register at most %d handlers for %s", m.host.limits.MaxHandlers, name)
	}
	var f handlerFilter
	if L.GetTop() >= 3 {
		f = m.eventFilter(L, ev, name)
	}
	m.handlers[ev] = append(m.handlers[ev], fn)
	m.filter[ev] = append(m.filter[ev], f)
	return 0
}

// handlerFilter is a handler's filter (game.on's third argument): the
// host runs the handler only for the events that pass it, so an event that
// passes no filter costs the mod nothing, as Factorio's event filters and
// on_nth_tick spare a mod the events it would ignore.
type handlerFilter struct {
	near  string // spawn: only next to a mark of this hazard
	every int    // tick: only on turns this divides
}

var hazardName = regexp.MustCompile(`^[a-z][a-z0-9_]{0,31}$`)

// maxDescription is the longest description a hazard takes, in bytes: as
// given, and as kept (printable, Hazard.Description).
const maxDescription = 200

// game.hazard{name=, glyph=, color=, blocks=, description=} defines a
// hazard and returns its full name, modid:name; a version-2 mod may add
// follow= and on_merge=.
func (m *modRun) luaHazard(L *lua.LState) int {
	spec := L.CheckTable(1)
	if m.host.loading != m {
		L.RaiseError("game.hazard: hazards are defined when the mod loads, not later")
	}
	name, hz := m.hazardSpec(L, spec)
	full := m.mod.ID() + ":" + name
	m.budget.Spend(L, len(m.host.hazards)) // the look for a duplicate
	if _, dup := m.host.Hazard(full); dup {
		L.RaiseError("game.hazard: %s is defined twice", full)
	}
	hz.Name, hz.Mod = full, m.mod.ID()
	hz.Description = sandbox.Printable(hazardString(L, spec, "description", false, maxDescription), maxDescription)
	m.host.hazards = append(m.host.hazards, hz)
	if m.own == nil {
		m.own = map[string]Hazard{}
	}
	m.own[name], m.own[full] = hz, hz
	L.Push(lua.LString(full))
	return 1
}

var colorNames = []string{"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white", "gray", "orange", "purple", "brown"}

func validColor(c string) bool {
	if slices.Contains(colorNames, c) {
		return true
	}
	if len(c) != 7 || c[0] != '#' {
		return false
	}
	return strings.Trim(strings.ToLower(c[1:]), "0123456789abcdef") == ""
}

// game.cell(row, col): the cell at row and col (from 0) of the current state.
func (m *modRun) luaCell(L *lua.LState) int {
	s := m.state()
	b := &s.Board
	row, col := L.CheckNumber(1), L.CheckNumber(2)
	p := engine.Pos{Row: int(row), Col: int(col)}
	if float64(row) != float64(p.Row) || float64(col) != float64(p.Col) || !b.In(p) {
		L.RaiseError("game.cell: (%v, %v) is not a cell of the %d×%d board", row, col, b.Width, b.Height)
	}
	L.Push(m.host.cellValue(b.At(p)))
	return 1
}

// game.marks([row, col]) and game.marks{hazard = NAME}: the marks on one
// cell, on the whole board, or of one of the mod's own hazards (its name,
// or modid:name), as {row=, col=, name=, turns=, blocks=, count=} tables.
func (m *modRun) luaMarks(L *lua.LState) int {
	s := m.state()
	all := L.GetTop() == 0
	var p engine.Pos
	hazard := ""
	switch spec, ok := L.Get(1).(*lua.LTable); {
	case ok:
		all = true
		hazard = m.marksFilter(L, spec)
	case !all:
		p = engine.Pos{Row: L.CheckInt(1), Col: L.CheckInt(2)}
	}
	m.budget.Spend(L, len(s.Marks))
	want := func(mk engine.Mark) bool {
		return (all || mk.Pos == p) && (hazard == "" || mk.Name == hazard)
	}
	n := 0
	for _, mk := range s.Marks {
		workcount.Step()
		if want(mk) {
			n++
		}
	}
	L.Push(m.host.marksTable(L, s.Marks, n, want))
	return 1
}

// MaxNotice is the longest message game.notify shows, in bytes, and
// maxNotices the most one mod may show in one move.
const (
	MaxNotice  = 200
	maxNotices = 4
)

// game.notify(text): a short message to the player (the terminal's status
// line, a toast in the browser), shown when the move it was sent in is
// played. A dry run (the legal moves, a search) shows nothing.
func (m *modRun) luaNotify(L *lua.LState) int {
	v := L.Get(1)
	text, ok := v.(lua.LString)
	if !ok || L.GetTop() != 1 {
		L.RaiseError("game.notify: want one string, got %s", describe(v))
	}
	// Charged for what is scanned, the spaces trimmed too; kept as a
	// string of its own, not a piece of a longer one (which it would keep
	// alive).
	m.budget.Spend(L, 1+len(text)/sandbox.BytesPerInstruction)
	t := strings.TrimSpace(string(text))
	if t == "" || len(t) > MaxNotice {
		L.RaiseError("game.notify: want a message of 1 to %d bytes, got %d", MaxNotice, len(t))
	}
	if len(t) < len(text) {
		t = strings.Clone(t)
	}
	if m.log.Discarding() {
		return 0
	}
	n := 0
	for _, p := range m.host.pending {
		workcount.Step()
		if p.Mod == m.mod.ID() {
			n++
		}
	}
	if n >= maxNotices {
		L.RaiseError("game.notify: at most %d messages a move", maxNotices)
	}
	m.host.pending = append(m.host.pending, Notice{Mod: m.mod.ID(), Text: sandbox.Printable(t, MaxNotice)})
	return 0
}

// game.random([m [, n]]) and math.random: Lua 5.1's math.random, drawn from
// the mod's own stream of the game's seeded source. Bounds must be whole
// numbers (Lua 5.1 would truncate a fraction silently; a clear error is
// kinder to a mod's author).
func (m *modRun) luaRandom(L *lua.LState) int {
	bound := func(i int) int {
		f := float64(L.CheckNumber(i))
		if math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) || math.Abs(f) > math.MaxInt32 {
			L.RaiseError("random: bound #%d is %v; want a whole number", i, f)
		}
		return int(f)
	}
	switch L.GetTop() {
	case 0:
		L.Push(lua.LNumber(m.rng.Float64()))
	case 1:
		hi := bound(1)
		if hi < 1 {
			L.RaiseError("random: interval is empty")
		}
		L.Push(lua.LNumber(1 + m.rng.IntN(hi)))
	default:
		lo, hi := bound(1), bound(2)
		if lo > hi {
			L.RaiseError("random: interval is empty")
		}
		L.Push(lua.LNumber(lo + m.rng.IntN(hi-lo+1)))
	}
	m.ran, m.rngUsed = true, true
	return 1
}

// require(name) runs name.lua of the mod's own folder once and returns what
// it returned; nothing outside the folder can be reached. Compiling the
// file is charged to the call first (sandbox.CompileCost, by its bytes): a
// call that has not the instructions left ends with its budget's error,
// and the file is not compiled.
func (m *modRun) luaRequire(L *lua.LState) int {
	name := L.CheckString(1)
	if !mod.ValidModule(name) || len(name) > 64 {
		L.RaiseError("require: %q is not a module of this mod (letters, digits, _ and /)", name)
	}
	if v, ok := m.modules[name]; ok {
		L.Push(v)
		return 1
	}
	if len(m.modules) >= 64 {
		L.RaiseError("require: a mod may load at most 64 modules")
	}
	fn, err := m.compile(name+".lua", func(n int64) bool {
		m.budget.Spend(L, int(n)) // raises the budget's error when the call has not n
		return true
	})
	if err != nil {
		// A file that does not compile is where the error is; one that
		// cannot be read is an error of the require.
		fe := (*mod.FileError)(nil)
		if !errors.As(err, &fe) {
			L.RaiseError("require %q: %v", name, err)
		}
		if errors.As(err, new(*ModError)) {
			m.required.err, m.required.raised = err, fmt.Sprintf("require %q: %s", name, fe.Error())
			L.RaiseError("%s", m.required.raised)
		}
		L.RaiseError("require %q: %s: %s", name, fe.File, fe.Message)
	}
	m.modules[name] = lua.LTrue // a module that requires itself gets true
	L.Push(fn)
	L.Call(0, 1)
	v := L.Get(-1)
	L.Pop(1)
	if v == lua.LNil {
		v = lua.LTrue
	}
	m.modules[name] = v
	L.Push(v)
	return 1
}
