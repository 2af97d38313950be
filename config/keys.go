package config

import (
	"fmt"
	"github.com/mod2048/mod2048/config/tomlkeys"
	"math"
	"reflect"
	"sort"
	"strings"

	"github.com/mod2048/mod2048/cellular"
	"github.com/mod2048/mod2048/config/suggest"
	"github.com/mod2048/mod2048/engine"
)

// settingsType returns the settings struct of a ruleset: its toml tags are
// the keys, its nested structs the tables.
func settingsType(ruleset string) reflect.Type {
	switch ruleset {
	case engine.ClassicName:
		return reflect.TypeOf(Classic{})
	case cellular.Name:
		return reflect.TypeOf(cellular.Settings{})
	}
	return nil
}

// settings returns the settings struct of c's ruleset, settable; the zero
// Value for an unknown ruleset.
func (c *Config) settings() reflect.Value {
	switch c.Ruleset {
	case engine.ClassicName:
		return reflect.ValueOf(&c.Classic).Elem()
	case cellular.Name:
		return reflect.ValueOf(&c.Cellular).Elem()
	}
	return reflect.Value{}
}

// Keys returns the dotted keys of a ruleset's settings, in the order that
// `2048 config show` writes them: a struct's plain keys in struct order,
// then its tables.
func Keys(ruleset string) ([]string, error) {
	t := settingsType(ruleset)
	if t == nil {
		return nil, unknownRuleset(ruleset)
	}
	var out []string
	walkKeys(t, "", func(key string, _ reflect.StructField, table bool) {
		if !table {
			out = append(out, key)
		}
	})
	return out, nil
}

// walkKeys calls fn for every key of the struct type t, tables included,
// in show's order: plain keys first, then each table and its keys.
func walkKeys(t reflect.Type, prefix string, fn func(key string, f reflect.StructField, table bool)) {
	for i := 0; i < t.NumField(); i++ {
		if f := t.Field(i); f.Type.Kind() != reflect.Struct {
			fn(prefix+f.Tag.Get("toml"), f, false)
		}
	}
	for i := 0; i < t.NumField(); i++ {
		if f := t.Field(i); f.Type.Kind() == reflect.Struct {
			key := prefix + f.Tag.Get("toml")
			fn(key, f, true)
			walkKeys(f.Type, key+".", fn)
		}
	}
}

// fieldOf returns the field of the settings struct s at the key path, a
// leaf or a nested struct. A missing key, or a path through a field that is
// not a table, is an error that wraps ErrUnknownKey.
func fieldOf(s reflect.Value, path []string) (reflect.Value, error) {
	v := s
	for i, k := range path {
		if v.Kind() != reflect.Struct {
			return reflect.Value{}, fmt.Errorf("%w (%s is not a table)", ErrUnknownKey, strings.Join(path[:i], "."))
		}
		f, ok := field(v, k)
		if !ok {
			return reflect.Value{}, ErrUnknownKey
		}
		v = f
	}
	return v, nil
}

// field returns the field of the struct v whose toml tag is key.
func field(v reflect.Value, key string) (reflect.Value, bool) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		if t.Field(i).Tag.Get("toml") == key {
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}

// unknownKey is the error for a key c's ruleset does not have, with a hint
// when it differs from a known key only in case or in '-' for '_', or when
// it is a key of another ruleset.
func (c *Config) unknownKey(key string, err error) error {
	known := []string{"ruleset", "preset"}
	if t := settingsType(c.Ruleset); t != nil {
		walkKeys(t, "", func(k string, _ reflect.StructField, _ bool) { known = append(known, k) })
	}
	if k := suggest.Same(key, known); k != "" {
		return fmt.Errorf("%w (did you mean %q?)", err, k)
	}
	for _, r := range Rulesets() {
		if r == c.Ruleset {
			continue
		}
		ks, _ := Keys(r)
		for _, k := range ks {
			if k == key {
				return fmt.Errorf("%w (%s is a key of the %s ruleset, and this configuration is %s)", err, key, r, c.Ruleset)
			}
		}
	}
	if err != ErrUnknownKey {
		return err // it says why already ("… is not a table")
	}
	if k := suggest.Nearest(key, known); k != "" {
		return fmt.Errorf("%w (did you mean %q?)", err, k)
	}
	return err
}

