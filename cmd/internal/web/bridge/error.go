package bridge

import (
	"errors"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
)

// The kinds of Error, for the page to show each where it belongs.
const (
	KindConfig = "config" // the configuration: File, Line and Key locate it
	KindMod    = "mod"    // a mod that cannot be loaded (Index: which of Options.Mods)
	KindSave   = "save"   // a saved game that cannot be resumed
	KindGame   = "game"   // a step the game refuses (nothing to undo, ...)
	KindInput  = "input"  // a call the bridge cannot read (a bad direction, seed, board)
)

// Error is an error as the page receives it: its kind, its message, and
// where it is when it is about a file.
type Error struct {
	Kind    string `json:"kind"`
	Message string `json:"message"` // the whole message, its place named once
	// The place: the file (a mod's by its path in the mod's folder), its
	// line and column (from 1; 0 when not known), the key.
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	Key    string `json:"key,omitempty"`
	// What is the message without its place, for a page that shows the
	// place itself (an editor's mark on the line), when File is set.
	What string `json:"what,omitempty"`
	// OpenLine is, for a Lua file that does not compile because a block
	// or bracket is left open, the line of File where it opens, which What
	// names ("'end' expected (to close 'function' at line 4)"): an editor
	// marks it too. 0 otherwise.
	OpenLine int `json:"openLine,omitempty"`
	// Index is the entry of a list the error is about (Options.Mods,
	// Options.Spawns).
	Index int `json:"index,omitempty"`
	err   error
}

func (e *Error) Error() string { return e.Message }

// Unwrap returns the error the Error was made of, if any.
func (e *Error) Unwrap() error { return e.err }

// modError is the *Error of a mod's error err, about entry index of a list
// of mods.
func modError(err error, index int) *Error {
	return &Error{Kind: KindMod, Message: err.Error(), Index: index, err: err}
}

// errorOf turns any error into an *Error: a configuration error keeps its
// file, line and key; a mod's load error is of kind "mod", with the place
// of its *mod.FileError, read as values.
func errorOf(err error) *Error {
	var e *Error
	if !errors.As(err, &e) {
		e = &Error{Kind: KindGame, Message: err.Error(), err: err}
		var ce *config.Error
		var me *session.ModsError
		switch {
		case errors.As(err, &ce):
			e.Kind, e.File, e.Line, e.Key, e.What = KindConfig, ce.Origin.File, ce.Origin.Line, ce.Key, ce.Err.Error()
		case errors.As(err, &me):
			e.Kind = KindMod
		}
	}
	var fe *mod.FileError
	if e.File == "" && errors.As(err, &fe) && fe.File != "" {
		e.Kind, e.File, e.Line, e.Column, e.Key, e.What = KindMod, fe.File, fe.Line, fe.Column, fe.Key, fe.Message
		e.OpenLine = fe.OpenLine
	}
	return e
}

// Reply is what every call returns: the game's view after it, a save's
// text, the catalog of choices, a mod's description, or an error.
type Reply struct {
	Error   *Error      `json:"error,omitempty"`
	View    *View       `json:"view,omitempty"`
	Save    string      `json:"save,omitempty"`
	Catalog *Catalog    `json:"catalog,omitempty"`
	Mod     *ShippedMod `json:"mod,omitempty"`
	// The workshop's replies: a mod's files by path, and its name (id);
	// the editor's completion listing; fixture results; a fixture case's
	// text; a zip in base64.
	Files       map[string]string   `json:"files,omitempty"`
	Name        string              `json:"name,omitempty"`
	Completions *Completions        `json:"completions,omitempty"`
	Cases       []CaseResult        `json:"cases,omitempty"`
	Text        string              `json:"text,omitempty"`
	Zip         string              `json:"zip,omitempty"`
	Log         map[string][]string `json:"log,omitempty"`
}

func fail(err error) Reply { return Reply{Error: errorOf(err)} }
