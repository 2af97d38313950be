package scripting_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
)

func TestOnAndHazardOnlyWhileLoading(t *testing.T) {
	g := mergeGame(t)
	h := attach(t, g, luaMod(t, "late", `
game.on("before_move", function(e)
  local ok1, err1 = pcall(game.on, "tick", function() end)
  local ok2, err2 = pcall(game.hazard, {name = "late", glyph = "x"})
  game.log(tostring(ok1), err1)
  game.log(tostring(ok2), err2)
end)
game.on("tick", function(e) game.on("tick", function() end) end)
`))
	move(t, h, g, engine.Left)
	// The move is played again without the mod, which failed in tick:
	// before_move ran once.
	wantLog(t, h, "late",
		"false\tmain.lua:3: game.on: handlers are registered when the mod loads, not later",
		"false\tmain.lua:4: game.hazard: hazards are defined when the mod loads, not later",
	)
	reports := h.TakeReports()
	if len(reports) != 1 || reports[0].Event != "tick" || !strings.Contains(reports[0].Message, "game.on: handlers are registered when the mod loads") {
		t.Errorf("reports %+v, want game.on's error in tick", reports)
	}
	if len(h.Hazards()) != 0 {
		t.Errorf("hazards %+v, want none", h.Hazards())
	}
	// The tick handler registered no second handler: the next move calls
	// before_move once.
	move(t, h, g, engine.Right)
	if n := len(h.Log("late")); n != 4 {
		t.Errorf("log %q, want 4 lines", h.Log("late"))
	}
}

// TestLoadTimeAPIErrors: game.on and game.hazard check their arguments.
func TestLoadTimeAPIErrors(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{`game.on("merge", function() end)`, `game.on: unknown event "merge" (events: before_move, after_merge, spawn, tick)`},
		{`game.on("tick", 5)`, `function expected`},
		{`game.on(5, function() end)`, `unknown event "5"`},
		{`for i = 1, 65 do game.on("tick", function() end) end`, `game.on: a mod may register at most 64 handlers for tick`},
		{`game.hazard{name = "Ice", glyph = "*"}`, `game.hazard: name "Ice" is not lower-case`},
		{`game.hazard{name = "ice", glyph = "**"}`, `game.hazard: glyph: want one visible character, got "**"`},
		{`game.hazard{name = "ice"}`, `game.hazard: glyph: want a string of 1 to 8 characters, got nil`},
		{`game.hazard{name = "ice", glyph = "*", color = "pink"}`, `game.hazard: color "pink" is not a color name or #rrggbb`},
		{`game.hazard{name = "ice", glyph = "*", color = "#12345g"}`, `not a color name or #rrggbb`},
		{`game.hazard{name = "ice", glyph = "*", blocks = 1}`, `game.hazard: blocks: want true or false, got the number 1`},
		{`game.hazard{name = "ice", glyph = "*", size = 1}`, `game.hazard: unknown key the string "size"`},
		{`game.hazard{name = "ice", glyph = "*"}; game.hazard{name = "ice", glyph = "+"}`, `game.hazard: ld:ice is defined twice`},
		{`game.hazard("ice")`, `table expected`},
	} {
		g := mergeGame(t)
		m := luaMod(t, "ld", tt.src)
		_, err := scripting.NewHost([]*mod.Mod{m}, g.Rules(), g.Options(), testLimits)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "mod ld (main.lua:1): load: ") {
			t.Errorf("%s: NewHost: %v\nwant mod ld (main.lua:1): load: ...%s", tt.src, err, tt.want)
		}
	}
	// 64 handlers are allowed.
	g := mergeGame(t)
	h := attach(t, g, luaMod(t, "ld", `for i = 1, 64 do game.on("tick", function(e) game.log(i) end) end`))
	move(t, h, g, engine.Left)
	if n := len(h.Log("ld")); n != 64 {
		t.Errorf("%d handlers ran, want 64", n)
	}
}

