package mod

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/mod2048/mod2048/config/tomlkeys"
)

// manifestType returns the Go type of the Manifest's field (or a setting's
// field) at key, by the fields' toml tags.
func manifestType(key toml.Key) (reflect.Type, bool) {
	t := reflect.TypeFor[Manifest]()
	for _, part := range key {
		switch t.Kind() {
		case reflect.Map:
			t = t.Elem()
		case reflect.Struct:
			f, ok := fieldByTag(t, part)
			if !ok {
				return nil, false
			}
			t = f.Type
		default:
			return nil, false
		}
	}
	return t, true
}

func fieldByTag(t reflect.Type, tag string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		if f := t.Field(i); f.Tag.Get("toml") == tag {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// fits reports whether the TOML value v decodes into a value of type t.
func fits(v any, t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Pointer:
		return fits(v, t.Elem())
	case reflect.String:
		_, ok := v.(string)
		return ok
	case reflect.Int:
		_, ok := v.(int64)
		return ok
	case reflect.Float64:
		switch v.(type) {
		case int64, float64:
			return true
		}
		return false
	case reflect.Slice:
		list, ok := v.([]any)
		if !ok {
			return false
		}
		for _, e := range list {
			if !fits(e, t.Elem()) {
				return false
			}
		}
		return true
	case reflect.Map, reflect.Struct:
		_, ok := v.(map[string]any)
		return ok
	}
	return false
}

// tomlKind names the TOML values a field of type t takes.
func tomlKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return tomlKind(t.Elem())
	case reflect.String:
		return "a string"
	case reflect.Int:
		return "an integer"
	case reflect.Float64:
		return "a number"
	case reflect.Slice:
		return "an array of " + strings.TrimPrefix(strings.TrimPrefix(tomlKind(t.Elem()), "a "), "an ") + "s"
	case reflect.Map:
		return "a table of settings ([settings.NAME])"
	}
	return "a table"
}

// tomlKindOf names the kind of a TOML value.
func tomlKindOf(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case []any:
		return "an array holding other values"
	case []map[string]any:
		return "an array of tables"
	case map[string]any:
		return "a table"
	}
	return "a date or time"
}

// idOf is the id a decoded manifest gives, if any.
func idOf(doc map[string]any) string {
	id, _ := doc["id"].(string)
	return id
}

// APIVersion is the version of the mod API that this program's host
// (package scripting) offers. A mod names the version it was written for in
// its manifest; a mod for a later version is refused. Features added within
// a version are listed by the host (scripting.Features).
//
// Version 2 adds the tick payload's moves and merged (tile motions); a
// version-1 mod plays as before, without them.
const APIVersion = 2

// ManifestName is the file name of a mod's manifest.
const ManifestName = "mod.toml"

// Manifest is a mod's mod.toml.
type Manifest struct {
	ID          string             `toml:"id"`
	Name        string             `toml:"name"`
	Version     string             `toml:"version"`
	APIVersion  int                `toml:"api_version"`
	Description string             `toml:"description"`
	Entry       string             `toml:"entry"`
	Rulesets    []string           `toml:"rulesets"`
	Priority    int                `toml:"priority"`
	Depends     []string           `toml:"depends"`
	Conflicts   []string           `toml:"conflicts"`
	Settings    map[string]Setting `toml:"settings"`
}

// Setting is one typed setting a mod declares, with its default and bounds.
type Setting struct {
	Type        string   `toml:"type"` // "int", "number", "bool", "string" or "choice"
	Default     any      `toml:"default"`
	Min         *float64 `toml:"min"`
	Max         *float64 `toml:"max"`
	Choices     []string `toml:"choices"` // a choice's values, two at least
	Description string   `toml:"description"`
}

// Mod is a mod folder, read and checked.
type Mod struct {
	Dir      string
	Manifest Manifest
	Values   map[string]any // the settings' values (defaults, then overrides)
	// files holds the folder's files for a mod not read from disk
	// (LoadFS); nil reads them from Dir.
	files fs.FS
	// read keeps the files of Dir once read: every host of the mod runs
	// the code it first read, and a replay records that code.
	read *readFiles
}

// ID returns the mod's id.
func (m *Mod) ID() string { return m.Manifest.ID }

// Set changes one of the mod's settings from its written form, a TOML value
// (a bare word is a string), checked against the setting's type and bounds.
func (m *Mod) Set(name, text string) error {
	s, ok := m.Manifest.Settings[name]
	if !ok {
		names := make([]string, 0, len(m.Manifest.Settings))
		for n := range m.Manifest.Settings {
			names = append(names, n)
		}
		sort.Strings(names)
		return fmt.Errorf("mod %s has no setting %q (settings: %s)", m.ID(), name, strings.Join(names, ", "))
	}
	var doc map[string]any
	if _, err := toml.Decode("v = "+text, &doc); err != nil {
		if !modID.MatchString(strings.ToLower(text)) {
			return fmt.Errorf("mod %s: setting %s: %q is not a value", m.ID(), name, text)
		}
		doc = map[string]any{"v": text}
	}
	v, err := convertSetting(s, doc["v"])
	if err != nil {
		return fmt.Errorf("mod %s: setting %s: %v", m.ID(), name, err)
	}
	m.Values[name] = v
	return nil
}

