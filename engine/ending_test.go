package engine

import "testing"

// TestBlame: a lost game names the mod whose blocking marks or whose last
// cell edits lost it, and no one when the rules alone did.
func TestBlame(t *testing.T) {
	c := NewClassic()
	rows := func(r ...string) Board {
		b, err := ParseRows(c, r, 4, 4)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	// Full, no two equal neighbours: lost by the rules.
	full := rows("2 4 2 4", "4 2 4 2", "2 4 2 4", "4 2 4 8")
	// One empty cell, walled in by a blocking mark.
	walled := rows("2 4 2 4", "4 2 4 2", "2 4 2 4", "4 2 4 0")
	wall := Mark{Pos: Pos{3, 3}, Name: "maze:wall", Block: true}
	for _, tc := range []struct {
		name  string
		board Board
		marks []Mark
		edits []AppliedEdit
		want  Blamed
		ok    bool
	}{
		{"the rules alone", full, nil, nil, Blamed{}, false},
		{"a wall on the last empty cell", walled, []Mark{wall}, nil, Blamed{Mod: "maze", Hazard: "wall"}, true},
		{"a mark that blocks nothing needed", full, []Mark{{Pos: Pos{0, 0}, Name: "maze:wall", Block: true}}, nil, Blamed{}, false},
		{"the last empty cell filled by a mod", full, nil, []AppliedEdit{{Edit: Edit{Pos: Pos{3, 3}, Cell: tCell(8), By: "filler"}, Was: Cell{}}}, Blamed{Mod: "filler"}, true},
		{"a mod's edit that changed nothing of the end", full, nil, []AppliedEdit{{Edit: Edit{Pos: Pos{0, 0}, Cell: tCell(2), By: "painter"}, Was: tCell(8)}}, Blamed{}, false},
		{"a mod's edit that made the last pair unequal", full, nil, []AppliedEdit{{Edit: Edit{Pos: Pos{0, 0}, Cell: tCell(2), By: "painter"}, Was: tCell(4)}}, Blamed{Mod: "painter"}, true},
		{"the second of two mods", full, nil, []AppliedEdit{
			{Edit: Edit{Pos: Pos{0, 0}, Cell: tCell(2), By: "painter"}, Was: tCell(2)},
			{Edit: Edit{Pos: Pos{3, 3}, Cell: tCell(8), By: "filler"}, Was: Cell{}},
		}, Blamed{Mod: "filler"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &State{Board: tc.board.Clone(), Marks: tc.marks}
			c.Settle(s)
			if s.Status != Lost {
				t.Fatalf("the board is not lost: %v", s.Status)
			}
			got, ok := Blame(c, s, tc.edits)
			if got != tc.want || ok != tc.ok {
				t.Errorf("Blame = %+v, %v; want %+v, %v", got, ok, tc.want, tc.ok)
			}
			if s.Status != Lost || len(s.Marks) != len(tc.marks) {
				t.Error("Blame changed the state")
			}
		})
	}
}
