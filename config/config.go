// Package config turns TOML into the typed, validated configuration of a
// game, with errors that name the file, line and key at fault.
//
// A configuration is built in layers through one code path: a built-in
// preset, then a user's TOML file, then key=value overrides (the --set flag,
// a fixture's Config: line). Every layer is strict: an unknown key, a key in
// the wrong case, a value of the wrong type or out of range is an *Error
// that says where it came from.
//
// A configuration holds the settings of every ruleset; the keys of a file
// are those of its ruleset's settings struct: the top-level keys of Classic
// for the classic ruleset, and the keys of cellular.Settings, with its nested
// structs as TOML tables ([blight], or dotted: blight.charges), for the
// cellular ruleset.
//
// # Embedding
//
// A program builds a Config with Build (the command line's layers: a
// preset, a file, key=value sets), Preset or LoadFile, changes it with Set,
// and hands it to package scripting/session, which makes the game. Game
// turns a Config into the engine's rules and options for code below the
// session; TOML writes the effective configuration back.
package config

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/mod2048/mod2048/cellular"
	"github.com/mod2048/mod2048/engine"
)

// Config is a game's whole configuration: the ruleset and its settings.
type Config struct {
	// Ruleset is the ruleset's name ("classic" or "cellular").
	Ruleset string
	// Preset is the built-in preset the configuration starts from.
	Preset string
	// Classic holds the settings of the classic ruleset.
	Classic Classic
	// Cellular holds the settings of the cellular ruleset.
	Cellular cellular.Settings

	origin map[string]Origin // where each key was last set
	layers []string          // the layers applied, for show's header
}

// Classic is the classic ruleset's configuration; its keys are top-level
// keys of a classic TOML file.
type Classic struct {
	Size            int     `toml:"size" doc:"The board is size × size cells (2 to 16)."`
	WinValue        int64   `toml:"win_value" doc:"A merge that makes a tile at or above this value wins (8 to 2^62: above any spawn, so only a merge reaches it)."`
	StopOnWin       bool    `toml:"stop_on_win" doc:"true: a win stops the game until the player chooses to keep going; false: play goes on."`
	InitialSpawns   int     `toml:"initial_spawns" doc:"Tiles a new game starts with (0 to size × size)."`
	FourProbability float64 `toml:"four_probability" doc:"Chance that a spawned tile is a 4 rather than a 2 (0 to 1)."`
	UndoLimit       int     `toml:"undo_limit" doc:"Moves that undo can take back: 0 disables undo and redo, -1 keeps every move."`
}

// rulesets maps each ruleset's name to its default preset.
var rulesets = map[string]string{
	engine.ClassicName: "classic",
	cellular.Name:      "early",
}

// Rulesets returns the names of the rulesets a configuration can be for,
// sorted.
func Rulesets() []string {
	return []string{cellular.Name, engine.ClassicName}
}

// DefaultPreset returns the name of a ruleset's default preset: the one a
// configuration of that ruleset starts from when it names none.
func DefaultPreset(ruleset string) (string, error) {
	p, ok := rulesets[ruleset]
	if !ok {
		return "", unknownRuleset(ruleset)
	}
	return p, nil
}

func unknownRuleset(name string) error {
	return fmt.Errorf("unknown ruleset %q (known: %s)", name, strings.Join(Rulesets(), ", "))
}

// Origin is where a setting came from: a file and line, or a flag.
type Origin struct {
	File string // a path, a flag ("--set") or a preset's file ("presets/early.toml")
	Line int    // from 1; 0 when there is no line
}

func (o Origin) String() string {
	switch {
	case o.File == "":
		return ""
	case o.Line > 0:
		return fmt.Sprintf("%s:%d", o.File, o.Line)
	}
	return o.File
}

// Error is a configuration error: where, which key, what is wrong.
type Error struct {
	Origin Origin
	Key    string // the dotted key ("blight.charges"); "" when no key is at fault
	Err    error
}

