package cellular

import "github.com/mod2048/mod2048/engine"

// linePositions returns the cells of the k-th line of a swipe in direction
// d, in resolution order: from the destination edge outward (§3.1).
func linePositions(out []int, d engine.Direction, k, w, h int) []int {
	out = out[:0]
	switch d {
	case engine.Left:
		for c := 0; c < w; c++ {
			out = append(out, k*w+c)
		}
	case engine.Right:
		for c := w - 1; c >= 0; c-- {
			out = append(out, k*w+c)
		}
	case engine.Up:
		for r := 0; r < h; r++ {
			out = append(out, r*w+k)
		}
	default: // Down
		for r := h - 1; r >= 0; r-- {
			out = append(out, r*w+k)
		}
	}
	return out
}

func lineCount(d engine.Direction, w, h int) int {
	if d == engine.Left || d == engine.Right {
		return h
	}
	return w
}

// segments splits a line at its blight tokens and at the cells blocking
// marks stand on, which block movement: each segment compresses toward its
// own front.
func segments(out [][]int, s *engine.State, line []int) [][]int {
	b := &s.Board
	out = out[:0]
	start := 0
	for i, p := range line {
		if isWall(b.Cells[p]) || s.Blocked(p) {
			if i > start {
				out = append(out, line[start:i])
			}
			start = i + 1
		}
	}
	if start < len(line) {
		out = append(out, line[start:])
	}
	return out
}

// slot is a cell placed during the swipe: its occupant, where it came from,
// and whether a merge made it this swipe.
type slot struct {
	cell   engine.Cell // the occupant (no token)
	from   int         // board index of the cell it started as (the front one, for a merge)
	merged bool
}

// swipe is phase 1: every line compresses toward t.Dir, resolving merges on
// contact front to back (§3), one merge per result, with the colony bonus
// and catalysts. It reports whether anything moved or merged, and which
// cells a merge made (for dormancy).
func (r *Rules) swipe(t *engine.Turn, sc *scratch) (moved bool, merged []bool, err error) {
	b := &t.State.Board
	w, h := b.Width, b.Height
	merged = bools(sc.merged, len(b.Cells))
	sc.merged = merged
	colony := r.colonies(b, sc)
	nb := r.neighboursOf(b)
	for k := 0; k < lineCount(t.Dir, w, h); k++ {
		sc.segs = segments(sc.segs, t.State, nb.line(t.Dir, k))
		for _, seg := range sc.segs {
			m, err := r.swipeSegment(t, seg, colony, merged, sc)
			if err != nil {
				return false, nil, err
			}
			moved = moved || m
		}
	}
	return moved, merged, nil
}

// swipeSegment resolves one segment (front first). Occupants move; tokens
// stay where they are, except the catalysts that movers consume.
func (r *Rules) swipeSegment(t *engine.Turn, seg []int, colony []int, merged []bool, sc *scratch) (bool, error) {
	b := &t.State.Board
	out := sc.out[:0]
	moved := false
	for i, p := range seg {
		c := b.Cells[p]
		if !isOccupant(c) {
			continue
		}
		mover := occupant(c)
		if n := len(out); n > 0 && !out[n-1].merged && mergeable(out[n-1].cell, mover) {
			front := &out[n-1]
			doubled := mover.Kind == KindAlive && r.consumeCatalyst(b, r.path(seg, n-1, i))
			if doubled && r.s.Catalyst.Doubling == DoubleOnContact {
				mover.Level = r.double(mover.Level)
			}
			result := r.mergeResult(front.cell, mover, colony[front.from], colony[p])
			if doubled && r.s.Catalyst.Doubling == DoubleAfterMerge {
				result.Level = r.double(result.Level)
			}
			// The event lives in the scratch: the hooks it is handed to
			// may keep its address, so a local would go to the heap.
			ev := &sc.ev
			*ev = engine.MergeEvent{
				Pos:     b.PosOf(seg[n-1]),
				From:    [2]engine.Pos{b.PosOf(front.from), b.PosOf(p)},
				Sources: [2]engine.Cell{front.cell, mover},
				Result:  result,
			}
			if err := t.Merge(ev); err != nil {
				sc.out = out[:0]
				return false, err
			}
			t.Moved(b.PosOf(p), ev.Pos)
			t.Merged(ev.Pos, ev.From[0], ev.From[1])
			front.cell, front.merged = occupant(ev.Result), true
			moved = true
			continue
		}
		to := len(out)
		if to != i {
			moved = true
			if mover.Kind == KindAlive && r.consumeCatalyst(b, r.path(seg, to, i)) {
				mover.Level = r.double(mover.Level)
			}
		}
		out = append(out, slot{cell: mover, from: p})
		t.Moved(b.PosOf(p), b.PosOf(seg[to]))
	}
	for j, p := range seg {
		// The cell is written whole, its token kept: a cell assembled
		// field by field and then stored stalls the store.
		c := &b.Cells[p]
		if j < len(out) {
			o := out[j].cell
			*c = engine.Cell{Kind: o.Kind, Token: c.Token, Level: o.Level, Counter: o.Counter, Charges: c.Charges}
			if out[j].merged {
				merged[p] = true
			}
		} else {
			*c = engine.Cell{Token: c.Token, Charges: c.Charges}
		}
	}
	sc.out = out[:0]
	return moved, nil
}

