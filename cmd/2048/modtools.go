package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/mod/install"
	"github.com/mod2048/mod2048/scripting/session"
	"github.com/mod2048/mod2048/scripting/session/fixture"
	"github.com/mod2048/mod2048/scripting/sim"
)

const modListUsage = `Usage: 2048 mod list [DIR|ID ...]

Lists the mods named (folders, or ids of installed mods; a folder that
holds mods, such as mods/, lists each of them), or with no argument every
installed mod: id, version, rulesets, settings with their defaults and
bounds, dependencies and conflicts.
`

func runModList(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("mod list", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.Usage = func() { fmt.Fprint(flags.Output(), modListUsage) }
	if ok, code := parseFlags(flags, args); !ok {
		return code
	}
	refs := flags.Args()
	if len(refs) == 0 {
		dir, err := install.Dir()
		if err != nil {
			fmt.Fprintf(stderr, "2048 mod list: %s\n", safe(err))
			return 1
		}
		entries, err := os.ReadDir(dir)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(stderr, "2048 mod list: %s\n", safe(err))
			return 1
		}
		for _, e := range entries {
			// Hidden folders are no mods: an install's staging folder
			// (.install-*) among them.
			if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
				refs = append(refs, filepath.Join(dir, e.Name()))
			}
		}
		if len(refs) == 0 {
			fmt.Fprintf(stdout, "no mod installed in %s (install one with 2048 mod install DIR|ZIP)\n", safe(dir))
			return 0
		}
	}
	// A folder that is no mod but holds mods is the list of them.
	var expanded []string
	for _, ref := range refs {
		expanded = append(expanded, install.ModsIn(ref)...)
	}
	refs = expanded
	code := 0
	for i, ref := range refs {
		m, err := install.Load(ref)
		if err != nil {
			fmt.Fprintf(stderr, "2048 mod list: %s\n", safe(err))
			code = 1
			continue
		}
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		describeMod(stdout, m)
	}
	return code
}

// describeMod writes what `mod list` says of a mod.
func describeMod(w io.Writer, m *mod.Mod) {
	man := m.Manifest
	fmt.Fprintf(w, "%s %s  %s (%s)\n", man.ID, safe(man.Version), safe(man.Name), safe(m.Dir))
	if man.Description != "" {
		fmt.Fprintf(w, "  %s\n", safe(man.Description))
	}
	fmt.Fprintf(w, "  rulesets: %s\n", rulesetsText(m))
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range man.Settings {
			if !yield(k) {
				return
			}
		}
	})
	if len(names) == 0 {
		fmt.Fprintln(w, "  settings: none")
	}
	for _, k := range names {
		s := man.Settings[k]
		bounds := ""
		switch {
		case s.Min != nil && s.Max != nil:
			bounds = fmt.Sprintf(", %v to %v", *s.Min, *s.Max)
		case s.Min != nil:
			bounds = fmt.Sprintf(", at least %v", *s.Min)
		case s.Max != nil:
			bounds = fmt.Sprintf(", at most %v", *s.Max)
		case s.Type == "choice":
			bounds = ": " + strings.Join(s.Choices, ", ")
		}
		fmt.Fprintf(w, "  setting %s = %s (%s%s): %s\n", safe(k), safe(tomlValue(s.Default)), safe(s.Type), bounds, safe(s.Description))
	}
	list := func(xs []string) string {
		if len(xs) == 0 {
			return "none"
		}
		return strings.Join(xs, ", ")
	}
	fmt.Fprintf(w, "  depends on: %s; conflicts with: %s\n", list(man.Depends), list(man.Conflicts))
}

func tomlValue(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(v)
}

