package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/scaffold"
)

// annotations is the LuaLS annotation file of the repository, which package
// scripting embeds and `mod new` writes.
const annotations = "../../scripting/luals/mod2048.lua"

// TestScaffoldAnnotations checks that the annotation file `mod new` writes
// is the repository's.
func TestScaffoldAnnotations(t *testing.T) {
	want, err := os.ReadFile(annotations)
	if err != nil {
		t.Fatal(err)
	}
	files, err := scaffold.Render(scaffold.For("x", "classic", "x"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(files[".luals/mod2048.lua"], want) {
		t.Errorf("a new mod's .luals/mod2048.lua differs from %s", annotations)
	}
}

func TestSuggestID(t *testing.T) {
	for _, name := range []string{"My-Mod", "1st", "", "_x", "Ünïcode", strings.Repeat("ab", 40)} {
		if s := suggestID(name); !modID.MatchString(s) {
			t.Errorf("suggestID(%q) = %q, not a mod id", name, s)
		}
	}
}

// TestModNew creates a mod of each ruleset with the real binary and runs
// its fixture: it must pass as generated.
func TestModNew(t *testing.T) {
	tests := []struct {
		args    []string // after "mod new"
		folder  string   // the new folder, relative to the working folder
		ruleset string
	}{
		{[]string{"my_mod"}, "my_mod", "classic"},
		{[]string{"--ruleset", "cellular", "cell2"}, "cell2", "cellular"},
		{[]string{"deep", "--dir", "mods/sub", "--ruleset=classic"}, "mods/sub/deep", "classic"},
		{[]string{"-dir", "m", "life", "-ruleset", "cellular"}, "m/life", "cellular"},
	}
	for _, tt := range tests {
		t.Run(tt.folder, func(t *testing.T) {
			work := t.TempDir()
			out, errOut, code := run2048(t, work, append([]string{"mod", "new"}, tt.args...)...)
			if code != 0 {
				t.Fatalf("mod new %v: exit %d\n%s%s", tt.args, code, out, errOut)
			}
			id := filepath.Base(tt.folder)
			dir := filepath.Join(work, filepath.FromSlash(tt.folder))
			wantFiles := []string{"mod.toml", "main.lua", "README.md", id + ".cases", ".luarc.json", ".luals/mod2048.lua"}
			for _, f := range wantFiles {
				if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f))); err != nil {
					t.Errorf("%s: %v", f, err)
				}
				if !strings.Contains(out, "  "+f+"\n") {
					t.Errorf("output does not list %s:\n%s", f, out)
				}
			}
			if want := "test it with: 2048 test " + filepath.FromSlash(tt.folder) + "\n"; !strings.HasSuffix(out, want) {
				t.Errorf("output does not end with %q:\n%s", want, out)
			}

			// The fixture passes, run as the README says.
			out, errOut, code = run2048(t, work, "test", "-v", tt.folder)
			if code != 0 || !strings.HasSuffix(out, "2 passed, 0 failed\n") {
				t.Fatalf("2048 test %s: exit %d\n%s%s", tt.folder, code, out, errOut)
			}
			// And from inside the folder.
			if out, errOut, code = run2048(t, dir, "test"); code != 0 || !strings.HasSuffix(out, "2 passed, 0 failed\n") {
				t.Fatalf("2048 test in %s: exit %d\n%s%s", tt.folder, code, out, errOut)
			}

			m, err := mod.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			if m.ID() != id || m.Manifest.Name != scaffold.DisplayName(id) || !slices.Equal(m.Manifest.Rulesets, []string{tt.ruleset}) {
				t.Errorf("manifest: id %q, name %q, rulesets %v", m.ID(), m.Manifest.Name, m.Manifest.Rulesets)
			}
			if m.Manifest.APIVersion != mod.APIVersion {
				t.Errorf("manifest: api_version %d, want the program's, %d", m.Manifest.APIVersion, mod.APIVersion)
			}

			// The editor setup stands on its own: the annotation file is in
			// the folder, and .luarc.json names it.
			var luarc map[string]any
			data, err := os.ReadFile(filepath.Join(dir, ".luarc.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &luarc); err != nil {
				t.Fatalf(".luarc.json: %v", err)
			}
			if lib, _ := luarc["workspace.library"].([]any); len(lib) != 1 || lib[0] != ".luals" {
				t.Errorf(".luarc.json: workspace.library is %v, want [.luals]", luarc["workspace.library"])
			}
			if luarc["runtime.version"] != "Lua 5.1" {
				t.Errorf(".luarc.json: runtime.version is %v", luarc["runtime.version"])
			}
			got, err := os.ReadFile(filepath.Join(dir, ".luals", "mod2048.lua"))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, scripting.LuaAnnotations()) || !bytes.HasPrefix(got, []byte("---@meta")) {
				t.Errorf(".luals/mod2048.lua is not the mod API's annotation file")
			}
			readme, _ := os.ReadFile(filepath.Join(dir, "README.md"))
			if !strings.Contains(string(readme), "2048 test "+tt.folder) {
				t.Errorf("README.md does not say how to test:\n%s", readme)
			}
		})
	}
}

