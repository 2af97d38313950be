package mod_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/scripting/mod"
)

// manifestHead is the smallest valid manifest: four lines, so a key added
// after it is on line 5.
const manifestHead = `id = "m"
name = "M"
version = "1.0.0"
api_version = 1
`

// writeManifest writes a mod folder holding the manifest src and the files
// (empty main.lua unless files says otherwise) and returns the folder and
// the manifest's path.
func writeManifest(t *testing.T, src string, files ...string) (dir, path string) {
	t.Helper()
	dir = t.TempDir()
	path = filepath.Join(dir, mod.ManifestName)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if files == nil {
		files = []string{"main.lua"}
	}
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, path
}

func TestLoadModErrors(t *testing.T) {
	setting := func(lines ...string) string {
		return manifestHead + "\n[settings.x]\n" + strings.Join(lines, "\n") + "\n"
	}
	tests := []struct {
		name  string
		src   string
		files []string // default: main.lua
		// where is the :line:column: and key the error must start with,
		// after the manifest's path: an unknown key's, the value's or the
		// array element's that is wrong, a table's header's for a table.
		where string
		want  []string
	}{
		{name: "bad id", src: strings.Replace(manifestHead, `"m"`, `"Bad-Id"`, 1),
			where: ":1:6: id: ", want: []string{`"Bad-Id" is not a mod id`}},
		{name: "id too long", src: strings.Replace(manifestHead, `"m"`, `"`+strings.Repeat("a", 33)+`"`, 1),
			where: ":1:6: id: ", want: []string{"is not a mod id", "at most 32"}},
		{name: "id from a digit", src: strings.Replace(manifestHead, `"m"`, `"1mod"`, 1),
			where: ":1:6: id: ", want: []string{`"1mod" is not a mod id`}},
		{name: "empty name", src: strings.Replace(manifestHead, `"M"`, `""`, 1),
			where: ":2:8: name: ", want: []string{"a mod needs a name"}},
		{name: "empty version", src: strings.Replace(manifestHead, `"1.0.0"`, `""`, 1),
			where: ":3:11: version: ", want: []string{"a mod needs a version"}},
		{name: "unknown key", src: manifestHead + "author = \"me\"\n",
			where: ":5:1: author: ", want: []string{"unknown key"}},
		{name: "unknown key after others", src: manifestHead + "priority = 1\n\n# a comment\ncolour = \"red\"\n",
			where: ":8:1: colour: ", want: []string{"unknown key"}},
		{name: "unknown table", src: manifestHead + "[extra]\na = 1\n",
			where: ":5:2: extra: ", want: []string{"unknown key"}},
		{name: "a choice of one", src: setting(`type = "choice"`, `choices = ["a"]`, `default = "a"`),
			where: ":8:11: settings.x.choices: ", want: []string{"a choice needs two choices at least"}},
		{name: "a choice's default not among them", src: setting(`type = "choice"`, `choices = ["a", "b"]`, `default = "c"`),
			where: ":9:11: settings.x.default: ", want: []string{`want one of a, b, got the string "c"`}},
		{name: "a choice named twice", src: setting(`type = "choice"`, `choices = ["a", "b", "a"]`, `default = "a"`),
			where: ":8:22: settings.x.choices: ", want: []string{`"a" is empty or named twice`}},
		{name: "choices of an int", src: setting(`type = "int"`, `default = 1`, `choices = ["1", "2"]`),
			where: ":9:11: settings.x.choices: ", want: []string{`choices go with type = "choice", not "int"`}},
		{name: "unknown key in a setting", src: setting(`type = "int"`, `default = 1`, `typo = 2`),
			where: ":9:1: settings.x.typo: ", want: []string{"unknown key"}},
		{name: "upper-case key", src: manifestHead + "Priority = 3\n",
			where: ":5:1: Priority: ", want: []string{"keys are lower case"}},
		{name: "api_version 0", src: strings.Replace(manifestHead, "api_version = 1", "api_version = 0", 1),
			where: ":4:15: api_version: ", want: []string{"names the API version it was written for", "offers 2"}},
		{name: "api_version 3", src: strings.Replace(manifestHead, "api_version = 1", "api_version = 3", 1),
			where: ":4:15: api_version: ", want: []string{"needs API version 3", "offers 2"}},
		{name: "api_version a string", src: strings.Replace(manifestHead, "api_version = 1", `api_version = "1"`, 1),
			where: ":4:15: api_version: ", want: []string{"want an integer, got a string"}},
		{name: "entry outside the folder", src: manifestHead + "entry = \"../x.lua\"\n",
			where: ":5:9: entry: ", want: []string{`"../x.lua" is not a Lua file inside the mod's folder`}},
		{name: "entry absolute", src: manifestHead + "entry = \"/etc/passwd.lua\"\n",
			where: ":5:9: entry: ", want: []string{"is not a Lua file inside"}},
		{name: "entry not Lua", src: manifestHead + "entry = \"main.txt\"\n", files: []string{"main.txt"},
			where: ":5:9: entry: ", want: []string{`"main.txt" is not a Lua file`}},
		{name: "entry with a dot", src: manifestHead + "entry = \"a.b.lua\"\n", files: []string{"a.b.lua"},
			where: ":5:9: entry: ", want: []string{"is not a Lua file inside"}},
		{name: "entry missing", src: manifestHead + "entry = \"start.lua\"\n",
			where: ":5:9: entry: ", want: []string{"start.lua: no such file in the mod's folder"}},
		{name: "entry in a subfolder missing", src: manifestHead + "entry = \"src/start.lua\"\n", files: []string{"start.lua"},
			where: ":5:9: entry: ", want: []string{"src/start.lua: no such file"}},
		{name: "bad ruleset", src: manifestHead + "rulesets = [\"classic\", \"hex\"]\n",
			where: ":5:24: rulesets: ", want: []string{`unknown ruleset "hex"`, "classic, cellular"}},
		{name: "rulesets not a list", src: manifestHead + "rulesets = \"classic\"\n",
			where: ":5:12: rulesets: ", want: []string{"want an array of strings, got a string"}},
		{name: "bad dependency", src: manifestHead + "depends = [\"Other\"]\n",
			where: ":5:12: depends: ", want: []string{`"Other" is not a mod id`}},
		{name: "priority a string", src: manifestHead + "priority = \"high\"\n",
			where: ":5:12: priority: ", want: []string{"want an integer, got a string"}},
		{name: "toml syntax", src: manifestHead + "priority = = 1\n",
			where: ":5:12: ", want: []string{"expected value but found '=' instead"}},
		{name: "id twice", src: manifestHead + "id = \"n\"\n",
			where: ":5:1: id: ", want: []string{"defined twice (first on line 1)"}},
		{name: "setting type unknown", src: setting(`type = "float"`, `default = 1.5`),
			where: ":7:8: settings.x.type: ", want: []string{`type "float" is not int, number, bool, string or choice`}},
		{name: "setting without a type", src: setting(`default = 1`),
			where: ":6:11: settings.x: ", want: []string{"a setting needs a type: int, number, bool, string or choice"}},
		{name: "setting without a default", src: setting(`type = "int"`),
			where: ":6:11: settings.x: ", want: []string{"a setting needs a default"}},
		{name: "setting bad name", src: manifestHead + "\n[settings.Big]\ntype = \"int\"\ndefault = 1\n",
			where: ":6:11: settings.Big: ", want: []string{`"Big" is not a setting name`}},
		{name: "int default a string", src: setting(`type = "int"`, `default = "four"`),
			where: ":8:11: settings.x.default: ", want: []string{`want an integer, got the string "four"`}},
		{name: "int default a fraction", src: setting(`type = "int"`, `default = 1.5`),
			where: ":8:11: settings.x.default: ", want: []string{"want an integer, got the float 1.5"}},
		{name: "number default a string", src: setting(`type = "number"`, `default = "x"`),
			where: ":8:11: settings.x.default: ", want: []string{"want a number"}},
		{name: "number default nan", src: setting(`type = "number"`, `default = nan`),
			where: ":8:11: settings.x.default: ", want: []string{"not a finite number"}},
		{name: "number default inf", src: setting(`type = "number"`, `default = inf`),
			where: ":8:11: settings.x.default: ", want: []string{"not a finite number"}},
		{name: "bool default a number", src: setting(`type = "bool"`, `default = 1`),
			where: ":8:11: settings.x.default: ", want: []string{"want true or false, got the integer 1"}},
		{name: "string default a number", src: setting(`type = "string"`, `default = 3`),
			where: ":8:11: settings.x.default: ", want: []string{"want a string, got the integer 3"}},
		{name: "bound a string", src: setting(`type = "int"`, `default = 1`, `min = "low"`),
			where: ":9:7: settings.x.min: ", want: []string{"want a number, got a string"}},
		{name: "default below min", src: setting(`type = "int"`, `default = 0`, `min = 1`, `max = 9`),
			where: ":8:11: settings.x.default: ", want: []string{"0 is below the minimum 1"}},
		{name: "default above max", src: setting(`type = "number"`, `default = 9.5`, `min = 1`, `max = 9`),
			where: ":8:11: settings.x.default: ", want: []string{"9.5 is above the maximum 9"}},
		{name: "bounds crossed", src: setting(`type = "int"`, `default = 5`, `min = 10`, `max = 1`),
			where: ":8:11: settings.x.default: ", want: []string{"below the minimum 10"}},
		{name: "setting not a table", src: manifestHead + "[settings]\nx = 3\n",
			where: ":6:5: settings.x: ", want: []string{"want a table, got an integer"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, path := writeManifest(t, tt.src, tt.files...)
			m, err := mod.Load(dir)
			if err == nil {
				t.Fatalf("mod.Load = %+v, want an error", m.Manifest)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, path) {
				t.Errorf("error %q does not start with the manifest's path %s", msg, path)
			}
			if !strings.HasPrefix(msg, path+tt.where) {
				t.Errorf("error %q: want it to start with %q", msg, path+tt.where)
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not say %q", msg, w)
				}
			}
			// The place is a value: the line and column of where, and the
			// key when it names one.
			var fe *mod.FileError
			if !errors.As(err, &fe) || fe.File != mod.ManifestName {
				t.Fatalf("error %q is no *FileError of the manifest: %#v", msg, fe)
			}
			place := strings.Split(strings.TrimSuffix(tt.where, ": "), ": ")
			where := fmt.Sprintf(":%d: ", fe.Line)
			if fe.Column > 0 {
				where = fmt.Sprintf(":%d:%d: ", fe.Line, fe.Column)
			}
			if len(place) > 1 {
				where += fe.Key + ": "
			}
			if where != tt.where || !strings.HasSuffix(msg, fe.Message) || strings.Contains(fe.Message, "mod.toml") {
				t.Errorf("error %q: its values %+v do not say %q", msg, fe, tt.where)
			}
		})
	}
}

