// Package tomlkeys finds where a TOML document's keys are: the line of
// each key (Lines), the line and column of each key, value and array
// element (Places), which BurntSushi/toml does not give, and the value at
// a key's parts. Package config reads configurations with it, and package
// scripting/mod manifests; it imports nothing of the game, so that what
// only reads a mod's manifest does not carry the engine.
package tomlkeys

import (
	"fmt"
	"strings"
	"time"
)

// ValueAt is the value at a dotted key's parts in a decoded TOML
// document (tables as map[string]any), or nil when there is none.
func ValueAt(m map[string]any, key []string) any {
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

// Lines maps each key path the TOML text defines to its line (from 1).
// It reads table headers and key = value lines; that is all the position
// BurntSushi/toml does not give.
func Lines(src []byte) map[string]int {
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
				if _, seen := lines[strings.TrimSuffix(prefix, ".")]; !seen {
					lines[strings.TrimSuffix(prefix, ".")] = i + 1
				}
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

// ValueText names a decoded TOML value and says it, for an error about
// it: the string "ten", the integer 3, an array, a table.
func ValueText(v any) string {
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
	case time.Time:
		return "a date or time"
	case nil:
		return "nothing"
	}
	return fmt.Sprintf("a %T", v)
}
