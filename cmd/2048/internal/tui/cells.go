package tui

import (
	"strconv"
	"strings"

	"github.com/mod2048/mod2048/cellular"
	"github.com/mod2048/mod2048/engine"
)

// TileText writes a classic tile of value 2^level in at most width
// columns: the number when it fits; else, below 2^40, rounded down to
// thousands, millions or billions, whichever is the first to fit (131072 is
// "131k", 2^30 "1073M" in five columns); else as a power, "2^70"; else the
// power cut short, ending in "…".
func TileText(level, width int) string {
	if level < 64 {
		s := strconv.FormatUint(uint64(1)<<level, 10)
		if len(s) <= width {
			return s
		}
		if level < 40 {
			v := uint64(1) << level
			for _, u := range []struct {
				div    uint64
				suffix string
			}{{1e3, "k"}, {1e6, "M"}, {1e9, "G"}} {
				s := strconv.FormatUint(v/u.div, 10) + u.suffix
				if v >= u.div && len(s) <= width {
					return s
				}
			}
		}
	}
	for _, s := range []string{"2^" + strconv.Itoa(level), "^" + strconv.Itoa(level)} {
		if len(s) <= width {
			return s
		}
	}
	switch {
	case width <= 0:
		return ""
	case width == 1:
		return "…"
	}
	return ("^" + strconv.Itoa(level))[:width-1] + "…"
}

// CellularText writes a cellular cell in at most width columns, in the
// ruleset's notation ("a3", "d2", "a1/2", "a3+C", "C", "B2", "b"): the
// whole notation when it fits, else without the count of turns without a
// merge, else without the catalyst (the style still shows it), else the
// energy alone.
func CellularText(r engine.Rules, c engine.Cell, width int) string {
	if c.IsEmpty() {
		return ""
	}
	full := r.FormatCell(c)
	if len(full) <= width {
		return full
	}
	if c.Kind == cellular.KindAlive || c.Kind == cellular.KindDormant {
		letter := "a"
		if c.Kind == cellular.KindDormant {
			letter = "d"
		}
		e := strconv.Itoa(int(c.Level))
		for _, s := range []string{letter + e + plusC(c), letter + e, e} {
			if len(s) <= width {
				return s
			}
		}
		return strings.Repeat("+", width)
	}
	if len(full) > width && width > 0 {
		return full[:width]
	}
	return full
}

func plusC(c engine.Cell) string {
	if c.Token == cellular.TokenCatalyst {
		return "+C"
	}
	return ""
}
