package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/mod2048/mod2048/cmd/2048/internal/cli"
	"github.com/mod2048/mod2048/cmd/2048/internal/termtext"
	"github.com/mod2048/mod2048/cmd/2048/internal/tui"
	"github.com/mod2048/mod2048/cmd/internal/version"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod/install"
	"github.com/mod2048/mod2048/scripting/session"
	"github.com/mod2048/mod2048/scripting/session/replay"
)

const replayUsage = `Usage: 2048 replay [--check | --to-fixture FILE.cases [--force]] [--mod DIR ...] FILE

Plays back a replay that '2048 play --record FILE' wrote, in the terminal:
space pauses and goes on, → or n steps one action while paused, + and -
change the speed, g then a number and Enter jumps to that turn, Home goes
back to the start, q quits.

--check plays the replay through without a terminal and tells whether it
reproduces: exit status 0 when every action leaves the game as recorded;
otherwise it names the first action, and its turn, that differs. A replay
with an action without its digest, or with a fault a recording cannot
have made (of a mod the replay does not have, on another turn, on an
action other than a move), was edited: it is refused as damaged.

--to-fixture FILE.cases writes the last game of the replay as a fixture
case: Given: its starting board, its configuration and mods, each move
that stands (undone ones are left out) with the spawns it had as its
SpawnScript:, and what to expect after it. '2048 test FILE.cases' passes
it as written; edit an expectation into what the game should have done.
An existing FILE.cases is refused unless --force is given, and never the
replay itself; anything but a regular file (a folder, a pipe, a link) is
refused. The fixture is written to a temporary file in the same folder,
then renamed over FILE.cases.

A replay carries the files of its mods (manifest and Lua), as they were
loaded, and of each reload under --watch: it plays back with no mod
folder. --mod DIR loads the mod of that id from DIR instead, to try a
fixed version against the replay; a mod whose files differ from the
recording's is said so plainly, as the replay may then go otherwise. A
replay whose carried files differ from its own record of them (their hash)
is damaged: it is refused, with exit status 1, and nothing runs. A replay
that carries no files of a mod (written before replays carried them)
plays only with --mod DIR for that mod: the folder it names may hold
anything by now. When
a replay diverges, --check says what differs (the board side by side, the
score, the marks, the mods' storage or the faults). A failsafe stop the
replay recorded plays back as recorded; one that fires now (a mod's call
that ran 2 s on fewer instructions than its budget) would make the
playback depend on the machine's speed: it stops with an error naming the
mod and its call, to report as a bug in the sandbox's costs.

A replay is the form of a bug report: record the game that went wrong
and send the one file.

Exit status: 0 when all is well (and with --check, when the replay
reproduces); 1 when it does not reproduce, for a failsafe's stop, or for
a file, mod or terminal error; 2 for a usage error.
`

// runReplay runs `2048 replay`.
func runReplay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	check := fs.Bool("check", false, "play the replay through and tell whether it reproduces")
	fixture := fs.String("to-fixture", "", "write the replay's last game as a fixture `file`")
	force := fs.Bool("force", false, "with --to-fixture: replace an existing fixture file")
	var mods repeated
	fs.Var(&mods, "mod", "load the replay's mod of this `folder`'s id from it; repeatable")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), replayUsage)
		fs.PrintDefaults()
	}
	if ok, code := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		return cli.Fail(fs, "want one replay file")
	}
	if *check && *fixture != "" {
		fmt.Fprintln(stderr, "2048 replay: --check and --to-fixture do not go together")
		return 2
	}
	path := fs.Arg(0)
	if *fixture != "" {
		if err := checkOutput(*fixture, path, *force); err != nil {
			fmt.Fprintf(stderr, "2048 replay: --to-fixture: %s\n", safe(err))
			return 1
		}
	}
	f, err := replay.Read(path)
	if err != nil {
		fmt.Fprintf(stderr, "2048 replay: %s\n", safe(err))
		return 1
	}
	dirs := map[string]string{}
	for _, dir := range mods {
		m, err := install.Load(dir)
		if err != nil {
			fmt.Fprintf(stderr, "2048 replay: %s\n", safe(err))
			return 1
		}
		dirs[m.ID()] = dir
	}
	setup, warnings, err := f.Setup(dirs)
	if err != nil {
		fmt.Fprintf(stderr, "2048 replay: %s\n", safe(err))
		return 1
	}
	setup.Limits = modLimits
	for _, w := range warnings {
		fmt.Fprintf(stderr, "2048 replay: warning: %s\n", safe(w))
	}
	switch {
	case *check:
		if err := f.CheckWith(setup, dirs); err != nil {
			if cm := (*scripting.CostModelError)(nil); errors.As(err, &cm) {
				fmt.Fprintf(stderr, "2048 replay: %s\n", safe(cm))
				return 1
			}
			fmt.Fprintf(stderr, "2048 replay: %s does not reproduce: %s\n", safe(path), termtext.Lines(err.Error()))
			return 1
		}
		fmt.Fprintf(stdout, "%s reproduces: %d actions, recorded by 2048 %s\n", safe(path), len(f.Actions), safe(f.Program))
		return 0
	case *fixture != "":
		data, err := f.FixtureFile(setup, *fixture)
		if err == nil {
			err = writeAtomic(*fixture, data)
		}
		if err != nil {
			fmt.Fprintf(stderr, "2048 replay: %s\n", safe(err))
			return 1
		}
		fmt.Fprintf(stdout, "wrote %s (run it: 2048 test %s)\n", safe(*fixture), safe(*fixture))
		return 0
	}
	if !isTerminal() {
		fmt.Fprintln(stderr, "2048 replay: the standard input and output must be a terminal (or use --check or --to-fixture)")
		return 1
	}
	v, err := newViewer(f, setup, warnings)
	if err != nil {
		fmt.Fprintf(stderr, "2048 replay: %s\n", safe(err))
		return 1
	}
	screen, err := tcell.NewScreen()
	if err != nil {
		fmt.Fprintf(stderr, "2048 replay: %s\n", safe(err))
		return 1
	}
	if err := tui.Run(screen, v.config()); err != nil {
		fmt.Fprintf(stderr, "2048 replay: %s\n", safe(err))
		return 1
	}
	return 0
}

