package engine

import (
	"bytes"
	"reflect"
	"testing"
)

// followGame starts a scripted classic game of rows, with marks placed by
// a start hook.
func followGame(t *testing.T, rows []string, marks ...Mark) *Game {
	t.Helper()
	rules := NewClassic()
	board, err := ParseRows(rules, rows, len(rows), len(rows))
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewFromBoard(rules, Options{Width: len(rows), Height: len(rows), ScriptedOnly: true, UndoLimit: -1}, board)
	if err != nil {
		t.Fatal(err)
	}
	g.SetHooks(HookFuncs{OnStartFunc: func(e *TickEvent) error {
		for _, m := range marks {
			e.MarkEdits = append(e.MarkEdits, MarkEdit{Mark: m})
		}
		return nil
	}})
	if err := g.Start(); err != nil {
		t.Fatal(err)
	}
	return g
}

func TestFollowMarks(t *testing.T) {
	follow := func(row, col int, name string, rule MergeRule) Mark {
		return Mark{Pos: Pos{row, col}, Name: name, Follow: true, OnMerge: rule}
	}
	tests := []struct {
		name  string
		rows  []string
		marks []Mark
		dir   Direction
		spawn SpawnEntry
		want  []Mark
	}{
		{
			name:  "a follow mark moves with its tile; a cell mark stays",
			rows:  []string{". 2 . .", ". . . .", ". . . .", ". . . 4"},
			marks: []Mark{follow(0, 1, "m:bomb", ""), {Pos: Pos{3, 3}, Name: "m:ice"}},
			dir:   Left,
			spawn: SpawnEntry{Pos: Pos{2, 2}, Cell: Cell{Kind: KindTile, Level: 1}},
			want:  []Mark{follow(0, 0, "m:bomb", ""), {Pos: Pos{3, 3}, Name: "m:ice"}},
		},
		{
			name: "a board of more than 64 cells: spread at the bottom corner",
			rows: []string{". . . . . . . . .", ". . . . . . . . .", ". . . . . . . . .", ". . . . . . . . .",
				". . . . . . . . .", ". . . . . . . . .", ". . . . . . . . .", "4 . . . . . . . .", "2 . 2 . . . . . 8"},
			marks: []Mark{follow(8, 2, "m:plague", MergeSpread), follow(8, 8, "m:bomb", "")},
			dir:   Left,
			spawn: SpawnEntry{Pos: Pos{0, 8}, Cell: Cell{Kind: KindTile, Level: 1}},
			want: []Mark{follow(7, 0, "m:plague", MergeSpread), follow(8, 0, "m:plague", MergeSpread),
				follow(8, 1, "m:bomb", ""), follow(8, 1, "m:plague", MergeSpread)},
		},
		{
			name:  "keep: the merged tile carries the mark",
			rows:  []string{"2 . 2 .", ". . . .", ". . . .", ". . . ."},
			marks: []Mark{follow(0, 2, "m:bomb", MergeKeep)},
			dir:   Left,
			spawn: SpawnEntry{Pos: Pos{3, 3}, Cell: Cell{Kind: KindTile, Level: 1}},
			want:  []Mark{follow(0, 0, "m:bomb", MergeKeep)},
		},
		{
			name:  "the default is keep",
			rows:  []string{"2 2 . .", ". . . .", ". . . .", ". . . ."},
			marks: []Mark{follow(0, 1, "m:bomb", "")},
			dir:   Right,
			spawn: SpawnEntry{Pos: Pos{3, 3}, Cell: Cell{Kind: KindTile, Level: 1}},
			want:  []Mark{follow(0, 3, "m:bomb", "")},
		},
		{
			name: "keep, both tiles marked: the front tile's mark",
			rows: []string{"2 2 . .", ". . . .", ". . . .", ". . . ."},
			marks: []Mark{{Pos: Pos{0, 0}, Name: "m:bomb", Turns: 5, Follow: true},
				{Pos: Pos{0, 1}, Name: "m:bomb", Turns: 9, Follow: true}},
			dir:   Right,
			spawn: SpawnEntry{Pos: Pos{3, 3}, Cell: Cell{Kind: KindTile, Level: 1}},
			want:  []Mark{{Pos: Pos{0, 3}, Name: "m:bomb", Turns: 8, Follow: true}},
		},
		{
			name:  "drop: the merge takes the mark",
			rows:  []string{"2 2 . .", ". . . .", ". . . .", ". . . ."},
			marks: []Mark{follow(0, 0, "m:bomb", MergeDrop)},
			dir:   Left,
			spawn: SpawnEntry{Pos: Pos{3, 3}, Cell: Cell{Kind: KindTile, Level: 1}},
			want:  nil,
		},
		{
			name:  "spread: the merged tile and the tiles next to it",
			rows:  []string{"2 2 . .", "4 . . .", ". . . .", ". . . ."},
			marks: []Mark{follow(0, 1, "m:plague", MergeSpread)},
			dir:   Left,
			spawn: SpawnEntry{Pos: Pos{3, 3}, Cell: Cell{Kind: KindTile, Level: 1}},
			want:  []Mark{follow(0, 0, "m:plague", MergeSpread), follow(1, 0, "m:plague", MergeSpread)},
		},
		{
			name:  "a follow mark on an empty cell goes at the next move",
			rows:  []string{"2 . . .", ". . . .", ". . . .", ". . . ."},
			marks: []Mark{follow(2, 2, "m:bomb", "")},
			dir:   Right,
			spawn: SpawnEntry{Pos: Pos{3, 3}, Cell: Cell{Kind: KindTile, Level: 1}},
			want:  nil,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := followGame(t, tc.rows, tc.marks...)
			g.AddSpawns(tc.spawn)
			if _, err := g.Move(tc.dir); err != nil {
				t.Fatal(err)
			}
			got := g.State().Marks
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("marks after %v: %+v, want %+v", tc.dir, got, tc.want)
			}
			// A save keeps follow marks, and undo brings them back.
			data, err := g.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			back, err := Unmarshal(data)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back.State().Marks, got) {
				t.Errorf("marks after a save: %+v, want %+v", back.State().Marks, got)
			}
			if err := g.Undo(); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(g.State().Marks, sortedMarks(tc.marks)) {
				t.Errorf("marks after undo: %+v, want %+v", g.State().Marks, tc.marks)
			}
		})
	}
}