const modInstallUsage = `Usage: 2048 mod install [--force] DIR|ZIP

Checks a mod (its manifest, and that it loads in each ruleset it is for:
both when its manifest names none) and copies it into the
user's mod folder ($XDG_DATA_HOME/2048/mods, else ~/.local/share/2048/mods),
under its id, replacing an installed version. Then '--mod ID' finds it.
A zip holds the mod's files at its top or in one folder (other folders
beside it, as __MACOSX, are left out); a zip entry that would write
outside the mod's folder (an absolute path, ..), a link, an entry named
twice, or a zip over 16 MiB is refused. A zip or a folder is held to a
mod's limits, the browser game's too: at most 256 files (512 entries with
the folders) of at most 16 MiB in all, only regular files and folders,
and never a folder that holds the user's mod folder (it would copy into
itself).

The mod is copied into a hidden staging folder (.install-*) beside the
installed mods, checked there, and renamed into place: an install that
fails or is stopped leaves the installed version as it was. 'mod list'
skips staging folders, and an install removes those an earlier one left.

Installing a lower version over a higher one (1.2.0 over 1.10.0: the
numbers of a version compare as numbers) is refused unless --force is
given.
`

func runModInstall(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("mod install", flag.ContinueOnError)
	flags.SetOutput(stderr)
	force := flags.Bool("force", false, "install a lower version over a higher one")
	flags.Usage = func() {
		fmt.Fprint(flags.Output(), modInstallUsage)
		flags.PrintDefaults()
	}
	if ok, code := parseFlags(flags, args); !ok {
		return code
	}
	pos := flags.Args()
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "2048 mod install: want one folder or zip")
		return 2
	}
	m, err := install.Install(pos[0], *force, trialLoad)
	if err != nil {
		fmt.Fprintf(stderr, "2048 mod install: %s\n", safe(err))
		return 1
	}
	fmt.Fprintf(stdout, "installed %s %s in %s (play it: 2048 play --mod %s)\n", m.ID(), safe(m.Manifest.Version), safe(m.Dir), m.ID())
	return 0
}

// modRulesets are the rulesets m is for: the ones its manifest names, or
// both when it names none (an omitted or empty list means any ruleset).
func modRulesets(m *mod.Mod) []string {
	if len(m.Manifest.Rulesets) == 0 {
		return []string{"classic", "cellular"}
	}
	return m.Manifest.Rulesets
}

// rulesetsText says which rulesets m is for, as mod list and mod check
// print them: "classic, cellular (any)" when its manifest names none.
func rulesetsText(m *mod.Mod) string {
	text := strings.Join(modRulesets(m), ", ")
	if len(m.Manifest.Rulesets) == 0 {
		text += " (any)"
	}
	return text
}

// trialLoad loads m into a game of each ruleset it is for (both when its
// manifest names none), so that a Lua error shows now.
func trialLoad(m *mod.Mod) error {
	for _, r := range modRulesets(m) {
		c, err := config.Default(r)
		if err != nil {
			return err
		}
		s, err := session.New(session.Setup{Config: c, Mods: []*mod.Mod{m}, Limits: modLimits, Deterministic: true}, session.Start{Seed: 1})
		if err != nil {
			return err
		}
		s.Close()
	}
	return nil
}

const modCheckUsage = `Usage: 2048 mod check [--games N] [--moves N] DIR|ID

What a mod's own CI runs: checks the manifest, loads the mod into a game of
each ruleset it names (both when it names none), runs its fixtures (every
.cases file in its folder), and plays a short seeded soak (--games games of
at most --moves random moves, each ruleset) that counts the mod's errors,
refusals and disables and measures the mean time of a move with the mod
(none when no move was played). It warns about a mod folder without a
README.md (what the mod does, for players), which is part of a mod.

A call of the mod's that the wall-clock failsafe stops (2 s, on fewer
instructions than its budget), in its loading, its fixtures or its soak,
stops the check with an error naming the call: the result would depend on
the machine's speed (a bug in the sandbox's costs: report the mod).

Exit status: 0 when the mod loads, its fixtures pass and the soak shows no
error (a warning does not change it); 1 otherwise; 2 for a usage error.
`

