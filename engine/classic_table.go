package engine

import (
	"math/bits"
	"sync"
)

// The classic move on lines of four cells, the original board's, goes
// through a lookup table, as fast 2048 engines do: a line whose levels are
// all at most 15 packs into 16 bits (4 bits a cell, 0 for empty), and the
// table holds what slide makes of it. It is built once, on first use, by
// running slide's own rule on every one of the 65536 lines, and a test
// checks every entry against slide on a real board, so the two cannot
// disagree. Lines with a hook attached or with larger tiles take slide.

// lineEntry is what a four-cell line becomes, in 32 bits so that the whole
// table (256 KiB) stays in cache: bits 0-19 hold the levels of its cells
// after the move, front first, 5 bits each (a merge of two 15s makes 16);
// bits 20-23 mark which of those cells a merge made; bit 24 says whether the
// line changed; bits 25-27 count the empty cells of the result. The score
// gain, the number of merges and the highest merged level all follow from
// the result and the mask.
type lineEntry uint32

const lineChanged lineEntry = 1 << 24

// lineEmpties returns the empty cells of the line an entry describes.
func lineEmpties(e lineEntry) int { return int(e >> 25 & 7) }

var (
	lineTableOnce sync.Once
	lineTable     []lineEntry
)

func buildLineTable() {
	lineTable = make([]lineEntry, 1<<16)
	for key := range lineTable {
		var in [4]uint16
		for i := range in {
			in[i] = uint16(key>>(4*i)) & 15
		}
		lineTable[key] = resolveLine(in)
	}
}

// resolveLine applies the classic rule (compress, merge from the front once
// per tile, compress) to the levels of a four-cell line, front first.
func resolveLine(in [4]uint16) lineEntry {
	var tiles []uint16
	for _, lv := range in {
		if lv != 0 {
			tiles = append(tiles, lv)
		}
	}
	var e lineEntry
	out := 0
	for i := 0; i < len(tiles); i++ {
		lv := tiles[i]
		if i+1 < len(tiles) && tiles[i+1] == lv {
			lv++
			e |= 1 << (20 + out)
			i++
		}
		e |= lineEntry(lv) << (5 * out)
		if lv != in[out] {
			e |= lineChanged
		}
		out++
	}
	e |= lineEntry(4-out) << 25
	for ; out < 4; out++ {
		if in[out] != 0 {
			e |= lineChanged
		}
	}
	return e
}

// slide4 resolves a four-cell line through the table, adding its empty cells
// to *empties. It reports ok=false, having changed nothing, when a tile is
// above level 15.
func slide4(t *Turn, l line, small *uint64, empties *int) (changed bool, top uint16, ok bool) {
	cells := t.State.Board.Cells
	a, b := l.start, l.start+l.step
	c, d := b+l.step, b+2*l.step
	l0, l1, l2, l3 := cells[a].Level, cells[b].Level, cells[c].Level, cells[d].Level
	if (l0|l1|l2|l3)&^15 != 0 {
		return false, 0, false
	}
	e := lineTable[l0|l1<<4|l2<<8|l3<<12]
	*empties += lineEmpties(e)
	if e&lineChanged == 0 {
		return false, 0, true
	}
	r0, r1, r2, r3 := uint16(e&31), uint16(e>>5&31), uint16(e>>10&31), uint16(e>>15&31)
	cells[a] = classicCell(r0)
	cells[b] = classicCell(r1)
	cells[c] = classicCell(r2)
	cells[d] = classicCell(r3)
	if m := uint16(e >> 20 & 15); m != 0 {
		// Each merged cell's level, or 0 where no merge made the cell.
		m0, m1, m2, m3 := r0*(m&1), r1*(m>>1&1), r2*(m>>2&1), r3*(m>>3&1)
		t.Merges += bits.OnesCount16(m)
		*small += (1<<m0 + 1<<m1 + 1<<m2 + 1<<m3) - uint64(4-bits.OnesCount16(m))
		top = max(m0, m1, m2, m3)
	}
	return true, top, true
}

// classicCell returns the classic cell of a level: empty for 0, else a tile.
func classicCell(lv uint16) Cell {
	return Cell{Kind: Kind((lv + 31) >> 5), Level: lv}
}