// occupant returns c without its token.
func occupant(c engine.Cell) engine.Cell {
	c.Token, c.Charges = 0, 0
	return c
}

// mergeable reports whether a mover merges into the cell in front of it:
// alive with alive (equal or not), alive with dormant; dormant cells do not
// merge with each other (§3.2–3.4).
func mergeable(front, mover engine.Cell) bool {
	return front.Kind == KindAlive || mover.Kind == KindAlive
}

// mergeResult applies §3.2–3.5 in the order §10 gives (same-E increment,
// then colony bonus), capping after each: equal alive energies make E+1;
// unequal make max(E_high−1, 1); alive with dormant makes max(Ea, Ed)−1,
// at least 1. colonyA and colonyB are the sizes of the participants' alive
// colonies before the swipe.
func (r *Rules) mergeResult(front, mover engine.Cell, colonyA, colonyB int) engine.Cell {
	a, m := int(front.Level), int(mover.Level)
	var e int
	switch {
	case front.Kind == KindAlive && mover.Kind == KindAlive && a == m:
		e = a + 1
	case front.Kind == KindAlive && mover.Kind == KindAlive:
		e = max(max(a, m)-1, 1)
	default: // alive with dormant
		e = max(max(a, m)-1, 1)
	}
	e = min(e, r.s.ECap)
	if r.s.Colony.Bonus > 0 && colonyA >= r.s.Colony.MinSize && colonyB >= r.s.Colony.MinSize {
		e = min(e+r.s.Colony.Bonus, r.s.ECap)
	}
	return aliveCell(e)
}

// path returns the cells of a segment that a mover from seg[from] to
// seg[to] visits: from its destination back toward its start, which is on
// the path only with catalyst.start_on_path.
func (r *Rules) path(seg []int, to, from int) []int {
	if r.s.Catalyst.StartOnPath {
		return seg[to : from+1]
	}
	return seg[to:from]
}

// double doubles an energy, capped at e_cap.
func (r *Rules) double(e uint16) uint16 { return uint16(min(2*int(e), r.s.ECap)) }

// consumeCatalyst removes the first catalyst on a mover's path and reports
// whether there was one. path lists the cells the mover passes through and
// stops on, from its destination back toward its start; it meets them in
// the reverse order. Further catalysts on the path stay (§2, §5).
func (r *Rules) consumeCatalyst(b *engine.Board, path []int) bool {
	for i := len(path) - 1; i >= 0; i-- {
		if b.Cells[path[i]].Token == TokenCatalyst {
			b.Cells[path[i]].Token = 0
			return true
		}
	}
	return false
}

// colonies returns, for every cell, the size of the 4-connected component
// of alive cells it belongs to (0 for a cell that is not alive).
func (r *Rules) colonies(b *engine.Board, sc *scratch) []int {
	size := ints(sc.size, len(b.Cells))
	seen := bools(sc.seen, len(b.Cells))
	stack, members := sc.stack[:0], sc.members[:0]
	nb := r.neighboursOf(b)
	for start, c := range b.Cells {
		if c.Kind != KindAlive || seen[start] {
			continue
		}
		stack, members = append(stack[:0], start), members[:0]
		seen[start] = true
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			members = append(members, p)
			for _, q := range nb.orth(p) {
				if !seen[q] && b.Cells[q].Kind == KindAlive {
					seen[q] = true
					stack = append(stack, q)
				}
			}
		}
		for _, p := range members {
			size[p] = len(members)
		}
	}
	sc.size, sc.seen, sc.stack, sc.members = size, seen, stack[:0], members[:0]
	return size
}

// Changes reports whether a swipe in direction d would change the board:
// some occupant has a free cell in front of it in its segment, or two
// occupants next to each other in a segment merge. With idle_swipe_ticks
// every swipe plays a turn.
func (r *Rules) Changes(s *engine.State, d engine.Direction) bool {
	if r.s.IdleTicks {
		return true
	}
	b := &s.Board
	nb := r.neighboursOf(b)
	for k := 0; k < lineCount(d, b.Width, b.Height); k++ {
		line := nb.line(d, k)
		// The line's segments, split at walls, each from its front.
		gap, havePrev := false, false
		var prev engine.Cell
		for _, p := range line {
			c := b.Cells[p]
			if isWall(c) || s.Blocked(p) {
				gap, havePrev = false, false
				continue
			}
			if !isOccupant(c) {
				gap = true
				continue
			}
			if gap || (havePrev && mergeable(prev, c)) {
				return true
			}
			prev, havePrev = c, true
		}
	}
	return false
}