// TestLoadModEveryError: a manifest's every error at once, each at its
// own line and column, in the order of their places (a missing key's,
// which has none, first), an unknown key with the nearest known key.
func TestLoadModEveryError(t *testing.T) {
	type at struct {
		line, col int
		key, msg  string
	}
	long := "# " + strings.Repeat("x", 65) // a line of 67 bytes
	for _, tt := range []struct {
		name, src string
		want      []at
	}{
		{"a key twice after a long line", "id = \"dup\"\nname = \"Dup\"\nversion = \"1.0.0\"\napi_version = 1\n\n" + long + "\nname = \"Duplicate name\"\n",
			[]at{{7, 1, "name", "defined twice (first on line 2)"}}},
		{"a table twice", manifestHead + "[settings.x]\ntype = \"int\"\ndefault = 1\n  [settings.x]\n",
			[]at{{8, 4, "settings.x", "defined twice (first on line 5)"}}},
		{"a typo of a key", strings.Replace(manifestHead, "version = ", "versoin = ", 1),
			[]at{{0, 0, "version", "a mod needs a version"}, {3, 1, "versoin", `unknown key (did you mean "version"?)`}}},
		{"a typo of a setting's key", manifestHead + "[settings.every]\ntype = \"int\"\ndefualt = 10\n",
			[]at{{5, 11, "settings.every", "a setting needs a default"}, {7, 1, "settings.every.defualt", `unknown key (did you mean "settings.every.default"?)`}}},
		{"far from every key", manifestHead + "colour = \"red\"\n",
			[]at{{5, 1, "colour", "unknown key"}}},
		{"a setting's value", manifestHead + "\n[settings.every]\ntype = \"int\"\n  default   =  ten\n",
			[]at{{8, 16, "", "expected value but found \"ten\" instead"}}},
		{"a setting's value of another type", manifestHead + "\n[settings.every]\ntype = \"int\"\ndefault = \"ten\"\n",
			[]at{{8, 11, "settings.every.default", `want an integer, got the string "ten"`}}},
		{"the user's three", "id = \"t1\"\nname = \"T\"\nversoin = \"1.0.0\"\nversion = \"1\"\napi_version = 1\n\n[settings.every]\ntype = \"int\"\ndefault = \"ten\"\n",
			[]at{{3, 1, "versoin", `unknown key (did you mean "version"?)`}, {9, 11, "settings.every.default", `want an integer, got the string "ten"`}}},
		{"everything wrong", "id = \"Bad\"\nname = 3\nversion = \"\"\napi_version = 9\nrulesets = [\"classic\",\n  \"hex\", \"cellular\", \"go\"]\n" +
			"depends = [\"ok\", \"Not-OK\"]\nentry = \"../x.lua\"\n[extra.table]\n[settings.a]\ntype = \"choice\"\nchoices = [\"x\", \"x\"]\ndefault = \"x\"\nmin = \"0\"\n" +
			"[settings.B]\ntype = \"number\"\ndefault = inf\n[settings.c]\ntype = \"bool\"\ndefault = 1\n",
			[]at{
				{1, 6, "id", `"Bad" is not a mod id (lower-case letters, digits and _, from a letter, at most 32)`},
				{2, 8, "name", "want a string, got an integer"},
				{3, 11, "version", "a mod needs a version"},
				{4, 15, "api_version", "the mod needs API version 9; this host offers 2"},
				{6, 3, "rulesets", `unknown ruleset "hex" (classic, cellular)`},
				{6, 22, "rulesets", `unknown ruleset "go" (classic, cellular)`},
				{7, 18, "depends", `"Not-OK" is not a mod id`},
				{8, 9, "entry", `"../x.lua" is not a Lua file inside the mod's folder`},
				{9, 2, "extra", "unknown key"},
				{12, 17, "settings.a.choices", `"x" is empty or named twice`},
				{14, 7, "settings.a.min", "want a number, got a string"},
				{15, 11, "settings.B", `"B" is not a setting name (lower-case letters, digits and _, from a letter, at most 32)`},
				{20, 11, "settings.c.default", "want true or false, got the integer 1"},
			}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir, path := writeManifest(t, tt.src)
			_, err := mod.Load(dir)
			if err == nil {
				t.Fatal("mod.Load: want an error")
			}
			list := []error{err}
			if j, ok := err.(interface{ Unwrap() []error }); ok {
				list = j.Unwrap()
			}
			var got []at
			var lines []string
			for _, e := range list {
				fe, ok := e.(*mod.FileError)
				if !ok {
					t.Fatalf("%v (%T) is no *FileError", e, e)
				}
				got = append(got, at{fe.Line, fe.Column, fe.Key, fe.Message})
				lines = append(lines, fe.Error())
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%v\ngot  %+v\nwant %+v", err, got, tt.want)
			}
			if err.Error() != strings.Join(lines, "\n") || !strings.HasPrefix(err.Error(), path) {
				t.Errorf("%q is not its errors a line each, each from the manifest's path", err)
			}
		})
	}
}

