package main

import (
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

	"github.com/mod2048/mod2048/cmd/2048/internal/cli"
	"github.com/mod2048/mod2048/cmd/2048/internal/saves"
	"github.com/mod2048/mod2048/cmd/2048/internal/tui"
	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/config/aiconfig"
	"github.com/mod2048/mod2048/config/infile"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/engine/ai"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/mod/install"
	"github.com/mod2048/mod2048/scripting/session"
	"github.com/mod2048/mod2048/scripting/sim"
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
c or Enter keep playing after a win; f write the game so far as a
fixture; t tip (the expert player's move); p autoplay on or off (+ -
speed, any key stops it; --autoplay starts with it); ? help; q or
Ctrl+C quit.

Each move slides its tiles to their new cells, briefly (about 100 ms), as
the original game does in the browser; a key pressed meanwhile shows the
move's end at once and is played. --no-anim shows every move at once.

--record FILE writes the game as a replay as it goes: the program's
version, the configuration, the seed, the mods (id, version, a hash of
their manifest and Lua files, settings) and every move, undo and redo.
'2048 replay FILE' plays it back; '2048 replay --check FILE' tells
whether it reproduces.
A replay that cannot be written stops the game before it starts; one that
fails later is said on the status line, and at the exit on the standard
error, with exit status 1.

Exit status: 0 when the player quits with the game saved; 1 for a
configuration, mod, save or terminal error, when the player quits with
the game not saved, and when --record's replay could not be written; 2 for
a usage error.

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
	modSets  []string // --mod-set MOD.KEY=VALUE
	seed     uint64
	seeded   bool   // --seed was given: start a new game with it
	stateDir string // "" for saves.DefaultDir
	record   string // --record: the replay file to write as the game goes
	watch    bool   // --watch: reload the mods when their files change
	autoplay bool   // --autoplay: start in autoplay
	noAnim   bool   // --no-anim: no slide animation
	aiConfig string // --ai-config: the expert player's settings (TOML)
}

// gameFlags defines the flags that say what game to build, shared by play
// and sim: the configuration's layers and the mods with their settings.
func gameFlags(fs *flag.FlagSet, build *config.BuildOptions, mods, modSets *[]string) {
	layerFlags(fs, build)
	fs.StringVar(&build.File, "config", "", "a TOML `file` whose settings go over the preset")
	fs.Var((*setFlags)(&build.Sets), "set", "a `key=value` override, applied last; repeatable (dotted keys for tables: blight.charges=2)")
	fs.Var((*repeated)(mods), "mod", "a mod to load: its `folder`, or the id of an installed mod (2048 mod install); repeatable")
	fs.Var((*repeated)(modSets), "mod-set", "a mod's setting, `MOD.KEY=VALUE` (a TOML value, checked against the setting's type and bounds); repeatable; part of a play's save key")
}

// parsePlay parses the flags of `2048 play`; ok false means stop with code.
func parsePlay(args []string, stderr io.Writer) (o playOptions, ok bool, code int) {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	fs.SetOutput(stderr)
	gameFlags(fs, &o.build, &o.mods, &o.modSets)
	fs.Func("seed", "start a new game with this `seed` (0 to 2^64-1), replacing the save, instead of resuming it; default: resume, else a new game seeded from the clock", func(s string) error {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return errors.New("want a whole number from 0 to 2^64-1")
		}
		o.seed, o.seeded = n, true
		return nil
	})
	fs.BoolVar(&o.watch, "watch", false, "reload the mods between two moves when their files change; each keeps its storage, and a load error keeps the last good version running")
	fs.BoolVar(&o.autoplay, "autoplay", false, "start with the expert player playing (p stops and starts it, + - speed)")
	fs.BoolVar(&o.noAnim, "no-anim", false, "show each move at once, without the slide animation")
	fs.StringVar(&o.aiConfig, "ai-config", "", "a TOML `file` of the expert player's settings (search depth, evaluation weights), over its defaults")
	fs.StringVar(&o.record, "record", "", "write the game as a replay `file` as it goes (2048 replay FILE plays it back)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), playUsage)
		fs.PrintDefaults()
	}
	if ok, code := parseFlags(fs, args); !ok {
		return o, false, code
	}
	if fs.NArg() > 0 {
		return o, false, cli.Fail(fs, "unexpected argument %q", fs.Arg(0))
	}
	if o.watch && len(o.mods) == 0 {
		fmt.Fprintln(stderr, "2048 play: --watch watches the mods of --mod DIR, and there is none")
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
	p, err := newPlayer(o)
	if err != nil {
		fmt.Fprintf(stderr, "2048 play: %s\n", safe(err))
		return 1
	}
	if !isTerminal() {
		fmt.Fprintln(stderr, "2048 play: the standard input and output must be a terminal")
		return 1
	}
	cfg, err := p.start(o)
	if err != nil {
		fmt.Fprintf(stderr, "2048 play: %s\n", safe(err))
		return 1
	}
	if p.stop != nil {
		defer p.stop()
	}
	screen, err := tcell.NewScreen()
	if err != nil {
		fmt.Fprintf(stderr, "2048 play: %s\n", safe(err))
		return 1
	}
	if err := tui.Run(screen, cfg); err != nil {
		fmt.Fprintf(stderr, "2048 play: %s\n", safe(err))
		return 1
	}
	if p.recordErr != nil {
		fmt.Fprintf(stderr, "2048 play: %s\n", safe(p.recordErr))
		return 1
	}
	return 0
}

