package config

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

//go:embed presets/*.toml
var presetFS embed.FS

// Presets returns the names of the built-in presets, sorted.
func Presets() []string {
	entries, _ := fs.ReadDir(presetFS, "presets")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".toml"))
	}
	sort.Strings(names)
	return names
}

// PresetSource returns the TOML text of a built-in preset.
func PresetSource(name string) ([]byte, error) {
	if !validName.MatchString(name) {
		return nil, fmt.Errorf("unknown preset %q (known: %s)", name, strings.Join(Presets(), ", "))
	}
	src, err := presetFS.ReadFile("presets/" + name + ".toml")
	if err != nil {
		return nil, fmt.Errorf("unknown preset %q (known: %s)", name, strings.Join(Presets(), ", "))
	}
	return src, nil
}

var validName = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)

// Preset returns the configuration of a built-in preset.
func Preset(name string) (*Config, error) {
	src, err := PresetSource(name)
	if err != nil {
		return nil, &Error{Key: "preset", Err: err}
	}
	c := &Config{Preset: name, origin: map[string]Origin{}}
	if err := c.apply(src, "preset "+name); err != nil {
		return nil, err
	}
	c.Preset = name
	return c, nil
}

// Default returns the default preset of a ruleset.
func Default(ruleset string) (*Config, error) {
	return Preset(ruleset)
}

// LoadFile reads the TOML file at path: the preset it names (with a
// `preset` key), or else base, and the file's settings over it.
func LoadFile(path, base string) (*Config, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, &Error{Origin: Origin{File: path}, Err: err}
	}
	return Parse(src, path, base)
}

// Parse reads TOML text as LoadFile reads a file; name is the file's name for
// errors.
func Parse(src []byte, name, base string) (*Config, error) {
	var raw map[string]any
	if _, err := toml.Decode(string(src), &raw); err != nil {
		return nil, tomlError(name, err)
	}
	lines := keyLines(src)
	if p, ok := raw["preset"]; ok {
		s, isString := p.(string)
		if !isString {
			return nil, &Error{Origin: Origin{name, lines["preset"]}, Key: "preset", Err: fmt.Errorf("want a string, got %s", typeName(p))}
		}
		base = s
	}
	c, err := Preset(base)
	if err != nil {
		var ce *Error
		if errors.As(err, &ce) && ce.Key == "preset" {
			ce.Origin = Origin{name, lines["preset"]}
		}
		return nil, err
	}
	if err := c.apply(src, name); err != nil {
		return nil, err
	}
	return c, nil
}

// Set applies one "key=value" override; the value is a TOML value, and a bare
// word is taken as a string. Origin says where the override was written.
func (c *Config) Set(assignment string, origin Origin) error {
	key, value, ok := strings.Cut(assignment, "=")
	key, value = strings.TrimSpace(key), strings.TrimSpace(value)
	if !ok || key == "" {
		return &Error{Origin: origin, Err: fmt.Errorf("%q is not key=value", assignment)}
	}
	if !keyPattern.MatchString(key) {
		return &Error{Origin: origin, Err: fmt.Errorf("%q is not a key (letters, digits, _ and -, dotted for tables)", key)}
	}
	var doc map[string]any
	if _, err := toml.Decode("v = "+value, &doc); err != nil {
		if !bareWord.MatchString(value) {
			return &Error{Origin: origin, Key: key, Err: fmt.Errorf("%q is not a TOML value", value)}
		}
		doc = map[string]any{"v": value}
	}
	return c.setKey(strings.Split(key, "."), doc["v"], origin)
}

var (
	keyPattern = regexp.MustCompile(`^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$`)
	bareWord   = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)
)

// apply sets every key of the TOML text src onto c.
func (c *Config) apply(src []byte, name string) error {
	var raw map[string]any
	md, err := toml.Decode(string(src), &raw)
	if err != nil {
		return tomlError(name, err)
	}
	lines := keyLines(src)
	for _, k := range md.Keys() {
		v := lookup(raw, k)
		if _, table := v.(map[string]any); table {
			continue
		}
		if err := c.setKey(k, v, Origin{File: name, Line: lines[strings.Join(k, ".")]}); err != nil {
			return err
		}
	}
	return nil
}

func lookup(m map[string]any, key []string) any {
	var v any = m
	for _, k := range key {
		t, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = t[k]
	}
	return v
}

// setKey sets one setting, by its key path, to a decoded TOML value.
func (c *Config) setKey(key []string, v any, origin Origin) error {
	name := strings.Join(key, ".")
	if c.origin == nil {
		c.origin = map[string]Origin{}
	}
	bad := func(err error) error { return &Error{Origin: origin, Key: name, Err: err} }
	switch name {
	case "ruleset":
		s, ok := v.(string)
		if !ok {
			return bad(fmt.Errorf("want a string, got %s", typeName(v)))
		}
		if c.Ruleset != "" && s != c.Ruleset {
			return bad(fmt.Errorf("%q does not match the preset's ruleset %q (name a preset of that ruleset with `preset`)", s, c.Ruleset))
		}
		c.Ruleset = s
		c.origin[name] = origin
		return nil
	case "preset":
		if _, ok := v.(string); !ok {
			return bad(fmt.Errorf("want a string, got %s", typeName(v)))
		}
		return nil // Parse has already started from it
	}
	f, ok := fieldOf(&c.Classic, name)
	if !ok {
		err := fmt.Errorf("%w", ErrUnknownKey)
		if near := nearKey(name); near != "" {
			err = fmt.Errorf("%w (did you mean %q?)", ErrUnknownKey, near)
		}
		return bad(err)
	}
	if err := setValue(f, v); err != nil {
		return bad(err)
	}
	c.origin[name] = origin
	return nil
}

