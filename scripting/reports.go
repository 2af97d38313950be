package scripting

import (
	"fmt"
	"github.com/mod2048/mod2048/scripting/mod"
	"slices"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/internal/sandbox"
	"github.com/mod2048/mod2048/scripting/internal/workcount"
)

// Report is a mod's error: which mod, in which event, where in its Lua
// files, and what. The game goes on without the mod's effects on that turn.
type Report struct {
	Mod   string
	Event string
	File  string
	Line  int
	// Column is where on the line a file that does not compile stops
	// making sense, when the parser says (from 1; 0 otherwise); EOF says
	// the file ended too soon (Line is then its last line).
	Column int
	EOF    bool
	// OpenLine is, for a file that does not compile because a block or
	// bracket is left open, the line where it opens, which Message names
	// ("'end' expected (to close 'function' at line 4)"); 0 otherwise.
	OpenLine  int
	Message   string
	Traceback string
	Disabled  bool // the mod failed too often and is now off
	// Failsafe says the host's failsafe stopped the call (Limits.FailsafeTime):
	// unlike every other failure, it depends on the
	// machine and its load, so a replay must take the record's word for it.
	// Only a host for play reports it: a deterministic one (Deterministic)
	// ends the run with a *CostModelError instead.
	Failsafe bool
}

func (r Report) Error() string {
	where := r.Mod
	switch {
	case r.File != "" && r.Column > 0:
		where = fmt.Sprintf("%s (%s:%d:%d)", r.Mod, r.File, r.Line, r.Column)
	case r.File != "":
		where = fmt.Sprintf("%s (%s:%d)", r.Mod, r.File, r.Line)
	}
	msg := fmt.Sprintf("mod %s: %s: %s", where, r.Event, r.Message)
	if r.Disabled {
		msg += " (the mod is now disabled)"
	}
	return msg
}

// ModError is the error a mod's failure gives the engine, which undoes the
// step; Host.Move then plays the move again without the mod.
type ModError struct {
	Report
	// Dir is the mod's folder as it was named (mod.Mod.Dir), for an error
	// of its loading (NewHost's): the *mod.FileError of As names the file
	// by it, as the user gave it. "" for the errors of its turns.
	Dir string
}

func (e *ModError) Error() string { return e.Report.Error() }

// As makes a ModError with a file (a Lua file that does not compile, or
// the mod's error at a line of it) a *mod.FileError for errors.As, standing
// for the ModError (its Err).
func (e *ModError) As(target any) bool {
	fe, ok := target.(**mod.FileError)
	if !ok || e.File == "" {
		return false
	}
	*fe = &mod.FileError{Mod: e.Mod, Dir: e.Dir, File: e.File, Line: e.Line, Column: e.Column, EOF: e.EOF, OpenLine: e.OpenLine, Message: e.Message, Err: e}
	return true
}

// CostModelError is the error of a call the failsafe stopped in a
// deterministic host (Deterministic): the call ran for FailsafeTime
// on fewer instructions than its budget,
// so the budgets' counts failed to weigh what it did. In play that is a
// mod's failure like any other (Report.Failsafe); where the result must be
// the same on every machine (the lab, replays, fixtures, mod check), what
// the mod would make of the game would depend on the machine's speed, so
// the run stops with this error, and the host stays failed (Host.Err): no
// more of its Lua runs, and Move and Start return the error without
// changing the game.
type CostModelError struct {
	Mod   string
	Event string // the event, or "load" for the mod's entry file
	File  string // where the call was when it was stopped, if known
	Line  int
	// What is what the call did past the failsafe: "ran for more than
	// 2s".
	What string
	// On is what the result would depend on: "this machine's speed".
	On string
}

func (e *CostModelError) Error() string {
	call := e.Event
	if e.File != "" {
		call = fmt.Sprintf("%s (%s:%d)", e.Event, e.File, e.Line)
	}
	return fmt.Sprintf("mod %s: the sandbox's cost model failed: %s %s on fewer instructions than its budget; "+
		"the result would depend on %s, so the run stops here; please report this mod (it is a bug in the sandbox's costs)",
		e.Mod, call, e.What, e.On)
}

// costModel makes the error of a failsafe's stop in a deterministic host,
// me being the report the stop makes in play, and keeps it as the host's
// failure.
func (h *Host) costModel(me *ModError) *CostModelError {
	e := &CostModelError{Mod: me.Mod, Event: me.Event, File: me.File, Line: me.Line,
		What: fmt.Sprintf("ran for more than %v", h.limits.FailsafeTime), On: "this machine's speed"}
	if h.failed == nil {
		h.failed = e
	}
	return e
}

