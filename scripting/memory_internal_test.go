package scripting

import (
	"github.com/mod2048/mod2048/scripting/mod"
	"testing"

	"github.com/mod2048/mod2048/engine"
)

// heldBy loads a mod whose main.lua is src and returns what a walk of its
// values measures, checking that a second walk measures the same.
func heldBy(t *testing.T, src string) int64 {
	t.Helper()
	md := weighMod(t, src)
	h, err := NewHost([]*mod.Mod{md}, engine.NewClassic(), engine.Options{Width: 4, Height: 4, Seed: 1}, defaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	n := h.mods[0].measure()
	if again := h.mods[0].measure(); again != n {
		t.Fatalf("two walks of the same values measure %d and %d", n, again)
	}
	return n
}

// TestMeasure: the walk counts what a mod holds wherever it holds it (its
// globals, a handler's upvalues, the string table a mod can still reach
// through every string), a long string held in many places once, and ends
// on cycles.
func TestMeasure(t *testing.T) {
	base := heldBy(t, "")
	for _, tc := range []struct {
		name     string
		src      string
		min, max int64
	}{
		{"a global string", `big = string.rep("x", 100000)`, 100000, 100000 + 128},
		{"one string in many slots", `big = string.rep("x", 100000) t = {} for i = 1, 100 do t[i] = big end`,
			100000 + 100*16, 100000 + 100*16 + 4096},
		{"a handler's upvalue", `local hidden = {} for i = 1, 1000 do hidden[i] = i end
game.on("tick", function() return hidden end)`, 1000 * 16, 1000*32 + 1000*16},
		{"the string table", `local s = string s.stash = string.rep("y", 100000) string = nil`, 100000, 100000 + 1024},
		{"a cycle", `a = {} a.self = a b = {a = a} a.b = b`, 2 * 112, 2 * 2048},
	} {
		got := heldBy(t, tc.src) - base
		if got < tc.min || got > tc.max {
			t.Errorf("%s: %d bytes more than an empty mod, want %d to %d", tc.name, got, tc.min, tc.max)
		}
	}
}