func TestRequire(t *testing.T) {
	dir := writeMod(t, "req", "", map[string]string{
		"main.lua": `
local a = require("counter")
local b = require("counter")
a.n = a.n + 1
game.log("same", tostring(a == b), b.n)
game.log(require("lib/util").twice(21))
require("nothing")
for _, name in ipairs({"../outside", "/etc/passwd", "a.b", "lib/../counter", "counter.lua", "", "lib\\util", "./counter"}) do
  local ok, err = pcall(require, name)
  game.log(name, tostring(ok), err)
end
local ok, err = pcall(require, "missing")
game.log("missing", tostring(ok), err ~= nil)
game.on("tick", function(e) game.log("tick", require("counter").n) end)
`,
		"counter.lua":  `game.log("counter runs"); return {n = 0}`,
		"lib/util.lua": `return {twice = function(x) return 2 * x end}`,
		"nothing.lua":  `local x = 1`,
		"a/b.lua":      `return 1`,
	})
	if err := os.WriteFile(filepath.Join(filepath.Dir(dir), "outside.lua"), []byte(`return "escaped"`), 0o644); err != nil {
		t.Fatal(err)
	}
	g := mergeGame(t)
	h := attach(t, g, loadMod(t, dir))
	move(t, h, g, engine.Left)
	noReports(t, h)
	log := h.Log("req")
	want := []string{"counter runs", "same\ttrue\t1", "42"}
	for i, w := range want {
		if i >= len(log) || log[i] != w {
			t.Fatalf("log %q, want it to start with %q", log, want)
		}
	}
	names := []string{"../outside", "/etc/passwd", "a.b", "lib/../counter", "counter.lua", "", `lib\util`, "./counter"}
	for i, name := range names {
		line := log[len(want)+i]
		prefix := name + "\tfalse\tmain.lua:9: require: " + strconv.Quote(name) + " is not a module of this mod"
		if !strings.HasPrefix(line, prefix) {
			t.Errorf("require(%q): %q, want %q", name, line, prefix)
		}
	}
	rest := log[len(want)+len(names):]
	if len(rest) != 2 || rest[0] != "missing\tfalse\ttrue" || rest[1] != "tick\t1" {
		t.Errorf("log ends %q, want a missing module's error and the cached module in tick", rest)
	}
}

// TestRequireNothing: a module that returns nothing gives true, the first
// time as later.
func TestRequireNothing(t *testing.T) {
	g := mergeGame(t)
	h := attach(t, g, loadMod(t, writeMod(t, "req", "", map[string]string{
		"main.lua":    `game.log(tostring(require("nothing")), tostring(require("nothing")))`,
		"nothing.lua": `local x = 1`,
	})))
	wantLog(t, h, "req", "true\ttrue")
}

// TestRequireSymlink: require reaches nothing outside the mod's folder, not
// through a symbolic link either.
func TestRequireSymlink(t *testing.T) {
	dir := writeMod(t, "req", "", map[string]string{"main.lua": `game.log(tostring(pcall(require, "secret")))`})
	outside := filepath.Join(t.TempDir(), "secret.lua")
	if err := os.WriteFile(outside, []byte(`return "the secret"`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "secret.lua")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	g := mergeGame(t)
	h := attach(t, g, loadMod(t, dir))
	wantLog(t, h, "req", "false")
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string // all in NewHost's error
		file  string   // the Report's file and line, when it has them
		line  int
	}{
		{"syntax error", map[string]string{"main.lua": "local x = 1\nlocal y = = 2\n"},
			[]string{"mod bad (main.lua:2:11): load: syntax error near '='"}, "main.lua", 2},
		{"runtime error", map[string]string{"main.lua": "local x = 1\n\nerror('boom')\n"},
			[]string{"mod bad (main.lua:3): load: boom"}, "main.lua", 3},
		{"runtime error in a function", map[string]string{"main.lua": "local t = nil\nlocal function f()\n  return t.x\nend\nf()\n"},
			[]string{"mod bad (main.lua:3): load: attempt to index"}, "main.lua", 3},
		{"error with a table", map[string]string{"main.lua": "error({})\n"},
			[]string{"mod bad", "load", "(table)"}, "main.lua", 1},
		{"runtime error in a required file", map[string]string{"main.lua": "local x = 1\nrequire('lib')\n", "lib.lua": "\n\nerror('libboom')\n"},
			[]string{"mod bad (lib.lua:3): load: libboom"}, "lib.lua", 3},
		{"syntax error in a required file", map[string]string{"main.lua": "local x = 1\nrequire('lib')\n", "lib.lua": "\n\nlocal = 3\n"},
			[]string{"mod bad (lib.lua:3:7): load: syntax error near '='"}, "lib.lua", 3},
		{"other entry", map[string]string{"mod.toml+": "entry = \"start.lua\"\n", "start.lua": "\nerror('from start')\n"},
			[]string{"mod bad (start.lua:2): load: from start"}, "start.lua", 2},
		{"operator chain too deep", map[string]string{"main.lua": "local a = 1\n\nlocal x = a" + strings.Repeat(" + a", 2000) + "\n"},
			[]string{"mod bad (main.lua:3): load: expressions nested more than 1000 levels deep (an operator chain counts each operator)"}, "main.lua", 3},
		{"right-associative chain too deep", map[string]string{"main.lua": "local a = 1\n\nlocal x = a" + strings.Repeat(" ^ a", 20000) + "\n"},
			[]string{"mod bad (main.lua:3:", "): load: expressions nested too deep (an operator chain counts each operator)"}, "main.lua", 3},
		{"too many upvalues", map[string]string{"main.lua": manyUpvalues()},
			[]string{"mod bad (main.lua:4): load: function at line 4 has more than 255 upvalues"}, "main.lua", 4},
		{"binary chunk", map[string]string{"main.lua": "\x1bLua\x51\x00"},
			[]string{"mod bad", "main.lua"}, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{}
			extra := ""
			for k, v := range tt.files {
				if k == "mod.toml+" {
					extra = v
				} else {
					files[k] = v
				}
			}
			g := mergeGame(t)
			good := luaMod(t, "good", "")
			m := loadMod(t, writeMod(t, "bad", extra, files))
			h, err := scripting.NewHost([]*mod.Mod{good, m}, g.Rules(), g.Options(), testLimits)
			if err == nil {
				h.Close()
				t.Fatal("NewHost: want an error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("NewHost: %v\nwant it to say %q", err, w)
				}
			}
			var me *scripting.ModError
			if !errors.As(err, &me) {
				t.Fatalf("NewHost: %T, want a *scripting.ModError", err)
			}
			if me.Mod != "bad" || me.Event != "load" {
				t.Errorf("report %+v, want mod bad, event load", me.Report)
			}
			if tt.file != "" && (me.File != tt.file || me.Line != tt.line) {
				t.Errorf("report at %s:%d, want %s:%d", me.File, me.Line, tt.file, tt.line)
			}
			if tt.line != 0 && me.Line != tt.line {
				t.Errorf("report at line %d, want %d", me.Line, tt.line)
			}
		})
	}
}

