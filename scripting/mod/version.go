package mod

import (
	"cmp"
	"strconv"
	"strings"
)

// CompareVersions compares two mod versions (a manifest's version): -1, 0
// or 1. Versions are split at dots, dashes and pluses (a leading v
// dropped), and the parts compared in turn: as numbers when both are (so
// 1.10.0 is above 1.9.0), else as text; a version that runs out of parts
// first is the lower. `2048 mod install` refuses a lower version over a
// higher one without --force.
func CompareVersions(a, b string) int {
	split := func(v string) []string {
		return strings.FieldsFunc(strings.TrimPrefix(v, "v"), func(r rune) bool { return r == '.' || r == '-' || r == '+' })
	}
	pa, pb := split(a), split(b)
	for i := 0; i < min(len(pa), len(pb)); i++ {
		x, errX := strconv.ParseUint(pa[i], 10, 64)
		y, errY := strconv.ParseUint(pb[i], 10, 64)
		if errX == nil && errY == nil {
			if c := cmp.Compare(x, y); c != 0 {
				return c
			}
			continue
		}
		if c := strings.Compare(pa[i], pb[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(pa), len(pb))
}