// isTerminal reports whether the standard input and output are a terminal.
func isTerminal() bool {
	return term.IsTerminal(int(os.Stdin.Fd())) && term.IsTerminal(int(os.Stdout.Fd()))
}

// player is what the games of `2048 play` are made from: the play
// session's setup (configuration and mods) and the save slot.
type player struct {
	setup session.Setup
	store *saves.Store
	key   saves.Key
	// seed gives the seeds of new games; the clock, as the engine never
	// reads it.
	seed func() uint64
	// stop ends what start started beside the game (the --watch watcher).
	stop func()
	// recordErr is the error of the last write of --record's replay, said
	// at the exit: nil when the replay on disk holds the whole game.
	recordErr error
}

// newPlayer checks everything the flags name, touching nothing: the
// configuration, the mods (each loaded into a trial game, so a Lua error
// is found now) and the state directory's name.
func newPlayer(o playOptions) (*player, error) {
	c, err := config.Build(o.build)
	if err != nil {
		return nil, err
	}
	p := &player{setup: session.Setup{Config: c}, seed: func() uint64 { return uint64(time.Now().UnixNano()) }}
	for _, ref := range o.mods {
		m, err := install.Load(ref)
		if err != nil {
			return nil, err
		}
		p.setup.Mods = append(p.setup.Mods, m)
	}
	changed, err := setMods(p.setup.Mods, o.modSets)
	if err != nil {
		return nil, err
	}
	refs := []saves.ModRef{}
	for _, m := range p.setup.Mods {
		refs = append(refs, saves.ModRef{ID: m.ID(), Version: m.Manifest.Version, Settings: changed[m.ID()]})
	}
	if len(p.setup.Mods) > 0 {
		trial, err := session.New(p.setup, session.Start{})
		if err != nil {
			return nil, err
		}
		trial.Close()
	}
	dir := o.stateDir
	if dir == "" {
		if dir, err = saves.DefaultDir(); err != nil {
			return nil, err
		}
	}
	p.store = saves.New(dir)
	p.key = saves.Key{Ruleset: c.Ruleset, Difficulty: c.Preset, Config: string(c.TOML()), Mods: refs}
	return p, nil
}

// newAdvisor makes the expert player that gives the t key's tips and plays
// autoplay, with the settings of the TOML file at path ("" for the
// defaults): the lab's expert (sim.Expert), the strongest player for every
// ruleset. The tip says why a move leads in a player's terms: on cellular
// the chance of a win the expert sees after each move, on classic its
// ranking of the moves; never a search's own units.
func newAdvisor(path string) (tui.Advisor, error) {
	settings, err := aiSettings(path)
	if err != nil {
		return nil, err
	}
	expert, err := sim.NewExpert(sim.PolicyOptions{AI: settings})
	if err != nil {
		return nil, err
	}
	return func(s *session.Session) (engine.Direction, string, error) {
		v := sim.ViewOf(s)
		adv, err := expert.Advise(v)
		if err != nil {
			return 0, "", err
		}
		chance, ok := expert.Chance(v)
		if !ok {
			chance = -1
		}
		return adv[0].Dir, adviceText(adv, chance), nil
	}, nil
}

// adviceText says why the first of a ranking leads, in a player's words:
// "the expert's best move; next Up, then Left" (the other moves, best
// first), or "the only move"; with the chance of a win from here of a
// player who follows the tips, where the lab has measured it (chance at
// least 0: sim.Expert.Chance), "64% to win from here, following the tips;
// next Up, then Left". It never shows the search's own chance, which does
// not mean what it would say (cellular/RULES.md, "The tip").
func adviceText(adv []sim.Advice, chance float64) string {
	head := "the expert's best move"
	if chance >= 0 {
		head = fmt.Sprintf("%.0f%% to win from here, following the tips", 100*chance)
	}
	if len(adv) == 1 {
		return head + "; the only move"
	}
	var rest []string
	for _, a := range adv[1:] {
		rest = append(rest, a.Dir.String())
	}
	return head + "; next " + strings.Join(rest, ", then ")
}

