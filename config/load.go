package config

import (
	"embed"
	"errors"
	"fmt"
	"github.com/mod2048/mod2048/config/tomlkeys"
	"io/fs"
	"maps"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"github.com/mod2048/mod2048/config/infile"
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
		return nil, unknownPreset(name)
	}
	src, err := presetFS.ReadFile(presetPath(name))
	if err != nil {
		return nil, unknownPreset(name)
	}
	return src, nil
}

func unknownPreset(name string) error {
	return fmt.Errorf("unknown preset %q (known: %s)", name, strings.Join(Presets(), ", "))
}

// presetPath is the file of a preset in the embedded folder, and the file
// that errors about its settings name.
func presetPath(name string) string { return "presets/" + name + ".toml" }

var validName = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)

// Preset returns the configuration of a built-in preset. The origin of its
// settings is the preset's file, presets/NAME.toml, and line.
func Preset(name string) (*Config, error) {
	src, err := PresetSource(name)
	if err != nil {
		return nil, &Error{Key: "preset", Err: err}
	}
	f, err := parseFile(src, presetPath(name))
	if err != nil {
		return nil, err
	}
	c := &Config{Preset: name, origin: map[string]Origin{}, layers: []string{"preset " + name + " (built in)"}}
	if _, ok := f.raw["ruleset"]; !ok {
		return nil, &Error{Origin: Origin{File: f.name}, Key: "ruleset", Err: errors.New("a preset must name its ruleset")}
	}
	if err := c.apply(f); err != nil {
		return nil, err
	}
	return c, nil
}

// Default returns the default preset of a ruleset (see DefaultPreset).
func Default(ruleset string) (*Config, error) {
	name, err := DefaultPreset(ruleset)
	if err != nil {
		return nil, &Error{Key: "ruleset", Err: err}
	}
	return Preset(name)
}

// MaxFileSize is the most bytes a configuration file may have: a thousand
// times a preset's size. A larger file, or one that is not a regular file
// (a pipe, a device), is refused before it is read.
const MaxFileSize = 1 << 20

// readFile reads a configuration file, a regular file of at most
// MaxFileSize bytes.
func readFile(path string) ([]byte, error) { return infile.Read(path, MaxFileSize) }

// LoadFile reads the TOML file at path as Parse reads its text.
func LoadFile(path, base string) (*Config, error) {
	src, err := readFile(path)
	if err != nil {
		return nil, fileError(path, err)
	}
	return Parse(src, path, base)
}

// fileError locates an error reading the file at path.
func fileError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &Error{Origin: Origin{File: path}, Err: err}
}

// Parse reads TOML text, a user's file, over the preset it starts from: the
// preset it names with a `preset` key, or else the default preset of the
// ruleset it names with a `ruleset` key, or else base. Base is a ruleset
// (its default preset) or a preset; "" is the classic ruleset. Name is the
// file's name for errors. Parse does not validate: call Validate after the
// last layer.
func Parse(src []byte, name, base string) (*Config, error) {
	f, err := parseFile(src, name)
	if err != nil {
		return nil, err
	}
	fallback, err := basePreset(base)
	if err != nil {
		return nil, &Error{Origin: Origin{File: name}, Err: err}
	}
	return layer(layers{fallback: fallback, file: f})
}

// basePreset resolves Parse's base to a preset's name.
func basePreset(base string) (string, error) {
	if base == "" {
		base = "classic"
	}
	if p, err := DefaultPreset(base); err == nil {
		return p, nil
	}
	if _, err := PresetSource(base); err != nil {
		return "", fmt.Errorf("%q is neither a ruleset (%s) nor a preset (%s)", base, strings.Join(Rulesets(), ", "), strings.Join(Presets(), ", "))
	}
	return base, nil
}

