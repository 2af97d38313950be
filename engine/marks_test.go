package engine

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// markGame returns a scripted game on a board, with the marks of the first
// tick hook call applied and the spawns queued.
func markGame(t *testing.T, rows []string, spawns ...SpawnEntry) *Game {
	t.Helper()
	r := NewClassic()
	r.StopOnWin = false
	b, err := ParseRows(r, rows, len(strings.Fields(rows[0])), len(rows))
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewFromBoard(r, Options{Width: b.Width, Height: b.Height, ScriptedOnly: true, UndoLimit: 10}, b)
	if err != nil {
		t.Fatal(err)
	}
	g.AddSpawns(spawns...)
	return g
}

func rows(g *Game) string {
	st := g.State()
	return strings.Join(FormatRows(g.Rules(), &st.Board), " / ")
}

// withMarks plays one move whose tick sets marks, then detaches the hook.
func withMarks(t *testing.T, g *Game, d Direction, edits ...MarkEdit) {
	t.Helper()
	g.SetHooks(HookFuncs{OnTickFunc: func(e *TickEvent) error {
		e.MarkEdits = append(e.MarkEdits, edits...)
		return nil
	}})
	if _, err := g.Move(d); err != nil {
		t.Fatal(err)
	}
	g.SetHooks(nil)
}

func TestBlockingMarks(t *testing.T) {
	// A wall at (0,1) splits row 0; a frozen 2 at (1,0) neither moves nor
	// merges; marks stay on their cells.
	g := markGame(t, []string{"2 0 0 0", "2 0 2 0", "0 0 0 0", "0 0 0 0"},
		SpawnEntry{Pos: Pos{3, 3}, Cell: Cell{Kind: KindTile, Level: 1}}, SpawnEntry{Pos: Pos{2, 0}, Cell: Cell{Kind: KindTile, Level: 1}})
	withMarks(t, g, Right,
		MarkEdit{Mark: Mark{Pos: Pos{0, 1}, Name: "test:wall", Block: true}},
		MarkEdit{Mark: Mark{Pos: Pos{1, 3}, Name: "test:ice", Turns: 2, Block: true}})
	if got := rows(g); got != "0 0 0 2 / 0 0 0 4 / 0 0 0 0 / 0 0 0 2" {
		t.Fatalf("after Right: %s", got)
	}
	if _, err := g.Move(Left); err != nil {
		t.Fatal(err)
	}
	// Row 0: the 2 stops at the wall's right (cell 2). Row 1: the frozen 4
	// stays. Row 3: the 2 slides to the left edge.
	if got := rows(g); got != "0 0 2 0 / 0 0 0 4 / 2 0 0 0 / 2 0 0 0" {
		t.Fatalf("after Left: %s", got)
	}
	st := g.State()
	if len(st.Marks) != 2 || st.Marks[0].Name != "test:wall" || st.Marks[1].Turns != 1 {
		t.Fatalf("marks after one aging: %+v", st.Marks)
	}
	if g.Legal(Up) != true || st.Blocked(1) != true || st.Blocked(0) {
		t.Error("Blocked/Legal disagree with the marks")
	}
	g.AddSpawns(SpawnEntry{Pos: Pos{0, 1}, Cell: Cell{Kind: KindTile, Level: 1}})
	_, err := g.Move(Up)
	var se *SpawnError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "blocked by a mark") {
		t.Fatalf("a spawn on a wall: %v", err)
	}
}

func TestMarksAgeAndUndo(t *testing.T) {
	g := markGame(t, []string{"2 0 0 0", "0 0 0 0", "0 0 0 0", "0 0 0 0"},
		SpawnEntry{Pos: Pos{3, 3}, Cell: Cell{Kind: KindTile, Level: 1}}, SpawnEntry{Pos: Pos{1, 1}, Cell: Cell{Kind: KindTile, Level: 1}})
	withMarks(t, g, Right, MarkEdit{Mark: Mark{Pos: Pos{2, 2}, Name: "test:ice", Turns: 1}})
	if len(g.State().Marks) != 1 {
		t.Fatal("the mark was not set")
	}
	if _, err := g.Move(Left); err != nil {
		t.Fatal(err)
	}
	if len(g.State().Marks) != 0 {
		t.Errorf("a mark of 1 turn is still there: %+v", g.State().Marks)
	}
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	if m := g.State().Marks; len(m) != 1 || m[0].Turns != 1 {
		t.Errorf("undo did not restore the mark: %+v", m)
	}
}

