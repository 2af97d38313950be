package ai

import (
	"testing"

	"pgregory.net/rapid"
)

// TestTransTableIsAMap: any run of puts, gets and resets reads as a map
// that is emptied on reset, through the growths.
func TestTransTableIsAMap(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		var tt transTable
		tt.reset()
		want := map[uint64]ttSlot{}
		// Few distinct keys make overwrites; many make the table grow.
		keys := rapid.SampledFrom([]int{8, 1 << 20}).Draw(rt, "keys")
		for i, n := 0, rapid.IntRange(0, 3000).Draw(rt, "ops"); i < n; i++ {
			key := rapid.Uint64Range(0, uint64(keys)).Draw(rt, "key") * 0x10001
			switch rapid.IntRange(0, 20).Draw(rt, "op") {
			case 0:
				tt.reset()
				clear(want)
			case 1, 2, 3, 4, 5, 6, 7, 8, 9, 10:
				s := ttSlot{depth: int8(i % 7), value: float32(i)}
				tt.put(key, s.depth, s.value)
				want[key] = s
			default:
				d, v, ok := tt.get(key)
				w, wok := want[key]
				if ok != wok || d != w.depth || v != w.value {
					rt.Fatalf("get %x: %d %v %v, want %d %v %v", key, d, v, ok, w.depth, w.value, wok)
				}
			}
		}
		for key, w := range want {
			if d, v, ok := tt.get(key); !ok || d != w.depth || v != w.value {
				rt.Fatalf("lost %x", key)
			}
		}
	})
}