// TestLoadModMissingKeys: a key the manifest lacks has no line; the error
// names the file and the key.
func TestLoadModMissingKeys(t *testing.T) {
	for _, key := range []string{"id", "name", "version", "api_version"} {
		t.Run(key, func(t *testing.T) {
			var kept []string
			for _, line := range strings.Split(strings.TrimSpace(manifestHead), "\n") {
				if !strings.HasPrefix(line, key+" ") {
					kept = append(kept, line)
				}
			}
			dir, path := writeManifest(t, strings.Join(kept, "\n")+"\n")
			_, err := mod.Load(dir)
			if err == nil {
				t.Fatal("mod.Load: want an error")
			}
			if !strings.HasPrefix(err.Error(), path) || !strings.Contains(err.Error(), " "+key+": ") {
				t.Errorf("error %q: want the manifest's path and the key %s", err, key)
			}
		})
	}
}

// TestLoadModMissingKeyLine pins the line a missing key's error gives: a
// manifest has no line 0.
func TestLoadModMissingKeyLine(t *testing.T) {
	dir, path := writeManifest(t, "name = \"M\"\nversion = \"1\"\napi_version = 1\n")
	_, err := mod.Load(dir)
	if err == nil || strings.HasPrefix(err.Error(), path+":0:") {
		t.Errorf("mod.Load: %v: want an error without line 0", err)
	}
}

