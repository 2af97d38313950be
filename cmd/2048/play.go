package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"golang.org/x/term"

	"github.com/mod2048/mod2048/cmd/2048/internal/saves"
	"github.com/mod2048/mod2048/cmd/2048/internal/tui"
	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
)

const playUsage = `Usage: 2048 play [--ruleset R] [--difficulty D] [--config FILE] [--set KEY=VALUE ...] [--mod DIR ...] [--seed N]

Plays 2048 in the terminal: any ruleset, difficulty and configuration the
engine can load, with the mods named. '2048' with no arguments plays the
classic game.

The game is saved after every move, undo, redo and new game, in the state
directory ($MOD2048_STATE_DIR, else $XDG_STATE_HOME/2048, else
~/.local/state/2048): one save per ruleset, difficulty, configuration and
mod set, resumed the next time the same ones are played (--seed N starts a
new game with that seed instead, which replaces the save). A save whose
content cannot be used (damaged, edited, over 64 MiB) is kept aside as
NAME.corrupt-TIME and a new game starts. A save that cannot be read at all
(permission denied, a folder in its place) stops the game with an error
naming it and the fix: nothing is ever saved over it. Temporary files of
a save that was interrupted (.NAME.json.tmp-N, older than 10 minutes) are
removed at the start. Best scores are kept the same way, in best.json.

When an autosave fails, the key line says NOT SAVED until a save
succeeds. q then tries once more and asks before quitting; Ctrl+C quits
at once.

Keys: arrows, WASD or hjkl move; u undo; U or Ctrl+R redo; r new game;
c or Enter keep playing after a win; ? help; q or Ctrl+C quit.

Exit status: 0 when the player quits with the game saved; 1 for a
configuration, mod, save or terminal error, and when the player quits
with the game not saved; 2 for a usage error.

`

// repeated is a flag that may be given several times.
type repeated []string

func (r *repeated) String() string { return strings.Join(*r, " ") }

func (r *repeated) Set(v string) error {
	*r = append(*r, v)
	return nil
}

// playOptions are the flags of `2048 play`.
type playOptions struct {
	build    config.BuildOptions
	mods     []string
	seed     uint64
	seeded   bool   // --seed was given: start a new game with it
	stateDir string // "" for saves.DefaultDir
}

// parsePlay parses the flags of `2048 play`; ok false means stop with code.
func parsePlay(args []string, stderr io.Writer) (o playOptions, ok bool, code int) {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	fs.SetOutput(stderr)
	layerFlags(fs, &o.build)
	fs.StringVar(&o.build.File, "config", "", "a TOML `file` whose settings go over the preset")
	fs.Var((*setFlags)(&o.build.Sets), "set", "a `key=value` override, applied last; repeatable (dotted keys for tables: blight.charges=2)")
	fs.Var((*repeated)(&o.mods), "mod", "a mod's `folder` to load; repeatable")
	fs.Func("seed", "start a new game with this `seed` (0 to 2^64-1), replacing the save, instead of resuming it; default: resume, else a new game seeded from the clock", func(s string) error {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return errors.New("want a whole number from 0 to 2^64-1")
		}
		o.seed, o.seeded = n, true
		return nil
	})
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), playUsage)
		fs.PrintDefaults()
	}
	if ok, code := parseFlags(fs, args); !ok {
		return o, false, code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "2048 play: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return o, false, 2
	}
	return o, true, 0
}

// runPlay runs `2048 play`: the terminal game.
func runPlay(args []string, stdout, stderr io.Writer) int {
	o, ok, code := parsePlay(args, stderr)
	if !ok {
		return code
	}
	sess, err := newSession(o)
	if err != nil {
		fmt.Fprintf(stderr, "2048 play: %v\n", err)
		return 1
	}
	if !isTerminal() {
		fmt.Fprintln(stderr, "2048 play: the standard input and output must be a terminal")
		return 1
	}
	cfg, err := sess.start(o)
	if err != nil {
		fmt.Fprintf(stderr, "2048 play: %v\n", err)
		return 1
	}
	screen, err := tcell.NewScreen()
	if err != nil {
		fmt.Fprintf(stderr, "2048 play: %v\n", err)
		return 1
	}
	if err := tui.Run(screen, cfg); err != nil {
		fmt.Fprintf(stderr, "2048 play: %v\n", err)
		return 1
	}
	return 0
}

// isTerminal reports whether the standard input and output are a terminal.
func isTerminal() bool {
	return term.IsTerminal(int(os.Stdin.Fd())) && term.IsTerminal(int(os.Stdout.Fd()))
}

// session is what a game of `2048 play` is made from: its configuration,
// mods and save slot.
type session struct {
	cfg   *config.Config
	mods  []*scripting.Mod
	store *saves.Store
	key   saves.Key
	// seed gives the seeds of new games; the clock, as the engine never
	// reads it.
	seed func() uint64
}