func TestTickRequestsChecked(t *testing.T) {
	bad := []struct {
		name string
		hook func(*TickEvent)
		want string
	}{
		{"mark name", func(e *TickEvent) { e.MarkEdits = append(e.MarkEdits, MarkEdit{Mark: Mark{Name: "Wall"}}) }, `mark name "Wall"`},
		{"mark off board", func(e *TickEvent) {
			e.MarkEdits = append(e.MarkEdits, MarkEdit{Mark: Mark{Pos: Pos{4, 0}, Name: "a:b"}})
		}, "off the 4×4 board"},
		{"mark turns", func(e *TickEvent) { e.MarkEdits = append(e.MarkEdits, MarkEdit{Mark: Mark{Name: "a:b", Turns: -1}}) }, "-1 turns"},
		{"empty data key", func(e *TickEvent) { e.Data = map[string]string{"": "x"} }, "data key is empty"},
		{"too much data", func(e *TickEvent) { e.Data = map[string]string{"k": strings.Repeat("x", MaxData)} }, "more than"},
	}
	for _, tt := range bad {
		g := markGame(t, []string{"2 0 0 0", "0 0 0 0", "0 0 0 0", "0 0 0 0"}, SpawnEntry{Pos: Pos{3, 3}, Cell: Cell{Kind: KindTile, Level: 1}})
		before, _ := g.Marshal()
		g.SetHooks(HookFuncs{OnTickFunc: func(e *TickEvent) error { tt.hook(e); return nil }})
		_, err := g.Move(Right)
		var he *HookError
		if !errors.As(err, &he) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want a hook error with %q", tt.name, err, tt.want)
		}
		if after, _ := g.Marshal(); !bytes.Equal(before, after) {
			t.Errorf("%s: the failed move changed the game", tt.name)
		}
	}
}

func TestMarksAndDataSave(t *testing.T) {
	g := markGame(t, []string{"2 0 0 0", "0 0 0 0", "0 0 0 0", "0 0 0 0"}, SpawnEntry{Pos: Pos{3, 3}, Cell: Cell{Kind: KindTile, Level: 1}})
	g.SetHooks(HookFuncs{OnTickFunc: func(e *TickEvent) error {
		e.MarkEdits = append(e.MarkEdits, MarkEdit{Mark: Mark{Pos: Pos{1, 1}, Name: "m:b", Turns: 3, Block: true}},
			MarkEdit{Mark: Mark{Pos: Pos{0, 0}, Name: "m:a"}})
		e.Data = map[string]string{"mod:m": `{"n":1}`}
		return nil
	}})
	if _, err := g.Move(Right); err != nil {
		t.Fatal(err)
	}
	data, err := g.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"name": "m:a"`, `"block": true`, `"mod:m": "{\"n\":1}"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("save lacks %s", want)
		}
	}
	g2, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := g2.Marshal(); !bytes.Equal(again, data) {
		t.Error("marks and data do not round-trip")
	}
	if m := g2.State().Marks; len(m) != 2 || m[0].Name != "m:a" || !m[1].Block {
		t.Errorf("loaded marks %+v", m)
	}
	broken := strings.Replace(string(data), `"name": "m:a"`, `"name": "A"`, 1)
	if _, err := Unmarshal([]byte(broken)); err == nil || !strings.Contains(err.Error(), "marks[0]") {
		t.Errorf("a bad mark name loads: %v", err)
	}
}

// TestMarksAgeOutSettles: a blocking mark that expires at the end of a turn
// settles the status again. Here the turn ends with 64 next to 64, one of
// them frozen: Lost while the ice stands, but the ice thaws at the end of
// the same turn, so the game must be Playing, with Left a legal move.
func TestMarksAgeOutSettles(t *testing.T) {
	g := markGame(t, []string{"64 64", "0 4"}, SpawnEntry{Pos: Pos{1, 1}, Cell: Cell{Kind: KindTile, Level: 1}})
	g.cur.Marks = []Mark{{Pos: Pos{0, 1}, Name: "freeze:ice", Turns: 1, Block: true}}
	if g.Status() != Playing || !g.Legal(Left) {
		t.Fatalf("start: status %v, legal %v", g.Status(), g.LegalMoves())
	}
	if _, err := g.Move(Left); err != nil {
		t.Fatal(err)
	}
	if got := rows(g); got != "64 64 / 4 2" {
		t.Fatalf("after Left: %s", got)
	}
	if len(g.State().Marks) != 0 {
		t.Fatalf("the ice is still there: %v", g.State().Marks)
	}
	if g.Status() != Playing || g.LegalMoves() != DirSet(0).With(Left).With(Right) {
		t.Fatalf("after the thaw: status %v, legal %v; want Playing, Left Right", g.Status(), g.LegalMoves())
	}
	// The same turn with ice that lasts one more turn ends Lost, and the
	// next move is ignored (no move changes the board while it stands).
	h := markGame(t, []string{"64 64", "0 4"}, SpawnEntry{Pos: Pos{1, 1}, Cell: Cell{Kind: KindTile, Level: 1}})
	h.cur.Marks = []Mark{{Pos: Pos{0, 1}, Name: "freeze:ice", Turns: 2, Block: true}}
	if _, err := h.Move(Left); err != nil {
		t.Fatal(err)
	}
	if h.Status() != Lost {
		t.Fatalf("ice still standing: status %v, want Lost", h.Status())
	}
	// A mark that does not block, expiring, leaves the status alone.
	k := markGame(t, []string{"2 4", "0 8"}, SpawnEntry{Pos: Pos{1, 1}, Cell: Cell{Kind: KindTile, Level: 1}})
	k.cur.Marks = []Mark{{Pos: Pos{0, 1}, Name: "test:paint", Turns: 1}}
	if _, err := k.Move(Left); err != nil {
		t.Fatal(err)
	}
	if got := rows(k); got != "2 4 / 8 2" || k.Status() != Lost || len(k.State().Marks) != 0 {
		t.Fatalf("after Left: %s, status %v, marks %v; want Lost", got, k.Status(), k.State().Marks)
	}
}

