// Package bridge is the browser game's door to a play session: what the
// page's JavaScript calls, in plain Go types that encoding/json writes and
// reads. It builds the session's setup from what the page sends (a
// ruleset, a preset, a pasted TOML file, the shipped mods and a player's
// own, given file by file or as a zip) with packages config and
// scripting, and plays through session.Session alone: no rule of the game
// lives here or in the page.
//
// Every call returns a Reply; an error is a value in it (Reply.Error),
// never a panic. Dispatch takes a call by name with JSON arguments and
// returns JSON: the WebAssembly program (cmd/2048wasm) exposes it to
// JavaScript as the mod2048 object, and Go tests call it directly.
//
// A Bridge is not safe for concurrent use; the page calls it from its one
// thread.
package bridge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"sort"
	"strconv"
	"time"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
)

// Options say what game to play: the session's setup, and how the game
// starts.
type Options struct {
	// Ruleset is "classic" or "cellular"; "" is the one the preset or the
	// TOML names, else classic.
	Ruleset string `json:"ruleset,omitempty"`
	// Difficulty is a built-in preset (config.Presets); "" is the
	// ruleset's default, or the one the TOML names.
	Difficulty string `json:"difficulty,omitempty"`
	// TOML is a configuration file's text, over the preset; "" for none.
	TOML string `json:"toml,omitempty"`
	// Sets are key=value overrides, applied last (as --set).
	Sets []string `json:"sets,omitempty"`
	// Mods are the mods to load, in order.
	Mods []ModSource `json:"mods,omitempty"`
	// ModSets are MOD.KEY=VALUE settings of the loaded mods (as --mod-set).
	ModSets []string `json:"modSets,omitempty"`
	// Seed is the new game's seed, a decimal number from 0 to 2^64-1 (as
	// text: JavaScript's numbers stop at 2^53); "" picks one from the
	// clock.
	Seed string `json:"seed,omitempty"`
	// Board is a given starting board, one row a string of cells in the
	// ruleset's notation separated by spaces (a fixture's Given:); none
	// starts a new game with the ruleset's initial spawns.
	Board []string `json:"board,omitempty"`
	// Spawns is the spawn queue the game starts with, "ROW,COL,VALUE"
	// each (a fixture's SpawnScript: entries).
	Spawns []string `json:"spawns,omitempty"`
	// Scripted makes the game spawn only from its queue (a fixture
	// without a seed).
	Scripted bool `json:"scripted,omitempty"`
	// Record records the game from its start (or from where it is
	// resumed), for the workshop's recordCase.
	Record bool `json:"record,omitempty"`
}

// Bridge holds the page's session.
type Bridge struct {
	setup session.Setup
	key   string
	opts  Options
	s     *session.Session
	seed  uint64
	best  engine.Score
	// clock gives the seed of a game the page asks no seed for.
	clock func() uint64
}

// New returns a bridge with no game: NewGame or Resume starts one.
func New() *Bridge {
	return &Bridge{clock: func() uint64 { return uint64(time.Now().UnixNano()) }}
}

// Close ends the session's mods.
func (b *Bridge) Close() {
	if b.s != nil {
		b.s.Close()
		b.s = nil
	}
}

// NewGame builds the setup of o and starts a new game of it, seeded with
// o.Seed. bests are the best scores the page keeps, by setup key
// (View.Key); the one of this setup is the game's best to beat. On an
// error the bridge keeps the game it had.
func (b *Bridge) NewGame(o Options, bests map[string]string) Reply {
	setup, key, err := build(o)
	if err != nil {
		return fail(err)
	}
	seed, err := b.seedOf(o.Seed)
	if err != nil {
		return fail(err)
	}
	st := session.Start{Seed: seed, Scripted: o.Scripted}
	if err := startOf(setup.Config, o, &st); err != nil {
		return fail(err)
	}
	s, err := session.New(setup, st)
	if err != nil {
		return fail(err)
	}
	return b.adopt(setup, key, o, s, seed, bests[key])
}

// Resume builds the setup of o and continues the game of save (the text
// of Save). A save that cannot be read, or that is not a game of this
// setup, is an error of kind "save"; the bridge keeps the game it had.
// bests are as for NewGame.
func (b *Bridge) Resume(o Options, save string, bests map[string]string) Reply {
	setup, key, err := build(o)
	if err != nil {
		return fail(err)
	}
	s, err := resumeSave(setup, save)
	if err != nil {
		if me := (*session.ModsError)(nil); !errors.As(err, &me) {
			err = &Error{Kind: KindSave, Message: "the saved game cannot be resumed: " + err.Error()}
		}
		return fail(err)
	}
	return b.adopt(setup, key, o, s, s.Options().Seed, bests[key])
}

// resumeSave resumes save under setup once it has the shape of a save the
// bridge wrote (checkSave): the engine reads a missing or empty part as
// its default, which a damaged save must not get.
func resumeSave(setup session.Setup, save string) (*session.Session, error) {
	if err := checkSave([]byte(save)); err != nil {
		return nil, err
	}
	return session.Resume(setup, []byte(save))
}