// manyUpvalues is a file whose function at line 4 reads 256 locals of the
// functions around it.
func manyUpvalues() string {
	var names [2][]string
	for l := range names {
		for i := range 128 {
			names[l] = append(names[l], fmt.Sprintf("v%d_%d", l, i))
		}
	}
	ones := "1" + strings.Repeat(", 1", 127)
	return fmt.Sprintf("local %s = %s\nlocal function f()\nlocal %s = %s\nlocal function g()\nreturn %s\nend\nreturn g\nend\n",
		strings.Join(names[0], ", "), ones, strings.Join(names[1], ", "), ones, strings.Join(append(names[0], names[1]...), " + "))
}

// TestLoadErrorsLocated: every kind of load error is a *FileError for
// errors.As, its place as values (file, line, column, the end of the
// file), and its text names the place once.
func TestLoadErrorsLocated(t *testing.T) {
	g := mergeGame(t)
	for _, tt := range []struct {
		name     string
		manifest string // added to the manifest
		files    map[string]string
		want     mod.FileError // Mod, File, Line, Column, EOF, Key, Message
	}{
		{"syntax", "", map[string]string{"main.lua": "local x = 1\nlocal y = = 2\n"},
			mod.FileError{Mod: "bad", File: "main.lua", Line: 2, Column: 11, Message: "syntax error near '='"}},
		{"runtime at load", "", map[string]string{"main.lua": "\n\nerror('boom')\n"},
			mod.FileError{Mod: "bad", File: "main.lua", Line: 3, Message: "boom"}},
		{"manifest", "rulesets = [\"hex\"]\n", map[string]string{"main.lua": ""},
			mod.FileError{Mod: "bad", File: "mod.toml", Line: 5, Column: 13, Key: "rulesets", Message: `unknown ruleset "hex" (classic, cellular)`}},
		{"manifest syntax", "priority = = 1\n", map[string]string{"main.lua": ""},
			mod.FileError{File: "mod.toml", Line: 5, Column: 12, Message: "expected value but found '=' instead"}},
		{"manifest at its end", "rulesets = [\"classic\"", map[string]string{"main.lua": ""},
			mod.FileError{File: "mod.toml", Line: 5, Column: 21, Message: "expected a comma (',') or array terminator (']'), but got end of file"}},
		{"a required file's syntax", "", map[string]string{"main.lua": "local x = 1\nrequire('lib')\n", "lib.lua": "\n\nlocal = 3\n"},
			mod.FileError{Mod: "bad", File: "lib.lua", Line: 3, Column: 7, Message: "syntax error near '='"}},
		{"a required file's error", "", map[string]string{"main.lua": "require('lib')\n", "lib.lua": "\nerror('lib')\n"},
			mod.FileError{Mod: "bad", File: "lib.lua", Line: 2, Message: "lib"}},
		{"a required file missing", "", map[string]string{"main.lua": "\nrequire('lib')\n"},
			mod.FileError{Mod: "bad", File: "main.lua", Line: 2, Message: `require "lib": lib.lua: no such file in the mod's folder`}},
		{"Lua at its end", "", map[string]string{"main.lua": "local x = 1\nif x then\n  x = 2\n"},
			mod.FileError{Mod: "bad", File: "main.lua", Line: 3, EOF: true, OpenLine: 2, Message: "'end' expected (to close 'if' at line 2) at the end of the file"}},
		{"a block left open", "", map[string]string{"main.lua": "local n = 0\n\n\nlocal function f(ev)\n  n = n + 1\n  return n\n\n\n\n\n  local after = n\nend\n"},
			mod.FileError{Mod: "bad", File: "main.lua", Line: 11, Column: 3, OpenLine: 4, Message: "'end' expected (to close 'function' at line 4) near 'local'"}},
		{"an end too many", "", map[string]string{"main.lua": "local function f()\nend\nend\n"},
			mod.FileError{Mod: "bad", File: "main.lua", Line: 3, Column: 1, Message: "'<eof>' expected near 'end'"}},
		{"an expression cut short", "", map[string]string{"main.lua": "local x = 1 +\n  local y\n"},
			mod.FileError{Mod: "bad", File: "main.lua", Line: 2, Column: 3, Message: "syntax error near 'local'"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeMod(t, "bad", tt.manifest, tt.files)
			m, err := mod.Load(dir)
			if err == nil {
				_, err = scripting.NewHost([]*mod.Mod{m}, g.Rules(), g.Options(), testLimits)
			}
			var fe *mod.FileError
			if !errors.As(err, &fe) {
				t.Fatalf("%v (%T) is no *FileError", err, err)
			}
			got := *fe
			got.Dir, got.Err = "", nil
			if got != tt.want {
				t.Errorf("%v:\n got %+v\nwant %+v", err, got, tt.want)
			}
			// The folder as it was given: the text names the file by it.
			if fe.Dir != dir || !strings.HasPrefix(fe.Error(), filepath.Join(dir, tt.want.File)+":") {
				t.Errorf("%q: in %q, want it named in %q", fe.Error(), fe.Dir, dir)
			}
			place := fmt.Sprintf("%s:%d", tt.want.File, tt.want.Line)
			if n := strings.Count(err.Error(), place); n != 1 || strings.Count(err.Error(), tt.want.File) != 1 {
				t.Errorf("%q names its place %d times", err, n)
			}
		})
	}
}

