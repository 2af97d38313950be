package scripting_test

import (
	"testing"
)

// TestHostWeighed: Host.Weighed weighs what a mod holds now, as its
// memory budget does: 1 MiB more for a kept string of 1 MiB, and -1 for a
// mod the host does not have.
func TestHostWeighed(t *testing.T) {
	g := seededGame(t, 1)
	h := attach(t, g, luaMod(t, "heavy", `K = {}
game.on("tick", function() K[#K + 1] = string.rep("x", 1048576) .. #K end)`))
	before := h.Weighed("heavy")
	move(t, h, g, legal(t, g, 0))
	noReports(t, h)
	if grew := h.Weighed("heavy") - before; grew < 1<<20 || grew > 1<<20+4096 {
		t.Errorf("a kept string of 1 MiB grew the weight by %d bytes", grew)
	}
	if w := h.Weighed("nobody"); w != -1 {
		t.Errorf("Weighed of no mod: %d, want -1", w)
	}
}