// TestLoadModBadConflict: a bad id in conflicts is reported at the
// conflicts key.
func TestLoadModBadConflict(t *testing.T) {
	dir, path := writeManifest(t, manifestHead+"conflicts = [\"Other\"]\n")
	_, err := mod.Load(dir)
	if err == nil || !strings.HasPrefix(err.Error(), path+":5:14: conflicts: ") {
		t.Errorf("mod.Load: %v: want it to start with %s:5:14: conflicts: ", err, path)
	}
}

// TestLoadModSettingsNotATable: settings = 3 is not a table of settings.
func TestLoadModSettingsNotATable(t *testing.T) {
	dir, _ := writeManifest(t, manifestHead+"settings = 3\n")
	if m, err := mod.Load(dir); err == nil {
		t.Errorf("mod.Load = %+v, want an error", m.Manifest)
	}
}

func TestLoadModNotAMod(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.lua"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := mod.Load(dir)
	if err == nil || !strings.Contains(err.Error(), dir+": not a mod: it has no mod.toml") {
		t.Errorf("mod.Load(folder without a manifest) = %v, want \"%s: not a mod: it has no mod.toml\"", err, dir)
	}
	_, err = mod.Load(filepath.Join(dir, "nowhere"))
	if err == nil || !strings.Contains(err.Error(), "not a mod") {
		t.Errorf("mod.Load(missing folder) = %v, want \"not a mod\"", err)
	}
}