func TestNewHostOrderError(t *testing.T) {
	g := mergeGame(t)
	m := loadMod(t, writeMod(t, "needy", "depends = [\"base\"]\n", map[string]string{"main.lua": ""}))
	if _, err := scripting.NewHost([]*mod.Mod{m}, g.Rules(), g.Options(), testLimits); err == nil || !strings.Contains(err.Error(), "mod needy depends on mod base, which is not loaded") {
		t.Errorf("NewHost: %v", err)
	}
	c := loadMod(t, writeMod(t, "cell", "rulesets = [\"cellular\"]\n", map[string]string{"main.lua": ""}))
	if _, err := scripting.NewHost([]*mod.Mod{c}, g.Rules(), g.Options(), testLimits); err == nil || !strings.Contains(err.Error(), "mod cell is for the cellular ruleset, not classic") {
		t.Errorf("NewHost: %v", err)
	}
}

// TestLoadOrder: mods load, and their handlers run, in dependency,
// priority and id order.
func TestLoadOrder(t *testing.T) {
	src := `
game.hazard{name = "h", glyph = "*"}
game.on("after_merge", function(e)
  game.log("saw " .. e.result)
  return {result = e.result * 2}
end)
`
	alpha := loadMod(t, writeMod(t, "alpha", "", map[string]string{"main.lua": src}))
	beta := loadMod(t, writeMod(t, "beta", "priority = 5\n", map[string]string{"main.lua": src}))
	gamma := loadMod(t, writeMod(t, "gamma", "priority = 10\ndepends = [\"alpha\"]\n", map[string]string{"main.lua": src}))
	g := mergeGame(t)
	h := attach(t, g, beta, gamma, alpha)
	res := move(t, h, g, engine.Left)
	noReports(t, h)
	var order []string
	for _, m := range h.Mods() {
		order = append(order, m.ID())
	}
	var hz []string
	for _, x := range h.Hazards() {
		hz = append(hz, x.Name)
	}
	if got := strings.Join(order, " "); got != "alpha gamma beta" {
		t.Errorf("Mods() = %s, want alpha gamma beta", got)
	}
	if got := strings.Join(hz, " "); got != "alpha:h gamma:h beta:h" {
		t.Errorf("Hazards() = %s, want the load order", got)
	}
	wantLog(t, h, "alpha", "saw 4")
	wantLog(t, h, "gamma", "saw 8")
	wantLog(t, h, "beta", "saw 16")
	wantRows(t, g, "32 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 2")
	if res.Gained != engine.ScoreOf(32) {
		t.Errorf("gained %v, want 32", res.Gained)
	}
}
