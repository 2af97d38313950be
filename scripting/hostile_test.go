package scripting_test

// The hostile-mod suite: every attack of MODDING.md's "Attacks a mod host
// must survive" is a mod in testdata/hostile/<attack> (a setting "variant"
// picks among related attacks, "at" where it runs). Each must end with a
// clear error naming the mod, the game still running, its state unchanged
// by the failed handler, and nothing outside the game touched.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
)

const hostileDir = "../testdata/hostile"

// hostileLimits are DefaultLimits with smaller budgets and a smaller
// string limit, to keep the suite fast (under the race detector too).
var hostileLimits = func() scripting.Limits {
	l := scripting.DefaultLimits()
	l.HandlerInstructions = 200_000
	l.TurnInstructions = 600_000
	l.GameTurnInstructions = 0 // a mod's own budgets (the game's share: TestGameTurnShared)
	l.LoadInstructions = 800_000
	// No attack here may reach the failsafe: every one is stopped by a
	// count. Its time is far above what a loaded machine takes for a
	// whole budget, so that no test leans on the wall clock.
	l.FailsafeTime = raceSlowdown * 10 * time.Second
	l.MaxLog = 16 << 10
	l.MaxString = 256 << 10
	return l
}()

// The game every attack plays: a fixed board with merges in every row, a
// seeded source (random but deterministic spawns) and these moves, each of
// which changes the board.
var (
	hostileBoard = []string{
		"2 2 4 4",
		"2 2 4 4",
		"8 8 16 16",
		"0 0 0 0",
	}
	hostileOptions = engine.Options{Width: 4, Height: 4, Seed: 1, UndoLimit: 10}
	hostileMoves   = []engine.Direction{engine.Left, engine.Up, engine.Right, engine.Down, engine.Left, engine.Up}
)

// hostileMoveTimeout bounds one Host.Move of an attack: a failing mod costs at
// most its turn budget per attempt, or the failsafe's time (FailsafeTime)
// plus the one instruction running when it fires, so a move that takes
// many seconds means a builtin outlived both. The bound catches hangs; it is not a speed
// test, and leaves room for a loaded machine.
const hostileMoveTimeout = raceSlowdown * 30 * time.Second

// hostileAttack is one hostile mod, with one variant, run in one place.
type hostileAttack struct {
	mod     string // folder under testdata/hostile, and the mod's id
	variant string // the setting "variant" ("" keeps the mod's default)
	at      string // where the attack runs: "tick" (the default), "before_move", "after_merge", "spawn", "load"
	event   string // the event the report names, when not at
	want    string // what the report's message says (a substring)
	line    bool   // the report names main.lua and the line marked "-- attack:VARIANT"
	alone   bool   // play without the counter mod
	symlink bool   // add outside.lua, a link to a file outside the mod, to a copy of the mod
	// limits, if set, changes the limits the hostile mod runs under.
	limits func(l *scripting.Limits)
	// check, if set, makes more checks after the moves.
	check func(c *hostileChecker, h *scripting.Host)
	// hostBug names a bug of the host (events.go, values_requests.go, api.go, values_storage.go...) that this case
	// shows: while it fails, the case is skipped with the bug and the
	// failures.
	hostBug string
}

func (a hostileAttack) name() string {
	n := a.mod
	if a.variant != "" {
		n += "/" + a.variant
	}
	if a.at != "" {
		n += "@" + a.at
	}
	return n
}

func (a hostileAttack) where() string {
	if a.at == "" {
		return scripting.EventTick
	}
	return a.at
}

const (
	hNilCall  = "attempt to call a non-function object"
	hNilIndex = "attempt to index a non-table object(nil)"
	hTimeOut  = "exceeded its instruction budget"
	hFailsafe = "stopped by the failsafe"
	hOverflow = "stack overflow"
	hModLimit = "the mod limit"
	hInvalid  = "invalid request"
	hStorage  = "invalid request: storage"
	hControl  = "\uFFFD\uFFFD\uFFFD"       // what control bytes become
	hEscapes  = "\uFFFD[2J\uFFFD\uFFFD[2J" // ESC, and a byte that is not UTF-8
)

