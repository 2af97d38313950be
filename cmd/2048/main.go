// Command 2048 is the 2048 modding host: it plays classic and modded 2048
// and runs fixture files.
//
// Usage:
//
//	2048                        play classic 2048 in the terminal (resumes the save)
//	2048 play [FLAGS]           play any ruleset, difficulty, configuration and mods
//	2048 test [-v] [PATH ...]   run the fixtures (.cases) in PATHs (default .)
//	2048 replay [FLAGS] FILE    play a recorded game back
//	2048 sim run [FLAGS]        play many seeded games and report them
//	2048 sim study [FLAGS]      the skill ladder and comparisons
//	2048 sim tune [FLAGS]       find the settings for the win rates wanted
//	2048 sim merge FILE ...     combine the JSON reports of a sharded sim
//	2048 config show [FLAGS]    print the effective configuration as TOML
//	2048 config check FILE ...  check configuration files
//	2048 mod new NAME [FLAGS]   create a new mod from a working example
//	2048 mod list [DIR|ID ...]  describe mods (default: the installed ones)
//	2048 mod install DIR|ZIP    check a mod and install it
//	2048 mod check DIR|ID       check a mod: load, fixtures, a short soak
//	2048 serve [FLAGS]          serve the browser game
//	2048 version                print the version
//	2048 help [COMMAND]         show help
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/mod2048/mod2048/cmd/2048/internal/cli"
	"github.com/mod2048/mod2048/cmd/2048/internal/termtext"
	"github.com/mod2048/mod2048/scripting/mod/install"
	"github.com/mod2048/mod2048/scripting/session/fixture"
)

const usage = `2048 is a 2048 modding host: classic 2048 exactly as the rules say,
with fixtures that pin behaviour down.

Usage:
  2048                        play classic 2048 in the terminal, resuming the
                              last classic game
  2048 play [FLAGS]           play in the terminal: --ruleset, --difficulty,
                              --config, --set, --mod DIR, --seed N,
                              --record FILE
  2048 replay [FLAGS] FILE    play a recorded game back; --check tells whether
                              it reproduces, --to-fixture writes a fixture
  2048 sim run [FLAGS]        the balance lab: play many seeded games with a
                              policy and report wins, losses, scores, turns
  2048 sim study [FLAGS]      the skill ladder and comparisons on the same
                              seeds: --skill, --compare, --sweep, --levers
  2048 sim tune [FLAGS]       find the settings that give the win rates
                              wanted at each skill (--tune greedy=0.25,...)
  2048 sim merge FILE ...     combine the JSON reports of a sharded sim run
  2048 test [-v] [PATH ...]   run the fixture files (.cases) named, and every
                              one below the folders named (default: .)
  2048 config show [FLAGS]    print the effective configuration as TOML
  2048 config check FILE ...  check configuration files
  2048 mod new NAME [FLAGS]   create the folder NAME with a new mod to edit
  2048 mod list [DIR|ID ...]  describe mods: id, version, settings (default:
                              the installed mods)
  2048 mod install DIR|ZIP    check a mod and copy it into the user's mod
                              folder, where '--mod ID' finds it
  2048 mod check DIR|ID       what a mod's CI runs: manifest, load, fixtures
                              and a short seeded soak (see '2048 help mod')
  2048 serve [FLAGS]          serve the browser game (--addr HOST:PORT), or
                              write it as a static site (--write DIR)
  2048 version                print the version
  2048 help [COMMAND]         show this help, or a command's

Run '2048 help play' for the game's flags, keys and saves, '2048 help test'
for the fixture runner's options, and '2048 help config' for the
configuration's layers and flags.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the command line args and returns the exit status: 0 for
// success, 1 for a failure (a fixture failed), 2 for a usage error. With no
// arguments it plays the classic game when it runs in a terminal, and
// prints the usage otherwise.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		if !isTerminal() {
			fmt.Fprint(stderr, usage)
			return 2
		}
		return runPlay(nil, stdout, stderr)
	}
	if cmd, ok := commands[args[0]]; ok {
		return cmd(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "2048: unknown command %s; see 2048 help\n", cli.Unknown(args[0], names(commands), quote))
	return 2
}

// names are the names of cmds that a user types (not -h, --version).
func names(cmds map[string]command) []string {
	var ns []string
	for n := range cmds {
		if !strings.HasPrefix(n, "-") {
			ns = append(ns, n)
		}
	}
	slices.Sort(ns)
	return ns
}

// quote is a name the user typed, quoted for a message.
func quote(s string) string { return strconv.Quote(s) }

// commands are the commands run dispatches to, by name; the names that
// start with - are other spellings of version and help. A command that has
// subcommands dispatches them through subcommands. usage names every
// command and subcommand (TestUsageNamesEveryCommand).
var commands = map[string]command{
	"play":      runPlay,
	"test":      runTest,
	"config":    runConfig,
	"mod":       runMod,
	"replay":    runReplay,
	"sim":       runSim,
	"serve":     runServe,
	"version":   runVersion,
	"--version": runVersion,
	"-version":  runVersion,
	"help":      runHelp,
	"-h":        runHelp,
	"-help":     runHelp,
	"--help":    runHelp,
}

// subcommands are the subcommands of the commands that have them: command
// → subcommand → what runs it.
var subcommands = map[string]map[string]command{
	"config": {"show": runConfigShow, "check": runConfigCheck},
	"mod":    {"new": runModNew, "list": runModList, "install": runModInstall, "check": runModCheck},
	"sim":    {"run": runSimRun, "study": runSimStudy, "tune": runSimTune, "merge": runSimMerge},
}

func runTest(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(stderr)
	verbose := fs.Bool("v", false, "list every case that passes, not only the failures")
	watch := fs.Bool("watch", false, "run them again on every save of a fixture or of its mods, until Ctrl+C")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: 2048 test [-v] [--watch] [PATH|ID ...]

Runs the fixture files (.cases) named, and every one below the folders named
(default: the current folder). An ID that is no file or folder here names
an installed mod (2048 mod install): its fixtures run from its folder. For
each failing case it prints the file and line of the failing assertion,
the case, the step, and expected and actual side by side; its last line
is "N passed, N failed". It exits 0 only when no
case failed and at least one passed: no fixture found is an error (exit 1).
A .cases file must be a regular file of at most 16 MiB; a pipe, a device or a
larger file fails, named, without being read. With --watch it runs them again
on every save of a fixture or of a mod they load, until Ctrl+C. A case whose
mod's call the wall-clock failsafe stops (2 s, on fewer instructions than its
budget) would pass or fail by the machine's speed: it stops the run, with an
error naming the mod and its call (exit 1), and no count is written.

`)
		fs.PrintDefaults()
	}
	if ok, code := parseFlags(fs, args); !ok {
		return code
	}
	paths := fs.Args()
	if len(paths) == 0 {
		paths = []string{"."}
	}
	var bad []string
	for i, p := range paths {
		dir, err := install.Resolve(p)
		if err != nil {
			bad = append(bad, err.Error())
		}
		paths[i] = dir
	}
	if len(bad) > 0 {
		for _, e := range bad {
			fmt.Fprintf(stderr, "2048 test: %s\n", safe(e))
		}
		return 1
	}
	sum := fixture.RunPaths(paths, termtext.Writer{W: stdout}, *verbose)
	if sum.Err != nil {
		// A failsafe stopped a case: no count would be the same on
		// another machine.
		fmt.Fprintf(stderr, "2048 test: %s\n", safe(sum.Err))
		return 1
	}
	if *watch {
		if err := watchTests(paths, stdout, *verbose, interrupted()); err != nil {
			fmt.Fprintf(stderr, "2048 test: --watch: %s\n", safe(err))
			return 1
		}
	}
	if sum.Failed > 0 {
		return 1
	}
	if sum.Passed == 0 {
		// Nothing was checked: a typo in a path or a folder without
		// fixtures must not pass for success.
		where := strings.Join(paths, ", ")
		if sum.Files == 0 {
			fmt.Fprintf(stderr, "2048 test: no fixture found: no .cases file in %s\n", safe(where))
		} else {
			fmt.Fprintf(stderr, "2048 test: no fixture found: the .cases files in %s hold no case\n", safe(where))
		}
		return 1
	}
	return 0
}

