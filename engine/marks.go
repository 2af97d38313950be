package engine

import (
	"fmt"
	"slices"
	"strings"
)

// Mark is a named marker on a cell: a hazard a mod defines, such as a frozen
// tile or a wall. Marks belong to cells, not to what stands on them. A
// blocking mark makes its cell a wall: nothing moves into it or through it,
// what stands on it neither moves nor merges, and nothing spawns on it.
type Mark struct {
	Pos   Pos
	Name  string // "modid:name"
	Turns int    // turns left before the mark goes; 0: until it is removed
	Block bool
	// Follow binds the mark to the tile on its cell: it moves with the
	// tile, and goes when the tile does (a move after which its cell holds
	// no tile removes it, so one put on an empty cell lasts until the next
	// move).
	Follow bool
	// OnMerge says what a merge does to a follow mark of one of the two
	// tiles it is made from (MergeKeep when empty).
	OnMerge MergeRule
	// Count is a number the mod that set the mark keeps on it, for a
	// frontend to show (a hazard with a counter): a charge, a level.
	Count int
}

// MaxCount bounds a mark's Count.
const MaxCount = 999_999

// MergeRule is what a merge does to the follow marks of its two tiles.
type MergeRule string

// The merge rules.
const (
	// MergeKeep: the merged tile carries the mark (the default). When both
	// tiles carry one of the same name, the merged tile carries the mark of
	// the tile nearer the edge the move goes toward.
	MergeKeep MergeRule = "keep"
	// MergeDrop: the mark goes with the merge.
	MergeDrop MergeRule = "drop"
	// MergeSpread: the merged tile carries the mark, and so does every tile
	// orthogonally next to it after the move that carries no mark of that
	// name.
	MergeSpread MergeRule = "spread"
)

// MergeRules lists the merge rules.
func MergeRules() []MergeRule { return []MergeRule{MergeKeep, MergeDrop, MergeSpread} }

// MarkEdit asks for a mark to be set (replacing one of the same name on the
// same cell) or, with Remove, taken away.
type MarkEdit struct {
	Mark
	Remove bool
}

// isMarkName reports whether s is a mark's name, modid:name: the expression ^[a-z][a-z0-9_]{0,31}:[a-z][a-z0-9_]{0,31}$
// (TestIsMarkName holds it to the expression): every mark a mod sets is
// checked, and the expression cost a modded move about 2%.
func isMarkName(s string) bool {
	mod, name, ok := strings.Cut(s, ":")
	return ok && isNamePart(mod) && isNamePart(name)
}

// isNamePart reports whether s is a lower-case letter and then at most 31
// lower-case letters, digits and underscores.
func isNamePart(s string) bool {
	if len(s) == 0 || len(s) > 32 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}

// MaxMarks bounds the marks on a board, so that no mod can fill memory
// with them.
const MaxMarks = 4096

// CheckMark checks a mark's name, position and turns for board b.
func CheckMark(b *Board, m Mark) error {
	if !isMarkName(m.Name) {
		return fmt.Errorf("mark name %q is not modid:name (lower case)", m.Name)
	}
	if !b.In(m.Pos) {
		return fmt.Errorf("mark %s at %v is off the %d×%d board", m.Name, m.Pos, b.Width, b.Height)
	}
	if m.Turns < 0 || m.Turns > 1_000_000 {
		return fmt.Errorf("mark %s: %d turns is outside 0 to 1000000", m.Name, m.Turns)
	}
	if m.Count < 0 || m.Count > MaxCount {
		return fmt.Errorf("mark %s: count %d is outside 0 to %d", m.Name, m.Count, MaxCount)
	}
	switch m.OnMerge {
	case "", MergeKeep, MergeDrop, MergeSpread:
	default:
		return fmt.Errorf("mark %s: on_merge %q is not keep, drop or spread", m.Name, m.OnMerge)
	}
	if m.OnMerge != "" && !m.Follow {
		return fmt.Errorf("mark %s: on_merge %q is for a mark that follows its tile", m.Name, m.OnMerge)
	}
	return nil
}

// hasFollow reports whether a mark of s follows its tile.
func (s *State) hasFollow() bool {
	for k := range s.Marks {
		if s.Marks[k].Follow {
			return true
		}
	}
	return false
}

