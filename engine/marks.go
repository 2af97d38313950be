package engine

import (
	"fmt"
	"regexp"
	"sort"
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
}

// MarkEdit asks for a mark to be set (replacing one of the same name on the
// same cell) or, with Remove, taken away.
type MarkEdit struct {
	Mark
	Remove bool
}

var markName = regexp.MustCompile(`^[a-z][a-z0-9_]{0,31}:[a-z][a-z0-9_]{0,31}$`)

// MaxMarks bounds the marks on a board, so that no mod can fill memory
// with them.
const MaxMarks = 4096

// CheckMark checks a mark's name, position and turns for board b.
func CheckMark(b *Board, m Mark) error {
	if !markName.MatchString(m.Name) {
		return fmt.Errorf("mark name %q is not modid:name (lower case)", m.Name)
	}
	if !b.In(m.Pos) {
		return fmt.Errorf("mark %s at %v is off the %d×%d board", m.Name, m.Pos, b.Width, b.Height)
	}
	if m.Turns < 0 || m.Turns > 1_000_000 {
		return fmt.Errorf("mark %s: %d turns is outside 0 to 1000000", m.Name, m.Turns)
	}
	return nil
}

// MarksAt returns the marks on the cell at p.
func (s *State) MarksAt(p Pos) []Mark {
	var out []Mark
	for _, m := range s.Marks {
		if m.Pos == p {
			out = append(out, m)
		}
	}
	return out
}

// Blocked reports whether a blocking mark stands on the cell at index i of
// the board.
func (s *State) Blocked(i int) bool {
	if len(s.Marks) == 0 {
		return false
	}
	p := s.Board.PosOf(i)
	for _, m := range s.Marks {
		if m.Block && m.Pos == p {
			return true
		}
	}
	return false
}

// HasBlocks reports whether any blocking mark stands on the board.
func (s *State) HasBlocks() bool {
	for _, m := range s.Marks {
		if m.Block {
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
	sort.SliceStable(marks, func(i, j int) bool {
		a, b := marks[i], marks[j]
		if a.Pos.Row != b.Pos.Row {
			return a.Pos.Row < b.Pos.Row
		}
		if a.Pos.Col != b.Pos.Col {
			return a.Pos.Col < b.Pos.Col
		}
		return a.Name < b.Name
	})
}

// ageMarks counts one turn off every timed mark and removes those whose
// time is up. It reports whether a blocking mark went: the moves of the
// board may then have changed, and the status must be settled again.
func (s *State) ageMarks() (unblocked bool) {
	if len(s.Marks) == 0 {
		return false
	}
	kept := s.Marks[:0]
	for _, m := range s.Marks {
		if m.Turns > 0 {
			m.Turns--
			if m.Turns == 0 {
				unblocked = unblocked || m.Block
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