func sortedMarks(m []Mark) []Mark {
	out := append([]Mark(nil), m...)
	sortMarks(out)
	return out
}

// TestCheckMarkMergeRule: on_merge is one of the three rules, and only for
// a follow mark.
func TestCheckMarkMergeRule(t *testing.T) {
	b := NewBoard(4, 4)
	for _, m := range []Mark{
		{Name: "m:x", Follow: true, OnMerge: "explode"},
		{Name: "m:x", OnMerge: MergeKeep},
	} {
		if err := CheckMark(&b, m); err == nil {
			t.Errorf("CheckMark(%+v) = nil, want an error", m)
		}
	}
	for _, r := range MergeRules() {
		if err := CheckMark(&b, Mark{Name: "m:x", Follow: true, OnMerge: r}); err != nil {
			t.Errorf("CheckMark(on_merge %s): %v", r, err)
		}
	}
}

// TestTileIdentities: while a game tracks motions, a tile that moves keeps
// its identity, a merge makes a new one, a spawn gets a new one; the
// motions carry them; saves and undo keep them.
func TestTileIdentities(t *testing.T) {
	g := followGame(t, []string{"2 2 . .", ". 4 . .", ". . . .", ". . . ."})
	g.TrackMotions(true)
	first := append([]uint32(nil), g.State().Tiles...)
	if first[0] != 1 || first[1] != 2 || first[5] != 3 || g.State().NextTile != 4 {
		t.Fatalf("first identities %v (next %d), want 1, 2, 3 in cell order", first, g.State().NextTile)
	}
	g.AddSpawns(SpawnEntry{Pos: Pos{3, 3}, Cell: Cell{Kind: KindTile, Level: 1}})
	if _, err := g.Move(Left); err != nil {
		t.Fatal(err)
	}
	s := g.State()
	// The merge of 1 and 2 is tile 4 at (0,0); the 4 (tile 3) moved to
	// (1,0); the spawn at (3,3) is tile 5.
	want := make([]uint32, 16)
	want[0], want[4], want[15] = 4, 3, 5
	if !reflect.DeepEqual(s.Tiles, want) || s.NextTile != 6 {
		t.Fatalf("identities %v (next %d), want %v (next 6)", s.Tiles, s.NextTile, want)
	}
	mo := g.Motions()
	if len(mo.Merged) != 1 || mo.Merged[0].Tile != 4 || mo.Merged[0].Tiles != [2]uint32{1, 2} {
		t.Errorf("merge motions %+v, want tile 4 from tiles 1 and 2", mo.Merged)
	}
	for _, m := range mo.Moves {
		if m.Tile != first[m.From.Row*4+m.From.Col] {
			t.Errorf("motion %+v carries tile %d, want %d", m, m.Tile, first[m.From.Row*4+m.From.Col])
		}
	}
	data, err := g.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.State().Tiles, s.Tiles) || back.State().NextTile != 6 {
		t.Errorf("after a save: %v (next %d)", back.State().Tiles, back.State().NextTile)
	}
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g.State().Tiles, first) {
		t.Errorf("after undo: %v, want %v", g.State().Tiles, first)
	}
	// A save with identities that do not fit its board is refused.
	bad := bytes.Replace(data, []byte(`"next_tile": 6`), []byte(`"next_tile": 5`), 1)
	if _, err := Unmarshal(bad); err == nil {
		t.Error("a save whose identity 5 is not below next_tile loaded")
	}
	// Without tracking, a move drops them.
	g.TrackMotions(false)
	g.AddSpawns(SpawnEntry{Pos: Pos{3, 3}, Cell: Cell{Kind: KindTile, Level: 1}})
	if _, err := g.Move(Left); err != nil {
		t.Fatal(err)
	}
	if g.State().Tiles != nil || g.State().NextTile != 0 {
		t.Errorf("untracked move kept identities %v", g.State().Tiles)
	}
}

