package mod

import (
	"cmp"
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

	"github.com/mod2048/mod2048/config/suggest"
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

// Load reads and checks the mod in dir. Every error of the manifest is
// reported at once: one *FileError, or errors.Join of them in the order
// of their places (those of a missing key, which has none, first). Each
// names the manifest's file, line and column (an unknown key's, the
// value's or the array element's that is wrong) and key. A manifest that
// is not TOML has the one error the TOML decoder stops at.
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
	// The manifest is read as TOML values, whose keys and types are
	// checked against the Manifest's fields; the values that fit fill
	// the Manifest, whose values are then checked.
	var raw map[string]any
	md, err := toml.Decode(string(src), &raw)
	if err != nil {
		return nil, syntaxError(dir, src, err)
	}
	c := &manifestCheck{dir: dir, id: idOf(raw), places: tomlkeys.Places(src), skip: map[string]bool{}}
	for _, k := range md.Keys() {
		key := k.String()
		if c.skipped(key) {
			continue
		}
		if len(k) == 1 && key != strings.ToLower(key) {
			c.atKey(key, "keys are lower case")
			c.skip[key] = true
			continue
		}
		t, ok := manifestType(k)
		if !ok {
			// The first part that is no key: [extra.x] is about extra.
			for len(k) > 1 {
				if _, ok := manifestType(k[:len(k)-1]); ok {
					break
				}
				k = k[:len(k)-1]
			}
			key = k.String()
			if c.skipped(key) {
				continue
			}
			msg := "unknown key"
			if s := suggest.For(k[len(k)-1], manifestKeys(k[:len(k)-1])); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", strings.Join(append(k[:len(k)-1:len(k)-1], s), "."))
			}
			c.atKey(key, "%s", msg)
			c.skip[key] = true
			continue
		}
		if v := tomlkeys.ValueAt(raw, k); !fits(v, t) {
			c.atValue(key, "want %s, got %s", tomlKind(t), tomlKindOf(v))
			c.skip[key] = true
		}
	}
	var m Manifest
	c.fill(reflect.ValueOf(&m).Elem(), raw, "")
	if !modID.MatchString(m.ID) {
		if m.ID == "" && !c.skip["id"] && !md.IsDefined("id") {
			c.atValue("id", "a mod needs an id (lower-case letters, digits and _, from a letter, at most 32)")
		} else if !c.skip["id"] {
			c.atValue("id", "%q is not a mod id (lower-case letters, digits and _, from a letter, at most 32)", m.ID)
		}
	}
	if m.Name == "" && !c.skip["name"] {
		c.atValue("name", "a mod needs a name")
	}
	if m.Version == "" && !c.skip["version"] {
		c.atValue("version", "a mod needs a version")
	}
	switch {
	case c.skip["api_version"]:
	case m.APIVersion < 1:
		c.atValue("api_version", "a mod names the API version it was written for (this host offers %d)", APIVersion)
	case m.APIVersion > APIVersion:
		c.atValue("api_version", "the mod needs API version %d; this host offers %d", m.APIVersion, APIVersion)
	}
	if m.Entry == "" {
		m.Entry = "main.lua"
	}
	entryOK := !c.skip["entry"]
	if entryOK && (!strings.HasSuffix(m.Entry, ".lua") || !ValidModule(strings.TrimSuffix(m.Entry, ".lua"))) {
		c.atValue("entry", "%q is not a Lua file inside the mod's folder", m.Entry)
		entryOK = false
	}
	for i, r := range m.Rulesets {
		if r != "classic" && r != "cellular" {
			c.atElem("rulesets", i, "unknown ruleset %q (classic, cellular)", r)
		}
	}
	for _, key := range []string{"depends", "conflicts"} {
		list := m.Depends
		if key == "conflicts" {
			list = m.Conflicts
		}
		for i, id := range list {
			if !modID.MatchString(id) {
				c.atElem(key, i, "%q is not a mod id", id)
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
		if c.skipped(key) {
			continue
		}
		v, bad := checkSetting(name, m.Settings[name])
		if bad != nil {
			c.setting(key, bad)
			continue
		}
		values[name] = v
	}
	if entryOK {
		if err := statIn(fsys, dir, m.Entry); err != nil {
			c.atValue("entry", "%s: no such file in the mod's folder", m.Entry)
		}
	}
	if err := c.err(); err != nil {
		return nil, err
	}
	mod := &Mod{Dir: dir, Manifest: m, Values: values, files: fsys}
	if fsys == nil {
		mod.read = &readFiles{}
	}
	return mod, nil
}

// syntaxError is the error of a manifest that is not TOML, at the place
// the TOML decoder stopped: its line, and the column worked out from the
// error's byte offset (the decoder's own column is one line off for an
// error at a line's first byte). A key defined twice names the key, and
// where it was defined first.
func syntaxError(dir string, src []byte, err error) *FileError {
	fe := &FileError{Dir: dir, File: ManifestName, Message: strings.TrimPrefix(err.Error(), "toml: ")}
	var pe toml.ParseError
	if !errors.As(err, &pe) {
		return fe
	}
	text := string(src)
	for _, bom := range []string{"\xef\xbb\xbf", "\xff\xfe", "\xfe\xff"} {
		if strings.HasPrefix(text, bom) {
			text = text[len(bom):] // as the decoder reads it
			break
		}
	}
	fe.Line, fe.Message = pe.Position.Line, pe.Message
	if last := lastLine(text); fe.Line > last {
		fe.Line, fe.EOF = last, true
		return fe
	}
	start := 0
	for range fe.Line - 1 {
		start += strings.IndexByte(text[start:], '\n') + 1
	}
	line, _, _ := strings.Cut(text[start:], "\n")
	if col := pe.Position.Start - start + 1; col >= 1 && col <= len(line)+1 {
		fe.Column = col
	}
	if m := definedTwice.FindStringSubmatch(pe.Message); m != nil {
		fe.Key, fe.Message = m[1], "defined twice"
		if first, ok := tomlkeys.Places(src)[m[1]]; ok && first.Key.Line > 0 && first.Key.Line < fe.Line {
			fe.Message = fmt.Sprintf("defined twice (first on line %d)", first.Key.Line)
		}
	}
	return fe
}

var definedTwice = regexp.MustCompile(`^Key '(.+)' has already been defined\.$`)

// manifestCheck gathers the errors of a manifest, each at its place.
type manifestCheck struct {
	dir, id string
	places  map[string]tomlkeys.Place
	// skip holds the keys already reported (an unknown key, a value of
	// the wrong type), whose values and keys below are checked no more.
	skip map[string]bool
	errs []*FileError
}

// skipped reports whether key, or a key it is under, is reported.
func (c *manifestCheck) skipped(key string) bool {
	for k := key; ; {
		if c.skip[k] {
			return true
		}
		i := strings.LastIndexByte(k, '.')
		if i < 0 {
			return false
		}
		k = k[:i]
	}
}

func (c *manifestCheck) at(key string, pos tomlkeys.Pos, format string, args ...any) {
	if pos.Line == 0 {
		pos = c.places[key].Key // a table's value is its header
	}
	c.errs = append(c.errs, &FileError{Mod: c.id, Dir: c.dir, File: ManifestName, Line: pos.Line, Column: pos.Column, Key: key, Message: fmt.Sprintf(format, args...)})
}

// atKey reports an error at key's name.
func (c *manifestCheck) atKey(key, format string, args ...any) {
	c.at(key, c.places[key].Key, format, args...)
}

// atValue reports an error at key's value (at the key for a table; no
// place for a key the manifest lacks).
func (c *manifestCheck) atValue(key, format string, args ...any) {
	c.at(key, c.places[key].Value, format, args...)
}

// atElem reports an error at element i of key's array.
func (c *manifestCheck) atElem(key string, i int, format string, args ...any) {
	var pos tomlkeys.Pos
	if elems := c.places[key].Elems; i < len(elems) {
		pos = elems[i]
	}
	if pos.Line == 0 {
		pos = c.places[key].Value
	}
	c.at(key, pos, format, args...)
}

// setting reports the errors of the setting at key.
func (c *manifestCheck) setting(key string, bad []settingError) {
	for _, e := range bad {
		switch {
		case e.key == "":
			c.atKey(key, "%s", e.msg)
		case e.elem >= 0:
			c.atElem(key+"."+e.key, e.elem, "%s", e.msg)
		default:
			c.atValue(key+"."+e.key, "%s", e.msg)
		}
	}
}

// err returns the errors gathered, in the order of their places.
func (c *manifestCheck) err() error {
	slices.SortStableFunc(c.errs, func(a, b *FileError) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
	switch len(c.errs) {
	case 0:
		return nil
	case 1:
		return c.errs[0]
	}
	errs := make([]error, len(c.errs))
	for i, e := range c.errs {
		errs[i] = e
	}
	return errors.Join(errs...)
}

// fill sets v from the TOML value raw, as far as it fits v's type: a
// value that does not fit (reported already) is left out, and so is a key
// the type does not have.
func (c *manifestCheck) fill(v reflect.Value, raw any, key string) {
	if key != "" && c.skip[key] || !fits(raw, v.Type()) {
		return
	}
	switch v.Kind() {
	case reflect.Interface:
		v.Set(reflect.ValueOf(raw))
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		c.fill(p.Elem(), raw, key)
		v.Set(p)
	case reflect.String:
		v.SetString(raw.(string))
	case reflect.Int:
		v.SetInt(raw.(int64))
	case reflect.Float64:
		switch n := raw.(type) {
		case int64:
			v.SetFloat(float64(n))
		case float64:
			v.SetFloat(n)
		}
	case reflect.Slice:
		list := raw.([]any)
		s := reflect.MakeSlice(v.Type(), len(list), len(list))
		for i, e := range list {
			c.fill(s.Index(i), e, "")
		}
		v.Set(s)
	case reflect.Map:
		table := raw.(map[string]any)
		m := reflect.MakeMapWithSize(v.Type(), len(table))
		for name, e := range table {
			k := key + "." + name
			if c.skip[k] {
				continue
			}
			ev := reflect.New(v.Type().Elem()).Elem()
			c.fill(ev, e, k)
			m.SetMapIndex(reflect.ValueOf(name), ev)
		}
		v.Set(m)
	case reflect.Struct:
		for name, e := range raw.(map[string]any) {
			k := strings.TrimPrefix(key+"."+name, ".")
			if f, ok := fieldByTag(v.Type(), name); ok && !c.skip[k] {
				c.fill(v.FieldByIndex(f.Index), e, k)
			}
		}
	}
}

// manifestKeys lists the keys of the table at key (none when it is not a
// table of known keys): the names an unknown key there is likely to mean.
func manifestKeys(key toml.Key) []string {
	t, ok := manifestType(key)
	if !ok {
		return nil
	}
	if t.Kind() == reflect.Map {
		t = t.Elem() // settings.NAME.KEY: a setting's keys
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	var names []string
	for i := range t.NumField() {
		names = append(names, t.Field(i).Tag.Get("toml"))
	}
	return names
}

// settingError is what is wrong with a setting: at its table (key ""),
// at its key's value, or at an element of it (elem, else -1).
type settingError struct {
	key  string
	elem int
	msg  string
}

// checkSetting checks a setting's declaration and returns its default,
// or every error of it.
func checkSetting(name string, s Setting) (any, []settingError) {
	var bad []settingError
	add := func(key string, elem int, format string, args ...any) {
		bad = append(bad, settingError{key, elem, fmt.Sprintf(format, args...)})
	}
	if !modID.MatchString(name) {
		add("", -1, "%q is not a setting name (lower-case letters, digits and _, from a letter, at most 32)", name)
	}
	switch {
	case s.Type == "":
		add("", -1, "a setting needs a type: int, number, bool, string or choice")
	case !slices.Contains([]string{"int", "number", "bool", "string", "choice"}, s.Type):
		add("type", -1, "type %q is not int, number, bool, string or choice", s.Type)
	case s.Type == "choice" && len(s.Choices) < 2:
		add("choices", -1, `a choice needs two choices at least: choices = ["a", "b"]`)
	case s.Type != "choice" && s.Choices != nil:
		add("choices", -1, `choices go with type = "choice", not %q`, s.Type)
	}
	for i, ch := range s.Choices {
		if ch == "" || slices.Contains(s.Choices[:i], ch) {
			add("choices", i, "%q is empty or named twice", ch)
		}
	}
	if s.Default == nil {
		add("", -1, "a setting needs a default")
	}
	if bad != nil {
		return nil, bad
	}
	v, err := convertSetting(s, s.Default)
	if err != nil {
		return nil, []settingError{{"default", -1, err.Error()}}
	}
	return v, nil
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
			return nil, fmt.Errorf("want an integer, got %s", tomlkeys.ValueText(v))
		}
		return n, inBounds(float64(n))
	case "number":
		switch n := v.(type) {
		case int64:
			return float64(n), inBounds(float64(n))
		case float64:
			return n, inBounds(n)
		}
		return nil, fmt.Errorf("want a number, got %s", tomlkeys.ValueText(v))
	case "bool":
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("want true or false, got %s", tomlkeys.ValueText(v))
		}
		return b, nil
	case "string":
		str, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("want a string, got %s", tomlkeys.ValueText(v))
		}
		return str, nil
	case "choice":
		str, ok := v.(string)
		if !ok || !slices.Contains(s.Choices, str) {
			return nil, fmt.Errorf("want one of %s, got %s", strings.Join(s.Choices, ", "), tomlkeys.ValueText(v))
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
