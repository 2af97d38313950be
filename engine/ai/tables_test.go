package ai

import (
	"testing"

	"pgregory.net/rapid"
)

// TestTableLineIsRow: the forked search's evaluation of a line, looked up
// in the tables where its levels fit, is exactly the sum of row over the
// line's 4-cell windows (the padded line where it is shorter).
func TestTableLineIsRow(t *testing.T) {
	w := Defaults().Weights
	tab := tablesFor(w)
	rapid.Check(t, func(rt *rapid.T) {
		l := rapid.SliceOfN(rapid.Uint16Range(0, 20), 1, 8).Draw(rt, "line")
		want := 0.0
		for i := 0; i+4 <= len(l); i++ {
			want += w.row([4]uint16{l[i], l[i+1], l[i+2], l[i+3]})
		}
		if len(l) < 4 {
			var pad [4]uint16
			copy(pad[:], l)
			want = w.row(pad)
		}
		if got := tab.line(w, l); got != want {
			rt.Fatalf("line %v: %v, want %v", l, got, want)
		}
	})
}
