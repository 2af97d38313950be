package engine

import (
	"fmt"
	"strings"
)

// FormatMarks writes marks as fixtures' Marks: lines do: NAME(ROW,COL)/TURNS
// each, separated by spaces, or "none".
func FormatMarks(ms []Mark) string {
	if len(ms) == 0 {
		return "none"
	}
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = fmt.Sprintf("%s(%d,%d)/%d", m.Name, m.Pos.Row, m.Pos.Col, m.Turns)
	}
	return strings.Join(parts, " ")
}
