package bridge

import (
	"encoding/json"
	"fmt"
	"runtime/debug"
	"sort"
)

// The calls Dispatch takes, and their arguments (a JSON array):
//
//	catalog     []                          ListCatalog
//	newGame     [options, bests?]           NewGame
//	resume      [options, save, bests?]     Resume
//	restart     [seed?]                     Restart
//	move        ["left"|"right"|"up"|"down"] Move
//	undo, redo, keepPlaying, save, view     []
//	inspectMod  [source]                    InspectMod
//	newMod      [id, ruleset?]              NewMod
//	completions []                          LuaCompletions
//	reloadMods  [sources, modSets?]         ReloadMods
//	runCases    [source]                    RunCases
//	recordCase  [id, title?]                RecordCase
//	zipMod      [source]                    ZipMod
//	unpackMod   [source]                    UnpackMod
//	modLog      []                          ModLog
//
// options is an Options object, source a ModSource, bests an object of best scores by setup
// key (as text), save a save's text.
var calls = map[string]func(b *Bridge, args []json.RawMessage) Reply{
	"catalog": func(b *Bridge, args []json.RawMessage) Reply { return ListCatalog() },
	"newGame": func(b *Bridge, args []json.RawMessage) Reply {
		var o Options
		var bests map[string]string
		if err := decode(args, 1, &o, &bests); err != nil {
			return fail(err)
		}
		return b.NewGame(o, bests)
	},
	"resume": func(b *Bridge, args []json.RawMessage) Reply {
		var o Options
		var save string
		var bests map[string]string
		if err := decode(args, 2, &o, &save, &bests); err != nil {
			return fail(err)
		}
		return b.Resume(o, save, bests)
	},
	"restart": func(b *Bridge, args []json.RawMessage) Reply {
		var seed string
		if err := decode(args, 0, &seed); err != nil {
			return fail(err)
		}
		return b.Restart(seed)
	},
	"move": func(b *Bridge, args []json.RawMessage) Reply {
		var dir string
		if err := decode(args, 1, &dir); err != nil {
			return fail(err)
		}
		return b.Move(dir)
	},
	"undo":        func(b *Bridge, args []json.RawMessage) Reply { return b.Undo() },
	"redo":        func(b *Bridge, args []json.RawMessage) Reply { return b.Redo() },
	"keepPlaying": func(b *Bridge, args []json.RawMessage) Reply { return b.KeepPlaying() },
	"save":        func(b *Bridge, args []json.RawMessage) Reply { return b.Save() },
	"view":        func(b *Bridge, args []json.RawMessage) Reply { return b.View() },
	"inspectMod": func(b *Bridge, args []json.RawMessage) Reply {
		var src ModSource
		if err := decode(args, 1, &src); err != nil {
			return fail(err)
		}
		return InspectMod(src)
	},
	"newMod": func(b *Bridge, args []json.RawMessage) Reply {
		var id, ruleset string
		if err := decode(args, 1, &id, &ruleset); err != nil {
			return fail(err)
		}
		return NewMod(id, ruleset)
	},
	"completions": func(b *Bridge, args []json.RawMessage) Reply { return LuaCompletions() },
	"modLog":      func(b *Bridge, args []json.RawMessage) Reply { return b.ModLog() },
	"reloadMods": func(b *Bridge, args []json.RawMessage) Reply {
		var mods []ModSource
		var sets []string
		if err := decode(args, 1, &mods, &sets); err != nil {
			return fail(err)
		}
		return b.ReloadMods(mods, sets)
	},
	"runCases":  func(b *Bridge, args []json.RawMessage) Reply { return withSource(args, RunCases) },
	"zipMod":    func(b *Bridge, args []json.RawMessage) Reply { return withSource(args, ZipMod) },
	"unpackMod": func(b *Bridge, args []json.RawMessage) Reply { return withSource(args, UnpackMod) },
	"recordCase": func(b *Bridge, args []json.RawMessage) Reply {
		var id, title string
		if err := decode(args, 1, &id, &title); err != nil {
			return fail(err)
		}
		return b.RecordCase(id, title)
	},
}

// withSource calls f with the one ModSource of args.
func withSource(args []json.RawMessage, f func(ModSource) Reply) Reply {
	var src ModSource
	if err := decode(args, 1, &src); err != nil {
		return fail(err)
	}
	return f(src)
}

// Calls returns the names Dispatch takes, sorted.
func Calls() []string {
	names := make([]string, 0, len(calls))
	for n := range calls {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Dispatch runs the call name with args, a JSON array of its arguments
// (empty for none), and returns its Reply as JSON. Every failure is a
// Reply with an error, a panic inside the call included: the page never
// sees a Go panic.
func (b *Bridge) Dispatch(name string, args []byte) (out []byte) {
	defer func() {
		if p := recover(); p != nil {
			out = mustJSON(fail(&Error{Kind: KindGame, Message: fmt.Sprintf("internal error in %s: %v", name, p)}))
			debug.PrintStack()
		}
	}()
	call, ok := calls[name]
	if !ok {
		return mustJSON(fail(&Error{Kind: KindInput, Message: fmt.Sprintf("no call %q (calls: %v)", name, Calls())}))
	}
	var list []json.RawMessage
	if len(args) > 0 {
		if err := json.Unmarshal(args, &list); err != nil {
			return mustJSON(fail(&Error{Kind: KindInput, Message: fmt.Sprintf("%s: the arguments are not a JSON array: %v", name, err)}))
		}
	}
	return mustJSON(call(b, list))
}

// decode reads args into dst, of which the first required are required.
func decode(args []json.RawMessage, required int, dst ...any) error {
	if len(args) < required || len(args) > len(dst) {
		return &Error{Kind: KindInput, Message: fmt.Sprintf("want %d to %d arguments, got %d", required, len(dst), len(args))}
	}
	for i, a := range args {
		if string(a) == "null" {
			continue
		}
		if err := json.Unmarshal(a, dst[i]); err != nil {
			return &Error{Kind: KindInput, Index: i, Message: fmt.Sprintf("argument %d: %v", i+1, err)}
		}
	}
	return nil
}

func mustJSON(r Reply) []byte {
	out, err := json.Marshal(r)
	if err != nil {
		out, _ = json.Marshal(fail(&Error{Kind: KindGame, Message: "the reply cannot be written: " + err.Error()}))
	}
	return out
}
