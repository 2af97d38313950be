package nibble

import (
	"testing"

	"pgregory.net/rapid"
)

// TestEmpty: the bit-trick count is the plain one.
func TestEmpty(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		b := rapid.Uint64().Draw(rt, "board")
		// Clear some nibbles, so that boards with many gaps come up.
		b &= rapid.Uint64().Draw(rt, "mask") | rapid.Uint64().Draw(rt, "mask2")
		if rapid.Bool().Draw(rt, "empty") {
			b = 0
		}
		n := 0
		for i := 0; i < 16; i++ {
			if b>>(4*i)&0xf == 0 {
				n++
			}
		}
		if got := Empty(b); got != n {
			rt.Fatalf("%016x: %d empty, want %d", b, got, n)
		}
	})
}