var (
	modID      = regexp.MustCompile(`^[a-z][a-z0-9_]{0,31}$`)
	moduleName = regexp.MustCompile(`^[A-Za-z0-9_]+(/[A-Za-z0-9_]+)*$`)
)

// ValidModule reports whether name may name a Lua module of a mod's folder,
// without its .lua: words of letters, digits and _, separated by slashes.
// The manifest's entry is checked by it, and so is the name a mod passes to
// require.
func ValidModule(name string) bool { return moduleName.MatchString(name) }

// Load reads and checks the mod in dir. Errors name the manifest's file,
// line and key.
func Load(dir string) (*Mod, error) { return load(dir, nil) }

// load reads and checks the mod in dir, or in fsys when it is not nil
// (dir then only names it).
func load(dir string, fsys fs.FS) (*Mod, error) {
	src, err := readIn(fsys, dir, ManifestName, MaxManifest)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, &FileError{Dir: dir, Message: "not a mod: it has no " + ManifestName}
		}
		return nil, &FileError{Dir: dir, File: ManifestName, Message: err.Error()}
	}
	// The manifest is read twice: as TOML values, whose types are checked
	// against the Manifest's fields at their keys' lines, then into the
	// Manifest, which then cannot fail on a type.
	var raw map[string]any
	md, err := toml.Decode(string(src), &raw)
	if err != nil {
		fe := &FileError{Dir: dir, File: ManifestName, Message: strings.TrimPrefix(err.Error(), "toml: ")}
		var pe toml.ParseError
		if errors.As(err, &pe) {
			fe.Line, fe.Column, fe.Message = pe.Position.Line, pe.Position.Col, pe.Message
			if fe.Line > lastLine(string(src)) {
				fe.Line, fe.Column, fe.EOF = lastLine(string(src)), 0, true
			}
		}
		return nil, fe
	}
	lines := tomlkeys.Lines(src)
	bad := func(key, format string, args ...any) error {
		return &FileError{Mod: idOf(raw), Dir: dir, File: ManifestName, Line: lines[key], Key: key, Message: fmt.Sprintf(format, args...)}
	}
	for _, k := range md.Keys() {
		key := k.String()
		if len(k) == 1 && key != strings.ToLower(key) {
			return nil, bad(key, "keys are lower case")
		}
		t, ok := manifestType(k)
		if !ok {
			return nil, bad(key, "unknown key")
		}
		if want := tomlKind(t); !fits(tomlkeys.ValueAt(raw, k), t) {
			return nil, bad(key, "want %s, got %s", want, tomlKindOf(tomlkeys.ValueAt(raw, k)))
		}
	}
	var m Manifest
	if _, err := toml.Decode(string(src), &m); err != nil {
		return nil, &FileError{Mod: idOf(raw), Dir: dir, File: ManifestName, Message: strings.TrimPrefix(err.Error(), "toml: ")}
	}
	switch {
	case !modID.MatchString(m.ID):
		return nil, bad("id", "%q is not a mod id (lower-case letters, digits and _, from a letter, at most 32)", m.ID)
	case m.Name == "":
		return nil, bad("name", "a mod needs a name")
	case m.Version == "":
		return nil, bad("version", "a mod needs a version")
	case m.APIVersion < 1:
		return nil, bad("api_version", "a mod names the API version it was written for (this host offers %d)", APIVersion)
	case m.APIVersion > APIVersion:
		return nil, bad("api_version", "the mod needs API version %d; this host offers %d", m.APIVersion, APIVersion)
	}
	if m.Entry == "" {
		m.Entry = "main.lua"
	}
	if !strings.HasSuffix(m.Entry, ".lua") || !ValidModule(strings.TrimSuffix(m.Entry, ".lua")) {
		return nil, bad("entry", "%q is not a Lua file inside the mod's folder", m.Entry)
	}
	for _, r := range m.Rulesets {
		if r != "classic" && r != "cellular" {
			return nil, bad("rulesets", "unknown ruleset %q (classic, cellular)", r)
		}
	}
	for key, list := range map[string][]string{"depends": m.Depends, "conflicts": m.Conflicts} {
		for _, id := range list {
			if !modID.MatchString(id) {
				return nil, bad(key, "%q is not a mod id", id)
			}
		}
	}
	values := map[string]any{}
	names := make([]string, 0, len(m.Settings))
	for name := range m.Settings {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		key := "settings." + name
		v, err := checkSetting(name, m.Settings[name])
		if err != nil {
			return nil, bad(key, "%v", err)
		}
		values[name] = v
	}
	if err := statIn(fsys, dir, m.Entry); err != nil {
		return nil, bad("entry", "%s: no such file in the mod's folder", m.Entry)
	}
	mod := &Mod{Dir: dir, Manifest: m, Values: values, files: fsys}
	if fsys == nil {
		mod.read = &readFiles{}
	}
	return mod, nil
}