// checkOutput says whether out may be written: never the input file in
// (even with force), never anything but a regular file, and an existing
// file only with force.
func checkOutput(out, in string, force bool) error {
	info, err := os.Lstat(out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if inInfo, err := os.Stat(in); err == nil && os.SameFile(info, inInfo) {
		return fmt.Errorf("%s is the replay being read: write the fixture to another file", termtext.Printable(out))
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%s exists and is not a regular file", termtext.Printable(out))
	}
	if !force {
		return fmt.Errorf("%s exists: choose another name, or replace it with --force", termtext.Printable(out))
	}
	return nil
}

// writeAtomic writes data to path through a temporary file in the same
// folder renamed over it, so that path holds the old content or the new,
// never a part.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// writeReplay writes what s recorded as a replay file (--record).
func writeReplay(s *session.Session, path string) error {
	f, err := replay.New(s, replay.Meta{Program: version.String()})
	if err != nil {
		return err
	}
	return f.WriteFile(path)
}

// writeFixture writes the game s recorded so far as a fixture in dir, under
// a name no file has yet, and returns its path (the f key).
func writeFixture(s *session.Session, setup session.Setup, dir string) (string, error) {
	f, err := replay.New(s, replay.Meta{Program: version.String()})
	if err != nil {
		return "", err
	}
	base := fmt.Sprintf("2048-%s-seed%d-turn%d", f.Ruleset, s.Options().Seed, s.State().Turn)
	path := filepath.Join(dir, base+".cases")
	for i := 2; ; i++ {
		if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
			break
		}
		path = filepath.Join(dir, base+"-"+strconv.Itoa(i)+".cases")
	}
	data, err := f.FixtureFile(setup, path)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return "", err
	}
	return path, nil
}

// viewer plays a replay back in the terminal game (tui.Replayer).
type viewer struct {
	f        *replay.File
	setup    session.Setup
	s        *session.Session
	done     int
	warnings []string
}

func newViewer(f *replay.File, setup session.Setup, warnings []string) (*viewer, error) {
	v := &viewer{f: f, setup: setup, warnings: warnings}
	return v, v.Restart()
}

// config is the terminal game's configuration for the replay.
func (v *viewer) config() tui.Config {
	cfg := tui.Config{Ruleset: v.f.Ruleset, Difficulty: v.f.Difficulty, Replay: v}
	if len(v.warnings) > 0 {
		cfg.Message = safe(strings.Join(v.warnings, "; "))
	}
	return cfg
}

func (v *viewer) Session() *session.Session { return v.s }

func (v *viewer) Pos() (done, total int) { return v.done, len(v.f.Actions) }

func (v *viewer) Step() error {
	if v.done >= len(v.f.Actions) {
		return errors.New("the end of the replay")
	}
	if err := v.f.Apply(v.s, v.done); err != nil {
		if cm := (*scripting.CostModelError)(nil); errors.As(err, &cm) {
			return cm
		}
		return fmt.Errorf("the replay does not reproduce: %v", err)
	}
	v.done++
	return nil
}

func (v *viewer) Restart() error {
	s, err := v.f.Resume(v.setup)
	if err != nil {
		return err
	}
	if v.s != nil {
		v.s.Close()
	}
	v.s, v.done = s, 0
	return nil
}

func (v *viewer) Seek(turn int) error {
	if err := v.Restart(); err != nil {
		return err
	}
	for v.done < len(v.f.Actions) && v.s.State().Turn != turn {
		if err := v.Step(); err != nil {
			return err
		}
	}
	if v.s.State().Turn != turn {
		return fmt.Errorf("the replay never reaches turn %d", turn)
	}
	return nil
}