// TestModNewFixtureFails checks that the generated fixture is a real test:
// a mod that no longer refuses moves fails its case of the template's turn
// limit, and the report says that the case was recorded for other code
// (which file changed) and how to record one; the case that any mod keeps
// still passes.
func TestModNewFixtureFails(t *testing.T) {
	for _, tt := range []struct {
		file, old, new string
	}{
		{"mod.toml", "default = 3", "default = 0"},
		// The code replaced, as a new author does first.
		{"main.lua", "", "game.on(\"tick\", function(ev) end)\n"},
	} {
		t.Run(tt.file, func(t *testing.T) {
			work := t.TempDir()
			if out, errOut, code := run2048(t, work, "mod", "new", "probe"); code != 0 {
				t.Fatalf("exit %d\n%s%s", code, out, errOut)
			}
			file := filepath.Join(work, "probe", tt.file)
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if tt.old == "" {
				data = []byte(tt.new)
			} else {
				data = bytes.Replace(data, []byte(tt.old), []byte(tt.new), 1)
			}
			if err := os.WriteFile(file, data, 0o644); err != nil {
				t.Fatal(err)
			}
			out, _, code := run2048(t, work, "test", "probe")
			cases, _ := os.ReadFile(filepath.Join(work, "probe", "probe.cases"))
			line := 1 + strings.Count(string(cases[:bytes.Index(cases, []byte("Legal: none"))]), "\n")
			for _, want := range []string{
				fmt.Sprintf("probe.cases:%d: case PROBE-TEMPLATE (The template's turn limit: three turns play, then every move is refused and the game is lost), step 3 (Move: Left): Legal: expected none, actual Right Up Down\n", line),
				"This case was recorded for other code: " + tt.file + " has changed since. If the change is meant, record the case again from a game of the mod as it is now (f in 2048 play) and delete this one.\n",
			} {
				if !strings.Contains(out, want) {
					t.Errorf("the report does not say\n%s\nit says:\n%s", want, out)
				}
			}
			if code != 1 || !strings.HasSuffix(out, "1 passed, 1 failed\n") {
				t.Errorf("exit %d, want 1, one case passed and one failed\n%s", code, out)
			}
		})
	}
}

func TestModNewBadName(t *testing.T) {
	for _, name := range []string{"MyMod", "my-mod", "1mod", "_mod", "", "mod.x", "../up", strings.Repeat("a", 33), "ünï"} {
		work := t.TempDir()
		out, errOut, code := run2048(t, work, "mod", "new", name)
		if code != 1 || !strings.Contains(errOut, "is not a mod id") {
			t.Errorf("mod new %q: exit %d, want 1 and an error naming the mod id\n%s%s", name, code, out, errOut)
		}
		if entries, _ := os.ReadDir(work); len(entries) != 0 {
			t.Errorf("mod new %q created %v", name, entries)
		}
	}
	// The longest id is fine.
	if out, errOut, code := run2048(t, t.TempDir(), "mod", "new", "a"+strings.Repeat("b", 31)); code != 0 {
		t.Errorf("a 32-character id: exit %d\n%s%s", code, out, errOut)
	}
}

func TestModNewExisting(t *testing.T) {
	work := t.TempDir()
	dir := filepath.Join(work, "taken")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	keep := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(keep, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run2048(t, work, "mod", "new", "taken")
	if code != 1 || !strings.Contains(errOut, "already exists") {
		t.Errorf("exit %d, want 1 and \"already exists\"\n%s%s", code, out, errOut)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the existing folder was changed: %v", entries)
	}
	if data, _ := os.ReadFile(keep); string(data) != "mine" {
		t.Errorf("notes.txt: %q", data)
	}
	// A file of that name is refused too.
	if err := os.WriteFile(filepath.Join(work, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := run2048(t, work, "mod", "new", "file"); code != 1 || !strings.Contains(errOut, "already exists") {
		t.Errorf("over a file: exit %d\n%s", code, errOut)
	}
	// So is a second mod new of the same name.
	if _, _, code := run2048(t, work, "mod", "new", "twice"); code != 0 {
		t.Fatalf("first mod new: exit %d", code)
	}
	if _, errOut, code := run2048(t, work, "mod", "new", "twice", "--ruleset", "cellular"); code != 1 || !strings.Contains(errOut, "already exists") {
		t.Errorf("second mod new: exit %d\n%s", code, errOut)
	}
}

func TestModUsage(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"mod"}, 2, "2048 mod new NAME"},
		{[]string{"mod", "frob"}, 2, `unknown subcommand "frob"`},
		{[]string{"mod", "new"}, 2, "no NAME given"},
		{[]string{"mod", "new", "a", "b"}, 2, `unexpected argument "b"`},
		{[]string{"mod", "new", "a", "--ruleset", "hex"}, 2, `--ruleset "hex": want classic or cellular`},
		{[]string{"mod", "new", "--nosuchflag", "a"}, 2, "2048 mod new: unknown flag --nosuchflag; see 2048 mod new --help\n"},
		{[]string{"mod", "new", "a", "--dir"}, 2, "2048 mod new: --dir needs a value; see 2048 mod new --help\n"},
		{[]string{"mod", "help"}, 0, "NAME must be a mod id"},
		{[]string{"help", "mod"}, 0, "NAME must be a mod id"},
		{[]string{"mod", "new", "-h"}, 0, "-ruleset"},
		{[]string{"help"}, 0, "2048 mod new NAME"},
	}
	for _, tt := range tests {
		work := t.TempDir()
		out, errOut, code := run2048(t, work, tt.args...)
		if code != tt.code || !strings.Contains(out+errOut, tt.want) {
			t.Errorf("2048 %v: exit %d, want %d and output containing %q:\n%s%s", tt.args, code, tt.code, tt.want, out, errOut)
		}
		if entries, _ := os.ReadDir(work); code != 0 && len(entries) != 0 {
			t.Errorf("2048 %v created %v", tt.args, entries)
		}
	}
}