// TestStart: the start hook's requests apply to the first state, before
// any history; a game that has begun refuses to start again, and a failed
// start changes nothing.
func TestStart(t *testing.T) {
	g := followGame(t, []string{"2 . . .", ". . . .", ". . . .", ". . . ."}, Mark{Pos: Pos{1, 1}, Name: "m:ice", Block: true})
	if m := g.State().Marks; len(m) != 1 || m[0].Name != "m:ice" {
		t.Fatalf("marks after start: %+v", m)
	}
	if u, _ := g.HistoryLen(); u != 0 {
		t.Errorf("start left %d undo states", u)
	}
	g.AddSpawns(SpawnEntry{Pos: Pos{3, 3}, Cell: Cell{Kind: KindTile, Level: 1}})
	if _, err := g.Move(Right); err != nil {
		t.Fatal(err)
	}
	if err := g.Start(); err != ErrStarted {
		t.Errorf("Start after a move: %v, want ErrStarted", err)
	}
	h := followGame(t, []string{"2 . . .", ". . . .", ". . . .", ". . . ."})
	before, _ := h.Marshal()
	h.SetHooks(HookFuncs{OnStartFunc: func(e *TickEvent) error {
		e.Edits = append(e.Edits, Edit{Pos: Pos{9, 9}, Cell: Cell{Kind: KindTile, Level: 1}})
		return nil
	}})
	if err := h.Start(); err == nil {
		t.Error("a start that edits a cell off the board succeeded")
	}
	if after, _ := h.Marshal(); !bytes.Equal(before, after) {
		t.Error("a failed start changed the game")
	}
}
