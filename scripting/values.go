package scripting

// Where values change form. Every conversion between a Lua value and a Go
// value in the host is in values.go and the files named values_*.go, and
// nowhere else: a reader who wants to know where a mod's table becomes a
// request, or a cell a Lua value, looks here (as Redis keeps every
// conversion between its replies and Lua in one section of script_lua.c).
//   - values.go: the names the rest of the host passes Lua values by
//     (value, handler), and a Lua error made a Report;
//   - values_payloads.go: Go values become Lua tables: each event's payload
//     (reused where the handler cannot keep it), a turn's motions, the
//     marks game.marks returns, the cells game.cells finds, the settings;
//   - values_requests.go: Lua values become Go values: what handlers return
//     (refuse, a merge's result, a spawn's changes, the set, mark and
//     unmark lists) checked and made engine requests; cells, positions and
//     hazards' names; the tables game.on, game.hazard, game.marks and
//     game.cells take; describe, a Lua value in an error message;
//   - values_storage.go: a mod's storage table becomes its record in the
//     game state (JSON) and back, from turn to turn;
//   - values_reuse.go: the Go values boxed for Lua once (numbers,
//     directions, cells, scores, names), the caches every host shares, and
//     what of a payload the host may reuse, read from a handler's code.
//
// The other files of the package pass Lua values through by these names
// and call the functions here. Those that still import the Lua copy do the
// VM's own work: host.go and load.go make the states, compile and call;
// memory.go weighs what a mod holds; api.go, cells.go and edits.go are the
// game table's Lua functions, which take their arguments off the Lua stack,
// hand them here and push what they get back.

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"
	"github.com/mod2048/mod2048/scripting/internal/lua/parse"
	"github.com/mod2048/mod2048/scripting/internal/sandbox"
	"github.com/mod2048/mod2048/scripting/internal/workcount"
)

// value is a Lua value, as the rest of the host holds it without looking
// in; handler is a mod's handler (a Lua function, or a Go one a mod
// registered, such as print).
type (
	value   = lua.LValue
	handler = *lua.LFunction
)

// luaWhere is the place Lua's error() puts before a message (level 1,
// as the VM's own errors have it): "main.lua:12: ". In Lua, a runtime
// error's place is part of its value, a string, so it is read from there.
var luaWhere = regexp.MustCompile(`^([A-Za-z0-9_./-]+\.lua):([0-9]+):\s*`)

// report turns a Lua error into a *ModError naming the mod, the event, the
// file and line, with the traceback.
func (m *modRun) report(ev string, err error, stopped sandbox.Stop) *ModError {
	r := Report{Mod: m.mod.ID(), Event: ev}
	var api *lua.ApiError
	if !errors.As(err, &api) {
		r.Message = err.Error()
	} else if api.Type == lua.ApiErrorSyntax && api.Cause != nil {
		// A file that does not compile: the compiler's place, as values
		// (compile names the file of a CompileError).
		var pe *parse.Error
		var ce *lua.CompileError
		var de *sandbox.DepthError
		switch cause := api.Cause; {
		case errors.As(cause, &pe):
			r.File, r.Line, r.Column, r.Message = pe.Pos.Source, pe.Pos.Line, pe.Pos.Column, pe.Message
			r.OpenLine = max(pe.Opened.Line, 0)
			if pe.Pos.Line == parse.EOF {
				r.Line, r.Column, r.EOF = 0, 0, true // compile gives the last line
				r.Message += " at the end of the file"
			} else if pe.Token != "" {
				r.Message = fmt.Sprintf("%s near '%s'", pe.Message, pe.Token)
			}
		case errors.As(cause, &ce):
			r.Line, r.Message = ce.Line, ce.Message
		case errors.As(cause, &de):
			r.File, r.Line, r.Message = de.File, de.Line, de.What()
		default:
			r.Message = cause.Error()
		}
	} else {
		r.Message = sandbox.SafeString(api.Object)
		r.Traceback = api.StackTrace
		if loc := luaWhere.FindStringSubmatch(r.Message); loc != nil {
			r.File = loc[1]
			fmt.Sscan(loc[2], &r.Line)
			r.Message = r.Message[len(loc[0]):]
		} else if loc := luaWhere.FindStringSubmatch(firstTraceLine(r.Traceback)); loc != nil {
			r.File = loc[1]
			fmt.Sscan(loc[2], &r.Line)
		}
	}
	if stopped.Kind != sandbox.NotStopped {
		r.Message = stopped.Reason
		r.Failsafe = stopped.Kind == sandbox.StopFailsafe
	}
	// A mod's error may be a megabyte long: the addresses are scrubbed
	// from no more of it than the report can keep (Printable makes each
	// byte it keeps at least one, and an address gopher-lua writes, of at
	// most 16 hex digits, keeps more than a fourth of its bytes), and modError
	// makes it printable and cuts it.
	r.Message = sandbox.Scrub(prefix(r.Message, 4*MaxMessage))
	if strings.Contains(r.Message, "callstack overflow") {
		r.Message = "stack overflow (recursion too deep)"
	}
	r.Traceback = sandbox.Scrub(prefix(r.Traceback, 4*maxTraceback))
	return modError(r)
}

// prefix returns the first n bytes of s, or s.
func prefix(s string, n int) string { return s[:min(len(s), n)] }

func firstTraceLine(tb string) string {
	for _, line := range strings.Split(tb, "\n") {
		workcount.Step()
		line = strings.TrimSpace(line)
		if luaWhere.MatchString(line) {
			return line
		}
	}
	return ""
}
