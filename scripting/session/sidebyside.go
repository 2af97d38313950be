package session

import (
	"fmt"
	"strings"
)

// SideBySide lays out two boards' rows (engine.FormatRows) as two columns
// under their headings, each line indented by four spaces, and marks the
// rows that differ: how a fixture's failure and a replay's divergence show
// a board.
func SideBySide(leftHead, rightHead string, left, right []string) string {
	width := len(leftHead)
	for _, r := range left {
		width = max(width, len(r))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "    %-*s | %s", width, leftHead, rightHead)
	for i := 0; i < max(len(left), len(right)); i++ {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		mark := ""
		if l != r {
			mark = "   <- differs"
		}
		fmt.Fprintf(&b, "\n    %-*s | %s%s", width, l, r, mark)
	}
	return b.String()
}
