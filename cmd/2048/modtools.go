package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
	"github.com/mod2048/mod2048/scripting/session/fixture"
	"github.com/mod2048/mod2048/scripting/sim"
)

// The user's mod folder, where `2048 mod install` puts mods and where
// `--mod ID` finds them: $XDG_DATA_HOME/2048/mods, else
// ~/.local/share/2048/mods (micro keeps its plugins in its config folder
// the same way).
func userModsDir() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "2048", "mods"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no folder for installed mods: %v (set XDG_DATA_HOME)", err)
	}
	return filepath.Join(home, ".local", "share", "2048", "mods"), nil
}

// loadModRef loads the mod that ref names: a folder, or the id of an
// installed mod.
func loadModRef(ref string) (*mod.Mod, error) {
	dir, err := modRefDir(ref)
	if err != nil {
		return nil, err
	}
	return mod.Load(dir)
}

// modRefDir returns the folder ref names: ref itself when it is a file or
// a folder, or when it cannot be a mod's id (loading it names what is
// missing), else the installed mod's folder of that id. An id that names
// no installed mod is an error that lists the installed ones.
func modRefDir(ref string) (string, error) {
	if _, err := os.Stat(ref); err == nil || !modID.MatchString(ref) {
		return ref, nil
	}
	dir, err := userModsDir()
	if err != nil {
		return "", err
	}
	installed := filepath.Join(dir, ref)
	if info, err := os.Stat(installed); err == nil && info.IsDir() {
		return installed, nil
	}
	have := "none"
	if ids := installedIDs(dir); len(ids) > 0 {
		have = strings.Join(ids, ", ")
	}
	return "", fmt.Errorf("mod %s: no folder %s, and no installed mod %s in %s (installed: %s; install one with 2048 mod install DIR|ZIP)", ref, ref, ref, dir, have)
}

// installedIDs returns the ids of the mods installed in dir, sorted.
func installedIDs(dir string) []string {
	var ids []string
	for _, m := range modsIn(dir) {
		if m != dir {
			ids = append(ids, filepath.Base(m))
		}
	}
	return ids
}

const modListUsage = `Usage: 2048 mod list [DIR|ID ...]

Lists the mods named (folders, or ids of installed mods; a folder that
holds mods, such as mods/, lists each of them), or with no argument every
installed mod: id, version, rulesets, settings with their defaults and
bounds, dependencies and conflicts.
`

// modsIn returns ref itself, or, when ref is a folder that is no mod (it
// has no mod.toml) and holds mods, the folders of the mods in it, in name
// order (hidden folders left out, as an install's staging folders).
func modsIn(ref string) []string {
	info, err := os.Stat(ref)
	if err != nil || !info.IsDir() {
		return []string{ref}
	}
	if _, err := os.Stat(filepath.Join(ref, mod.ManifestName)); err == nil {
		return []string{ref}
	}
	entries, err := os.ReadDir(ref)
	if err != nil {
		return []string{ref}
	}
	var out []string
	for _, e := range entries {
		dir := filepath.Join(ref, e.Name())
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, mod.ManifestName)); err == nil {
			out = append(out, dir)
		}
	}
	if len(out) == 0 {
		return []string{ref} // loading it says it is not a mod
	}
	return out
}

