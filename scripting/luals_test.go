package scripting

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"
	"github.com/mod2048/mod2048/scripting/modapi"

	"github.com/mod2048/mod2048/engine"
)

// The mod API's description (package modapi) writes the LuaLS annotation
// file (luals/mod2048.lua; modapi's TestLuaLSFresh holds the committed
// file to it) and gives the host its lists of keys (apilist.go), which
// apilist_test.go checks against what real handlers get. These tests
// check the rest of the description against the host: its events, its
// functions, its enums, and that the file it writes is Lua.

const luaLSFile = "luals/mod2048.lua"

// docSameSet reports the names in want but not got and in got but not want.
func docSameSet(t *testing.T, what string, got, want []string) {
	t.Helper()
	g, w := slices.Clone(got), slices.Clone(want)
	sort.Strings(g)
	sort.Strings(w)
	var missing, extra []string
	for _, x := range w {
		if !slices.Contains(g, x) {
			missing = append(missing, x)
		}
	}
	for _, x := range g {
		if !slices.Contains(w, x) {
			extra = append(extra, x)
		}
	}
	if len(missing) > 0 {
		t.Errorf("%s lacks %s", what, strings.Join(missing, ", "))
	}
	if len(extra) > 0 {
		t.Errorf("%s has %s, which the host does not", what, strings.Join(extra, ", "))
	}
	if len(g) != len(slices.Compact(g)) {
		t.Errorf("%s names one twice: %v", what, got)
	}
}

// aliasValues returns the values of the description's enum name.
func aliasValues(name string) []string {
	var vs []string
	for _, al := range modapi.Spec().Aliases {
		if al.Name == name {
			for _, v := range al.Values {
				vs = append(vs, v.Value)
			}
		}
	}
	return vs
}

// TestLuaLSEvents: the description's events are the host's, in its order,
// those of API version 2 from start on (luaOn's check), and the alias
// Event lists them.
func TestLuaLSEvents(t *testing.T) {
	var names []string
	for i, e := range modapi.Spec().Events {
		names = append(names, e.Name)
		if v2 := event(i) >= evStart; v2 != (modapi.Since(e.Version) == 2) {
			t.Errorf("event %s: API version %d in the description; the host's luaOn says version 2 is %v", e.Name, e.Version, v2)
		}
	}
	if !slices.Equal(names, eventNames) {
		t.Errorf("the description's events are %q, the host's eventNames %q", names, eventNames)
	}
	if got := aliasValues("Event"); !slices.Equal(got, eventNames) {
		t.Errorf("alias mod2048.Event lists %q, the host's eventNames are %q", got, eventNames)
	}
}

// TestLuaLSFunctions: the description's game functions are the host's Go
// functions (apiFuncs), each with its parameters named.
func TestLuaLSFunctions(t *testing.T) {
	var fns []string
	for _, f := range modapi.Spec().Functions {
		fns = append(fns, f.Name)
	}
	docSameSet(t, "the description's game functions", fns, slices.Collect(maps.Keys(apiFuncs)))
}

func TestLuaLSEnums(t *testing.T) {
	var dirs []string
	for _, dir := range engine.Directions {
		dirs = append(dirs, strings.ToLower(dir.String()))
	}
	var statuses []string
	for _, s := range []engine.Status{engine.Playing, engine.Won, engine.WonContinue, engine.Lost} {
		statuses = append(statuses, s.String())
	}
	for _, c := range []struct {
		alias string
		want  []string
	}{
		{"mod2048.Direction", dirs},
		{"mod2048.Status", statuses},
		{"mod2048.ColorName", colorNames},
		{"mod2048.Ruleset", []string{engine.NewClassic().Name(), "cellular"}},
	} {
		if got := aliasValues(strings.TrimPrefix(c.alias, "mod2048.")); !slices.Equal(got, c.want) {
			t.Errorf("alias %s lists %q, want %q", c.alias, got, c.want)
		}
	}
}

// TestLuaLSIsLua loads the annotation file into a plain gopher-lua state:
// it must be valid Lua, and running it must declare exactly the game
// table's functions.
func TestLuaLSIsLua(t *testing.T) {
	L := lua.NewState()
	defer L.Close()
	if err := L.DoFile(luaLSFile); err != nil {
		t.Fatalf("%s is not valid Lua: %v", luaLSFile, err)
	}
	game, ok := L.GetGlobal("game").(*lua.LTable)
	if !ok {
		t.Fatalf("%s: running it leaves no game table", luaLSFile)
	}
	var fns []string
	game.ForEach(func(k, v lua.LValue) {
		if _, ok := v.(*lua.LFunction); !ok {
			t.Errorf("%s: game.%s is set to a %s; fields are declared with ---@field only", luaLSFile, k, v.Type())
		}
		fns = append(fns, k.String())
	})
	docSameSet(t, luaLSFile+": the functions game holds when the file runs", fns, slices.Collect(maps.Keys(apiFuncs)))
	if _, ok := L.GetGlobal("storage").(*lua.LTable); !ok {
		t.Errorf("%s: running it leaves no storage table", luaLSFile)
	}
	if _, ok := L.GetGlobal("require").(*lua.LFunction); !ok {
		t.Errorf("%s: running it leaves no require function", luaLSFile)
	}
}

// TestLuaRC checks the .luarc.json template for mod folders: Lua 5.1, the
// libraries the sandbox removes disabled, game and storage known, and the
// annotation file in the workspace library.
func TestLuaRC(t *testing.T) {
	data, err := os.ReadFile("luals/.luarc.json")
	if err != nil {
		t.Fatal(err)
	}
	var rc struct {
		Runtime struct {
			Version string            `json:"version"`
			Builtin map[string]string `json:"builtin"`
		} `json:"runtime"`
		Diagnostics struct {
			Globals []string `json:"globals"`
		} `json:"diagnostics"`
		Workspace struct {
			Library []string `json:"library"`
		} `json:"workspace"`
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	if err := dec.Decode(&rc); err != nil {
		t.Fatalf("luals/.luarc.json: %v", err)
	}
	if rc.Runtime.Version != "Lua 5.1" {
		t.Errorf(".luarc.json: runtime.version is %q, want Lua 5.1 (gopher-lua)", rc.Runtime.Version)
	}
	// The libraries newSandbox does not open.
	for _, lib := range []string{"io", "os", "debug", "coroutine", "package"} {
		if rc.Runtime.Builtin[lib] != "disable" {
			t.Errorf(".luarc.json: runtime.builtin.%s is %q, want disable: the sandbox removes it", lib, rc.Runtime.Builtin[lib])
		}
	}
	for lib, v := range rc.Runtime.Builtin {
		if v != "disable" {
			t.Errorf(".luarc.json: runtime.builtin.%s is %q", lib, v)
		}
	}
	docSameSet(t, "luals/.luarc.json's diagnostics.globals", rc.Diagnostics.Globals, []string{"game", "storage"})
	// A mod folder made by `2048 mod new` keeps the annotation file at
	// .luals/mod2048.lua.
	ok := false
	for _, lib := range rc.Workspace.Library {
		ok = ok || lib == ".luals" || lib == filepath.ToSlash(filepath.Join(".luals", filepath.Base(luaLSFile)))
	}
	if !ok {
		t.Errorf(".luarc.json: workspace.library %q does not name .luals/mod2048.lua", rc.Workspace.Library)
	}
}