// saveParts are the parts every save Save writes has, and whether each is
// an object (else a list, or a value).
var saveParts = []struct {
	name   string
	object bool
}{
	{"format", false}, {"version", false}, {"ruleset", false},
	{"rules", true}, {"options", true}, {"state", true},
	{"queue", false}, {"history", false}, {"future", false},
}

// checkSave refuses as damaged a save that is not an object with every
// part Save writes: a part missing or null, an empty rules, options or
// state object, an empty format, version or ruleset, or a null inside
// rules, options or state (null, {}, "", [], {"game":null} and their
// like: what a storage that lost the save may hold).
func checkSave(data []byte) error {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil || doc == nil {
		return errors.New("damaged: not a saved game (want a JSON object)")
	}
	empty := func(v json.RawMessage) bool {
		switch string(bytes.TrimSpace(v)) {
		case "", "null", "{}", `""`, "0", "[]":
			return true
		}
		return false
	}
	for _, p := range saveParts {
		v, ok := doc[p.name]
		switch {
		case !ok || string(bytes.TrimSpace(v)) == "null":
			return fmt.Errorf("damaged: its %s is missing", p.name)
		case (p.object || p.name == "format" || p.name == "version" || p.name == "ruleset") && empty(v):
			return fmt.Errorf("damaged: its %s is empty", p.name)
		}
		if !p.object {
			continue
		}
		var inner map[string]json.RawMessage
		if err := json.Unmarshal(v, &inner); err != nil {
			return fmt.Errorf("damaged: its %s is not an object", p.name)
		}
		for k, iv := range inner {
			if string(bytes.TrimSpace(iv)) == "null" {
				return fmt.Errorf("damaged: its %s.%s is null", p.name, k)
			}
		}
	}
	return nil
}

// adopt makes s the bridge's session.
func (b *Bridge) adopt(setup session.Setup, key string, o Options, s *session.Session, seed uint64, best string) Reply {
	bs, err := engine.ParseScoreFor(s.Rules(), best)
	if best == "" || err != nil {
		bs = engine.Score{}
	}
	if o.Record {
		if err := s.Record(); err != nil {
			s.Close()
			return fail(err)
		}
	}
	s.TrackMotions()
	s.WatchSpawns()
	b.Close()
	b.setup, b.key, b.opts, b.s, b.seed, b.best = setup, key, o, s, seed, bs
	b.keepBest()
	v := b.view(nil)
	return Reply{View: &v}
}

// Restart starts a new game of the same setup, seeded with seed ("" picks
// one from the clock).
func (b *Bridge) Restart(seed string) Reply {
	if b.s == nil {
		return fail(errNoGame)
	}
	n, err := b.seedOf(seed)
	if err != nil {
		return fail(err)
	}
	if err := b.s.NewGame(n); err != nil {
		return fail(err)
	}
	b.seed = n
	v := b.view(nil)
	return Reply{View: &v}
}

// Move plays one move: "left", "right", "up" or "down". A move that
// changes nothing is no error (View.Changed is false); a move a mod
// refuses is a Notice, and the game goes on.
func (b *Bridge) Move(dir string) Reply {
	if b.s == nil {
		return fail(errNoGame)
	}
	d, err := parseDir(dir)
	if err != nil {
		return fail(err)
	}
	res, err := b.s.Move(d)
	var notice string
	if ref := (*engine.Refusal)(nil); errors.As(err, &ref) {
		notice, err = "Move refused: "+ref.Reason, nil
	}
	if err != nil {
		return fail(err)
	}
	b.keepBest()
	v := b.view(&res)
	v.Notice = notice
	return Reply{View: &v}
}

// Undo takes back the last move.
func (b *Bridge) Undo() Reply { return b.travel(func(s *session.Session) error { return s.Undo() }) }

// Redo plays again the last move taken back.
func (b *Bridge) Redo() Reply { return b.travel(func(s *session.Session) error { return s.Redo() }) }

// KeepPlaying goes on after a win.
func (b *Bridge) KeepPlaying() Reply {
	return b.travel(func(s *session.Session) error { return s.KeepPlaying() })
}

func (b *Bridge) travel(step func(*session.Session) error) Reply {
	if b.s == nil {
		return fail(errNoGame)
	}
	if err := step(b.s); err != nil {
		return fail(&Error{Kind: KindGame, Message: err.Error()})
	}
	v := b.view(nil)
	return Reply{View: &v}
}

// Save returns the game as a save's text, for the page to keep.
func (b *Bridge) Save() Reply {
	if b.s == nil {
		return fail(errNoGame)
	}
	data, err := b.s.Save()
	if err != nil {
		return fail(err)
	}
	return Reply{Save: string(data)}
}

// View returns the game as it stands, without changing it.
func (b *Bridge) View() Reply {
	if b.s == nil {
		return fail(errNoGame)
	}
	v := b.view(nil)
	return Reply{View: &v}
}

// keepBest raises the best score to the score.
func (b *Bridge) keepBest() {
	if sc := b.s.Score(); sc.Cmp(b.best) > 0 {
		b.best = sc
	}
}

