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

// TestTable: each entry of the row table is Row's row and gain, and the
// reversed row's, reversed back, with the same gain; Move, MoveLast,
// Slide, SlideLast and Legal on whole boards are the rows' own.
func TestTable(t *testing.T) {
	tbl := Rows()
	for key := range 1 << 16 {
		row := uint16(key)
		first, gain, _ := Row(row)
		last, lastGain, _ := Row(reverse(row))
		e := tbl[key]
		if uint16(e) != first || uint16(e>>lastShift) != reverse(last) || e>>gainShift != uint64(gain) || gain != lastGain {
			t.Fatalf("row %04x: entry %016x; Row gives %04x gain %d, reversed %04x gain %d", key, e, first, gain, last, lastGain)
		}
	}
	rapid.Check(t, func(rt *rapid.T) {
		p := rapid.Uint64().Draw(rt, "board")
		p &= rapid.Uint64().Draw(rt, "mask") | rapid.Uint64().Draw(rt, "mask2")
		var want, wantLast, wantGain uint64
		var first, last bool
		for r := 0; r < 4; r++ {
			row := uint16(p >> (16 * r))
			out, gain, _ := Row(row)
			want |= uint64(out) << (16 * r)
			wantGain += uint64(gain)
			first = first || out != row
			back, _, _ := Row(reverse(row))
			wantLast |= uint64(reverse(back)) << (16 * r)
			last = last || back != reverse(row)
		}
		q, gain := tbl.Move(p)
		ql, gainLast := tbl.MoveLast(p)
		l := tbl.Legal(p)
		if q != want || gain != wantGain || tbl.Slide(p) != want || (l&MovesFirst != 0) != first {
			rt.Fatalf("%016x: Move %016x gain %d, Slide %016x, Legal %x; rows give %016x gain %d, first %v", p, q, gain, tbl.Slide(p), l, want, wantGain, first)
		}
		if ql != wantLast || gainLast != wantGain || tbl.SlideLast(p) != wantLast || (l&MovesLast != 0) != last {
			rt.Fatalf("%016x: MoveLast %016x gain %d, SlideLast %016x, Legal %x; rows give %016x gain %d, last %v", p, ql, gainLast, tbl.SlideLast(p), l, wantLast, wantGain, last)
		}
	})
}

// TestRowCap: two 15s do not merge; two 14s make a 15.
func TestRowCap(t *testing.T) {
	for _, c := range []struct {
		row, out uint16
		gain     uint32
	}{
		{0xff00, 0x00ff, 0},
		{0xeeff, 0x0fff, 1 << 15},
		{0xeeee, 0x00ff, 1 << 16},
		{0x1111, 0x0022, 8},
		{0x2101, 0x0022, 4},
	} {
		if out, gain, _ := Row(c.row); out != c.out || gain != c.gain {
			t.Errorf("Row(%04x) = %04x, gain %d; want %04x, gain %d", c.row, out, gain, c.out, c.gain)
		}
	}
}
