// Package aiconfig reads the expert player's settings (engine/ai) from
// TOML, with errors that name the file, line and key, as package config
// reads a game's. It is a package of its own so that what builds games
// (the browser's WebAssembly among them) does not carry the expert player.
package aiconfig

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/mod2048/mod2048/config/tomlkeys"
	"github.com/mod2048/mod2048/engine/ai"
)

// Keys lists the expert player's settings file's keys, for
// messages.
const Keys = "min_depth, max_depth, depth_offset, prob_cutoff, samples, deep_samples, fork_depth, [weights]"

// Parse reads the expert player's settings (engine/ai) from TOML
// over ai.Defaults. Errors name the file (name), line and key; every
// unknown key of the file is reported at once, one a line.
func Parse(data []byte, name string) (ai.Settings, error) {
	s := ai.Defaults()
	md, err := toml.Decode(string(data), &s)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return s, fmt.Errorf("%s:%d: %s", name, pe.Position.Line, pe.Message)
		}
		if m := tomlErrLine.FindStringSubmatch(err.Error()); m != nil {
			return s, fmt.Errorf("%s:%s: %s", name, m[1], strings.TrimSpace(err.Error()[len(m[0]):]))
		}
		return s, fmt.Errorf("%s: %v", name, err)
	}
	if undec := md.Undecoded(); len(undec) > 0 {
		lines := tomlkeys.Lines(data)
		keys := make([]string, len(undec))
		for i, k := range undec {
			keys[i] = k.String()
		}
		sort.SliceStable(keys, func(i, j int) bool { return lines[keys[i]] < lines[keys[j]] })
		var errs []error
		for _, k := range keys {
			errs = append(errs, fmt.Errorf("%s:%d: %s: unknown key (keys: %s)", name, lines[k], k, Keys))
		}
		return s, errors.Join(errs...)
	}
	if err := s.Validate(); err != nil {
		return s, fmt.Errorf("%s: %v", name, err)
	}
	return s, nil
}

// tomlErrLine finds the line in BurntSushi/toml's decoding errors.
var tomlErrLine = regexp.MustCompile(`^toml: line (\d+)(?: \([^)]*\))?:`)