// command runs one (sub)command with its arguments and returns the exit
// status.
type command func(args []string, stdout, stderr io.Writer) int

// runSubcommand runs `2048 GROUP SUBCOMMAND ...`: no subcommand or an unknown
// one is a usage error (exit 2), help prints the group's usage.
func runSubcommand(group, usage string, subs map[string]command, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	if run, ok := subs[args[0]]; ok {
		return run(args[1:], stdout, stderr)
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			// help Y: subcommand Y's own help.
			if run, ok := subs[args[1]]; ok {
				return run([]string{"-h"}, stdout, stdout)
			}
			fmt.Fprintf(stderr, "2048 help %s: unknown subcommand %s; see 2048 %s --help\n", group, cli.Unknown(args[1], names(subs), quote), group)
			return 2
		}
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "2048 %s: unknown subcommand %s; see 2048 %s --help\n", group, cli.Unknown(args[0], names(subs), quote), group)
	return 2
}

// runHelp is `2048 help [COMMAND [SUBCOMMAND]]`: the usage, a command's
// help, or a subcommand's own (help mod check, help sim merge).
func runHelp(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stdout, usage)
		return 0
	}
	topic, rest := args[0], args[1:]
	plain := map[string]command{"test": runTest, "play": runPlay, "replay": runReplay, "serve": runServe}
	groups := map[string]command{"config": runConfig, "mod": runMod, "sim": runSim}
	switch {
	case groups[topic] != nil:
		return groups[topic](append([]string{"help"}, rest...), stdout, stderr)
	case plain[topic] != nil && len(rest) == 0:
		return plain[topic]([]string{"-h"}, stdout, stdout)
	case plain[topic] != nil:
		fmt.Fprintf(stderr, "2048 help: %s has no subcommand %q\n", topic, rest[0])
		return 2
	}
	fmt.Fprintf(stderr, "2048 help: unknown topic %s (topics: play, test, config, mod, replay, sim, serve); see 2048 help\n", cli.Unknown(topic, append(names(plain), names(groups)...), quote))
	return 2
}

// safe is the text of v (an error, a field of a file) fit to print on a
// terminal: every print of what a file holds (a replay, a manifest, a mod's
// error, a path) goes through termtext.Printable, so that a file cannot
// clear the screen or set the window title.
func safe(v any) string {
	if err, ok := v.(error); ok {
		return termtext.Lines(err.Error()) // every error of a file, a line each
	}
	return termtext.Printable(fmt.Sprint(v))
}