// hostileAttacks lists the attacks that run in event handlers.
var hostileAttacks = []hostileAttack{
	// Escapes from the sandbox: the libraries are absent.
	{mod: "os_execute", variant: "execute", want: hNilIndex + " with key 'execute'", line: true},
	{mod: "os_execute", variant: "execute", at: "before_move", want: hNilIndex + " with key 'execute'", line: true},
	{mod: "os_execute", variant: "remove", want: hNilIndex + " with key 'remove'", line: true},
	{mod: "os_execute", variant: "rename", want: hNilIndex, line: true},
	{mod: "os_execute", variant: "tmpname", want: hNilIndex, line: true},
	{mod: "os_execute", variant: "getenv", want: hNilIndex, line: true},
	{mod: "os_execute", variant: "clock", want: hNilIndex, line: true},
	{mod: "os_exit", variant: "exit", want: hNilIndex + " with key 'exit'", line: true},
	{mod: "os_exit", variant: "exit_code", at: "before_move", want: hNilIndex, line: true},
	{mod: "io_open", variant: "write", want: hNilIndex + " with key 'open'", line: true},
	{mod: "io_open", variant: "truncate", want: hNilIndex, line: true},
	{mod: "io_open", variant: "read", want: hNilIndex, line: true},
	{mod: "io_open", variant: "lines", want: hNilIndex, line: true},
	{mod: "io_open", variant: "output", want: hNilIndex, line: true},
	{mod: "io_open", variant: "stdout", want: hNilIndex, line: true},
	{mod: "io_popen", variant: "popen", want: hNilIndex + " with key 'popen'", line: true},
	{mod: "io_popen", variant: "popen_rm", at: "spawn", want: hNilIndex, line: true},
	{mod: "require_system", variant: "os", want: "require", line: true},
	{mod: "require_system", variant: "io", want: "require", line: true},
	{mod: "require_system", variant: "debug", want: "require", line: true},
	{mod: "require_system", variant: "ffi", want: "require", line: true},
	{mod: "require_system", variant: "package", want: hNilIndex + " with key 'loadlib'", line: true},
	{mod: "require_escape", variant: "dotdot", want: "is not a module of this mod", line: true},
	{mod: "require_escape", variant: "nested", want: "is not a module of this mod", line: true},
	{mod: "require_escape", variant: "absolute", want: "is not a module of this mod", line: true},
	{mod: "require_escape", variant: "dots", want: "is not a module of this mod", line: true},
	{mod: "require_escape", variant: "backslash", want: "is not a module of this mod", line: true},
	{mod: "require_escape", variant: "nul", want: "is not a module of this mod", line: true},
	{mod: "require_escape", variant: "path", want: "is not a module of this mod", line: true},
	{mod: "require_escape", variant: "symlink", symlink: true, want: "outside.lua: it lies outside the mod's folder", line: true},
	{mod: "dofile", variant: "etc", want: hNilCall, line: true},
	{mod: "dofile", variant: "own", want: hNilCall, line: true},
	{mod: "dofile", variant: "path", want: hNilCall, line: true},
	{mod: "loadfile", variant: "stdin", want: hNilCall, line: true},
	{mod: "loadfile", variant: "etc", want: hNilCall, line: true},
	{mod: "loadfile", variant: "path", want: hNilCall, line: true},
	{mod: "load_chunk", variant: "load_source", want: hNilCall, line: true},
	{mod: "load_chunk", variant: "loadstring_source", want: hNilCall, line: true},
	{mod: "load_chunk", variant: "load_bytecode", want: hNilCall, line: true},
	{mod: "load_chunk", variant: "loadstring_bytecode", want: hNilCall, line: true},
	{mod: "load_chunk", variant: "load_reader", want: hNilCall, line: true},
	{mod: "load_chunk", variant: "dump", want: hNilCall, line: true},
	{mod: "debug_lib", variant: "sethook", want: hNilIndex + " with key 'sethook'", line: true},
	{mod: "debug_lib", variant: "getregistry", want: hNilIndex, line: true},
	{mod: "debug_lib", variant: "getmetatable", want: hNilIndex, line: true},
	{mod: "debug_lib", variant: "getinfo", want: hNilIndex, line: true},
	{mod: "debug_lib", variant: "setupvalue", want: hNilIndex, line: true},
	{mod: "debug_lib", variant: "rawget", want: hNilIndex, line: true},
	{mod: "base_removed", variant: "collectgarbage", want: hNilCall, line: true},
	{mod: "base_removed", variant: "getfenv", want: hNilCall, line: true},
	{mod: "base_removed", variant: "setfenv", want: hNilCall, line: true},
	{mod: "base_removed", variant: "newproxy", want: hNilCall, line: true},
	{mod: "base_removed", variant: "module", want: hNilCall, line: true},
	{mod: "base_removed", variant: "string_dump", want: hNilCall, line: true},
	{mod: "base_removed", variant: "randomseed", want: hNilCall, line: true},
	{mod: "base_removed", variant: "printregs", want: hNilCall, line: true},

	// Runaway code: the instruction budget stops it, pcall or not.
	{mod: "while_true", variant: "plain", want: hTimeOut, line: true},
	{mod: "while_true", variant: "plain", at: "before_move", want: hTimeOut, line: true},
	{mod: "while_true", variant: "plain", at: "after_merge", want: hTimeOut, line: true},
	{mod: "while_true", variant: "plain", at: "spawn", want: hTimeOut, line: true, alone: true},
	{mod: "while_true", variant: "repeat_until", want: hTimeOut, line: true},
	{mod: "while_true", variant: "numeric_for", want: hTimeOut, line: true},
	{mod: "while_true", variant: "pcall", want: hTimeOut, line: true},
	{mod: "while_true", variant: "pcall_loop", want: hTimeOut, line: true},
	{mod: "while_true", variant: "xpcall", want: hTimeOut, line: true},
	{mod: "while_true", variant: "pcall_fork", want: hTimeOut, line: true},
	{mod: "recursion", variant: "plain", want: hOverflow, line: true},
	{mod: "recursion", variant: "plain", at: "before_move", want: hOverflow, line: true},
	{mod: "recursion", variant: "index_fn", want: hOverflow, line: true},
	{mod: "recursion", variant: "index_loop", want: "too many recursions", line: true},
	{mod: "recursion", variant: "newindex", want: hOverflow, line: true},
	{mod: "recursion", variant: "call", want: hOverflow, line: true},
	{mod: "recursion", variant: "concat", want: hOverflow, line: true},
	{mod: "recursion", variant: "lt", want: hOverflow, line: true},
	{mod: "recursion", variant: "tostring", want: hOverflow, line: true},
	{mod: "recursion", variant: "sort", want: hOverflow, line: true},
	{mod: "recursion", variant: "gsub", want: hOverflow, line: true},
	{mod: "recursion", variant: "gmatch", want: hOverflow, line: true},
	{mod: "coroutine_bomb", variant: "create", want: hNilIndex + " with key 'resume'", line: true},
	{mod: "coroutine_bomb", variant: "wrap", want: hNilIndex + " with key 'wrap'", line: true},
	{mod: "coroutine_bomb", variant: "global", want: hNilIndex + " with key 'create'", line: true},

	// Memory bombs: builtins refuse to make more than the limits, the
	// instruction budget and the failsafe stop the rest.
	{mod: "string_rep", variant: "huge", want: "string.rep: 8589934592 bytes exceed " + hModLimit, line: true},
	{mod: "string_rep", variant: "method", want: hModLimit, line: true},
	{mod: "string_rep", variant: "sep", want: hModLimit, line: true},
	{mod: "string_rep", variant: "just_over", want: "string.rep: 262146 bytes exceed " + hModLimit, line: true},
	{mod: "string_rep", variant: "chain", want: hModLimit, line: true},
	{mod: "string_rep", variant: "upper", want: hModLimit, line: true},
	{mod: "string_rep", variant: "format", want: "string.format: 524292 bytes exceed " + hModLimit, line: true},
	// Concatenation is the host's: the budget counts the bytes it makes,
	// and stops a doubling string at the same doubling on every machine.
	{mod: "concat_doubling", variant: "concat", want: hTimeOut, line: true},
	{mod: "concat_doubling", variant: "append", want: hTimeOut, line: true},
	{mod: "concat_doubling", variant: "table", want: hTimeOut, line: true},
	// What costs the host most to take in (under the default budgets: a
	// giant request, storage nested or spread too far, memory kept; under
	// the suite's, the instruction budget comes first).
	{mod: "memory_heavy", variant: "requests", want: hTimeOut, line: true},
	{mod: "memory_heavy", variant: "deep", want: hTimeOut, line: true},
	{mod: "memory_heavy", variant: "wide", want: hTimeOut, line: true},
	{mod: "memory_heavy", variant: "far", want: hTimeOut, line: true},
	{mod: "memory_heavy", variant: "keep", want: hTimeOut, line: true},
	{mod: "table_fill", variant: "ints", want: hTimeOut, line: true},
	{mod: "table_fill", variant: "strings", want: hTimeOut, line: true},
	{mod: "table_fill", variant: "keys", want: hTimeOut, line: true},
	{mod: "table_fill", variant: "nested", want: hTimeOut, line: true},
	{mod: "table_fill", variant: "global", want: hTimeOut, line: true},
	{mod: "table_fill", variant: "sort", want: "table.sort: 1500 elements exceed " + hModLimit + " of 1000", line: true, limits: fewItems},
	{mod: "unpack_huge", variant: "range", want: "unpack: 100000000 values exceed " + hModLimit, line: true},
	{mod: "unpack_huge", variant: "overflow", want: "unpack: 9223372036854775808 values exceed " + hModLimit, line: true},
	{mod: "unpack_huge", variant: "full", want: "unpack: 1500 values exceed " + hModLimit + " of 1000", line: true, limits: fewItems},
	{mod: "unpack_huge", variant: "byte", want: "string.byte: 262144 bytes exceed " + hModLimit, line: true},
	{mod: "unpack_huge", variant: "select", want: hModLimit, line: true},
	{mod: "unpack_huge", variant: "spread", want: hTimeOut, line: true},
	{mod: "concat_huge", variant: "range", want: "table.concat: 100000000 elements exceed " + hModLimit, line: true},
	{mod: "concat_huge", variant: "overflow", want: "table.concat: 9223372036854775808 elements exceed " + hModLimit, line: true},
	{mod: "concat_huge", variant: "sep", want: hModLimit, line: true},
	{mod: "concat_huge", variant: "items", want: "table.concat: 1500 elements exceed " + hModLimit + " of 1000", line: true, limits: fewItems},
	{mod: "gsub_long", variant: "callback", want: hTimeOut, line: true},
	{mod: "gsub_long", variant: "string", want: hTimeOut, line: true},
	{mod: "gsub_long", variant: "expand", want: "string.gsub: the result exceeds " + hModLimit + " of 262144 bytes", line: true},
	{mod: "gsub_long", variant: "table", want: "string.gsub: the result exceeds " + hModLimit, line: true},
	{mod: "gsub_long", variant: "find", want: hTimeOut, line: true},
	{mod: "gsub_long", variant: "match", want: hTimeOut, line: true},
	{mod: "gsub_long", variant: "gmatch", want: hTimeOut, line: true},
	{mod: "gsub_long", variant: "gfind", want: "string.gmatch: a subject of 262144 bytes exceeds " + hModLimit, line: true},
	{mod: "gsub_long", variant: "subject", want: "string.gsub: a subject of 262144 bytes exceeds " + hModLimit, line: true},
	{mod: "gsub_long", variant: "depth", want: "pattern too complex", line: true},
	{mod: "gsub_long", variant: "class", want: hTimeOut, line: true},
	{mod: "gsub_long", variant: "frontier", want: hTimeOut, line: true},

	// The string metatable is hidden; what a mod rewrites of its string
	// library is its own (the counter mod, next to it, keeps its own).
	{mod: "string_metatable", variant: "index", want: "attempt to index a non-table object(string) with key '__index'", line: true},
	{mod: "string_metatable", variant: "rawset", want: "table expected, got string", line: true},
	{mod: "string_metatable", variant: "setmetatable", want: "table expected, got string", line: true},
	{mod: "string_metatable", variant: "rep", want: "string.rep now returns pwned", line: true},
	{mod: "string_metatable", variant: "methods", want: "string methods now return pwned", line: true},

	// Error objects: the report never runs the mod's __tostring.
	{mod: "tostring_error", variant: "error_object", want: "(table)", line: true},
	{mod: "tostring_error", variant: "error_level", want: "(table)"},
	{mod: "tostring_error", variant: "tostring", want: "__tostring failed", line: true},
	{mod: "tostring_error", variant: "print_object", want: "(table)", line: true},
	{mod: "tostring_error", variant: "huge_message", want: "xxxxxxxx…", line: true},
	{mod: "tostring_error", variant: "nil_error", want: "bad argument #1 to error (value expected)", line: true},
	{mod: "tostring_error", variant: "error_function", want: "(function)", line: true},

	{mod: "million_handlers", variant: "handler", want: "handlers are registered when the mod loads", line: true},

	// Requests the host must refuse.
	{mod: "bad_request", variant: "nan_cell", want: hInvalid + ": set[1].cell: want a cell, got the number NaN"},
	{mod: "bad_request", variant: "inf_cell", want: hInvalid + ": set[1].cell"},
	{mod: "bad_request", variant: "huge_cell", want: hInvalid + ": set[1].cell"},
	{mod: "bad_request", variant: "big_cell", want: hInvalid + ": set[1].cell: tile 1729382256910270464 is not a power of two"},
	{mod: "bad_request", variant: "neg_cell", want: hInvalid + ": set[1].cell"},
	{mod: "bad_request", variant: "odd_cell", want: hInvalid + ": set[1].cell: tile 3 is not a power of two"},
	{mod: "bad_request", variant: "word_cell", want: hInvalid + ": set[1].cell"},
	{mod: "bad_request", variant: "table_cell", want: hInvalid + ": set[1].cell"},
	{mod: "bad_request", variant: "bool_cell", want: hInvalid + ": set[1].cell"},
	{mod: "bad_request", variant: "nan_row", want: hInvalid + ": set[1].row"},
	{mod: "bad_request", variant: "inf_row", want: hInvalid + ": set[1].row"},
	{mod: "bad_request", variant: "huge_row", want: hInvalid + ": set[1].row"},
	{mod: "bad_request", variant: "off_row", want: hInvalid + ": set[1].row: want a whole number from 0 to 3, got the number 4"},
	{mod: "bad_request", variant: "neg_col", want: hInvalid + ": set[1].col"},
	{mod: "bad_request", variant: "frac_col", want: hInvalid + ": set[1].col"},
	{mod: "bad_request", variant: "word_row", want: hInvalid + ": set[1].row"},
	{mod: "bad_request", variant: "unknown_key", want: hInvalid + ": request: unknown key the string \"sett\""},
	{mod: "bad_request", variant: "unknown_item_key", want: hInvalid + ": set[1]: unknown key the string \"color\""},
	{mod: "bad_request", variant: "numeric_key", want: hInvalid + ": request: unknown key the number"},
	{mod: "bad_request", variant: "set_string", want: hInvalid + ": set: want a list of tables"},
	{mod: "bad_request", variant: "set_item_number", want: hInvalid + ": set[1]: want a table"},
	{mod: "bad_request", variant: "too_many", want: hInvalid + ": set: 100 entries, more than a turn may ask for"},
	{mod: "bad_request", variant: "cyclic", want: hInvalid + ": set[1]: unknown key"},
	{mod: "bad_request", variant: "mark_unknown", want: hInvalid + ": mark[1].name"},
	{mod: "bad_request", variant: "mark_foreign", want: hInvalid + ": mark[1].name"},
	{mod: "bad_request", variant: "mark_turns", want: hInvalid + ": mark[1].turns"},
	{mod: "bad_request", variant: "mark_turns_nan", want: hInvalid + ": mark[1].turns"},
	{mod: "bad_request", variant: "unmark_turns", want: hInvalid + ": unmark[1]: unknown key"},
	{mod: "bad_request", variant: "return_string", want: hInvalid + ": a handler returns nothing or a request table, not the string"},
	{mod: "bad_request", variant: "return_nan", want: hInvalid + ": a handler returns nothing or a request table, not the number NaN"},
	{mod: "bad_request", variant: "return_true", want: hInvalid},
	{mod: "bad_request", variant: "return_function", want: hInvalid},
	{mod: "bad_request", variant: "refuse_number", event: "before_move", want: hInvalid + ": refuse"},
	{mod: "bad_request", variant: "refuse_empty", event: "before_move", want: hInvalid + ": refuse"},
	{mod: "bad_request", variant: "refuse_long", event: "before_move", want: hInvalid + ": refuse"},
	{mod: "bad_request", variant: "refuse_table", event: "before_move", want: hInvalid + ": refuse"},
	{mod: "bad_request", variant: "cancel_move", event: "before_move", want: hInvalid + ": request: unknown key"},
	{mod: "bad_request", variant: "merge_empty", event: "after_merge", want: hInvalid + ": result"},
	{mod: "bad_request", variant: "merge_nan", event: "after_merge", want: hInvalid + ": result"},
	{mod: "bad_request", variant: "merge_odd", event: "after_merge", want: hInvalid + ": result"},
	{mod: "bad_request", variant: "merge_key", event: "after_merge", want: hInvalid + ": request: unknown key"},
	{mod: "bad_request", variant: "spawn_off", event: "spawn", want: hInvalid + ": row"},
	{mod: "bad_request", variant: "spawn_nan", event: "spawn", want: hInvalid + ": col"},
	{mod: "bad_request", variant: "spawn_cancel", event: "spawn", want: hInvalid + ": cancel"},
	{mod: "bad_request", variant: "spawn_cell", event: "spawn", want: hInvalid + ": cell: classic spawns only 2 or 4, not 8"},
	{mod: "bad_request", variant: "spawn_occupied", event: "spawn", want: "is not empty"},

	// Storage keeps plain data only.
	{mod: "bad_storage", variant: "func", want: hStorage + ": storage keeps plain data"},
	{mod: "bad_storage", variant: "cyclic", want: hStorage + ": tables nested more than 16 deep"},
	{mod: "bad_storage", variant: "nan", want: hStorage + ": NaN is not a finite number"},
	{mod: "bad_storage", variant: "inf", want: hStorage + ": -Inf is not a finite number"},
	{mod: "bad_storage", variant: "table_key", want: hStorage + ": a key is a table"},
	{mod: "bad_storage", variant: "bool_key", want: hStorage + ": a key is the boolean true"},
	{mod: "bad_storage", variant: "replace", want: hStorage + ": the global storage must stay a table"},
	{mod: "bad_storage", variant: "huge", want: hStorage + ": more than 262144 bytes"},
	{mod: "bad_storage", variant: "deep", want: hStorage + ": tables nested more than 16 deep"},
	// 100,000 entries take more than 256 KiB: the bytes stop them first.
	{mod: "bad_storage", variant: "many", want: hStorage + ": more than 262144 bytes"},
	{mod: "bad_storage", variant: "shared", want: hStorage + ": more than 262144 bytes"},
	{mod: "storage_hijack", want: "storage", check: hostileNoHijack},

	// The log stays bounded.
	{mod: "print_spam", variant: "flood", want: hTimeOut, line: true, check: hostileLogBounded},
	{mod: "print_spam", variant: "empty", want: hTimeOut, line: true, check: hostileLogBounded},
	{mod: "print_spam", variant: "log", want: hTimeOut, line: true, check: hostileLogBounded},
	{mod: "print_spam", variant: "long", want: hTimeOut, line: true, check: hostileLogBounded},

	// A report is printable and within its limits, whatever the mod
	// raised (checkHostileReport checks every report so).
	{mod: "fault_text", variant: "control", want: hControl, line: true},
	{mod: "fault_text", variant: "control", at: "before_move", want: hControl, line: true},
	{mod: "fault_text", variant: "control", at: "after_merge", want: hControl, line: true},
	{mod: "fault_text", variant: "control", at: "spawn", want: hControl, line: true},
	{mod: "fault_text", variant: "escapes", want: hEscapes, line: true},
	{mod: "fault_text", variant: "escapes", at: "spawn", want: hEscapes, line: true},
	{mod: "fault_text", variant: "fake_file", want: "\uFFFD\uFFFD"},
}

