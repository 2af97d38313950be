package bridge

import (
	"errors"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/scripting"
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
	Message string `json:"message"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Key     string `json:"key,omitempty"`
	// Index is the entry of a list the error is about (Options.Mods,
	// Options.Spawns).
	Index int `json:"index,omitempty"`
}

func (e *Error) Error() string { return e.Message }

// errorOf turns any error into an *Error: a configuration error keeps its
// file, line and key; a mod's load error is of kind "mod".
func errorOf(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var ce *config.Error
	if errors.As(err, &ce) {
		return &Error{Kind: KindConfig, Message: err.Error(), File: ce.Origin.File, Line: ce.Origin.Line, Key: ce.Key}
	}
	var me *session.ModsError
	if errors.As(err, &me) {
		return &Error{Kind: KindMod, Message: err.Error()}
	}
	return &Error{Kind: KindGame, Message: err.Error()}
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
	Files       map[string]string      `json:"files,omitempty"`
	Name        string                 `json:"name,omitempty"`
	Completions *scripting.Completions `json:"completions,omitempty"`
	Cases       []CaseResult           `json:"cases,omitempty"`
	Text        string                 `json:"text,omitempty"`
	Zip         string                 `json:"zip,omitempty"`
	Log         map[string][]string    `json:"log,omitempty"`
}

func fail(err error) Reply { return Reply{Error: errorOf(err)} }
