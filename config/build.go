package config

import (
	"fmt"

	"github.com/mod2048/mod2048/config/tomlkeys"
)

// BuildOptions are the layers of a configuration as the command line gives
// them (--ruleset, --difficulty, --config, --set).
type BuildOptions struct {
	// Ruleset is the ruleset the configuration must be of; "" accepts the
	// ruleset the preset or the file names (classic when neither does).
	Ruleset string
	// Difficulty is the preset to start from; "" starts from the preset the
	// file names, or else the default preset of the ruleset.
	Difficulty string
	// File is a TOML file whose settings go over the preset; "" for none.
	File string
	// Sets are key=value overrides, applied last, in order.
	Sets []string
}

// Build makes the configuration of a game from its layers: the preset
// (o.Difficulty, or the one o.File names, or the default preset of the
// ruleset that o.Ruleset or o.File names, or classic), then o.File's
// settings, then each of o.Sets. It validates the result. A file that names a
// preset other than o.Difficulty, or a ruleset other than o.Ruleset, is an
// error located at the file's line.
func Build(o BuildOptions) (*Config, error) {
	ruleset := o.Ruleset
	if ruleset == "" {
		ruleset = "classic"
	}
	fallback, err := DefaultPreset(ruleset)
	if err != nil {
		return nil, &Error{Origin: Origin{File: "--ruleset"}, Err: err}
	}
	l := layers{ruleset: o.Ruleset, difficulty: o.Difficulty, fallback: fallback}
	if o.File != "" {
		src, err := readFile(o.File)
		if err != nil {
			return nil, fileError(o.File, err)
		}
		if l.file, err = parseFile(src, o.File); err != nil {
			return nil, err
		}
	}
	c, err := layer(l)
	if c == nil {
		return nil, err
	}
	errs := []error{err}
	for _, kv := range o.Sets {
		if err := c.Set(kv, Origin{File: "--set"}); err != nil {
			errs = append(errs, err)
		}
	}
	if err := c.Validate(); err != nil {
		errs = append(errs, err)
	}
	if err := join(errs...); err != nil {
		return nil, err
	}
	return c, nil
}

// layers are the first two layers of a configuration: which preset to start
// from, and a file to apply over it.
type layers struct {
	ruleset    string // the ruleset the preset must be of ("" for any)
	difficulty string // the preset asked for ("" for none)
	fallback   string // the preset when neither difficulty nor the file names one
	file       *fileLayer
}

// layer starts from the preset that l names and applies l's file over it.
// Build and Parse, and so LoadFile, go through it.
func layer(l layers) (*Config, error) {
	name, at, key := l.fallback, Origin{}, "preset"
	if l.difficulty != "" {
		name, at = l.difficulty, Origin{File: "--difficulty"}
	}
	f := l.file
	if f != nil {
		if v, ok := f.raw["preset"]; ok {
			p, isString := v.(string)
			fileAt := f.origin("preset")
			switch {
			case !isString:
				return nil, &Error{Origin: fileAt, Key: "preset", Err: fmt.Errorf("want a string, got %s", tomlkeys.ValueText(v))}
			case l.difficulty != "" && p != l.difficulty:
				return nil, &Error{Origin: fileAt, Key: "preset", Err: fmt.Errorf("%q conflicts with --difficulty %s", p, l.difficulty)}
			}
			name, at = p, fileAt
		} else if r, ok := f.raw["ruleset"].(string); ok && l.difficulty == "" {
			p, err := DefaultPreset(r)
			if err != nil {
				return nil, &Error{Origin: f.origin("ruleset"), Key: "ruleset", Err: err}
			}
			name, at, key = p, f.origin("ruleset"), "ruleset"
		}
	}
	c, err := Preset(name)
	if err != nil {
		if e, ok := err.(*Error); ok && e.Key == "preset" {
			e.Origin = at
		}
		return nil, err
	}
	if l.ruleset != "" && c.Ruleset != l.ruleset {
		if key == "ruleset" {
			return nil, &Error{Origin: at, Key: key, Err: fmt.Errorf("%q does not match --ruleset %s", c.Ruleset, l.ruleset)}
		}
		return nil, &Error{Origin: at, Key: key, Err: fmt.Errorf("%q is a preset of the %s ruleset, not of %s (--ruleset)", name, c.Ruleset, l.ruleset)}
	}
	if f != nil {
		c.layers = append(c.layers, "file "+f.name)
		if err := c.apply(f); err != nil {
			// The keys that were set are set: Build goes on to check the
			// values, so that every mistake of the file is said at once.
			return c, err
		}
	}
	return c, nil
}
