package scripting

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"

	"github.com/mod2048/mod2048/engine"
)

// The LuaLS annotation file (luals/mod2048.lua) is what mod authors' editors
// know of the API. These tests keep it from drifting from the Go side: every
// name, event, payload key and request key the host has is declared there,
// and nothing else.

const luaLSFile = "luals/mod2048.lua"

// luaDoc is what the annotation file declares.
type luaDoc struct {
	classes map[string][]docField // class name → its fields, in order
	aliases map[string][]string   // alias name → its literal values, in order
	funcs   []docFunc             // function declarations, in order
	globals map[string]string     // global assigned a table → its ---@class or ---@type
	types   []docType             // every type the file writes, to check the names it uses
}

type docField struct {
	name     string
	optional bool
	typ      string
	line     int
}

type docFunc struct {
	name      string   // "game.on", "require"
	params    []string // the parameters of the function statement
	docParams []string // the names of its ---@param lines, in order
	overloads []string // its ---@overload types
	hasDesc   bool     // a description line precedes it
	line      int
}

type docType struct {
	typ  string
	line int
}

var (
	reClass    = regexp.MustCompile(`^---@class\s+([A-Za-z0-9_.]+)\s*$`)
	reField    = regexp.MustCompile(`^---@field\s+([A-Za-z_][A-Za-z0-9_]*)(\??)\s+(.+?)\s+#\s+\S.*$`)
	reAlias    = regexp.MustCompile(`^---@alias\s+([A-Za-z0-9_.]+)(?:\s+(.+))?$`)
	reAliasVal = regexp.MustCompile(`^---\|\s+"([^"]*)"(?:\s+#\s+\S.*)?$`)
	reParam    = regexp.MustCompile(`^---@param\s+([A-Za-z_][A-Za-z0-9_]*\??|\.\.\.)\s+(.+?)\s+#\s+\S.*$`)
	reReturn   = regexp.MustCompile(`^---@return\s+(.+?)\s+[A-Za-z_][A-Za-z0-9_]*\s+#\s+\S.*$`)
	reOverload = regexp.MustCompile(`^---@overload\s+(fun\(.*)$`)
	reType     = regexp.MustCompile(`^---@type\s+(.+)$`)
	reFunc     = regexp.MustCompile(`^function\s+([A-Za-z_][A-Za-z0-9_.]*)\(([^)]*)\)\s+end$`)
	reGlobal   = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*\{\}$`)
)

// parseLuaDoc reads the annotation file. It accepts a deliberately small
// form (doc comments, `function NAME(...) end` and `NAME = {}`), so that
// nothing can be declared in a way the checks below would miss.
func parseLuaDoc(t *testing.T, path string) *luaDoc {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := &luaDoc{classes: map[string][]docField{}, aliases: map[string][]string{}, globals: map[string]string{}}
	var (
		class, alias, typed string // the open ---@class, ---@alias and ---@type
		block               []string
	)
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimRight(sc.Text(), " \t")
		bad := func(format string, args ...any) {
			t.Errorf("%s:%d: %s", path, n, fmt.Sprintf(format, args...))
		}
		if strings.HasPrefix(line, "---") {
			block = append(block, line)
			switch {
			case strings.HasPrefix(line, "---@meta"):
			case strings.HasPrefix(line, "---@class"):
				m := reClass.FindStringSubmatch(line)
				if m == nil {
					bad("a ---@class line names one class: %q", line)
					continue
				}
				if _, dup := d.classes[m[1]]; dup {
					bad("class %s is declared twice", m[1])
				}
				class, alias = m[1], ""
				d.classes[class] = []docField{}
			case strings.HasPrefix(line, "---@field"):
				m := reField.FindStringSubmatch(line)
				if m == nil || class == "" {
					bad("a ---@field line follows a ---@class and reads `---@field name[?] type # description`: %q", line)
					continue
				}
				for _, fd := range d.classes[class] {
					if fd.name == m[1] {
						bad("field %s.%s is declared twice", class, m[1])
					}
				}
				d.classes[class] = append(d.classes[class], docField{name: m[1], optional: m[2] == "?", typ: m[3], line: n})
				d.types = append(d.types, docType{m[3], n})
			case strings.HasPrefix(line, "---@alias"):
				m := reAlias.FindStringSubmatch(line)
				if m == nil {
					bad("bad ---@alias line %q", line)
					continue
				}
				if _, dup := d.aliases[m[1]]; dup {
					bad("alias %s is declared twice", m[1])
				}
				alias, class = m[1], ""
				d.aliases[alias] = []string{}
				if m[2] != "" {
					d.types = append(d.types, docType{m[2], n})
					for _, part := range strings.Split(m[2], "|") {
						if s := strings.TrimSpace(part); strings.HasPrefix(s, `"`) {
							d.aliases[alias] = append(d.aliases[alias], strings.Trim(s, `"`))
						}
					}
				}
			case strings.HasPrefix(line, "---|"):
				m := reAliasVal.FindStringSubmatch(line)
				if m == nil || alias == "" {
					bad("a ---| line follows a ---@alias and reads `---| \"value\" [# description]`: %q", line)
					continue
				}
				d.aliases[alias] = append(d.aliases[alias], m[1])
			case strings.HasPrefix(line, "---@param"):
				m := reParam.FindStringSubmatch(line)
				if m == nil {
					bad("a ---@param line reads `---@param name type # description`: %q", line)
					continue
				}
				d.types = append(d.types, docType{m[2], n})
			case strings.HasPrefix(line, "---@return"):
				m := reReturn.FindStringSubmatch(line)
				if m == nil {
					bad("a ---@return line reads `---@return type name # description`: %q", line)
					continue
				}
				d.types = append(d.types, docType{m[1], n})
			case strings.HasPrefix(line, "---@overload"):
				m := reOverload.FindStringSubmatch(line)
				if m == nil {
					bad("bad ---@overload line %q", line)
					continue
				}
				d.types = append(d.types, docType{m[1], n})
			case strings.HasPrefix(line, "---@type"):
				m := reType.FindStringSubmatch(line)
				if m == nil {
					bad("bad ---@type line %q", line)
					continue
				}
				typed = m[1]
				d.types = append(d.types, docType{m[1], n})
			case strings.HasPrefix(line, "---@"):
				bad("annotation %q is not one this test knows; teach luals_test.go before using it", line)
			}
			continue
		}
		// A line that is not a doc comment ends the open class and alias.
		switch {
		case line == "" || (strings.HasPrefix(line, "--") && !strings.HasPrefix(line, "---")):
		case reFunc.MatchString(line):
			m := reFunc.FindStringSubmatch(line)
			fn := docFunc{name: m[1], line: n}
			for _, p := range strings.Split(m[2], ",") {
				if p = strings.TrimSpace(p); p != "" {
					fn.params = append(fn.params, p)
				}
			}
			for _, b := range block {
				switch {
				case !strings.HasPrefix(b, "---@") && strings.TrimSpace(strings.TrimPrefix(b, "---")) != "":
					fn.hasDesc = true
				case strings.HasPrefix(b, "---@param"):
					if m := reParam.FindStringSubmatch(b); m != nil {
						fn.docParams = append(fn.docParams, strings.TrimSuffix(m[1], "?"))
					}
				case strings.HasPrefix(b, "---@overload"):
					fn.overloads = append(fn.overloads, strings.TrimPrefix(b, "---@overload "))
				}
			}
			d.funcs = append(d.funcs, fn)
		case reGlobal.MatchString(line):
			name := reGlobal.FindStringSubmatch(line)[1]
			switch {
			case class != "":
				d.globals[name] = class
			case typed != "":
				d.globals[name] = typed
			default:
				bad("global %s is assigned without a ---@class or ---@type", name)
			}
		default:
			bad("the annotation file holds only doc comments, `function NAME(...) end` and `NAME = {}`, not %q", line)
		}
		class, alias, typed, block = "", "", "", nil
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return d
}

