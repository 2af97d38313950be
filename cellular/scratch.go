package cellular

import (
	"sync"

	"github.com/mod2048/mod2048/engine"
)

// scratch holds the working buffers of one turn, so that a turn allocates
// nothing once the pool has warmed up. Rules are shared by every game (and
// by the balance lab's workers at once), so the buffers are not theirs: a
// turn takes a scratch from the pool and gives it back.
type scratch struct {
	segs    [][]int
	out     []slot
	alive   []bool
	counts  []uint8 // the alive neighbours of each cell (neighbourCounts)
	merged  []bool
	born    []bool
	size    []int
	seen    []bool
	stack   []int
	members []int
	hit     []int
	ev      engine.MergeEvent
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

func getScratch() *scratch { return scratchPool.Get().(*scratch) }

func (sc *scratch) put() { scratchPool.Put(sc) }

// bools returns buf resized to n cells, all false.
func bools(buf []bool, n int) []bool {
	if cap(buf) < n {
		return make([]bool, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}

// ints returns buf resized to n cells, all 0.
func ints(buf []int, n int) []int {
	if cap(buf) < n {
		return make([]int, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}

// fillAlive writes into buf (resized) which cells of b are alive.
func fillAlive(buf []bool, b *engine.Board) []bool {
	buf = bools(buf, len(b.Cells))
	for i, c := range b.Cells {
		buf[i] = c.Kind == KindAlive
	}
	return buf
}
