package cellular

import "github.com/mod2048/mod2048/engine"

// neighbourCounts writes into buf (resized) the number of alive cells in
// the Moore neighbourhood of every cell, as a look at each cell's eight
// neighbours would count them, in one pass that adds each alive cell to
// its neighbours' counts (the neighbourhood is symmetric, with life.wrap
// too, so the counts are the same): a tick reads every cell's count, and
// most cells are not alive.
func (r *Rules) neighbourCounts(buf []uint8, b *engine.Board, alive []bool) []uint8 {
	if cap(buf) < len(alive) {
		buf = make([]uint8, len(alive))
	}
	buf = buf[:len(alive)]
	clear(buf)
	nb := r.neighboursOf(b)
	for p, a := range alive {
		if a {
			for _, q := range nb.moore(p) {
				buf[q]++
			}
		}
	}
	return buf
}

// neighbours lists each cell's neighbours on a board, worked out once for
// the rules' board (Rules.neighboursOf): its Moore neighbourhood (moore),
// off the board's edge none, or, with life.wrap, the other side's (a
// wrapped board under 3 wide or high lists a cell that two offsets reach
// twice, and counts it twice); and its orthogonal neighbours on the board
// (orth), which never wrap.
type neighbours struct {
	w, h            int
	mooreAt, orthAt []int // cell p's are cells[at[p]:at[p+1]]
	mooreOf, orthOf []int
	// lines are the lines of a swipe in each direction (linePositions),
	// the k-th of direction d lines[d][k]: read, never written.
	lines [4][][]int
}

func (n *neighbours) line(d engine.Direction, k int) []int {
	if uint(d) >= uint(len(n.lines)) {
		d = engine.Down // as linePositions reads a direction it does not know
	}
	return n.lines[d][k]
}

func (n *neighbours) moore(p int) []int { return n.mooreOf[n.mooreAt[p]:n.mooreAt[p+1]] }
func (n *neighbours) orth(p int) []int  { return n.orthOf[n.orthAt[p]:n.orthAt[p+1]] }

func newNeighbours(w, h int, wrap bool) *neighbours {
	n := &neighbours{w: w, h: h}
	for p := range w * h {
		n.mooreAt = append(n.mooreAt, len(n.mooreOf))
		n.orthAt = append(n.orthAt, len(n.orthOf))
		row, col := p/w, p%w
		for dr := -1; dr <= 1; dr++ {
			for dc := -1; dc <= 1; dc++ {
				rr, cc := row+dr, col+dc
				on := rr >= 0 && rr < h && cc >= 0 && cc < w
				if dr == 0 && dc == 0 {
					continue
				}
				if on && (dr == 0 || dc == 0) {
					n.orthOf = append(n.orthOf, rr*w+cc)
				}
				if wrap {
					rr, cc = (rr+h)%h, (cc+w)%w
				} else if !on {
					continue
				}
				n.mooreOf = append(n.mooreOf, rr*w+cc)
			}
		}
	}
	n.mooreAt = append(n.mooreAt, len(n.mooreOf))
	n.orthAt = append(n.orthAt, len(n.orthOf))
	for _, d := range engine.Directions {
		for k := range lineCount(d, w, h) {
			n.lines[d] = append(n.lines[d], linePositions(nil, d, k, w, h))
		}
	}
	return n
}

// neighboursOf returns the neighbours of b's cells: the rules' own,
// worked out in New, for a board of the rules' size.
func (r *Rules) neighboursOf(b *engine.Board) *neighbours {
	if nb := r.nb; nb != nil && nb.w == b.Width && nb.h == b.Height {
		return nb
	}
	return newNeighbours(b.Width, b.Height, r.s.Life.Wrap) // a board the rules were not made for
}

// births reports whether n alive neighbours make a birth: exactly 3, or 2 or
// 3 with the birth relaxation.
func (r *Rules) births(n int) bool {
	return n == 3 || (n == 2 && r.s.Life.BirthRelaxation)
}

// birthable reports whether Life may be born on c: an empty cell, or, with
// life.birth_on_catalyst, one that holds only a catalyst.
func (r *Rules) birthable(c engine.Cell) bool {
	return c.IsEmpty() || (r.s.Life.BirthOnCatalyst && !isOccupant(c) && c.Token == TokenCatalyst)
}