func (e *Error) Error() string {
	msg := e.Err.Error()
	if e.Key != "" {
		msg = e.Key + ": " + msg
	}
	if o := e.Origin.String(); o != "" {
		msg = o + ": " + msg
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// ErrUnknownKey is wrapped by the error for a key no ruleset setting has.
var ErrUnknownKey = errors.New("unknown key")

// Origin returns where the dotted key was last set: a preset's file and
// line, a user file's, or a flag. It is the zero Origin for a key never set.
func (c *Config) Origin(key string) Origin { return c.origin[key] }

// Clone returns a copy of the configuration that Set changes apart
// from it.
func (c *Config) Clone() *Config {
	d := *c
	d.origin, d.layers = maps.Clone(c.origin), slices.Clone(c.layers)
	return &d
}

// Plays returns what the games of the configuration play by, to compare:
// two configurations that make the same games return equal values. A
// cellular goal a cell counts by its threshold (cellular.Settings.Played).
func (c *Config) Plays() any {
	if c.Ruleset == cellular.Name {
		return c.Cellular.Played()
	}
	return c.Classic
}

// Validate checks every setting and reports every bad one (errors.Join),
// each located where it was set.
func (c *Config) Validate() error {
	switch c.Ruleset {
	case engine.ClassicName:
		return c.validateClassic()
	case cellular.Name:
		var errs []error
		for _, se := range c.Cellular.Problems() {
			errs = append(errs, &Error{Origin: c.origin[se.Key], Key: se.Key, Err: errors.New(se.Msg)})
		}
		return join(errs...)
	}
	return &Error{Origin: c.origin["ruleset"], Key: "ruleset", Err: unknownRuleset(c.Ruleset)}
}

func (c *Config) validateClassic() error {
	k := &c.Classic
	var errs []error
	bad := func(key, format string, args ...any) {
		errs = append(errs, &Error{Origin: c.origin[key], Key: key, Err: fmt.Errorf(format, args...)})
	}
	if k.Size < 2 || k.Size > 16 {
		bad("size", "%d is outside 2 to 16", k.Size)
	}
	if k.WinValue < 8 || k.WinValue > 1<<62 {
		bad("win_value", "%d is outside 8 to 2^62", k.WinValue)
	}
	if k.InitialSpawns < 0 || k.InitialSpawns > k.Size*k.Size {
		bad("initial_spawns", "%d is outside 0 to %d (the board's cells)", k.InitialSpawns, k.Size*k.Size)
	}
	if math.IsNaN(k.FourProbability) || k.FourProbability < 0 || k.FourProbability > 1 {
		bad("four_probability", "%v is outside 0 to 1", k.FourProbability)
	}
	if k.UndoLimit < -1 {
		bad("undo_limit", "%d is below -1 (-1 keeps every move)", k.UndoLimit)
	}
	return join(errs...)
}

// Game returns the engine's rules and options for the configuration, which
// should be valid: an invalid one is an error. Seed seeds the random source;
// scripted makes the game spawn only from its spawn queue.
func (c *Config) Game(seed uint64, scripted bool) (engine.Rules, engine.Options, error) {
	if err := c.Validate(); err != nil {
		return nil, engine.Options{}, err
	}
	if c.Ruleset == cellular.Name {
		s := c.Cellular
		rules, err := cellular.New(s)
		if err != nil {
			return nil, engine.Options{}, &Error{Err: err}
		}
		opt := engine.Options{Width: s.Width, Height: s.Height, Seed: seed, UndoLimit: s.UndoLimit, ScriptedOnly: scripted}
		return rules, opt, nil
	}
	k := c.Classic
	rules := &engine.Classic{
		WinValue:        uint64(k.WinValue),
		StopOnWin:       k.StopOnWin,
		InitialSpawns:   k.InitialSpawns,
		FourProbability: k.FourProbability,
	}
	opt := engine.Options{Width: k.Size, Height: k.Size, Seed: seed, UndoLimit: k.UndoLimit, ScriptedOnly: scripted}
	return rules, opt, nil
}

// join returns errs as one error: nil for none, the error itself for one
// (a *Error, as a caller matches it), and errors.Join of them for more
// (each one found by errors.As). Joined errors among errs are taken apart,
// and the errors put in the order of where they are: by file (in the order
// the files first come up, so that the layers keep theirs), then by line,
// then by key on a line; errors at the same place, and errors without a
// line (--set), keep their order. A file's errors
// read from top to bottom, whichever check found them.
func join(errs ...error) error {
	var kept []error
	var add func(e error)
	add = func(e error) {
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				add(e)
			}
			return
		}
		if e != nil {
			kept = append(kept, e)
		}
	}
	for _, e := range errs {
		add(e)
	}
	switch len(kept) {
	case 0:
		return nil
	case 1:
		return kept[0]
	}
	rank := map[string]int{}
	at := func(e error) (file string, line int, key string) {
		var ce *Error
		if errors.As(e, &ce) {
			return ce.Origin.File, ce.Origin.Line, ce.Key
		}
		return "", 0, ""
	}
	for _, e := range kept {
		if f, _, _ := at(e); rank[f] == 0 {
			rank[f] = len(rank) + 1
		}
	}
	slices.SortStableFunc(kept, func(a, b error) int {
		fa, la, ka := at(a)
		fb, lb, kb := at(b)
		if c := cmp.Or(cmp.Compare(rank[fa], rank[fb]), cmp.Compare(la, lb)); c != 0 || la == 0 {
			return c // without a line (--set), the order they were given in
		}
		return strings.Compare(ka, kb)
	})
	return errors.Join(kept...)
}