// fieldNames returns the names of a class's fields; it fails the test for a
// class the file does not declare.
func (d *luaDoc) fieldNames(t *testing.T, class string) []string {
	t.Helper()
	fields, ok := d.classes[class]
	if !ok {
		t.Errorf("%s: no ---@class %s", luaLSFile, class)
		return nil
	}
	var names []string
	for _, f := range fields {
		names = append(names, f.name)
	}
	return names
}

func (d *luaDoc) field(class, name string) (docField, bool) {
	for _, f := range d.classes[class] {
		if f.name == name {
			return f, true
		}
	}
	return docField{}, false
}

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
		t.Errorf("%s: %s lacks %s", luaLSFile, what, strings.Join(missing, ", "))
	}
	if len(extra) > 0 {
		t.Errorf("%s: %s declares %s, which the host does not have", luaLSFile, what, strings.Join(extra, ", "))
	}
	if len(g) != len(slices.Compact(g)) {
		t.Errorf("%s: %s declares a name twice: %v", luaLSFile, what, got)
	}
}

// eventStem turns an event name into the stem of its classes' names:
// "before_move" → "BeforeMove".
func eventStem(s string) string {
	var b strings.Builder
	for _, part := range strings.Split(s, "_") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

func TestLuaLSGameTable(t *testing.T) {
	d := parseLuaDoc(t, luaLSFile)
	if d.globals["game"] != "mod2048.Game" {
		t.Errorf("%s: the global game must be declared as `---@class mod2048.Game` ... `game = {}`, got %q", luaLSFile, d.globals["game"])
	}
	docSameSet(t, "the fields of game (---@field of mod2048.Game)", d.fieldNames(t, "mod2048.Game"), apiFields)
	var fns []string
	for _, fn := range d.funcs {
		if name, ok := strings.CutPrefix(fn.name, "game."); ok {
			fns = append(fns, name)
		} else if fn.name != "require" {
			t.Errorf("%s:%d: function %s: only game's functions and require are declared", luaLSFile, fn.line, fn.name)
		}
	}
	docSameSet(t, "the functions of game", fns, apiFunctions)
	for _, name := range fns {
		if _, clash := d.field("mod2048.Game", name); clash {
			t.Errorf("%s: game.%s is declared both as a field and as a function", luaLSFile, name)
		}
	}
	for _, fn := range d.funcs {
		if !fn.hasDesc {
			t.Errorf("%s:%d: function %s has no description", luaLSFile, fn.line, fn.name)
		}
		if !slices.Equal(fn.params, fn.docParams) {
			t.Errorf("%s:%d: function %s(%s) documents the parameters %v", luaLSFile, fn.line, fn.name, strings.Join(fn.params, ", "), fn.docParams)
		}
	}
}

func TestLuaLSGlobals(t *testing.T) {
	d := parseLuaDoc(t, luaLSFile)
	if _, ok := d.globals["storage"]; !ok {
		t.Errorf("%s: the global storage is not declared", luaLSFile)
	}
	var globals []string
	for name := range d.globals {
		globals = append(globals, name)
	}
	docSameSet(t, "the globals assigned", globals, []string{"game", "storage"})
	found := false
	for _, fn := range d.funcs {
		found = found || fn.name == "require"
	}
	if !found {
		t.Errorf("%s: require is not declared", luaLSFile)
	}
}

func TestLuaLSEvents(t *testing.T) {
	d := parseLuaDoc(t, luaLSFile)
	if got := d.aliases["mod2048.Event"]; !slices.Equal(got, eventNames) {
		t.Errorf("%s: alias mod2048.Event lists %q, the host's eventNames are %q", luaLSFile, got, eventNames)
	}
	// game.on has one overload per event, typing the handler's payload and
	// request.
	var on docFunc
	for _, fn := range d.funcs {
		if fn.name == "game.on" {
			on = fn
		}
	}
	var want []string
	for _, ev := range eventNames {
		c := "mod2048." + eventStem(ev)
		filter := ""
		switch ev { // game.on's filter (eventFilter)
		case EventSpawn:
			filter = ", filter?: mod2048.SpawnFilter"
		case EventTick:
			filter = ", filter?: mod2048.TickFilter"
		}
		want = append(want, fmt.Sprintf(`fun(event: %q, handler: fun(ev: %sEvent): %sRequest?%s)`, ev, c, c, filter))
	}
	if !slices.Equal(on.overloads, want) {
		t.Errorf("%s: game.on's overloads are\n\t%s\nwant\n\t%s", luaLSFile, strings.Join(on.overloads, "\n\t"), strings.Join(want, "\n\t"))
	}
}

func TestLuaLSPayloadsAndRequests(t *testing.T) {
	d := parseLuaDoc(t, luaLSFile)
	for _, ev := range eventNames {
		payload := "mod2048." + eventStem(ev) + "Event"
		request := "mod2048." + eventStem(ev) + "Request"
		docSameSet(t, "class "+payload+" (the "+ev+" payload)", d.fieldNames(t, payload), payloadKeys[ev])
		docSameSet(t, "class "+request+" (the "+ev+" request)", d.fieldNames(t, request), requestKeys[ev])
		for _, f := range d.classes[payload] {
			if f.optional {
				t.Errorf("%s:%d: %s.%s: a payload key is always there, not optional", luaLSFile, f.line, payload, f.name)
			}
		}
		for _, f := range d.classes[request] {
			if !f.optional {
				t.Errorf("%s:%d: %s.%s: a request key is optional (name?)", luaLSFile, f.line, request, f.name)
			}
		}
	}
	for key, keys := range tickEntries {
		class := "mod2048." + eventStem(key) + "Entry"
		docSameSet(t, "class "+class+" (an entry of a tick request's "+key+" list)", d.fieldNames(t, class), keys)
		if f, ok := d.field("mod2048.TickRequest", key); ok && f.typ != class+"[]" {
			t.Errorf("%s:%d: mod2048.TickRequest.%s has type %s, want %s[]", luaLSFile, f.line, key, f.typ, class)
		}
	}
	docSameSet(t, "class mod2048.Pos", d.fieldNames(t, "mod2048.Pos"), posKeys)
	if f, ok := d.field("mod2048.AfterMergeEvent", "from"); ok && f.typ != "mod2048.Pos[]" {
		t.Errorf("%s:%d: mod2048.AfterMergeEvent.from has type %s, want mod2048.Pos[]", luaLSFile, f.line, f.typ)
	}
	docSameSet(t, "class mod2048.HazardSpec (game.hazard's table)", d.fieldNames(t, "mod2048.HazardSpec"), hazardKeys)
	docSameSet(t, "class mod2048.Mark (what game.marks returns)", d.fieldNames(t, "mod2048.Mark"), markKeys)
}

func TestLuaLSFeatures(t *testing.T) {
	d := parseLuaDoc(t, luaLSFile)
	docSameSet(t, "class mod2048.Features (game.features)", d.fieldNames(t, "mod2048.Features"), featureNames)
	if f, ok := d.field("mod2048.Game", "features"); !ok || f.typ != "mod2048.Features" {
		t.Errorf("%s: game.features must have type mod2048.Features", luaLSFile)
	}
}

func TestLuaLSEnums(t *testing.T) {
	d := parseLuaDoc(t, luaLSFile)
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
		if got := d.aliases[c.alias]; !slices.Equal(got, c.want) {
			t.Errorf("%s: alias %s lists %q, want %q", luaLSFile, c.alias, got, c.want)
		}
	}
}

// TestLuaLSTypeNames checks that every mod2048.X the file uses as a type is
// a class or alias it declares.
func TestLuaLSTypeNames(t *testing.T) {
	d := parseLuaDoc(t, luaLSFile)
	name := regexp.MustCompile(`mod2048\.[A-Za-z0-9_]+`)
	for _, ty := range d.types {
		for _, n := range name.FindAllString(ty.typ, -1) {
			_, isClass := d.classes[n]
			_, isAlias := d.aliases[n]
			if !isClass && !isAlias {
				t.Errorf("%s:%d: type %s is not declared", luaLSFile, ty.line, n)
			}
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
	docSameSet(t, "the functions game holds when the file runs", fns, apiFunctions)
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
	docSameSet(t, ".luarc.json's diagnostics.globals", rc.Diagnostics.Globals, []string{"game", "storage"})
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