// hostileLoadAttacks run while the mod loads: NewHost fails, naming the mod,
// its file and line.
var hostileLoadAttacks = []hostileAttack{
	{mod: "os_execute", variant: "execute", want: hNilIndex, line: true},
	{mod: "os_execute", variant: "remove", want: hNilIndex, line: true},
	{mod: "os_exit", variant: "exit", want: hNilIndex, line: true},
	{mod: "io_open", variant: "write", want: hNilIndex, line: true},
	{mod: "io_popen", variant: "popen", want: hNilIndex, line: true},
	{mod: "require_system", variant: "os", want: "require", line: true},
	{mod: "require_escape", variant: "dotdot", want: "is not a module of this mod", line: true},
	{mod: "require_escape", variant: "absolute", want: "is not a module of this mod", line: true},
	{mod: "dofile", variant: "etc", want: hNilCall, line: true},
	{mod: "loadfile", variant: "stdin", want: hNilCall, line: true},
	{mod: "load_chunk", variant: "load_source", want: hNilCall, line: true},
	{mod: "load_chunk", variant: "loadstring_bytecode", want: hNilCall, line: true},
	{mod: "debug_lib", variant: "sethook", want: hNilIndex, line: true},
	{mod: "base_removed", variant: "collectgarbage", want: hNilCall, line: true},
	{mod: "while_true", variant: "plain", want: hTimeOut, line: true},
	{mod: "while_true", variant: "pcall", want: hTimeOut, line: true},
	{mod: "recursion", variant: "plain", want: hOverflow, line: true},
	{mod: "recursion", variant: "index_fn", want: hOverflow, line: true},
	{mod: "coroutine_bomb", variant: "create", want: hNilIndex, line: true},
	{mod: "string_rep", variant: "huge", want: hModLimit, line: true},
	{mod: "concat_doubling", variant: "concat", want: hTimeOut, line: true},
	{mod: "table_fill", variant: "ints", want: hTimeOut, line: true},
	{mod: "unpack_huge", variant: "range", want: hModLimit, line: true},
	{mod: "concat_huge", variant: "overflow", want: hModLimit, line: true},
	{mod: "gsub_long", variant: "find", want: hTimeOut, line: true},
	{mod: "gsub_long", variant: "table", want: hModLimit, line: true},
	{mod: "string_metatable", variant: "index", want: "attempt to index a non-table object(string)", line: true},
	{mod: "tostring_error", variant: "error_object", want: "(table)", line: true},
	{mod: "million_handlers", variant: "load", want: "a mod may register at most 64 handlers for tick", line: true},
	{mod: "million_handlers", variant: "events", want: "game.on: unknown event \"event1\"", line: true},
	{mod: "million_handlers", variant: "hazards", want: hTimeOut, line: true},
	{mod: "print_spam", variant: "empty", want: hTimeOut, line: true},
	{mod: "fault_text", variant: "control", want: hControl, line: true},
	{mod: "fault_text", variant: "escapes", want: hEscapes, line: true},
}

