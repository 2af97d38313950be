package ai

// transTable is the search's transposition table: the value of each chance
// node's board, with the level it was searched at. It is open addressing
// with linear probing; a generation number empties it between searches in
// constant time, and it doubles when half full, so it forgets nothing
// within a search (as a map would not: the values, and so the moves, are a
// map's).
type transTable struct {
	slots []ttSlot
	gen   uint32
	n     int
	shift uint
}

type ttSlot struct {
	key   uint64
	gen   uint32
	depth int8
	value float32
}

// ttMinBits is the table's size (in bits of slots) at its first search.
const ttMinBits = 16

// reset empties the table for a new search.
func (t *transTable) reset() {
	if t.slots == nil {
		t.grow(ttMinBits)
	}
	t.gen++
	t.n = 0
	if t.gen == 0 { // wrapped: stale slots could read as fresh
		clear(t.slots)
		t.gen = 1
	}
}

func (t *transTable) grow(bits uint) {
	old := t.slots
	t.slots = make([]ttSlot, 1<<bits)
	t.shift = 64 - bits
	t.n = 0
	for _, s := range old {
		if s.gen == t.gen {
			t.put(s.key, s.depth, s.value)
		}
	}
}

func (t *transTable) home(key uint64) int {
	return int(key * 0x9E3779B97F4A7C15 >> t.shift)
}

// get returns the entry of key.
func (t *transTable) get(key uint64) (depth int8, value float32, ok bool) {
	mask := len(t.slots) - 1
	for i := t.home(key); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.gen != t.gen {
			return 0, 0, false
		}
		if s.key == key {
			return s.depth, s.value, true
		}
	}
}

// put sets the entry of key.
func (t *transTable) put(key uint64, depth int8, value float32) {
	mask := len(t.slots) - 1
	for i := t.home(key); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.gen != t.gen {
			*s = ttSlot{key: key, gen: t.gen, depth: depth, value: value}
			t.n++
			if 2*t.n > len(t.slots) {
				t.grow(64 - t.shift + 1)
			}
			return
		}
		if s.key == key {
			s.depth, s.value = depth, value
			return
		}
	}
}
