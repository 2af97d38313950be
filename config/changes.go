package config

import (
	"fmt"
	"strings"
)

// Changes returns the settings of c that differ from base's, as key=value
// assignments (dotted keys, TOML values) in Keys order: what `--set`, or a
// fixture's Config: line, writes to make base into c. Both must be of the
// same ruleset.
func (c *Config) Changes(base *Config) ([]string, error) {
	if c.Ruleset != base.Ruleset {
		return nil, fmt.Errorf("a configuration of %s against one of %s", c.Ruleset, base.Ruleset)
	}
	keys, err := Keys(c.Ruleset)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, key := range keys {
		path := strings.Split(key, ".")
		a, err := fieldOf(c.settings(), path)
		if err != nil {
			return nil, err
		}
		b, err := fieldOf(base.settings(), path)
		if err != nil {
			return nil, err
		}
		if va, vb := formatValue(a), formatValue(b); va != vb {
			out = append(out, key+"="+va)
		}
	}
	return out, nil
}
