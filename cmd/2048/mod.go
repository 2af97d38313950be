package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mod2048/mod2048/cmd/2048/internal/cli"
	"github.com/mod2048/mod2048/scripting/scaffold"
)

const modUsage = `Usage:
  2048 mod new NAME [--dir DIR] [--ruleset classic|cellular]
  2048 mod list [DIR|ID ...]
  2048 mod install DIR|ZIP
  2048 mod check [--games N] [--moves N] DIR|ID

new creates the folder NAME (or DIR/NAME) with a small working mod to start
from:

  mod.toml            the manifest: id NAME, name, version, a setting
  main.lua            a tick handler that counts the turns in storage and a
                      before_move handler, with comments on the API
  README.md           what to edit, and how to test
  NAME.cases          a fixture that passes as generated
  .luarc.json         settings for the Lua language server (LuaLS)
  .luals/mod2048.lua  the mod API's annotations, for the language server

NAME must be a mod id: lower-case letters, digits and _, from a letter, at
most 32 characters. An existing folder is never overwritten. Test the new
mod with '2048 test NAME' (or DIR/NAME).

Exit status: 0 when the mod was created, 1 when it could not be (a bad
name, an existing folder, a file error), 2 for a usage error.

list shows each mod's id, version, rulesets, settings with their defaults
and bounds, dependencies and conflicts; with no argument, the installed
mods. install checks a mod and copies it into the user's mod folder
($XDG_DATA_HOME/2048/mods, else ~/.local/share/2048/mods), where '--mod ID'
finds it. check is what a mod's CI runs: manifest, load, fixtures and a
short seeded soak ('2048 help mod list', 'install' and 'check' say more).
`

// modID is what a mod id must look like (scripting's manifest check).
var modID = scaffold.ID

// runMod runs `2048 mod SUBCOMMAND`.
func runMod(args []string, stdout, stderr io.Writer) int {
	return runSubcommand("mod", modUsage, subcommands["mod"], args, stdout, stderr)
}

func runModNew(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("mod new", flag.ContinueOnError)
	flags.SetOutput(stderr)
	dir := flags.String("dir", ".", "the `folder` to create the mod's folder in (created if missing)")
	ruleset := flags.String("ruleset", "classic", "the `ruleset` the mod and its fixture are for: classic or cellular")
	flags.Usage = func() {
		fmt.Fprint(flags.Output(), "Usage: 2048 mod new NAME [--dir DIR] [--ruleset classic|cellular]\n\nCreates the folder NAME (or DIR/NAME) with a small working mod: mod.toml,\nmain.lua, README.md, NAME.cases, .luarc.json and .luals/mod2048.lua.\n\n")
		flags.PrintDefaults()
	}
	if ok, code := parseFlags(flags, args); !ok {
		return code
	}
	pos := flags.Args()
	switch {
	case len(pos) == 0:
		return cli.Fail(flags, "no NAME given")
	case len(pos) > 1:
		return cli.Fail(flags, "unexpected argument %q (one NAME only)", pos[1])
	case *ruleset != "classic" && *ruleset != "cellular":
		return cli.Fail(flags, "--ruleset %q: want classic or cellular", *ruleset)
	}
	id := pos[0]
	if !modID.MatchString(id) {
		fmt.Fprintf(stderr, "2048 mod new: %q is not a mod id: use lower-case letters, digits and _, starting with a letter, at most 32 characters (such as %q)\n", id, suggestID(id))
		return 1
	}
	path := filepath.Join(*dir, id)
	files, err := scaffold.Render(scaffold.For(id, *ruleset, filepath.ToSlash(path)))
	if err != nil {
		fmt.Fprintf(stderr, "2048 mod new: %s\n", safe(err))
		return 1
	}
	if err := writeScaffold(path, id, *ruleset, files); err != nil {
		fmt.Fprintf(stderr, "2048 mod new: %s\n", safe(err))
		return 1
	}
	fmt.Fprintf(stdout, "created the %s mod %s in %s:\n", *ruleset, id, path)
	for _, f := range scaffold.Files(id, *ruleset) {
		fmt.Fprintf(stdout, "  %s\n", f.Path)
	}
	fmt.Fprintf(stdout, "test it with: 2048 test %s\n", path)
	return 0
}

// writeScaffold creates the folder path (never an existing one) and writes
// the files into it; on a failure it removes what it created.
func writeScaffold(path, id, ruleset string, files map[string][]byte) error {
	if parent := filepath.Dir(path); parent != "." {
		if err := os.MkdirAll(parent, 0o755); err != nil {
			return err
		}
	}
	if err := os.Mkdir(path, 0o755); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s already exists: choose another name or --dir, or remove it first", path)
		}
		return err
	}
	for _, f := range scaffold.Files(id, ruleset) {
		target := filepath.Join(path, filepath.FromSlash(f.Path))
		err := os.MkdirAll(filepath.Dir(target), 0o755)
		if err == nil {
			err = os.WriteFile(target, files[f.Path], 0o644)
		}
		if err != nil {
			os.RemoveAll(path)
			return err
		}
	}
	return nil
}

// suggestID turns a name that is not a mod id into one that is, for the
// error message: "My-Mod" → "my_mod".
func suggestID(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	s := strings.Trim(b.String(), "_")
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		s = "mod_" + s
	}
	s = strings.TrimSuffix(s, "_")
	if len(s) > 32 {
		s = strings.TrimRight(s[:32], "_")
	}
	return s
}