// life is phase 2, computed on a snapshot and applied at once (§4): an alive
// cell survives with 2 or 3 alive neighbours and otherwise dies (its token,
// a catalyst, stays); a cell with no occupant and no token is born alive(1)
// with exactly 3 (or, relaxed, 2 or 3), unless a blocking mark stands on it.
// Dormant cells count for nothing and nothing happens to them. It marks the
// born cells and returns the counts.
func (r *Rules) life(s *engine.State, born []bool, sc *scratch) (births, deaths int) {
	b := &s.Board
	sc.alive = fillAlive(sc.alive, b)
	alive := sc.alive
	sc.counts = r.neighbourCounts(sc.counts, b, alive)
	counts := sc.counts
	for p, c := range b.Cells {
		switch r.fate(s, alive, p, int(counts[p])) {
		case dies:
			b.Cells[p] = engine.Cell{Token: c.Token, Charges: c.Charges}
			deaths++
		case isBorn:
			cell := aliveCell(1)
			cell.Token = c.Token
			b.Cells[p] = cell
			born[p] = true
			births++
		}
	}
	return births, deaths
}

// What the Life tick does to a cell.
type lifeFate int

const (
	stays lifeFate = iota
	dies
	isBorn
)

// fate returns what the Life tick does to cell p of s's board, alive
// telling which cells are alive (on the snapshot the tick reads) and n
// counting p's alive neighbours.
func (r *Rules) fate(s *engine.State, alive []bool, p, n int) lifeFate {
	switch {
	case alive[p] && n != 2 && n != 3:
		return dies
	case !alive[p] && r.birthable(s.Board.Cells[p]) && r.births(n) && !s.Blocked(p):
		return isBorn
	}
	return stays
}

// dormancy is phase 3 (§2.3, §7): an alive cell of energy 1 that neither
// merged in the swipe nor was born this tick counts one more turn without a
// merge, and goes dormant(1) when the count reaches dormancy.ticks; any
// other alive cell's count is 0. With dormancy.ticks 0 nothing goes dormant.
func (r *Rules) dormancy(b *engine.Board, merged, born []bool) {
	for p, c := range b.Cells {
		if c.Kind != KindAlive {
			continue
		}
		if r.s.Dormancy.Ticks == 0 || merged[p] || born[p] || c.Level != 1 {
			b.Cells[p].Counter = 0
			continue
		}
		c.Counter++
		if int(c.Counter) >= r.s.Dormancy.Ticks {
			c.Kind, c.Counter = KindDormant, 0
		}
		b.Cells[p] = c
	}
}

// blight is the first half of phase 4 (§6): each active blight token turns
// the alive cells orthogonally next to it dormant, unless a cell is shielded
// by a locally stable pattern; all tokens act on the same snapshot. Each
// token then spends one charge and is removed when none is left.
func (r *Rules) blight(b *engine.Board, sc *scratch) {
	var alive []bool
	hit := sc.hit[:0]
	nb := r.neighboursOf(b)
	for p, c := range b.Cells {
		if c.Token != TokenBlight {
			continue
		}
		if alive == nil {
			sc.alive = fillAlive(sc.alive, b)
			alive = sc.alive
		}
		for _, q := range nb.orth(p) {
			if alive[q] && !r.shielded(b, alive, q) {
				hit = append(hit, q)
			}
		}
		c.Charges--
		if c.Charges == 0 {
			c.Token = 0
		}
		b.Cells[p] = c
	}
	for _, q := range hit {
		if b.Cells[q].Kind == KindAlive {
			b.Cells[q].Kind, b.Cells[q].Counter = KindDormant, 0
		}
	}
	sc.hit = hit[:0]
}

// window is the 5×5 neighbourhood of a cell, alive cells only.
type window [5][5]bool