// Err returns the *CostModelError that stopped a deterministic host, or
// nil: once a failsafe has fired in it, every Move and Start returns it.
// A dry run (Refused) or a fork's move that the failsafe stopped fails the
// host too, so a frontend that asks Refused and then ends without a move
// asks Err.
func (h *Host) Err() error {
	if h.failed == nil {
		return nil
	}
	return h.failed
}

// FailLimit is how many turns in a row a mod may fail before it is disabled.
// The count, and the disable, are the game state's record (engine.Fault).
const FailLimit = 3

// TakeReports returns the errors mods have had since the last call.
func (h *Host) TakeReports() []Report {
	r := h.reports
	h.reports = nil
	return r
}

// Log returns the lines a mod printed (print and game.log), the last
// Limits.MaxLog bytes.
func (h *Host) Log(id string) []string {
	for _, m := range h.mods {
		workcount.Step()
		if m.mod.ID() == id {
			return m.log.Lines()
		}
	}
	return nil
}

// turnFaults returns the faults of the turn being played, in the recorded
// order when a recording is honoured (MoveAsRecorded): those the recording
// has first, as it has them, then any other.
func (h *Host) turnFaults() []engine.Fault {
	if len(h.recorded) == 0 || len(h.faults) < 2 {
		return h.faults
	}
	at := func(f engine.Fault) int {
		for i, r := range h.recorded {
			workcount.Step()
			if r.Hook == f.Hook && r.Event == f.Event && r.Kind == f.Kind {
				return i
			}
		}
		return len(h.recorded)
	}
	slices.SortStableFunc(h.faults, func(a, b engine.Fault) int { return at(a) - at(b) })
	return h.faults
}

// failsafeFault is the message a failsafe stop keeps in the game's state
// (as saves and replays of before keep it, though a call's memory is no
// longer a failsafe's but a count's: Limits.MaxCallBuilt).
const failsafeFault = "stopped by a failsafe (the wall clock or the memory watchdog)"

// fail mutes the mod of a failure for the rest of the move and readies its
// record for the turn, s being the state the move starts from: the
// failure, and a disable when it makes FailLimit turns in a row.
func (h *Host) fail(s *engine.State, me *ModError) {
	for _, m := range h.mods {
		workcount.Step()
		if m.mod.ID() != me.Mod || m.muted {
			continue
		}
		m.muted = true
		kind, msg := engine.FaultError, me.Message
		if me.Failsafe {
			// Which failsafe fired, and where the call was when it did,
			// depend on the machine: the record keeps only that one did,
			// so the same game gives the same state everywhere. The report
			// says which.
			kind, msg = engine.FaultFailsafe, failsafeFault
		}
		h.faults = append(h.faults, engine.Fault{Hook: me.Mod, Event: me.Event, Kind: kind, Message: msg})
		if inARow := s.HookFailedInARow(me.Mod); inARow+1 >= FailLimit {
			me.Disabled = true
			h.faults = append(h.faults, engine.Fault{Hook: me.Mod, Event: me.Event, Kind: engine.FaultDisabled,
				Message: fmt.Sprintf("failed %d turns in a row", FailLimit)})
		}
	}
	h.reports = append(h.reports, me.Report)
}

// The most a report keeps of each text a mod may write into it, in bytes:
// its message (within engine.MaxFaultText, as the game's record keeps
// it), the file it names and its traceback. Longer ones are cut
// (sandbox.Printable).
const (
	MaxMessage   = 512
	maxFile      = 256
	maxTraceback = 4096
)

// The record's limit holds the message (TestFaultTextAnyBytes plays it).
var _ [engine.MaxFaultText - MaxMessage]struct{}

// modError makes r the error of a mod's failure, with each text of it made
// printable, then cut to its limit (sandbox.Printable): whatever a mod
// raised, its report fits the game's record and every frontend. Every
// ModError is made here.
func modError(r Report) *ModError {
	r.Event = sandbox.Printable(r.Event, engine.MaxFaultText)
	r.File = sandbox.Printable(r.File, maxFile)
	r.Message = sandbox.Printable(r.Message, MaxMessage)
	r.Traceback = sandbox.Printable(r.Traceback, maxTraceback)
	return &ModError{Report: r}
}

// invalid is a request the host refuses: an error of the mod.
func (m *modRun) invalid(ev, format string, args ...any) error {
	return modError(Report{Mod: m.mod.ID(), Event: ev, Message: "invalid request: " + fmt.Sprintf(format, args...)})
}
