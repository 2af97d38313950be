package main

import (
	"bytes"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"text/template"

	"github.com/mod2048/mod2048/scripting"
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

// scaffold holds the template files of `2048 mod new`. The annotation file
// comes from package scripting (LuaAnnotations), so that a new mod's editor
// support does not depend on this repository.
//
//go:embed scaffold
var scaffold embed.FS

// modID is what a mod id must look like (scripting's manifest check).
var modID = regexp.MustCompile(`^[a-z][a-z0-9_]{0,31}$`)

// scaffoldFile is one file `mod new` writes: its path in the new folder,
// and the scaffold file it comes from (a text/template when tmpl is set; ""
// for the mod API's annotation file).
type scaffoldFile struct {
	path, src string
	tmpl      bool
}

// scaffoldFiles returns the files of a new mod with the given id, for a
// ruleset, in the order they are written and listed.
func scaffoldFiles(id, ruleset string) []scaffoldFile {
	return []scaffoldFile{
		{"mod.toml", "mod.toml.tmpl", true},
		{"main.lua", "main.lua.tmpl", true},
		{"README.md", "README.md.tmpl", true},
		{id + ".cases", ruleset + ".cases.tmpl", true},
		{".luarc.json", "luarc.json", false},
		{".luals/mod2048.lua", "", false},
	}
}

// scaffoldData is what the templates fill in.
type scaffoldData struct {
	ID      string // the mod id: "my_mod"
	Name    string // its display name: "My Mod"
	Upper   string // the id in upper case, for case IDs: "MY_MOD"
	Ruleset string // "classic" or "cellular"
	Path    string // the new folder as the user named it, slash-separated
}

// displayName makes a mod's display name from its id: "my_mod" → "My Mod".
func displayName(id string) string {
	words := strings.FieldsFunc(id, func(r rune) bool { return r == '_' })
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	if len(words) == 0 {
		return id
	}
	return strings.Join(words, " ")
}

// renderScaffold returns the content of each file of a new mod.
func renderScaffold(d scaffoldData) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, f := range scaffoldFiles(d.ID, d.Ruleset) {
		if f.src == "" {
			out[f.path] = scripting.LuaAnnotations()
			continue
		}
		src, err := fs.ReadFile(scaffold, "scaffold/"+f.src)
		if err != nil {
			return nil, err
		}
		if f.tmpl {
			t, err := template.New(f.src).Option("missingkey=error").Parse(string(src))
			if err != nil {
				return nil, err
			}
			var b bytes.Buffer
			if err := t.Execute(&b, d); err != nil {
				return nil, err
			}
			src = b.Bytes()
		}
		out[f.path] = src
	}
	return out, nil
}

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
		fmt.Fprintln(stderr, "2048 mod new: no NAME given")
		flags.Usage()
		return 2
	case len(pos) > 1:
		fmt.Fprintf(stderr, "2048 mod new: unexpected argument %q (one NAME only)\n", pos[1])
		flags.Usage()
		return 2
	case *ruleset != "classic" && *ruleset != "cellular":
		fmt.Fprintf(stderr, "2048 mod new: --ruleset %q: want classic or cellular\n", *ruleset)
		flags.Usage()
		return 2
	}
	id := pos[0]
	if !modID.MatchString(id) {
		fmt.Fprintf(stderr, "2048 mod new: %q is not a mod id: use lower-case letters, digits and _, starting with a letter, at most 32 characters (such as %q)\n", id, suggestID(id))
		return 1
	}
	path := filepath.Join(*dir, id)
	files, err := renderScaffold(scaffoldData{
		ID:      id,
		Name:    displayName(id),
		Upper:   strings.ToUpper(id),
		Ruleset: *ruleset,
		Path:    filepath.ToSlash(path),
	})
	if err != nil {
		fmt.Fprintf(stderr, "2048 mod new: %s\n", safe(err))
		return 1
	}
	if err := writeScaffold(path, id, *ruleset, files); err != nil {
		fmt.Fprintf(stderr, "2048 mod new: %s\n", safe(err))
		return 1
	}
	fmt.Fprintf(stdout, "created the %s mod %s in %s:\n", *ruleset, id, path)
	for _, f := range scaffoldFiles(id, *ruleset) {
		fmt.Fprintf(stdout, "  %s\n", f.path)
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
	for _, f := range scaffoldFiles(id, ruleset) {
		target := filepath.Join(path, filepath.FromSlash(f.path))
		err := os.MkdirAll(filepath.Dir(target), 0o755)
		if err == nil {
			err = os.WriteFile(target, files[f.path], 0o644)
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