// aiSettings reads the expert player's settings from the TOML file at path
// (--ai-config), over its defaults; "" gives the defaults.
func aiSettings(path string) (ai.Settings, error) {
	if path == "" {
		return ai.Defaults(), nil
	}
	data, err := infile.Read(path, config.MaxFileSize)
	if err != nil {
		return ai.Settings{}, err
	}
	return aiconfig.Parse(data, path)
}

// setMods applies --mod-set MOD.KEY=VALUE assignments to the loaded mods
// (mod.ApplySettings) and returns, for each mod, the assignments made,
// sorted.
func setMods(mods []*mod.Mod, sets []string) (map[string][]string, error) {
	changed, err := mod.ApplySettings(mods, sets)
	var se *mod.SettingError
	switch {
	case !errors.As(err, &se):
		return changed, err
	case se.Shape:
		return nil, fmt.Errorf("--mod-set %q: want MOD.KEY=VALUE", se.Setting)
	case se.NotLoaded:
		return nil, fmt.Errorf("--mod-set %q: no mod %s is loaded (load it with --mod DIR)", se.Setting, se.Mod)
	}
	return nil, fmt.Errorf("--mod-set %q: %w", se.Setting, se.Err)
}

// start returns the terminal game to play: the save of this ruleset,
// difficulty, configuration and mod set, resumed; or, with --seed, with no
// save, or with one whose content cannot be used (kept aside, and said so),
// a new game, saved at once. A save that cannot be read at all (permission
// denied, say) is an error: nothing is saved over it. With --seed, the save
// is checked all the same, so that only a good save is replaced. First,
// the temporary files of interrupted saves are removed.
func (p *player) start(o playOptions) (tui.Config, error) {
	slot := p.store.Slot(p.key)
	cfg := tui.Config{
		Ruleset: p.setup.Config.Ruleset, Difficulty: p.setup.Config.Preset, Store: slot,
		Seed: func() uint64 { return p.seed() },
	}
	p.store.CleanTemps() // best effort: a file left is only a file left
	var s *session.Session
	var modsErr error
	_, err := p.store.Load(p.key, func(game []byte) error {
		resumed, err := session.Resume(p.setup, game)
		if me := (*session.ModsError)(nil); errors.As(err, &me) {
			// The mods fail to load, not the save: keep it where it is.
			modsErr = err
			return nil
		}
		s = resumed
		return err
	})
	var corrupt *saves.CorruptError
	switch {
	case modsErr != nil:
		return tui.Config{}, modsErr
	case errors.As(err, &corrupt):
		cfg.Message = "could not resume: " + err.Error() + "; this is a new game"
	case err != nil:
		return tui.Config{}, err
	}
	if s != nil && o.seeded {
		s.Close() // --seed replaces the save
		s = nil
	}
	if s != nil {
		return p.ready(cfg, s, o)
	}
	seed := o.seed
	if !o.seeded {
		seed = p.seed()
	}
	if s, err = session.New(p.setup, session.Start{Seed: seed}); err != nil {
		return tui.Config{}, err
	}
	game, err := s.Save()
	if err == nil {
		err = slot.Save(game)
	}
	if err != nil {
		cfg.Unsaved = err
	}
	return p.ready(cfg, s, o)
}

// ready gives the terminal game its session, recorded from now on: for the
// f key's fixture, and for --record's replay file.
func (p *player) ready(cfg tui.Config, s *session.Session, o playOptions) (tui.Config, error) {
	if err := s.Record(); err != nil {
		s.Close()
		return tui.Config{}, err
	}
	cfg.Session = s
	cfg.Fixture = func(s *session.Session) (string, error) { return writeFixture(s, p.setup, ".") }
	advisor, err := newAdvisor(o.aiConfig)
	if err != nil {
		s.Close()
		return tui.Config{}, err
	}
	cfg.Advisor, cfg.Autoplay, cfg.NoAnim = advisor, o.autoplay, o.noAnim
	if o.record != "" {
		// The replay is written once now, so that a file that cannot be
		// written is said before the game, and after every action; the
		// last write's error stays for the exit (finish).
		path := o.record
		if err := writeReplay(s, path); err != nil {
			s.Close()
			return tui.Config{}, fmt.Errorf("--record %s: the replay cannot be written: %w", path, err)
		}
		cfg.Record = func(s *session.Session) error {
			err := writeReplay(s, path)
			p.recordErr = err
			if err != nil {
				p.recordErr = fmt.Errorf("the replay %s was not written: %w", path, err)
			}
			return err
		}
	}
	if o.watch {
		var dirs []string
		for _, m := range p.setup.Mods {
			dirs = append(dirs, m.Dir)
		}
		changes, stop, err := watchMods(dirs)
		if err != nil {
			s.Close()
			return tui.Config{}, err
		}
		p.stop = stop
		cfg.Watch = changes
		cfg.Reload = func(s *session.Session) error { return reloadMods(s, dirs, o.modSets) }
	}
	return cfg, nil
}
