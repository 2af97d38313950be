package ai

import (
	"math"
	"sync"

	"github.com/mod2048/mod2048/engine"
)

// tables are the row tables of the packed board: a row's result when it
// moves left or right, and its evaluation, for each of the 65536 rows.
type tables struct {
	left, right [1 << 16]uint16
	heur        [1 << 16]float32
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
		t.heur[row] = float32(w.row(line))
		t.left[row] = pack(slide(line))
		rev := [4]uint16{line[3], line[2], line[1], line[0]}
		out := slide(rev)
		t.right[row] = pack([4]uint16{out[3], out[2], out[1], out[0]})
	}
	tablesCache[w] = t
	return t
}

// slide moves a row of exponents to its start, merging equal neighbours
// once, as the classic rules do (a merge of two 32768s stays 32768: the
// packed board has no room for more, and Best never packs such a board).
func slide(line [4]uint16) [4]uint16 {
	var out [4]uint16
	n := 0
	merged := false
	for _, v := range line {
		if v == 0 {
			continue
		}
		if n > 0 && !merged && out[n-1] == v {
			if v < 15 {
				out[n-1]++
			}
			merged = true
			continue
		}
		out[n] = v
		n++
		merged = false
	}
	return out
}

func pack(line [4]uint16) uint16 {
	return line[0] | line[1]<<4 | line[2]<<8 | line[3]<<12
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

// transpose swaps rows and columns of the packed board.
func transpose(b uint64) uint64 {
	a1 := b & 0xF0F00F0FF0F00F0F
	a2 := b & 0x0000F0F00000F0F0
	a3 := b & 0x0F0F00000F0F0000
	a := a1 | a2<<12 | a3>>12
	b1 := a & 0xFF00FF0000FF00FF
	b2 := a & 0x00FF00FF00000000
	b3 := a & 0x00000000FF00FF00
	return b1 | b2>>24 | b3<<24
}

// move plays direction d on the packed board (no spawn).
func (t *tables) move(b uint64, d engine.Direction) uint64 {
	switch d {
	case engine.Left:
		return t.rows(b, &t.left)
	case engine.Right:
		return t.rows(b, &t.right)
	case engine.Up:
		return transpose(t.rows(transpose(b), &t.left))
	case engine.Down:
		return transpose(t.rows(transpose(b), &t.right))
	}
	return b
}

func (t *tables) rows(b uint64, table *[1 << 16]uint16) uint64 {
	return uint64(table[b&0xffff]) | uint64(table[b>>16&0xffff])<<16 | uint64(table[b>>32&0xffff])<<32 | uint64(table[b>>48&0xffff])<<48
}

// eval is the board's evaluation: its rows' and its columns'.
func (t *tables) eval(b uint64) float64 {
	c := transpose(b)
	return float64(t.heur[b&0xffff]+t.heur[b>>16&0xffff]+t.heur[b>>32&0xffff]+t.heur[b>>48&0xffff]) +
		float64(t.heur[c&0xffff]+t.heur[c>>16&0xffff]+t.heur[c>>32&0xffff]+t.heur[c>>48&0xffff])
}