// checkSetting checks a setting's declaration and returns its default.
func checkSetting(name string, s Setting) (any, error) {
	if !modID.MatchString(name) {
		return nil, fmt.Errorf("%q is not a setting name", name)
	}
	if s.Default == nil {
		return nil, errors.New("a setting needs a default")
	}
	switch {
	case s.Type == "choice" && len(s.Choices) < 2:
		return nil, errors.New(`a choice needs two choices at least: choices = ["a", "b"]`)
	case s.Type != "choice" && s.Choices != nil:
		return nil, fmt.Errorf(`choices go with type = "choice", not %q`, s.Type)
	}
	for i, c := range s.Choices {
		if c == "" || slices.Contains(s.Choices[:i], c) {
			return nil, fmt.Errorf("choices: %q is empty or named twice", c)
		}
	}
	return convertSetting(s, s.Default)
}

// convertSetting checks v against the setting's type and bounds.
func convertSetting(s Setting, v any) (any, error) {
	inBounds := func(f float64) error {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("%v is not a finite number", f)
		}
		if s.Min != nil && f < *s.Min {
			return fmt.Errorf("%v is below the minimum %v", f, *s.Min)
		}
		if s.Max != nil && f > *s.Max {
			return fmt.Errorf("%v is above the maximum %v", f, *s.Max)
		}
		return nil
	}
	switch s.Type {
	case "int":
		n, ok := v.(int64)
		if !ok {
			return nil, fmt.Errorf("want an integer, got %v", v)
		}
		return n, inBounds(float64(n))
	case "number":
		switch n := v.(type) {
		case int64:
			return float64(n), inBounds(float64(n))
		case float64:
			return n, inBounds(n)
		}
		return nil, fmt.Errorf("want a number, got %v", v)
	case "bool":
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("want true or false, got %v", v)
		}
		return b, nil
	case "string":
		str, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("want a string, got %v", v)
		}
		return str, nil
	case "choice":
		str, ok := v.(string)
		if !ok || !slices.Contains(s.Choices, str) {
			return nil, fmt.Errorf("want one of %s, got %v", strings.Join(s.Choices, ", "), v)
		}
		return str, nil
	}
	return nil, fmt.Errorf("type %q is not int, number, bool, string or choice", s.Type)
}

// Order puts mods in load order: every mod after the mods it depends on,
// otherwise by priority (higher first), then by id. A missing dependency, a
// conflict, a cycle, a mod loaded twice or a mod for another ruleset is an
// error that names the mods.
func Order(mods []*Mod, ruleset string) ([]*Mod, error) {
	byID := map[string]*Mod{}
	for _, m := range mods {
		if prev, dup := byID[m.ID()]; dup {
			return nil, fmt.Errorf("mod %s is loaded twice (%s and %s)", m.ID(), prev.Dir, m.Dir)
		}
		byID[m.ID()] = m
	}
	for _, m := range mods {
		if len(m.Manifest.Rulesets) > 0 && !slices.Contains(m.Manifest.Rulesets, ruleset) {
			return nil, fmt.Errorf("mod %s is for the %s ruleset, not %s", m.ID(), strings.Join(m.Manifest.Rulesets, " and "), ruleset)
		}
		for _, d := range m.Manifest.Depends {
			if byID[d] == nil {
				return nil, fmt.Errorf("mod %s depends on mod %s, which is not loaded", m.ID(), d)
			}
		}
		for _, c := range m.Manifest.Conflicts {
			if byID[c] != nil {
				return nil, fmt.Errorf("mod %s conflicts with mod %s; load one of them", m.ID(), c)
			}
		}
	}
	var out []*Mod
	state := map[string]int{} // 1 visiting, 2 done
	sorted := append([]*Mod(nil), mods...)
	sort.Slice(sorted, func(i, j int) bool {
		a, b := sorted[i].Manifest, sorted[j].Manifest
		if a.Priority != b.Priority {
			return a.Priority > b.Priority
		}
		return a.ID < b.ID
	})
	var visit func(m *Mod, path []string) error
	visit = func(m *Mod, path []string) error {
		switch state[m.ID()] {
		case 2:
			return nil
		case 1:
			cycle := append(path, m.ID())
			for i, id := range cycle {
				if id == m.ID() {
					cycle = cycle[i:]
					break
				}
			}
			return fmt.Errorf("mods depend on each other in a cycle: %s", strings.Join(cycle, " → "))
		}
		state[m.ID()] = 1
		deps := append([]string(nil), m.Manifest.Depends...)
		sort.Slice(deps, func(i, j int) bool {
			a, b := byID[deps[i]].Manifest, byID[deps[j]].Manifest
			if a.Priority != b.Priority {
				return a.Priority > b.Priority
			}
			return a.ID < b.ID
		})
		for _, d := range deps {
			if err := visit(byID[d], append(path, m.ID())); err != nil {
				return err
			}
		}
		state[m.ID()] = 2
		out = append(out, m)
		return nil
	}
	for _, m := range sorted {
		if err := visit(m, nil); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ValidID reports whether s is a mod id: lower-case letters, digits and
// _, starting with a letter, at most 32 bytes.
func ValidID(s string) bool { return modID.MatchString(s) }
