package ai

import (
	"math"
	"sync"

	"github.com/mod2048/mod2048/engine/bitboard"
)

// tables hold the evaluation of each of the 65536 rows of a packed board
// (the moves are package bitboard's): heur as the packed search sums it,
// exact the same value in full (row's own), which the search through the
// engine's rules reads for a row of levels below 16 (evalState).
type tables struct {
	heur  [1 << 16]float32
	exact [1 << 16]float64
}

var (
	tablesMu    sync.Mutex
	tablesCache = map[Weights]*tables{}
)

// tablesFor returns the tables of weights w, built once.
func tablesFor(w Weights) *tables {
	tablesMu.Lock()
	defer tablesMu.Unlock()
	if t, ok := tablesCache[w]; ok {
		return t
	}
	t := &tables{}
	for row := 0; row < 1<<16; row++ {
		var line [4]uint16
		for i := range line {
			line[i] = uint16(row>>(4*i)) & 0xf
		}
		t.exact[row] = w.row(line)
		t.heur[row] = float32(t.exact[row])
	}
	tablesCache[w] = t
	return t
}

// row evaluates one row (or column) of exponents: empty cells and merges
// waiting are good, a row that is not monotone is bad, and so are large
// tiles, so that the search keeps them few (the shape of nneonneo's
// heuristic, with our weights).
func (w Weights) row(line [4]uint16) float64 {
	sum, empty, merges := 0.0, 0.0, 0.0
	prev, run := uint16(0), 0
	for _, r := range line {
		sum += math.Pow(float64(r), w.SumPower)
		if r == 0 {
			empty++
			continue
		}
		if prev == r {
			run++
		} else if run > 0 {
			merges += 1 + float64(run)
			run = 0
		}
		prev = r
	}
	if run > 0 {
		merges += 1 + float64(run)
	}
	monoLeft, monoRight := 0.0, 0.0
	for i := 1; i < 4; i++ {
		a, b := math.Pow(float64(line[i-1]), w.MonotonicityPower), math.Pow(float64(line[i]), w.MonotonicityPower)
		if line[i-1] > line[i] {
			monoLeft += a - b
		} else {
			monoRight += b - a
		}
	}
	return w.Base + w.Empty*empty + w.Merges*merges - w.Monotonicity*min(monoLeft, monoRight) - w.Sum*sum
}

// eval is the board's evaluation: its rows' and its columns' (the rows of
// its transpose).
func (t *tables) eval(p bitboard.Pair) float64 {
	b, c := uint64(p.B), uint64(p.T)
	return float64(t.heur[b&0xffff]+t.heur[b>>16&0xffff]+t.heur[b>>32&0xffff]+t.heur[b>>48&0xffff]) +
		float64(t.heur[c&0xffff]+t.heur[c>>16&0xffff]+t.heur[c>>32&0xffff]+t.heur[c>>48&0xffff])
}