// hostileChecker collects a case's failures, so that a case with a known host
// bug can be skipped with them instead of failing.
type hostileChecker struct {
	t    *testing.T
	errs []string
}

func (c *hostileChecker) errorf(format string, args ...any) {
	c.t.Helper()
	c.errs = append(c.errs, fmt.Sprintf(format, args...))
}

// done reports the failures: errors, or a skip naming the host bug.
func (c *hostileChecker) done(hostBug string) {
	c.t.Helper()
	if c.t.Failed() || c.t.Skipped() {
		return
	}
	if len(c.errs) == 0 {
		if hostBug != "" {
			c.t.Logf("passes: the host bug seems fixed (remove the mark): %s", hostBug)
		}
		return
	}
	if hostBug != "" {
		c.t.Skipf("host bug: %s\n\nfailures:\n\t%s", hostBug, strings.Join(c.errs, "\n\t"))
	}
	for _, e := range c.errs {
		c.t.Error(e)
	}
}

// loadHostile loads a mod of testdata/hostile with setting overrides
// (path, victim and at only if the mod has them).
func loadHostile(t *testing.T, dir string, settings map[string]any) *mod.Mod {
	t.Helper()
	m, err := mod.Load(dir)
	if err != nil {
		t.Fatalf("mod.Load(%s): %v", dir, err)
	}
	for k, v := range settings {
		if _, ok := m.Values[k]; !ok {
			if k == "path" || k == "victim" || k == "at" {
				continue
			}
			t.Fatalf("mod %s has no setting %s", m.ID(), k)
		}
		m.Values[k] = v
	}
	return m
}