// everyError says err, made safe for a terminal: several errors (a
// manifest's, errors.Join of them) as their number, then one a line,
// indented.
func everyError(err error) string {
	list, ok := err.(interface{ Unwrap() []error })
	if !ok || len(list.Unwrap()) < 2 {
		return safe(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d errors", len(list.Unwrap()))
	for _, e := range list.Unwrap() {
		b.WriteString("\n  " + safe(e))
	}
	return b.String()
}

func runModCheck(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("mod check", flag.ContinueOnError)
	flags.SetOutput(stderr)
	games := flags.Int("games", 20, "soak `games` per ruleset")
	moves := flags.Int("moves", 200, "at most this many `moves` a soak game")
	flags.Usage = func() {
		fmt.Fprint(flags.Output(), modCheckUsage)
		flags.PrintDefaults()
	}
	if ok, code := parseFlags(flags, args); !ok {
		return code
	}
	pos := flags.Args()
	if len(pos) != 1 || *games < 1 || *moves < 1 {
		fmt.Fprintln(stderr, "2048 mod check: want one mod, and --games and --moves of at least 1")
		return 2
	}
	m, err := install.Load(pos[0])
	if err != nil {
		fmt.Fprintf(stdout, "manifest: FAIL: %s\n", everyError(err))
		return 1
	}
	fmt.Fprintf(stdout, "manifest: ok (%s %s)\n", m.ID(), safe(m.Manifest.Version))
	if w := readmeWarning(m.Dir); w != "" {
		fmt.Fprintf(stdout, "readme: warning: %s\n", safe(w))
	}
	if err := trialLoad(m); err != nil {
		fmt.Fprintf(stdout, "load: FAIL: %s\n", safe(err))
		return 1
	}
	fmt.Fprintf(stdout, "load: ok (%s)\n", rulesetsText(m))
	ok := true
	sum := fixture.RunPaths([]string{m.Dir}, io.Discard, false)
	switch {
	case sum.Err != nil:
		// A failsafe stopped a case: the check stops here.
		fmt.Fprintf(stdout, "fixtures: FAIL: %s\n", safe(sum.Err))
		return 1
	case sum.Failed > 0:
		ok = false
		fmt.Fprintf(stdout, "fixtures: FAIL: %d passed, %d failed (see: 2048 test %s)\n", sum.Passed, sum.Failed, safe(m.Dir))
	case sum.Passed == 0:
		fmt.Fprintf(stdout, "fixtures: none (write one: press f while playing the mod)\n")
	default:
		fmt.Fprintf(stdout, "fixtures: ok (%d passed)\n", sum.Passed)
	}
	for _, r := range modRulesets(m) {
		res, err := sim.Soak(m, r, *games, *moves, modLimits)
		if err != nil {
			fmt.Fprintf(stdout, "soak %s: FAIL: %s\n", r, safe(err))
			if errors.As(err, new(*scripting.CostModelError)) {
				return 1 // a failsafe stopped a call: the check stops here
			}
			ok = false
			continue
		}
		verdict := "ok"
		if res.Errors > 0 || res.Disables > 0 {
			verdict, ok = "FAIL", false
		}
		timing := "no moves played, so no time a move"
		if res.Moves > 0 {
			timing = fmt.Sprintf("%.1f µs a move with the mod (%.1f without)", res.WithMod, res.Without)
		}
		fmt.Fprintf(stdout, "soak %s: %s: %d games, %d moves, %d errors, %d refused directions, %d disables, %s\n",
			r, verdict, *games, res.Moves, res.Errors, res.Refusals, res.Disables, timing)
		for _, e := range res.FirstErrors {
			fmt.Fprintf(stdout, "  %s\n", safe(e))
		}
	}
	if !ok {
		return 1
	}
	return 0
}

// readmeWarning says what is wrong with the README.md of the mod in dir
// (MODDING.md: a mod holds a README.md for players), or "" when it has one.
// A missing README is a warning: the mod works without it.
func readmeWarning(dir string) string {
	p := filepath.Join(dir, "README.md")
	info, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Sprintf("no README.md in %s: a mod has one, to say what it does for players (see MODDING.md)", dir)
	case err != nil:
		return err.Error()
	case !info.Mode().IsRegular():
		return fmt.Sprintf("%s is not a regular file", p)
	}
	return ""
}