// Set applies one "key=value" override; the key is dotted for tables
// ("blight.charges=2"), the value is a TOML value, and a bare word is taken
// as a string. Origin says where the override was written.
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
	if _, err := toml.Decode("v = "+value, &doc); err != nil || len(doc) != 1 {
		if err == nil || !bareWord.MatchString(value) {
			return &Error{Origin: origin, Key: key, Err: fmt.Errorf("%q is not a TOML value", value)}
		}
		doc = map[string]any{"v": value}
	}
	v := doc["v"]
	if key == "preset" {
		s, isString := v.(string)
		if !isString {
			return &Error{Origin: origin, Key: key, Err: fmt.Errorf("want a string, got %s", tomlkeys.ValueText(v))}
		}
		if s != c.Preset {
			return &Error{Origin: origin, Key: key, Err: fmt.Errorf("%q is not the preset %q this configuration started from: choose the preset first (--difficulty, Difficulty: or a file's preset key)", s, c.Preset)}
		}
		return nil
	}
	// A table value sets several keys: on an error, set none.
	classic, cells, origins := c.Classic, c.Cellular, maps.Clone(c.origin)
	if err := c.setKey(strings.Split(key, "."), v, origin); err != nil {
		c.Classic, c.Cellular, c.origin = classic, cells, origins
		return err
	}
	c.layers = append(c.layers, strings.TrimSpace(origin.String()+" "+key+"="+value))
	return nil
}

var (
	keyPattern = regexp.MustCompile(`^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$`)
	bareWord   = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)
)

// fileLayer is a TOML file, decoded: its values, its keys in order and the
// line of each key.
type fileLayer struct {
	name  string
	raw   map[string]any
	keys  []toml.Key
	lines map[string]int
}

func parseFile(src []byte, name string) (*fileLayer, error) {
	var raw map[string]any
	md, err := toml.Decode(string(src), &raw)
	if err != nil {
		return nil, tomlError(name, err)
	}
	return &fileLayer{name: name, raw: raw, keys: md.Keys(), lines: tomlkeys.Lines(src)}, nil
}

// origin returns where the file sets the dotted key: its line, or the line
// of the table that holds it (an inline table's keys have no line of their
// own).
func (f *fileLayer) origin(key string) Origin {
	for k := key; ; {
		if n, ok := f.lines[k]; ok {
			return Origin{f.name, n}
		}
		i := strings.LastIndexByte(k, '.')
		if i < 0 {
			return Origin{File: f.name}
		}
		k = k[:i]
	}
}

// apply sets every key of the file onto c: ruleset first, then the keys of
// the ruleset in the file's order. The preset key was read before, when
// the configuration started from its preset.
func (c *Config) apply(f *fileLayer) error {
	if c.origin == nil {
		c.origin = map[string]Origin{}
	}
	if v, ok := f.raw["ruleset"]; ok {
		if err := c.setKey([]string{"ruleset"}, v, f.origin("ruleset")); err != nil {
			return err
		}
	}
	if v, ok := f.raw["preset"]; ok {
		if _, isString := v.(string); !isString {
			return &Error{Origin: f.origin("preset"), Key: "preset", Err: fmt.Errorf("want a string, got %s", tomlkeys.ValueText(v))}
		}
	}
	// Every key's error, each once, so that a file with three mistakes
	// says all three at once.
	var errs []error
	for _, k := range f.keys {
		name := strings.Join(k, ".")
		if len(k) == 1 && (k[0] == "ruleset" || k[0] == "preset") {
			continue
		}
		v := tomlkeys.ValueAt(f.raw, k)
		origin := f.origin(name)
		if _, table := v.(map[string]any); table {
			// The table's keys follow, each with its line: check only
			// that the table is one.
			if err := c.checkTable(k, origin); err != nil {
				errs = append(errs, err)
			}
			continue
		}
		if err := c.setKey(k, v, origin); err != nil {
			errs = append(errs, err)
		}
	}
	return join(errs...)
}

// tomlError turns BurntSushi/toml's error into an *Error with the file and
// line.
func tomlError(name string, err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return &Error{Origin: Origin{name, pe.Position.Line}, Key: pe.LastKey, Err: errors.New(sentence(pe.Message))}
	}
	return &Error{Origin: Origin{File: name}, Err: errors.New(sentence(strings.TrimPrefix(err.Error(), "toml: ")))}
}

// sentence writes a message as Go errors are written: lower-case (unless
// its first word is an acronym or a name), without final punctuation.
func sentence(msg string) string {
	msg = strings.TrimRight(strings.TrimSpace(msg), ".")
	r, n := utf8.DecodeRuneInString(msg)
	next, _ := utf8.DecodeRuneInString(msg[n:])
	if unicode.IsUpper(r) && !unicode.IsUpper(next) {
		msg = string(unicode.ToLower(r)) + msg[n:]
	}
	return msg
}