// fieldOf returns the field of the settings struct s whose toml tag is key.
func fieldOf(s any, key string) (reflect.Value, bool) {
	v := reflect.ValueOf(s).Elem()
	for i := 0; i < v.NumField(); i++ {
		if v.Type().Field(i).Tag.Get("toml") == key {
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}

// keys returns the toml keys of the settings struct s, in order.
func keys(s any) []string {
	t := reflect.TypeOf(s)
	var out []string
	for i := 0; i < t.NumField(); i++ {
		out = append(out, t.Field(i).Tag.Get("toml"))
	}
	return out
}

// nearKey returns the known key that key differs from only in case or in
// '-' for '_', if there is one.
func nearKey(key string) string {
	norm := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "-", "_") }
	for _, k := range append([]string{"ruleset", "preset"}, keys(Classic{})...) {
		if norm(k) == norm(key) {
			return k
		}
	}
	return ""
}

// setValue stores a decoded TOML value in a field, strictly: integers for
// integer fields, numbers for float fields, booleans, strings.
func setValue(f reflect.Value, v any) error {
	switch f.Kind() {
	case reflect.Int, reflect.Int64:
		n, ok := v.(int64)
		if !ok {
			return fmt.Errorf("want an integer, got %s", typeName(v))
		}
		if f.OverflowInt(n) {
			return fmt.Errorf("%d is too large", n)
		}
		f.SetInt(n)
	case reflect.Float64:
		switch n := v.(type) {
		case float64:
			if math.IsNaN(n) || math.IsInf(n, 0) {
				return fmt.Errorf("want a finite number, got %v", n)
			}
			f.SetFloat(n)
		case int64:
			f.SetFloat(float64(n))
		default:
			return fmt.Errorf("want a number, got %s", typeName(v))
		}
	case reflect.Bool:
		b, ok := v.(bool)
		if !ok {
			return fmt.Errorf("want true or false, got %s", typeName(v))
		}
		f.SetBool(b)
	case reflect.String:
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("want a string, got %s", typeName(v))
		}
		f.SetString(s)
	default:
		return fmt.Errorf("setting of unsupported type %s", f.Type())
	}
	return nil
}

func typeName(v any) string {
	switch v := v.(type) {
	case int64:
		return fmt.Sprintf("the integer %d", v)
	case float64:
		return fmt.Sprintf("the float %v", v)
	case bool:
		return fmt.Sprintf("the boolean %v", v)
	case string:
		return fmt.Sprintf("the string %q", v)
	case []any, []map[string]any:
		return "an array"
	case map[string]any:
		return "a table"
	case nil:
		return "nothing"
	}
	return fmt.Sprintf("a %T", v)
}

// tomlError turns BurntSushi/toml's error into an *Error with the file and
// line.
func tomlError(name string, err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return &Error{Origin: Origin{name, pe.Position.Line}, Key: pe.LastKey, Err: errors.New(pe.Message)}
	}
	return &Error{Origin: Origin{File: name}, Err: errors.New(strings.TrimPrefix(err.Error(), "toml: "))}
}

// keyLines maps each key path the TOML text defines to its line (from 1).
// It reads table headers and key = value lines; that is all the position
// BurntSushi/toml does not give.
func keyLines(src []byte) map[string]int {
	lines := map[string]int{}
	prefix := ""
	for i, line := range strings.Split(string(src), "\n") {
		t := strings.TrimSpace(line)
		switch {
		case t == "" || t[0] == '#':
			continue
		case strings.HasPrefix(t, "[["):
			end := strings.Index(t, "]]")
			if end > 0 {
				prefix = normalKey(t[2:end]) + "."
			}
		case t[0] == '[':
			end := strings.IndexByte(t, ']')
			if end > 0 {
				prefix = normalKey(t[1:end]) + "."
				lines[strings.TrimSuffix(prefix, ".")] = i + 1
			}
		default:
			if k, _, ok := strings.Cut(t, "="); ok {
				path := prefix + normalKey(k)
				if _, seen := lines[path]; !seen {
					lines[path] = i + 1
				}
			}
		}
	}
	return lines
}

// normalKey writes a TOML key (bare, quoted or dotted) as dotted bare parts.
func normalKey(k string) string {
	parts := strings.Split(k, ".")
	for i, p := range parts {
		parts[i] = strings.Trim(strings.TrimSpace(p), `"'`)
	}
	return strings.Join(parts, ".")
}