func TestLoadModValid(t *testing.T) {
	src := `# Every key of a manifest.
id = "full_mod2"
name = "Full Mod"
version = "2.3.4"
api_version = 1
description = "Uses every key."
entry = "src/start.lua"
rulesets = ["classic", "cellular"]
priority = -7
depends = ["base", "lib_x"]
conflicts = ["rival"]

[settings.count]
type = "int"
default = 3
min = 1
max = 10
description = "How many."

[settings.ratio]
type = "number"
default = 2
min = 0.5
max = 2

[settings.on]
type = "bool"
default = true

[settings.label]
type = "string"
default = "hi there"
description = "A label."
`
	dir, _ := writeManifest(t, src, "src/start.lua")
	m, err := mod.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	f := func(v float64) *float64 { return &v }
	want := mod.Manifest{
		ID: "full_mod2", Name: "Full Mod", Version: "2.3.4", APIVersion: 1,
		Description: "Uses every key.", Entry: "src/start.lua",
		Rulesets: []string{"classic", "cellular"}, Priority: -7,
		Depends: []string{"base", "lib_x"}, Conflicts: []string{"rival"},
		Settings: map[string]mod.Setting{
			"count": {Type: "int", Default: int64(3), Min: f(1), Max: f(10), Description: "How many."},
			"ratio": {Type: "number", Default: int64(2), Min: f(0.5), Max: f(2)},
			"on":    {Type: "bool", Default: true},
			"label": {Type: "string", Default: "hi there", Description: "A label."},
		},
	}
	if !reflect.DeepEqual(m.Manifest, want) {
		t.Errorf("Manifest =\n%+v\nwant\n%+v", m.Manifest, want)
	}
	if m.ID() != "full_mod2" || m.Dir != dir {
		t.Errorf("ID, Dir = %q, %q; want full_mod2, %q", m.ID(), m.Dir, dir)
	}
	wantValues := map[string]any{"count": int64(3), "ratio": float64(2), "on": true, "label": "hi there"}
	if !reflect.DeepEqual(m.Values, wantValues) {
		t.Errorf("Values = %#v, want %#v (a number setting's integer default becomes a float64)", m.Values, wantValues)
	}

	// The smallest manifest: entry defaults to main.lua, no settings.
	dir, _ = writeManifest(t, manifestHead)
	m, err = mod.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if m.Manifest.Entry != "main.lua" || len(m.Values) != 0 || len(m.Manifest.Rulesets) != 0 {
		t.Errorf("smallest manifest: %+v, values %v; want entry main.lua and no settings", m.Manifest, m.Values)
	}
}