// followMarks moves the follow marks of s along a move's motions (the
// board of s is the board after the move): a mark on a tile that moved
// goes to its new cell; a mark on a tile that merged follows its rule. A
// follow mark whose cell holds no tile after the move goes. The marks stay
// in position and name order, one of a name on a cell.
func (s *State) followMarks(mo *Motions) {
	if !s.hasFollow() {
		return
	}
	w, n := s.Board.Width, len(s.Board.Cells)
	// By cell index, where its tile went: to, 1 + the index of the cell
	// it moved to; into, 1 + the index of the cell it merged into,
	// negative for the back tile of the merge; 0 for neither. In a buffer
	// on the stack for boards of up to 64 cells: this runs every move.
	var buf [128]int32
	var to, into []int32
	if 2*n <= len(buf) {
		to, into = buf[:n], buf[n:2*n]
	} else {
		b := make([]int32, 2*n)
		to, into = b[:n], b[n:]
	}
	index := func(p Pos) int32 { return int32(p.Row*w+p.Col) + 1 }
	for _, m := range mo.Moves {
		if s.Board.In(m.From) && s.Board.In(m.To) {
			to[index(m.From)-1] = index(m.To)
		}
	}
	for _, m := range mo.Merged {
		if s.Board.In(m.Into) && s.Board.In(m.From[0]) && s.Board.In(m.From[1]) {
			into[index(m.From[0])-1] = index(m.Into)
			into[index(m.From[1])-1] = -index(m.Into)
		}
	}
	posOf := func(k int32) Pos { return Pos{int(k-1) / w, int(k-1) % w} }
	// rank orders the candidates for one name on one cell: a mark that
	// stays or moves plainly, then the front tile's, the back tile's, and a
	// spread copy.
	type cand struct {
		m    Mark
		rank int
	}
	var out []cand
	var spread []Mark
	for _, m := range s.Marks {
		if !m.Follow {
			out = append(out, cand{m, 0})
			continue
		}
		at := index(m.Pos) - 1
		if mg := into[at]; mg != 0 {
			switch m.OnMerge {
			case MergeDrop:
				continue
			case MergeSpread:
				m.Pos = posOf(max(mg, -mg))
				spread = append(spread, m)
			default:
				m.Pos = posOf(max(mg, -mg))
			}
			rank := 2
			if mg > 0 { // the front tile's
				rank = 1
			}
			out = append(out, cand{m, rank})
			continue
		}
		if q := to[at]; q != 0 {
			m.Pos = posOf(q)
		}
		if s.Board.Cells[m.Pos.Row*w+m.Pos.Col].Kind == KindEmpty {
			continue
		}
		out = append(out, cand{m, 0})
	}
	for _, m := range spread {
		for _, q := range []Pos{{m.Pos.Row - 1, m.Pos.Col}, {m.Pos.Row + 1, m.Pos.Col}, {m.Pos.Row, m.Pos.Col - 1}, {m.Pos.Row, m.Pos.Col + 1}} {
			if s.Board.In(q) && s.Board.Cells[q.Row*w+q.Col].Kind != KindEmpty {
				c := m
				c.Pos = q
				out = append(out, cand{c, 3})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b cand) int { return a.rank - b.rank })
	kept := s.Marks[:0]
	for _, c := range out {
		dup := false
		for _, k := range kept {
			if k.Pos == c.m.Pos && k.Name == c.m.Name {
				dup = true
				break
			}
		}
		if !dup && len(kept) < MaxMarks {
			kept = append(kept, c.m)
		}
	}
	if len(kept) == 0 {
		kept = nil
	}
	s.Marks = kept
	sortMarks(s.Marks)
}

// Blocked reports whether a blocking mark stands on the cell at index i of
// the board.
//
// The rules ask it of every cell of every line, several times a turn: it
// reads the marks in place (a Mark is a few words, and range would copy
// each) and compares cell indexes, with no division.
func (s *State) Blocked(i int) bool {
	w := s.Board.Width
	for k := range s.Marks {
		if m := &s.Marks[k]; m.Block && m.Pos.Row*w+m.Pos.Col == i {
			return true
		}
	}
	return false
}

// HasBlocks reports whether any blocking mark stands on the board.
func (s *State) HasBlocks() bool {
	for k := range s.Marks {
		if s.Marks[k].Block {
			return true
		}
	}
	return false
}

// applyMarkEdit sets or removes one mark, keeping the marks in position and
// name order.
func (s *State) applyMarkEdit(e MarkEdit) error {
	if err := CheckMark(&s.Board, e.Mark); err != nil {
		return err
	}
	for i, m := range s.Marks {
		if m.Pos == e.Pos && m.Name == e.Name {
			if e.Remove {
				s.Marks = append(s.Marks[:i:i], s.Marks[i+1:]...)
			} else {
				s.Marks[i] = e.Mark
			}
			return nil
		}
	}
	if e.Remove {
		return nil
	}
	if len(s.Marks) >= MaxMarks {
		return fmt.Errorf("the board holds %d marks already, the most it may", MaxMarks)
	}
	s.Marks = append(s.Marks, e.Mark)
	sortMarks(s.Marks)
	return nil
}

func sortMarks(marks []Mark) {
	slices.SortStableFunc(marks, func(a, b Mark) int {
		if a.Pos.Row != b.Pos.Row {
			return a.Pos.Row - b.Pos.Row
		}
		if a.Pos.Col != b.Pos.Col {
			return a.Pos.Col - b.Pos.Col
		}
		return strings.Compare(a.Name, b.Name)
	})
}

// ageMarks counts one turn off every timed mark and removes those whose
// time is up, appending them to expired (the turn's expired marks, for the
// hooks' expire event). It reports whether a blocking mark went: the
// moves of the board may then have changed, and the status must be
// settled again.
func (s *State) ageMarks(expired *[]Mark) (unblocked bool) {
	if len(s.Marks) == 0 {
		return false
	}
	kept := s.Marks[:0]
	for _, m := range s.Marks {
		if m.Turns > 0 {
			m.Turns--
			if m.Turns == 0 {
				unblocked = unblocked || m.Block
				if expired != nil {
					*expired = append(*expired, m)
				}
				continue
			}
		}
		kept = append(kept, m)
	}
	if len(kept) == 0 {
		kept = nil
	}
	s.Marks = kept
	return unblocked
}