func runModList(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("mod list", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.Usage = func() { fmt.Fprint(flags.Output(), modListUsage) }
	if ok, code := parseFlags(flags, args); !ok {
		return code
	}
	refs := flags.Args()
	if len(refs) == 0 {
		dir, err := userModsDir()
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
		expanded = append(expanded, modsIn(ref)...)
	}
	refs = expanded
	code := 0
	for i, ref := range refs {
		m, err := loadModRef(ref)
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
	m, err := installMod(pos[0], *force)
	if err != nil {
		fmt.Fprintf(stderr, "2048 mod install: %s\n", safe(err))
		return 1
	}
	fmt.Fprintf(stdout, "installed %s %s in %s (play it: 2048 play --mod %s)\n", m.ID(), safe(m.Manifest.Version), safe(m.Dir), m.ID())
	return 0
}

// stagePrefix starts the name of an install's staging folder in the
// user's mod folder; mod list skips them.
const stagePrefix = ".install-"

// staleStage is the age after which a staging folder is an earlier
// install's leftover, which the next install removes.
const staleStage = time.Hour

// installMod checks the mod of src (a folder or a zip) and copies it into
// the user's mod folder, replacing an installed version only once the new
// one is in place. A lower version over a higher one needs force.
func installMod(src string, force bool) (*mod.Mod, error) {
	root, err := userModsDir()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, err
	}
	removeStaleStages(root)
	info, statErr := os.Stat(src)
	isDir := statErr == nil && info.IsDir()
	if isDir {
		if err := refuseEnclosing(src, root); err != nil {
			return nil, err
		}
	}
	stage, err := os.MkdirTemp(root, stagePrefix)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(stage)
	files := filepath.Join(stage, "mod")
	// Errors about the staged copy name src, the folder or zip the user
	// gave, not the staging folder.
	named := func(err error) error {
		if err == nil {
			return nil
		}
		return errors.New(strings.ReplaceAll(err.Error(), files, src))
	}
	read := mod.ReadZipFile
	if isDir {
		read = mod.ReadFolder
	}
	got, err := read(src)
	if err != nil {
		return nil, err
	}
	if err := writeFiles(got, files); err != nil {
		return nil, err
	}
	m, err := mod.Load(files)
	if err != nil {
		return nil, named(err)
	}
	if err := trialLoad(m); err != nil {
		return nil, named(err)
	}
	dest := filepath.Join(root, m.ID())
	if old, err := mod.Load(dest); err == nil && !force && mod.CompareVersions(m.Manifest.Version, old.Manifest.Version) < 0 {
		return nil, fmt.Errorf("%s is version %s of mod %s, lower than the installed %s: install it with --force to go back", src, m.Manifest.Version, m.ID(), old.Manifest.Version)
	}
	old := filepath.Join(stage, "old")
	if err := os.Rename(dest, old); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err := os.Rename(files, dest); err != nil {
		os.Rename(old, dest) // put the installed version back
		return nil, err
	}
	return mod.Load(dest)
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

// removeStaleStages removes the staging folders earlier installs left in
// root (a killed install), once they are older than staleStage: a younger
// one may be another install's, under way.
func removeStaleStages(root string) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), stagePrefix) {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > staleStage {
			os.RemoveAll(filepath.Join(root, e.Name()))
		}
	}
}

// refuseEnclosing refuses to install the folder src when it is root, the
// user's mod folder, or holds it: copying it would copy into itself.
func refuseEnclosing(src, root string) error {
	real := func(p string) string {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		if r, err := filepath.EvalSymlinks(p); err == nil {
			p = r
		}
		return p
	}
	s, r := real(src), real(root)
	rel, err := filepath.Rel(s, r)
	if err == nil && (rel == "." || rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))) {
		return fmt.Errorf("%s holds the mod folder %s: a mod's folder cannot be installed into itself; install the mod's own folder", src, root)
	}
	return nil
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

// copyModDir copies the regular files and folders of a mod's folder,
// held to a mod's limits (mod.ReadFolder).
func copyModDir(src, dest string) error {
	files, err := mod.ReadFolder(src)
	if err != nil {
		return err
	}
	return writeFiles(files, dest)
}

// writeFiles writes a mod's files, read and checked, into the folder
// dest.
func writeFiles(files *mod.Files, dest string) error {
	if err := os.MkdirAll(dest, 0o755); err != nil {
		return err
	}
	for _, rel := range slices.Sorted(maps.Keys(files.Files)) {
		to := filepath.Join(dest, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(to, files.Files[rel], 0o644); err != nil {
			return err
		}
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
	m, err := loadModRef(pos[0])
	if err != nil {
		fmt.Fprintf(stdout, "manifest: FAIL: %s\n", safe(err))
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