// newMod returns a mod for Order: only its manifest matters.
func newMod(id string, priority int, depends ...string) *mod.Mod {
	return &mod.Mod{Dir: "/mods/" + id, Manifest: mod.Manifest{ID: id, Priority: priority, Depends: depends}}
}

func ids(mods []*mod.Mod) string {
	var out []string
	for _, m := range mods {
		out = append(out, m.ID())
	}
	return strings.Join(out, " ")
}

func TestOrder(t *testing.T) {
	tests := []struct {
		name string
		mods []*mod.Mod
		want string
	}{
		{"none", nil, ""},
		{"by id", []*mod.Mod{newMod("c", 0), newMod("a", 0), newMod("b", 0)}, "a b c"},
		{"priority higher first", []*mod.Mod{newMod("a", 0), newMod("b", 5), newMod("c", -1), newMod("d", 5)}, "b d a c"},
		{"dependency first despite priority", []*mod.Mod{newMod("a", 10, "z"), newMod("z", -10)}, "z a"},
		{"dependency first despite id", []*mod.Mod{newMod("a", 0, "b"), newMod("b", 0)}, "b a"},
		{"chain", []*mod.Mod{newMod("a", 0, "b"), newMod("b", 0, "c"), newMod("c", 0)}, "c b a"},
		// gamma (10) goes first by priority, after its dependency alpha;
		// then beta (5); delta needs beta and gamma, both loaded by then.
		{"mixed", []*mod.Mod{newMod("alpha", 0), newMod("beta", 5), newMod("gamma", 10, "alpha"), newMod("delta", 20, "beta", "gamma")},
			"alpha gamma beta delta"},
		// a mod's own dependencies load by priority, then id.
		{"dependencies by priority", []*mod.Mod{newMod("top", 0, "x", "y", "w"), newMod("w", 0), newMod("x", 1), newMod("y", 1)}, "x y w top"},
		{"diamond", []*mod.Mod{newMod("d", 0, "b", "c"), newMod("b", 0, "a"), newMod("c", 0, "a"), newMod("a", 0)}, "a b c d"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := mod.Order(tt.mods, "classic")
			if err != nil {
				t.Fatal(err)
			}
			if ids(got) != tt.want {
				t.Errorf("Order = %q, want %q", ids(got), tt.want)
			}
			// The order does not depend on the order the mods come in.
			for i := range tt.mods {
				rot := append(append([]*mod.Mod(nil), tt.mods[i:]...), tt.mods[:i]...)
				got, err := mod.Order(rot, "classic")
				if err != nil || ids(got) != tt.want {
					t.Errorf("Order(rotated by %d) = %q, %v; want %q", i, ids(got), err, tt.want)
				}
			}
		})
	}
}

func TestOrderErrors(t *testing.T) {
	for_ := func(m *mod.Mod, rulesets ...string) *mod.Mod {
		m.Manifest.Rulesets = rulesets
		return m
	}
	conflicting := func(m *mod.Mod, ids ...string) *mod.Mod {
		m.Manifest.Conflicts = ids
		return m
	}
	dup := newMod("a", 0)
	dup.Dir = "/elsewhere/a"
	tests := []struct {
		name string
		mods []*mod.Mod
		want string
	}{
		{"missing dependency", []*mod.Mod{newMod("a", 0, "b")}, "mod a depends on mod b, which is not loaded"},
		{"conflict", []*mod.Mod{conflicting(newMod("a", 0), "b"), newMod("b", 0)}, "mod a conflicts with mod b; load one of them"},
		{"cycle of two", []*mod.Mod{newMod("a", 0, "b"), newMod("b", 0, "a")}, "mods depend on each other in a cycle: a → b → a"},
		{"cycle of three", []*mod.Mod{newMod("b", 0, "c"), newMod("c", 0, "a"), newMod("a", 0, "b")}, "cycle: a → b → c → a"},
		{"self", []*mod.Mod{newMod("a", 0, "a")}, "cycle: a → a"},
		{"duplicate", []*mod.Mod{newMod("a", 0), dup}, "mod a is loaded twice (/mods/a and /elsewhere/a)"},
		{"other ruleset", []*mod.Mod{newMod("b", 0), for_(newMod("a", 0), "cellular")}, "mod a is for the cellular ruleset, not classic"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := mod.Order(tt.mods, "classic")
			if err == nil {
				t.Fatalf("Order = %q, want an error", ids(got))
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Order: %v\nwant %q", err, tt.want)
			}
		})
	}
	// A mod for both rulesets, or for the one played, is fine.
	if _, err := mod.Order([]*mod.Mod{for_(newMod("a", 0), "classic", "cellular"), for_(newMod("b", 0), "cellular")}, "cellular"); err != nil {
		t.Errorf("Order(mods for cellular, cellular): %v", err)
	}
}