// hostileAttackLine returns the line of dir/main.lua marked "-- attack:VARIANT".
func hostileAttackLine(t *testing.T, dir, variant string) int {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(dir, "main.lua"))
	if err != nil {
		t.Fatal(err)
	}
	mark := "-- attack:" + variant
	for i, line := range strings.Split(string(src), "\n") {
		if strings.HasSuffix(strings.TrimSpace(line), mark) {
			return i + 1
		}
	}
	t.Fatalf("%s/main.lua has no line marked %q", dir, mark)
	return 0
}

func newHostileGame(t *testing.T) *engine.Game {
	t.Helper()
	rules := engine.NewClassic()
	b, err := engine.ParseRows(rules, hostileBoard, hostileOptions.Width, hostileOptions.Height)
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.NewFromBoard(rules, hostileOptions, b)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// The hostile mod's failures are in the game's state (its faults), not in
// the reference game's: the two are compared without them, and
// checkHostileRecord checks the record.
func hostileMarshal(t *testing.T, g *engine.Game) []byte {
	t.Helper()
	b, err := g.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	delete(doc["state"].(map[string]any), "faults")
	for _, key := range []string{"history", "future"} {
		for _, st := range doc[key].([]any) {
			delete(st.(map[string]any), "faults")
		}
	}
	if b, err = json.MarshalIndent(doc, "", "  "); err != nil {
		t.Fatal(err)
	}
	return b
}

// checkHostileRecord checks the game state's record after a move: the
// mod's failing turns in a row, the event of this turn's failure and
// whether it is disabled.
func checkHostileRecord(c *hostileChecker, s *engine.State, move int, mod, event string, fails bool, inARow int, disabled bool) {
	if got := s.HookFailedInARow(mod); got != inARow {
		c.errorf("move %d: the record says %s failed %d turns in a row, want %d: %+v", move, mod, got, inARow, s.Faults)
	}
	if got := s.HookDisabled(mod); got != disabled {
		c.errorf("move %d: the record says %s disabled=%v, want %v: %+v", move, mod, got, disabled, s.Faults)
	}
	for _, f := range s.Faults {
		if f.Turn == s.Turn && f.Kind != engine.FaultDisabled && (!fails || f.Hook != mod || f.Event != event) {
			c.errorf("move %d: fault %+v recorded, want one of %s in %s only when it fails", move, f, mod, event)
		}
	}
}

// hostileMover plays moves of a game, with a host or without hooks.
type hostileMover struct {
	g *engine.Game
	h *scripting.Host
}

func (m hostileMover) move(d engine.Direction) (engine.Result, error) {
	if m.h == nil {
		return m.g.Move(d)
	}
	return m.h.Move(m.g, d)
}

// hostileReference is the game an attack's game must stay equal to: the same
// board, seed and moves, with the counter mod if the attack plays with it,
// and no hostile mod.
func hostileReference(t *testing.T, withCounter bool) hostileMover {
	t.Helper()
	g := newHostileGame(t)
	if !withCounter {
		return hostileMover{g: g}
	}
	h, err := scripting.NewHost([]*mod.Mod{loadHostile(t, filepath.Join(hostileDir, "counter"), nil)}, g.Rules(), hostileOptions, hostileLimits)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	g.SetHooks(h)
	return hostileMover{g: g, h: h}
}

// hostileOutside is what an attack must leave alone: a path it must not create, a
// file it must not change, the environment.
type hostileOutside struct {
	path, victim string
	env          []string
}

const hostileVictimText = "the hostile mods must leave this file alone\n"

func newHostileOutside(t *testing.T) hostileOutside {
	t.Helper()
	tmp := t.TempDir()
	o := hostileOutside{path: filepath.Join(tmp, "pwned"), victim: filepath.Join(tmp, "victim.lua"), env: os.Environ()}
	if err := os.WriteFile(o.victim, []byte("-- "+hostileVictimText), 0o644); err != nil {
		t.Fatal(err)
	}
	return o
}

func (o hostileOutside) check(c *hostileChecker) {
	if _, err := os.Lstat(o.path); !errors.Is(err, os.ErrNotExist) {
		c.errorf("the attack created %s (%v)", o.path, err)
	}
	if b, err := os.ReadFile(o.victim); err != nil || string(b) != "-- "+hostileVictimText {
		c.errorf("the attack changed %s: %q, %v", o.victim, b, err)
	}
	if env := os.Environ(); !slices.Equal(env, o.env) {
		c.errorf("the attack changed the environment")
	}
}

// hostileModWithLink copies a mod's folder into a temporary one and adds outside.lua,
// a symbolic link to a Lua file outside the copy.
func hostileModWithLink(t *testing.T, dir string) string {
	t.Helper()
	tmp := t.TempDir()
	dst := filepath.Join(tmp, filepath.Base(dir))
	if err := os.CopyFS(dst, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(tmp, "outside.lua")
	if err := os.WriteFile(target, []byte("return \"a file outside the mod\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dst, "outside.lua")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	return dst
}

func TestHostileMods(t *testing.T) {
	for _, a := range hostileAttacks {
		t.Run(a.name(), func(t *testing.T) { runHostileAttack(t, a) })
	}
}

func runHostileAttack(t *testing.T, a hostileAttack) {
	c := &hostileChecker{t: t}
	defer c.done(a.hostBug)
	out := newHostileOutside(t)
	dir := filepath.Join(hostileDir, a.mod)
	if a.symlink {
		dir = hostileModWithLink(t, dir)
	}
	settings := map[string]any{"path": out.path, "victim": out.victim, "at": a.where()}
	if a.variant != "" {
		settings["variant"] = a.variant
	}
	limits := hostileLimits
	if a.limits != nil {
		a.limits(&limits)
	}
	mods := []*mod.Mod{loadHostile(t, dir, settings)}
	if !a.alone {
		mods = append(mods, loadHostile(t, filepath.Join(hostileDir, "counter"), nil))
	}
	g := newHostileGame(t)
	h, err := scripting.NewHost(mods, g.Rules(), hostileOptions, limits)
	if err != nil {
		t.Fatalf("NewHost: %v", err)
	}
	defer h.Close()
	g.SetHooks(h)
	game := hostileMover{g: g, h: h}
	ref := hostileReference(t, !a.alone)
	if !bytes.Equal(hostileMarshal(t, g), hostileMarshal(t, ref.g)) {
		t.Fatal("the games differ before the first move")
	}

	event := a.event
	if event == "" {
		event = a.where()
	}
	line := 0
	if a.line {
		line = hostileAttackLine(t, dir, a.variant)
	}
	failures, disabled, everDisabled := 0, false, false
	for i, d := range hostileMoves {
		rres, rerr := ref.move(d)
		if rerr != nil || !rres.Changed {
			t.Fatalf("move %d (%v) of the reference game: %+v, %v: the suite's moves must all change the board", i+1, d, rres, rerr)
		}
		start := time.Now()
		res, err := game.move(d)
		if took := time.Since(start); took > hostileMoveTimeout {
			c.errorf("move %d took %v: the mod outlived its budget", i+1, took)
		}
		if err != nil {
			c.errorf("move %d: Host.Move: %v", i+1, err)
		} else if res != rres {
			c.errorf("move %d: result %+v, the reference game's %+v", i+1, res, rres)
		}
		if got, want := hostileMarshal(t, g), hostileMarshal(t, ref.g); !bytes.Equal(got, want) {
			c.errorf("move %d: the game's state differs from the reference game's:\n%s\nwant\n%s", i+1, got, want)
		}
		// The mod fails on every move that reaches its handler, until it is
		// disabled.
		fails := !disabled && (event != scripting.EventAfterMerge || rres.Merges > 0)
		reports := h.TakeReports()
		var mine []scripting.Report
		for _, r := range reports {
			if r.Mod != a.mod {
				c.errorf("move %d: a report of another mod: %v", i+1, r)
				continue
			}
			mine = append(mine, r)
		}
		switch {
		case fails && len(mine) != 1:
			c.errorf("move %d: %d reports of mod %s, want 1: %v", i+1, len(mine), a.mod, mine)
		case !fails && len(mine) != 0:
			c.errorf("move %d: reports of mod %s, which should be disabled: %v", i+1, a.mod, mine)
		}
		if fails {
			failures++
			disabled = failures >= scripting.FailLimit
		} else if rres.Changed {
			failures = 0
		}
		inARow := 0
		if fails {
			inARow = failures
		}
		checkHostileRecord(c, g.State(), i+1, a.mod, event, fails, inARow, disabled)
		for _, r := range mine {
			checkHostileReport(c, r, a, event, line)
			if r.Disabled != disabled {
				c.errorf("move %d: report says disabled=%v, want %v", i+1, r.Disabled, disabled)
			}
		}
		if got := h.Disabled(a.mod); got != disabled {
			c.errorf("move %d: Disabled(%s) = %v, want %v", i+1, a.mod, got, disabled)
		}
		everDisabled = everDisabled || disabled
		if h.Disabled("counter") {
			c.errorf("move %d: the counter mod is disabled", i+1)
		}
	}
	if !everDisabled {
		c.errorf("mod %s was never disabled", a.mod)
	}
	// Undo and one more move keep the two games equal.
	if err := g.Undo(); err != nil {
		c.errorf("Undo: %v", err)
	}
	if err := ref.g.Undo(); err != nil {
		t.Fatal(err)
	}
	if _, err := game.move(engine.Right); err != nil {
		c.errorf("the move after Undo: %v", err)
	}
	if _, err := ref.move(engine.Right); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(hostileMarshal(t, g), hostileMarshal(t, ref.g)) {
		c.errorf("after Undo and a move, the game's state differs from the reference game's")
	}
	if r := h.TakeReports(); len(r) > 0 {
		c.errorf("reports after the mod was disabled: %v", r)
	}
	if ref.h != nil {
		if r := ref.h.TakeReports(); len(r) > 0 {
			t.Fatalf("the reference game's counter mod failed: %v", r)
		}
	}
	out.check(c)
	if a.check != nil {
		a.check(c, h)
	}
}

// checkHostileReport checks that a report says which mod failed, in which event,
// where and what.
func checkHostileReport(c *hostileChecker, r scripting.Report, a hostileAttack, event string, line int) {
	if r.Event != event {
		c.errorf("report event %q, want %q: %v", r.Event, event, r)
	}
	if r.Message == "" || !strings.Contains(r.Message, a.want) {
		c.errorf("report message %q does not say %q", r.Message, a.want)
	}
	for what, s := range map[string]string{"message": r.Message, "file": r.File, "traceback": r.Traceback} {
		if !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool {
			return (r < 0x20 && r != '\t' && r != '\n') || r == 0x7f || (r >= 0x80 && r < 0xa0)
		}) {
			c.errorf("report %s %q is not printable", what, s)
		}
	}
	if len(r.Message) > scripting.MaxMessage || len(r.File) > 256 || len(r.Traceback) > 4096 {
		c.errorf("report message, file and traceback of %d, %d and %d bytes: they should be cut", len(r.Message), len(r.File), len(r.Traceback))
	}
	if want := a.want == hFailsafe; r.Failsafe != want {
		c.errorf("report Failsafe %v, want %v: only a failsafe's stop depends on the machine (%v)", r.Failsafe, want, r)
	}
	if line > 0 && (r.File != "main.lua" || r.Line != line) {
		c.errorf("report names %s:%d, want main.lua:%d (%v)", r.File, r.Line, line, r)
	}
	if msg := r.Error(); !strings.Contains(msg, "mod "+a.mod) {
		c.errorf("report %q does not name mod %s", msg, a.mod)
	}
}

// fewItems lowers Limits.MaxItems, so that a table past the limit takes
// less than the time budget to build.
func fewItems(l *scripting.Limits) { l.MaxItems = 1000 }

// hostileLogBounded checks that the mod's log kept within Limits.MaxLog.
func hostileLogBounded(c *hostileChecker, h *scripting.Host) {
	lines := h.Log("print_spam")
	if len(lines) == 0 {
		c.errorf("the log is empty: the mod printed nothing")
	}
	size := 0
	for _, l := range lines {
		size += len(l) + 1
		if len(l) > 1024 {
			c.errorf("a log line of %d bytes", len(l))
		}
	}
	if size > hostileLimits.MaxLog+1030 || len(lines) > hostileLimits.MaxLog {
		c.errorf("the log holds %d lines, %d bytes: more than the limit of %d bytes", len(lines), size, hostileLimits.MaxLog)
	}
}

// hostileNoHijack checks that the host never ran the mod's metamethods on _G.
func hostileNoHijack(c *hostileChecker, h *scripting.Host) {
	for _, l := range h.Log("storage_hijack") {
		if strings.HasPrefix(l, "hijack:") {
			c.errorf("the host ran the mod's code outside its handlers: %s", l)
			return
		}
	}
}

func TestHostileLoad(t *testing.T) {
	for _, a := range hostileLoadAttacks {
		a.at = "load"
		t.Run(a.name(), func(t *testing.T) {
			c := &hostileChecker{t: t}
			defer c.done(a.hostBug)
			out := newHostileOutside(t)
			dir := filepath.Join(hostileDir, a.mod)
			settings := map[string]any{"path": out.path, "victim": out.victim, "at": "load"}
			if a.variant != "" {
				settings["variant"] = a.variant
			}
			counter := loadHostile(t, filepath.Join(hostileDir, "counter"), nil)
			rules := engine.NewClassic()
			start := time.Now()
			h, err := scripting.NewHost([]*mod.Mod{counter, loadHostile(t, dir, settings)}, rules, hostileOptions, hostileLimits)
			if took := time.Since(start); took > hostileMoveTimeout {
				c.errorf("NewHost took %v", took)
			}
			if err == nil {
				h.Close()
				t.Fatal("NewHost loaded the mod")
			}
			checkHostileLoadError(c, err, a.mod, "main.lua", hostileAttackLine(t, dir, a.variant), a.want)
			out.check(c)
			// The game goes on without the mod.
			h, err = scripting.NewHost([]*mod.Mod{counter}, rules, hostileOptions, hostileLimits)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			g := newHostileGame(t)
			g.SetHooks(h)
			if _, err := h.Move(g, engine.Left); err != nil {
				c.errorf("a move with the counter mod alone: %v", err)
			}
		})
	}
}

// checkHostileLoadError checks NewHost's error for a mod that fails to load.
func checkHostileLoadError(c *hostileChecker, err error, mod, file string, line int, want string) {
	msg := err.Error()
	where := fmt.Sprintf("mod %s (%s:%d", mod, file, line) // and a column, when the parser gives one
	if !strings.Contains(msg, where+")") && !strings.Contains(msg, where+":") {
		c.errorf("NewHost: %q does not name %s", msg, where)
	}
	if !strings.Contains(msg, want) {
		c.errorf("NewHost: %q does not say %q", msg, want)
	}
	var me *scripting.ModError
	if !errors.As(err, &me) {
		c.errorf("NewHost: %T is not a *scripting.ModError", err)
	} else if me.Mod != mod || me.File != file || me.Line != line || me.Event != "load" {
		c.errorf("NewHost: report %+v, want mod %s, %s:%d, event load", me.Report, mod, file, line)
	}
}

// TestHostileLoadFiles: a bytecode entry file, a file that takes long to
// compile, and a manifest whose entry leaves the mod's folder.
func TestHostileLoadFiles(t *testing.T) {
	rules := engine.NewClassic()
	t.Run("bytecode_chunk", func(t *testing.T) {
		c := &hostileChecker{t: t}
		defer c.done("")
		m := loadHostile(t, filepath.Join(hostileDir, "bytecode_chunk"), nil)
		h, err := scripting.NewHost([]*mod.Mod{m}, rules, hostileOptions, hostileLimits)
		if err == nil {
			h.Close()
			t.Fatal("NewHost loaded a bytecode chunk")
		}
		var me *scripting.ModError
		if !errors.As(err, &me) || me.Mod != "bytecode_chunk" || me.Line != 1 || !strings.Contains(err.Error(), "main.lua") {
			t.Fatalf("NewHost: %v, want a report of mod bytecode_chunk naming main.lua, line 1", err)
		}
		checkHostileLoadError(c, err, "bytecode_chunk", "main.lua", 1, "")
	})
	t.Run("entry_outside", func(t *testing.T) {
		dst := filepath.Join(t.TempDir(), "escape")
		if err := os.CopyFS(dst, os.DirFS(filepath.Join(hostileDir, "require_escape"))); err != nil {
			t.Fatal(err)
		}
		for _, entry := range []string{"../counter/main.lua", "/etc/passwd.lua", "sub/../../x.lua"} {
			manifest := "id = \"escape\"\nname = \"Escape\"\nversion = \"1\"\napi_version = 1\nentry = \"" + entry + "\"\n"
			if err := os.WriteFile(filepath.Join(dst, "mod.toml"), []byte(manifest), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := mod.Load(dst)
			if err == nil || !strings.Contains(err.Error(), "mod.toml:5") || !strings.Contains(err.Error(), "entry") {
				t.Errorf("entry %q: mod.Load: %v, want an error naming mod.toml:5 and entry", entry, err)
			}
		}
	})
	t.Run("compile_bomb", func(t *testing.T) {
		// gopher-lua's compiler takes time quadratic in the nesting of
		// blocks, in one Go call that no budget stops: 12000 nested
		// do-blocks (84 KB) take a quarter of a second, 100000 (700 KB)
		// half a minute.
		c := &hostileChecker{t: t}
		defer c.done("")
		dir := filepath.Join(t.TempDir(), "compile_bomb")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		const n = 12000
		files := map[string]string{
			"mod.toml": "id = \"compile_bomb\"\nname = \"Compile bomb\"\nversion = \"1\"\napi_version = 1\n",
			"main.lua": strings.Repeat("do ", n) + strings.Repeat("end ", n) + "\n",
		}
		for name, text := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		m := loadHostile(t, dir, nil)
		start := time.Now()
		h, err := scripting.NewHost([]*mod.Mod{m}, rules, hostileOptions, hostileLimits)
		took := time.Since(start)
		if err == nil {
			h.Close()
		}
		if limit := hostileLimits.FailsafeTime + 50*time.Millisecond; took > limit {
			c.errorf("NewHost took %v (more than the %v a mod may take to load): %v", took, limit, err)
		}
	})
	t.Run("entry_symlink", func(t *testing.T) {
		c := &hostileChecker{t: t}
		defer c.done("")
		dst := hostileModWithLink(t, filepath.Join(hostileDir, "counter"))
		manifest := "id = \"counter\"\nname = \"Counter\"\nversion = \"1\"\napi_version = 1\nentry = \"outside.lua\"\n"
		if err := os.WriteFile(filepath.Join(dst, "mod.toml"), []byte(manifest), 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := mod.Load(dst)
		if err != nil {
			return // refused at once: fine
		}
		h, err := scripting.NewHost([]*mod.Mod{m}, rules, hostileOptions, hostileLimits)
		if err == nil {
			h.Close()
			c.errorf("NewHost ran outside.lua, a link to a file outside the mod's folder")
		}
	})
}

// TestHostileStorageTotal: five mods that each keep 250 KB in storage
// (under MaxStorage) hold more than the engine lets a state's Data hold.
// The game must go on, blaming a mod, not refuse every move.
func TestHostileStorageTotal(t *testing.T) {
	c := &hostileChecker{t: t}
	defer c.done("")
	var mods []*mod.Mod
	for i := 1; i <= 5; i++ {
		dir := filepath.Join(t.TempDir(), fmt.Sprintf("hoard%d", i))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		manifest := fmt.Sprintf("id = \"hoard%d\"\nname = \"Hoard\"\nversion = \"1\"\napi_version = 1\n", i)
		lua := "game.on(\"tick\", function() storage.s = string.rep(\"x\", 250000) end)\n"
		if err := os.WriteFile(filepath.Join(dir, "mod.toml"), []byte(manifest), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "main.lua"), []byte(lua), 0o644); err != nil {
			t.Fatal(err)
		}
		mods = append(mods, loadHostile(t, dir, nil))
	}
	g := newHostileGame(t)
	h, err := scripting.NewHost(mods, g.Rules(), hostileOptions, hostileLimits)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	g.SetHooks(h)
	for i, d := range hostileMoves[:4] {
		if _, err := h.Move(g, d); err != nil {
			c.errorf("move %d: Host.Move: %v", i+1, err)
		}
	}
	if g.State().Turn == 0 {
		c.errorf("no move was played")
	}
}

// TestHostileOtherModsUnaffected: a mod that rewrites its string library
// and its globals changes nothing in the mod next to it, which loads in
// its own state (the counter mod's storage, saved in the game, says so).
func TestHostileOtherModsUnaffected(t *testing.T) {
	rules := engine.NewClassic()
	hostile := loadHostile(t, filepath.Join(hostileDir, "string_metatable"), map[string]any{"variant": "rep"})
	counter := loadHostile(t, filepath.Join(hostileDir, "counter"), nil)
	h, err := scripting.NewHost([]*mod.Mod{hostile, counter}, rules, hostileOptions, hostileLimits)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	g := newHostileGame(t)
	g.SetHooks(h)
	if _, err := h.Move(g, engine.Left); err != nil {
		t.Fatal(err)
	}
	data := g.State().Data["mod:counter"]
	for _, want := range []string{`["rep","abab"]`, `["upper","AB"]`, `["number","1"]`, `["words","\u003cone\u003e \u003ctwo\u003e \u003cthree\u003e"]`} {
		if !strings.Contains(data, want) {
			t.Errorf("the counter mod's storage %s lacks %s", data, want)
		}
	}
	reports := h.TakeReports()
	if len(reports) != 1 || reports[0].Mod != "string_metatable" || !strings.Contains(reports[0].Message, "pwned") {
		t.Errorf("reports %v, want one of string_metatable saying its string.rep returns pwned", reports)
	}
}

// TestHostilePatterns: find, match, gmatch and gsub (the Lua copy's one
// matcher, scripting/internal/lua/pattern.go) keep Lua 5.1's semantics (the patterns mod checks them as it loads).
func TestHostilePatterns(t *testing.T) {
	m := loadHostile(t, filepath.Join(hostileDir, "patterns"), nil)
	h, err := scripting.NewHost([]*mod.Mod{m}, engine.NewClassic(), hostileOptions, scripting.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	h.Close()
}

// TestHostileMemoryBaseline: the build limit counts what a call builds,
// not the heap the process has already: with more live heap than the
// limit, a mod that loops while it loads ends by time, not by memory.
func TestHostileMemoryBaseline(t *testing.T) {
	limits := hostileLimits
	limits.MaxCallBuilt = 32 << 20
	ballast := make([]byte, 96<<20)
	m := loadHostile(t, filepath.Join(hostileDir, "while_true"), map[string]any{"variant": "plain", "at": "load"})
	h, err := scripting.NewHost([]*mod.Mod{m}, engine.NewClassic(), hostileOptions, limits)
	runtime.KeepAlive(ballast)
	if err == nil {
		h.Close()
		t.Fatal("NewHost loaded a mod that loops for ever")
	}
	if !strings.Contains(err.Error(), hTimeOut) {
		t.Errorf("NewHost: %v, want the instruction budget", err)
	}
}

// TestHostileCallBuilt: with time budgets too long to matter, the build
// limit alone stops a doubling concatenation before the Go heap grows by
// more than about twice Limits.MaxCallBuilt.
func TestHostileCallBuilt(t *testing.T) {
	limits := hostileLimits
	limits.FailsafeTime = 20 * time.Second
	limits.HandlerInstructions = 1 << 40
	limits.TurnInstructions = 1 << 40
	limits.GameTurnInstructions = 0 // no game-wide share either
	limits.MaxCallBuilt = 32 << 20
	m := loadHostile(t, filepath.Join(hostileDir, "concat_doubling"), map[string]any{"variant": "capped"})
	g := newHostileGame(t)
	h, err := scripting.NewHost([]*mod.Mod{m}, g.Rules(), hostileOptions, limits)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	g.SetHooks(h)

	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base, total := ms.HeapAlloc, ms.TotalAlloc
	var peak uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // samples the heap while the move runs
		defer wg.Done()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
			select {
			case <-stop:
				return
			case <-time.After(500 * time.Microsecond):
			}
		}
	}()
	start := time.Now()
	_, err = h.Move(g, engine.Left)
	took := time.Since(start)
	close(stop)
	wg.Wait()
	runtime.ReadMemStats(&ms)
	peak = max(peak, ms.HeapAlloc)
	grew := peak - min(base, peak)
	t.Logf("move took %v; heap grew by up to %d MiB (limit %d MiB); %d MiB allocated", took, grew>>20, limits.MaxCallBuilt>>20, (ms.TotalAlloc-total)>>20)

	if err != nil {
		t.Fatalf("Host.Move: %v", err)
	}
	reports := h.TakeReports()
	if len(reports) != 1 || reports[0].Mod != "concat_doubling" || reports[0].Message != "exceeded its build limit (32 MiB built in one call)" || reports[0].Failsafe {
		t.Fatalf("reports %v, want one of concat_doubling saying it exceeded its build limit", reports)
	}
	if limit := uint64(limits.MaxCallBuilt); grew > 2*limit+limit/4 {
		t.Errorf("the heap grew by %d MiB, more than twice the %d MiB limit", grew>>20, limit>>20)
	}
	if ms.TotalAlloc-total < uint64(limits.MaxCallBuilt)/2 {
		t.Errorf("the attack allocated only %d MiB: it did not test the limit", (ms.TotalAlloc-total)>>20)
	}
	if took > 10*time.Second {
		t.Errorf("the move took %v", took)
	}
}

// TestHostileAddresses: a mod that turns tables, functions and error
// messages into text, keeps the text in storage and refuses moves by it
// (testdata/hostile/addresses) plays the same game byte for byte in
// separate processes, each with another GOMAXPROCS and another heap before
// it starts, and no memory address reaches it.
func TestHostileAddresses(t *testing.T) {
	const begin, end = "--- addresses begin ---\n", "--- addresses end ---\n"
	if pad := os.Getenv("MOD2048_ADDRESSES_CHILD"); pad != "" {
		// Move the heap's addresses about before the game starts.
		var n int
		fmt.Sscan(pad, &n)
		keep := make([][]byte, 0, n)
		for i := range n {
			keep = append(keep, make([]byte, 16+i%4096))
		}
		fmt.Print(begin + hostileAddressesRun(t) + end)
		runtime.KeepAlive(keep)
		return
	}
	want := hostileAddressesRun(t)
	if strings.Contains(want, "0x") {
		t.Errorf("an address reached the mod:\n%s", want)
	}
	for _, s := range []string{"table: 1", "function: 2", "table: 1table: 1", "attempt to index a non-table object(nil) with key '(table)'", "handled main.lua:", "(table)\t(function)\t(function)", "refused"} {
		if !strings.Contains(want, s) {
			t.Errorf("the run does not show %q:\n%s", s, want)
		}
	}
	for i, pad := range []int{1, 5000, 40000} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHostileAddresses$", "-test.count=1")
		cmd.Env = append(os.Environ(), fmt.Sprintf("MOD2048_ADDRESSES_CHILD=%d", pad), fmt.Sprintf("GOMAXPROCS=%d", 1+i%2))
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("process %d: %v\n%s", i+1, err, out)
		}
		s := string(out)
		j, k := strings.Index(s, begin), strings.Index(s, end)
		if j < 0 || k < j {
			t.Fatalf("process %d wrote no result:\n%s", i+1, s)
		}
		if got := s[j+len(begin) : k]; got != want {
			t.Errorf("process %d played another game:\n%s\nthis process:\n%s", i+1, got, want)
		}
	}
}

// hostileAddressesRun plays the suite's moves with the addresses mod and
// writes what happened: each move's result, the reports, the final state
// and the mod's log.
func hostileAddressesRun(t *testing.T) string {
	t.Helper()
	g := newHostileGame(t)
	h, err := scripting.NewHost([]*mod.Mod{loadHostile(t, filepath.Join(hostileDir, "addresses"), nil)}, g.Rules(), hostileOptions, hostileLimits)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	g.SetHooks(h)
	var b strings.Builder
	for i, d := range hostileMoves {
		res, err := h.Move(g, d)
		var ref *engine.Refusal
		if errors.As(err, &ref) {
			fmt.Fprintf(&b, "move %d: refused: %s\n", i+1, ref.Reason)
		} else {
			fmt.Fprintf(&b, "move %d: %+v, %v\n", i+1, res, err)
		}
		for _, r := range h.TakeReports() {
			fmt.Fprintf(&b, "report: %v\n", r)
		}
	}
	fmt.Fprintf(&b, "state: %s\n", hostileMarshal(t, g))
	fmt.Fprintf(&b, "log:\n%s\n", strings.Join(h.Log("addresses"), "\n"))
	return b.String()
}