// TestPropMarksStatusSettled: with timed blocking marks on the board, after
// every move the status fits the board as it stands once the marks have
// aged: Lost exactly when no direction changes the board (the marks that
// remain taken into account) and the board holds a tile, unless the game is
// Won (stopped).
func TestPropMarksStatusSettled(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(2, 4).Draw(t, "n")
		r := NewClassic()
		r.StopOnWin = rapid.Bool().Draw(t, "stop")
		b := NewBoard(n, n)
		for i := range b.Cells {
			if lv := rapid.IntRange(0, 6).Draw(t, "level"); lv > 0 {
				b.Cells[i] = Cell{Kind: KindTile, Level: uint16(lv)}
			}
		}
		g, err := NewFromBoard(r, Options{Width: n, Height: n, Seed: rapid.Uint64().Draw(t, "seed")}, b)
		if err != nil {
			t.Fatal(err)
		}
		var marks []MarkEdit
		for k := rapid.IntRange(1, 3).Draw(t, "marks"); k > 0; k-- {
			p := Pos{rapid.IntRange(0, n-1).Draw(t, "row"), rapid.IntRange(0, n-1).Draw(t, "col")}
			marks = append(marks, MarkEdit{Mark: Mark{Pos: p, Name: "test:ice", Turns: rapid.IntRange(1, 3).Draw(t, "turns"), Block: true}})
		}
		for _, e := range marks {
			if err := g.cur.applyMarkEdit(e); err != nil {
				t.Fatal(err)
			}
		}
		g.rules.Settle(g.cur)
		for i := 0; i < 12; i++ {
			d := rapid.SampledFrom(Directions[:]).Draw(t, "dir")
			if _, err := g.Move(d); err != nil {
				t.Fatalf("move %d (%v): %v", i, d, err)
			}
			s := g.State()
			if s.Status == Won {
				continue
			}
			stuck, tile := true, false
			for _, dd := range Directions {
				if r.Changes(s, dd) {
					stuck = false
				}
			}
			for _, c := range s.Board.Cells {
				tile = tile || !c.IsEmpty()
			}
			if (s.Status == Lost) != (stuck && tile) {
				t.Fatalf("move %d (%v): status %v, stuck %v, tile %v, marks %v: %s", i, d, s.Status, stuck, tile, s.Marks, rows(g))
			}
		}
	})
}

// TestIsMarkName holds isMarkName to the expression it stands for, on
// names built from the characters that matter and on any string.
func TestIsMarkName(t *testing.T) {
	re := regexp.MustCompile(`^[a-z][a-z0-9_]{0,31}:[a-z][a-z0-9_]{0,31}$`)
	for _, s := range []string{"a:b", "freeze:ice", "a_1:b_2", ":b", "a:", "A:b", "1a:b", "a:b:c", "a-b:c", "",
		strings.Repeat("a", 32) + ":b", strings.Repeat("a", 33) + ":b", "a:" + strings.Repeat("b", 32), "a:" + strings.Repeat("b", 33)} {
		if got, want := isMarkName(s), re.MatchString(s); got != want {
			t.Errorf("isMarkName(%q) = %v, want %v", s, got, want)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		part := rapid.StringOfN(rapid.SampledFrom([]rune("az09_:A-é")), 0, 36, -1)
		s := part.Draw(t, "mod") + rapid.SampledFrom([]string{":", "", "::"}).Draw(t, "sep") + part.Draw(t, "name")
		if got, want := isMarkName(s), re.MatchString(s); got != want {
			t.Fatalf("isMarkName(%q) = %v, want %v", s, got, want)
		}
		any := rapid.String().Draw(t, "any")
		if got, want := isMarkName(any), re.MatchString(any); got != want {
			t.Fatalf("isMarkName(%q) = %v, want %v", any, got, want)
		}
	})
}