// newSession checks everything the flags name, touching nothing: the
// configuration, the mods (each loaded into a trial host, so a Lua error
// is found now) and the state directory's name.
func newSession(o playOptions) (*session, error) {
	c, err := config.Build(o.build)
	if err != nil {
		return nil, err
	}
	s := &session{cfg: c, seed: func() uint64 { return uint64(time.Now().UnixNano()) }}
	refs := []saves.ModRef{}
	for _, dir := range o.mods {
		m, err := scripting.LoadMod(dir)
		if err != nil {
			return nil, err
		}
		s.mods = append(s.mods, m)
		refs = append(refs, saves.ModRef{ID: m.ID(), Version: m.Manifest.Version})
	}
	if len(s.mods) > 0 {
		rules, opt, err := c.Game(0, false)
		if err != nil {
			return nil, err
		}
		host, err := scripting.NewHost(s.mods, rules, opt, scripting.DefaultLimits)
		if err != nil {
			return nil, err
		}
		host.Close()
	}
	dir := o.stateDir
	if dir == "" {
		if dir, err = saves.DefaultDir(); err != nil {
			return nil, err
		}
	}
	s.store = saves.New(dir)
	s.key = saves.Key{Ruleset: c.Ruleset, Difficulty: c.Preset, Config: string(c.TOML()), Mods: refs}
	return s, nil
}

// newGame starts a game with the given seed and attaches the mods.
func (s *session) newGame(seed uint64) (*engine.Game, *scripting.Host, error) {
	rules, opt, err := s.cfg.Game(seed, false)
	if err != nil {
		return nil, nil, err
	}
	g, err := engine.New(rules, opt)
	if err != nil {
		return nil, nil, err
	}
	host, err := s.attach(g)
	if err != nil {
		return nil, nil, err
	}
	return g, host, nil
}

// attach loads the mods for g and hooks them in; no mods, no host.
func (s *session) attach(g *engine.Game) (*scripting.Host, error) {
	if len(s.mods) == 0 {
		return nil, nil
	}
	host, err := scripting.NewHost(s.mods, g.Rules(), g.Options(), scripting.DefaultLimits)
	if err != nil {
		return nil, err
	}
	host.Attach(g)
	return host, nil
}

// start returns the terminal game to play: the save of this ruleset,
// difficulty, configuration and mod set, resumed; or, with --seed, with no
// save, or with one whose content cannot be used (kept aside, and said so),
// a new game, saved at once. A save that cannot be read at all (permission
// denied, say) is an error: nothing is saved over it. With --seed, the save
// is checked all the same, so that only a good save is replaced. First,
// the temporary files of interrupted saves are removed.
func (s *session) start(o playOptions) (tui.Config, error) {
	slot := s.store.Slot(s.key)
	cfg := tui.Config{
		Ruleset: s.cfg.Ruleset, Difficulty: s.cfg.Preset, Store: slot,
		NewGame: func() (*engine.Game, *scripting.Host, error) { return s.newGame(s.seed()) },
	}
	s.store.CleanTemps() // best effort: a file left is only a file left
	g, err := s.store.Load(s.key, s.matches)
	var corrupt *saves.CorruptError
	switch {
	case errors.As(err, &corrupt):
		cfg.Message = "could not resume: " + err.Error() + "; this is a new game"
	case err != nil:
		return tui.Config{}, err
	}
	if o.seeded {
		g = nil // --seed replaces the save
	}
	if g != nil {
		host, err := s.attach(g)
		if err != nil {
			return tui.Config{}, err
		}
		cfg.Game, cfg.Host = g, host
		return cfg, nil
	}
	seed := o.seed
	if !o.seeded {
		seed = s.seed()
	}
	g, host, err := s.newGame(seed)
	if err != nil {
		return tui.Config{}, err
	}
	cfg.Game, cfg.Host = g, host
	if err := slot.Save(g); err != nil {
		cfg.Unsaved = err
	}
	return cfg, nil
}

// matches checks that a saved game is the game this configuration makes:
// its board's size, its undo limit and its rules' settings. The save's
// configuration text already matched; this checks the game itself, so that
// a save whose game was edited (a 256×256 board under the classic 4×4) is
// refused and kept aside rather than played.
func (s *session) matches(g *engine.Game) error {
	rules, opt, err := s.cfg.Game(g.Options().Seed, false)
	if err != nil {
		return err
	}
	got := g.Options()
	switch {
	case got.Width != opt.Width || got.Height != opt.Height:
		return fmt.Errorf("its board is %d×%d, the configuration's is %d×%d", got.Width, got.Height, opt.Width, opt.Height)
	case got.UndoLimit != opt.UndoLimit:
		return fmt.Errorf("its undo limit is %d, the configuration's is %d", got.UndoLimit, opt.UndoLimit)
	case got.ScriptedOnly:
		return errors.New("its game spawns only scripted tiles, as a fixture's does")
	}
	want, err := json.Marshal(rules.Config())
	if err != nil {
		return err
	}
	have, err := json.Marshal(g.Rules().Config())
	if err != nil {
		return err
	}
	if !bytes.Equal(want, have) {
		return fmt.Errorf("its rules are %s, the configuration's are %s", have, want)
	}
	return nil
}