// seedOf reads a seed, or picks one from the clock for "".
func (b *Bridge) seedOf(text string) (uint64, error) {
	if text == "" {
		return b.clock(), nil
	}
	n, err := strconv.ParseUint(text, 10, 64)
	if err != nil {
		return 0, &Error{Kind: KindInput, Key: "seed", Message: fmt.Sprintf("seed %q: want a whole number from 0 to 2^64-1", text)}
	}
	return n, nil
}

var errNoGame = &Error{Kind: KindInput, Message: "no game: start one with newGame or resume"}

// build makes the setup of o: its configuration, and its mods loaded with
// their settings and tried in a game, so that a Lua error shows now. key
// names the setup for the page's storage: the same configuration and mod
// set give the same key.
func build(o Options) (session.Setup, string, error) {
	c, err := buildConfig(o)
	if err != nil {
		return session.Setup{}, "", err
	}
	setup := session.Setup{Config: c}
	for i, src := range o.Mods {
		m, err := src.load()
		if err != nil {
			return session.Setup{}, "", modError(err, i)
		}
		setup.Mods = append(setup.Mods, m)
	}
	if err := setMods(setup.Mods, o.ModSets); err != nil {
		return session.Setup{}, "", err
	}
	h := fnv.New64a()
	h.Write(c.TOML())
	for _, m := range setup.Mods {
		fmt.Fprintf(h, "\x00mod %s %s %q", m.ID(), m.Manifest.Version, settingsKey(m))
	}
	return setup, strconv.FormatUint(h.Sum64(), 36), nil
}

// settingsKey lists a mod's settings that differ from their defaults, as
// NAME=VALUE sorted by name, each value written as the mod reads it: the
// same settings give the same key however they were written (in any
// order, "+3" or "3", a default given or not), and other settings another
// (nil for the defaults: the key of the mod without settings).
func settingsKey(m *mod.Mod) []string {
	var out []string
	for name, s := range m.Manifest.Settings {
		v, def := m.Values[name], s.Default
		if n, ok := def.(int64); ok && s.Type == "number" {
			def = float64(n)
		}
		if v != def {
			out = append(out, name+"="+fmt.Sprint(v))
		}
	}
	sort.Strings(out)
	return out
}

// buildConfig makes the configuration of o: the preset, the TOML over it,
// then the sets, validated.
func buildConfig(o Options) (*config.Config, error) {
	var c *config.Config
	var err error
	if o.TOML == "" {
		c, err = config.Build(config.BuildOptions{Ruleset: o.Ruleset, Difficulty: o.Difficulty})
	} else {
		if len(o.TOML) > config.MaxFileSize {
			return nil, &Error{Kind: KindConfig, File: TOMLName, Message: fmt.Sprintf("the configuration has %d bytes, more than the %d it may have", len(o.TOML), config.MaxFileSize)}
		}
		base := o.Difficulty
		if base == "" {
			base = o.Ruleset
		}
		if c, err = config.Parse([]byte(o.TOML), TOMLName, base); err == nil && o.Ruleset != "" && c.Ruleset != o.Ruleset {
			err = &config.Error{Origin: c.Origin("ruleset"), Key: "ruleset", Err: fmt.Errorf("the file is for the %s ruleset, not %s", c.Ruleset, o.Ruleset)}
		}
	}
	if err != nil {
		return nil, err
	}
	for _, kv := range o.Sets {
		if err := c.Set(kv, config.Origin{File: "set"}); err != nil {
			return nil, err
		}
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// TOMLName is the name a pasted configuration has in its errors.
const TOMLName = "custom.toml"

// setMods applies MOD.KEY=VALUE settings (as --mod-set: each value a
// TOML value, checked by the mod against its manifest; mod.ApplySettings).
func setMods(mods []*mod.Mod, sets []string) error {
	_, err := mod.ApplySettings(mods, sets)
	var se *mod.SettingError
	if errors.As(err, &se) {
		return &Error{Kind: KindMod, Key: se.Setting, Message: se.Error(), err: err}
	}
	return err
}

// startOf reads o's given board and spawn queue into st, in the notation
// of c's ruleset.
func startOf(c *config.Config, o Options, st *session.Start) error {
	if len(o.Board) == 0 && len(o.Spawns) == 0 {
		return nil
	}
	rules, opt, err := c.Game(st.Seed, st.Scripted)
	if err != nil {
		return err
	}
	if len(o.Board) > 0 {
		board, err := engine.ParseRows(rules, o.Board, opt.Width, opt.Height)
		if err != nil {
			return &Error{Kind: KindInput, Key: "board", Message: "board: " + err.Error(), err: err}
		}
		st.Board = &board
	}
	for i, text := range o.Spawns {
		e, err := parseSpawn(rules, text)
		if err != nil {
			return &Error{Kind: KindInput, Key: "spawns", Index: i, Message: err.Error()}
		}
		st.Spawns = append(st.Spawns, e)
	}
	return nil
}