// Value returns the value of a setting of c's ruleset by its dotted key: an
// int, float64, bool or string.
func (c *Config) Value(key string) (any, error) {
	f, err := fieldOf(c.settings(), strings.Split(key, "."))
	if err != nil || f.Kind() == reflect.Struct {
		return nil, c.unknownKey(key, ErrUnknownKey)
	}
	return f.Interface(), nil
}

// setKey sets one setting, by its key path, to a decoded TOML value. A table
// value sets the table's keys.
func (c *Config) setKey(path []string, v any, origin Origin) error {
	name := strings.Join(path, ".")
	if c.origin == nil {
		c.origin = map[string]Origin{}
	}
	bad := func(err error) error { return &Error{Origin: origin, Key: name, Err: err} }
	if name == "ruleset" {
		s, ok := v.(string)
		if !ok {
			return bad(fmt.Errorf("want a string, got %s", tomlkeys.ValueText(v)))
		}
		if c.Ruleset != "" && s != c.Ruleset {
			return bad(fmt.Errorf("%q does not match the preset's ruleset %q (name a preset of that ruleset with `preset`)", s, c.Ruleset))
		}
		if settingsType(s) == nil {
			return bad(unknownRuleset(s))
		}
		c.Ruleset = s
		c.origin[name] = origin
		return nil
	}
	s := c.settings()
	if !s.IsValid() {
		return bad(fmt.Errorf("no ruleset is set, so the key has no meaning"))
	}
	f, err := fieldOf(s, path)
	if err != nil {
		return bad(c.unknownKey(name, err))
	}
	table, isTable := v.(map[string]any)
	switch {
	case f.Kind() == reflect.Struct && isTable:
		keys := make([]string, 0, len(table))
		for k := range table {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if err := c.setKey(append(path[:len(path):len(path)], k), table[k], origin); err != nil {
				return err
			}
		}
		return nil
	case f.Kind() == reflect.Struct:
		return bad(fmt.Errorf("want a table, got %s", tomlkeys.ValueText(v)))
	}
	if err := setValue(f, v); err != nil {
		return bad(err)
	}
	c.origin[name] = origin
	return nil
}

// checkTable reports an error unless the key path names a table of c's
// ruleset.
func (c *Config) checkTable(path []string, origin Origin) error {
	name := strings.Join(path, ".")
	s := c.settings()
	if !s.IsValid() {
		return &Error{Origin: origin, Key: name, Err: fmt.Errorf("no ruleset is set, so the key has no meaning")}
	}
	f, err := fieldOf(s, path)
	if err != nil {
		return &Error{Origin: origin, Key: name, Err: c.unknownKey(name, err)}
	}
	if f.Kind() != reflect.Struct {
		// setValue says what the key wants instead of a table.
		return &Error{Origin: origin, Key: name, Err: setValue(reflect.New(f.Type()).Elem(), map[string]any{})}
	}
	return nil
}

// setValue stores a decoded TOML value in a field, strictly: integers for
// integer fields, numbers for float fields, booleans, strings.
func setValue(f reflect.Value, v any) error {
	switch f.Kind() {
	case reflect.Int, reflect.Int64:
		n, ok := v.(int64)
		if !ok {
			return fmt.Errorf("want an integer, got %s", tomlkeys.ValueText(v))
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
			return fmt.Errorf("want a number, got %s", tomlkeys.ValueText(v))
		}
	case reflect.Bool:
		b, ok := v.(bool)
		if !ok {
			return fmt.Errorf("want true or false, got %s", tomlkeys.ValueText(v))
		}
		f.SetBool(b)
	case reflect.String:
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("want a string, got %s", tomlkeys.ValueText(v))
		}
		f.SetString(s)
	default:
		return fmt.Errorf("setting of unsupported type %s", f.Type())
	}
	return nil
}