// shielded reports whether the alive cell p is part of a locally stable
// pattern (§6): Life on the 5×5 window centred on p, with the game's birth
// rule and the alive cells alone (dormant cells, tokens and anything beyond
// the window count as empty), leaves the 3×3 centre as it was after one tick
// (a still life) or after two (a period-2 oscillator).
func (r *Rules) shielded(b *engine.Board, alive []bool, p int) bool {
	w, h := b.Width, b.Height
	row, col := p/w, p%w
	var t0, board window // board: the window's cells that lie on the board
	for dr := -2; dr <= 2; dr++ {
		for dc := -2; dc <= 2; dc++ {
			rr, cc := row+dr, col+dc
			if r.s.Life.Wrap {
				rr, cc = (rr+h)%h, (cc+w)%w
			} else if rr < 0 || rr >= h || cc < 0 || cc >= w {
				continue
			}
			t0[dr+2][dc+2] = alive[rr*w+cc]
			board[dr+2][dc+2] = true
		}
	}
	t1 := r.step(&t0, &board)
	if sameCentre(&t0, &t1) {
		return true
	}
	t2 := r.step(&t1, &board)
	return sameCentre(&t0, &t2)
}

// step is one Life tick on a window; beyond it is empty, and nothing lives
// on the window's cells that lie off the board (the game's edge holds in
// the check too).
func (r *Rules) step(in, board *window) window {
	var out window
	for i := 0; i < 5; i++ {
		for j := 0; j < 5; j++ {
			if !board[i][j] {
				continue
			}
			n := 0
			for di := -1; di <= 1; di++ {
				for dj := -1; dj <= 1; dj++ {
					ii, jj := i+di, j+dj
					if (di != 0 || dj != 0) && ii >= 0 && ii < 5 && jj >= 0 && jj < 5 && in[ii][jj] {
						n++
					}
				}
			}
			if in[i][j] {
				out[i][j] = n == 2 || n == 3
			} else {
				out[i][j] = r.births(n)
			}
		}
	}
	return out
}

func sameCentre(a, b *window) bool {
	for i := 1; i <= 3; i++ {
		for j := 1; j <= 3; j++ {
			if a[i][j] != b[i][j] {
				return false
			}
		}
	}
	return true
}

// decay is the second half of phase 4 (§7), after the blight: every alive
// cell with at most one alive neighbour loses decay.amount energy, down to 1,
// all on the same snapshot.
func (r *Rules) decay(b *engine.Board, sc *scratch) {
	if r.s.Decay.Amount == 0 {
		return
	}
	sc.alive = fillAlive(sc.alive, b)
	alive := sc.alive
	sc.counts = r.neighbourCounts(sc.counts, b, alive)
	counts := sc.counts
	for p, c := range b.Cells {
		if alive[p] && counts[p] <= 1 {
			b.Cells[p].Level = uint16(max(int(c.Level)-r.s.Decay.Amount, 1))
		}
	}
}

// Unrest counts the births and deaths a Life tick would make on the board
// as it stands, without changing it: 0 and 0 mean a tick now would be
// stable. A player (the balance lab's lookahead) reads it to steer toward
// the stabilize goal.
func (r *Rules) Unrest(s *engine.State) (births, deaths int) {
	f := r.Foresee(s)
	return f.Births, f.Deaths
}

// Foresight is what a Life tick would do to a board as it stands: the
// births and deaths it would make, the energy of the alive cells it would
// leave alive, and the alive cells isolation decay would reach (at most
// one alive neighbour).
type Foresight struct {
	Births, Deaths int
	Survivors      int // the energy of the alive cells that would survive
	Isolated       int // alive cells with at most one alive neighbour
}

// Foresee works out the Foresight of s's board without changing it.
func (r *Rules) Foresee(s *engine.State) Foresight {
	sc := getScratch()
	defer sc.put()
	sc.alive = fillAlive(sc.alive, &s.Board)
	alive := sc.alive
	sc.counts = r.neighbourCounts(sc.counts, &s.Board, alive)
	var f Foresight
	for p, c := range s.Board.Cells {
		n := int(sc.counts[p])
		switch {
		case alive[p] && n != 2 && n != 3:
			f.Deaths++
		case alive[p]:
			f.Survivors += int(c.Level)
		case r.birthable(c) && r.births(n) && !s.Blocked(p):
			f.Births++
		}
		if alive[p] && n <= 1 {
			f.Isolated++
		}
	}
	return f
}