// TestOrderCycleNamesOnlyTheCycle: a cycle met through a mod outside it
// lists the cycle, not the way in.
func TestOrderCycleNamesOnlyTheCycle(t *testing.T) {
	mods := []*mod.Mod{newMod("c", 5, "a"), newMod("a", 0, "b"), newMod("b", 0, "a")}
	_, err := mod.Order(mods, "classic")
	if err == nil || !strings.Contains(err.Error(), "cycle: a → b → a") {
		t.Fatalf("Order: %v, want the cycle a → b → a", err)
	}
}

func TestModSet(t *testing.T) {
	dir, _ := writeManifest(t, manifestHead+`
[settings.count]
type = "int"
default = 3
min = 1
max = 10

[settings.ratio]
type = "number"
default = 0.5

[settings.on]
type = "bool"
default = false

[settings.label]
type = "string"
default = "hi"

[settings.way]
type = "choice"
choices = ["Up", "Down", "two words"]
default = "Down"
`)
	tests := []struct {
		name, text string
		want       any    // the value, when Set succeeds
		err        string // what the error says, when it fails
	}{
		{"count", "7", int64(7), ""},
		{"count", "10", int64(10), ""},
		{"count", "11", nil, "above the maximum 10"},
		{"count", "0", nil, "below the minimum 1"},
		{"count", "1.5", nil, "want an integer"},
		{"count", "many", nil, "want an integer"},
		{"ratio", "2", float64(2), ""},
		{"ratio", "0.25", 0.25, ""},
		{"ratio", "nan", nil, "not a finite number"},
		{"on", "true", true, ""},
		{"on", "1", nil, "want true or false"},
		{"label", `"two words"`, "two words", ""},
		{"label", "bare", "bare", ""},
		{"label", "3", nil, "want a string"},
		{"label", "not a value", nil, "is not a value"},
		{"way", "Up", "Up", ""},
		{"way", `"two words"`, "two words", ""},
		{"way", "up", nil, `want one of Up, Down, two words, got the string "up"`},
		{"way", "3", nil, "want one of Up, Down, two words, got the integer 3"},
		{"size", "3", nil, `mod m has no setting "size" (settings: count, label, on, ratio, way)`},
	}
	for _, tt := range tests {
		t.Run(tt.name+"="+tt.text, func(t *testing.T) {
			m, err := mod.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			before := map[string]any{}
			for k, v := range m.Values {
				before[k] = v
			}
			err = m.Set(tt.name, tt.text)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("Set(%s, %s) = %v, want an error saying %q", tt.name, tt.text, err, tt.err)
				}
				if !reflect.DeepEqual(m.Values, before) {
					t.Errorf("a failed Set changed the values: %v, want %v", m.Values, before)
				}
				return
			}
			if err != nil {
				t.Fatalf("Set(%s, %s): %v", tt.name, tt.text, err)
			}
			if got := m.Values[tt.name]; !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Set(%s, %s): value %#v, want %#v", tt.name, tt.text, got, tt.want)
			}
		})
	}
}

// BenchmarkLoadManifest: LoadFS of a shipped mod's manifest (bomb's, with
// its settings), its every check and the places of its keys.
func BenchmarkLoadManifest(b *testing.B) {
	data, err := os.ReadFile("../../mods/bomb/mod.toml")
	if err != nil {
		b.Fatal(err)
	}
	fsys, err := mod.MemFS(map[string][]byte{"mod.toml": data, "main.lua": nil})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := mod.LoadFS(fsys, "bomb"); err != nil {
			b.Fatal(err)
		}
	}
}
