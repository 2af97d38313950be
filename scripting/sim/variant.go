package sim

import (
	"math"
	"strconv"
	"strings"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/scripting/mod"
)

// A Variant is a configuration and its mods, by a label: a point of a
// study, a tune's candidate.
type Variant struct {
	Label  string
	Config *config.Config
	Mods   []*mod.Mod
}

// UsageError is an error in how a run was asked (a flag's value): the
// command exits with status 2 for it.
type UsageError string

func (e UsageError) Error() string { return string(e) }

// SplitList splits a comma-separated list, dropping blanks.
func SplitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// FormatStep writes a stepped number without float noise (0.30000000000000004).
func FormatStep(x float64) string {
	return strconv.FormatFloat(math.Round(x*1e6)/1e6, 'f', -1, 64)
}
