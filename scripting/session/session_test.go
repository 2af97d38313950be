package session_test

import (
	"bytes"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
)

// repo returns a path below the repository's top.
func repo(t testing.TB, rel string) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("no caller")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", filepath.FromSlash(rel))
}

func classic(t testing.TB, sets ...string) *config.Config {
	t.Helper()
	c, err := config.Build(config.BuildOptions{Sets: sets})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func loadMod(t testing.TB, name string, settings ...string) *mod.Mod {
	t.Helper()
	m, err := mod.Load(repo(t, "mods/"+name))
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range settings {
		k, v, _ := strings.Cut(kv, "=")
		if err := m.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

func board(t testing.TB, rules engine.Rules, rows ...string) *engine.Board {
	t.Helper()
	b := engine.NewBoard(len(strings.Fields(rows[0])), len(rows))
	for i, row := range rows {
		for j, tok := range strings.Fields(row) {
			c, err := rules.ParseCell(tok)
			if err != nil {
				t.Fatal(err)
			}
			b.Cells[i*b.Width+j] = c
		}
	}
	return &b
}

func boardText(s *session.Session) string {
	st := s.State()
	var out []string
	for r := 0; r < st.Board.Height; r++ {
		var row []string
		for c := 0; c < st.Board.Width; c++ {
			row = append(row, s.Rules().FormatCell(st.Board.At(engine.Pos{Row: r, Col: c})))
		}
		out = append(out, strings.Join(row, " "))
	}
	return strings.Join(out, "\n")
}

// TestOneWayStuckIsLost: under one_way (Down closed), a board whose only
// move is Down is Lost for the player, with a message naming the mod; a
// move there is ignored, and Legal is empty.
func TestOneWayStuckIsLost(t *testing.T) {
	cfg := classic(t)
	rules, _, _ := cfg.Game(0, true)
	s, err := session.New(session.Setup{Config: cfg, Mods: []*mod.Mod{loadMod(t, "one_way")}},
		session.Start{Scripted: true, Board: board(t, rules,
			"2 4 2 4",
			"4 2 4 2",
			"2 4 2 4",
			"0 0 0 0")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.Status(); got != engine.Lost {
		t.Fatalf("Status = %v, want Lost", got)
	}
	if l := s.Legal(); l != 0 {
		t.Fatalf("Legal = %v, want none", l)
	}
	if msg := s.StatusMessage(); !strings.Contains(msg, "every move is refused by One Way (Down is closed on this board)") {
		t.Fatalf("StatusMessage = %q, want the mod's reason", msg)
	}
	before := boardText(s)
	for _, d := range engine.Directions {
		res, err := s.Move(d)
		if err != nil || res.Changed {
			t.Fatalf("Move(%v) in a lost game = %+v, %v; want a no-op", d, res, err)
		}
	}
	if boardText(s) != before {
		t.Fatal("a move in a lost game changed the board")
	}
	// The engine alone still sees Down: the session is what takes it out.
	if s.State().Status != engine.Playing {
		t.Fatalf("engine status = %v, want Playing", s.State().Status)
	}
}

// TestOneWayLegalLeavesOutRefused: a direction the mod refuses is not
// legal; the dry run leaves no trace in storage, the random stream or the
// log, so the game's save is the same as without it.
func TestOneWayLegalLeavesOutRefused(t *testing.T) {
	cfg := classic(t)
	setup := session.Setup{Config: cfg, Mods: []*mod.Mod{loadMod(t, "one_way", "direction=left")}}
	s, err := session.New(setup, session.Start{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Legal().Has(engine.Left) {
		t.Fatalf("Legal = %v includes the closed Left", s.Legal())
	}
	twin, err := session.New(setup, session.Start{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	defer twin.Close()
	for i := 0; i < 30; i++ {
		d := engine.Directions[i%4]
		s.Legal() // a dry run before every move in one of the twins only
		_, errA := s.Move(d)
		_, errB := twin.Move(d)
		if (errA == nil) != (errB == nil) {
			t.Fatalf("move %d: %v vs %v", i, errA, errB)
		}
	}
	a, _ := s.Save()
	b, _ := twin.Save()
	if !bytes.Equal(a, b) {
		t.Fatal("asking for the legal moves changed the game")
	}
}

// TestMovesAndReports: without mods the session plays as the engine does.
func TestMatchesEngine(t *testing.T) {
	cfg := classic(t)
	s, err := session.New(session.Setup{Config: cfg}, session.Start{Seed: 99})
	if err != nil {
		t.Fatal(err)
	}
	rules, opt, _ := cfg.Game(99, false)
	g, err := engine.New(rules, opt)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 200; i++ {
		d := engine.Directions[(i*7+i/3)%4]
		if s.Legal() != g.LegalMoves() {
			t.Fatalf("move %d: Legal %v, engine %v", i, s.Legal(), g.LegalMoves())
		}
		ra, ea := s.Move(d)
		rb, eb := g.Move(d)
		if ra != rb || (ea == nil) != (eb == nil) {
			t.Fatalf("move %d: %+v %v vs %+v %v", i, ra, ea, rb, eb)
		}
	}
	a, _ := s.Save()
	b, _ := g.Marshal()
	if !bytes.Equal(a, b) {
		t.Fatal("the session's game differs from the engine's")
	}
}

// TestResume: a save resumes under the same configuration and is refused
// under another; NewGame keeps the session's setup.
func TestResume(t *testing.T) {
	cfg := classic(t)
	mods := []*mod.Mod{loadMod(t, "freeze")}
	s, err := session.New(session.Setup{Config: cfg, Mods: mods}, session.Start{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := 0; i < 20; i++ {
		s.Move(engine.Directions[i%4])
	}
	data, err := s.Save()
	if err != nil {
		t.Fatal(err)
	}
	r, err := session.Resume(session.Setup{Config: cfg, Mods: mods}, data)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for i := 0; i < 20; i++ {
		s.Move(engine.Directions[(i+1)%4])
		r.Move(engine.Directions[(i+1)%4])
	}
	a, _ := s.Save()
	b, _ := r.Save()
	if !bytes.Equal(a, b) {
		t.Fatal("the resumed game went another way")
	}
	for _, sets := range [][]string{{"size=5"}, {"win_value=1024"}, {"undo_limit=3"}} {
		if _, err := session.Resume(session.Setup{Config: classic(t, sets...), Mods: mods}, data); err == nil {
			t.Errorf("Resume under %v: no error", sets)
		}
	}
	cell, _ := config.Preset("mid")
	if _, err := session.Resume(session.Setup{Config: cell}, data); err == nil || !strings.Contains(err.Error(), "ruleset") {
		t.Errorf("Resume under cellular: %v, want a ruleset error", err)
	}
	before, _ := r.Save()
	if err := r.NewGame(11); err != nil {
		t.Fatal(err)
	}
	after, _ := r.Save()
	if bytes.Equal(before, after) || !r.Score().IsZero() || len(r.Mods()) != 1 {
		t.Fatal("NewGame did not start a new game with the mods")
	}
}

func TestNoConfig(t *testing.T) {
	if _, err := session.New(session.Setup{}, session.Start{}); err == nil {
		t.Fatal("New with no configuration: no error")
	}
	if _, err := session.Resume(session.Setup{}, nil); err == nil {
		t.Fatal("Resume with no configuration: no error")
	}
}

// TestStatusMessageSaysWhy: every won or lost game says why, in the
// player's words; a game still going says nothing.
func TestStatusMessageSaysWhy(t *testing.T) {
	build := func(ruleset string, sets ...string) *config.Config {
		c, err := config.Build(config.BuildOptions{Ruleset: ruleset, Sets: sets})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	for _, c := range []struct {
		name  string
		cfg   *config.Config
		rows  []string
		move  engine.Direction
		spawn string // the queue's one spawn, at the last row's first cell
		want  string
	}{
		{"classic lost", build("classic", "size=2"), []string{"4 2", "8 0"}, engine.Right, "2", "no move left"},
		{"classic won", build("classic", "size=2", "win_value=8"), []string{"4 4", "0 0"}, engine.Left, "2", "you made a 8 tile"},
		{"extinct", build("cellular", "width=3", "height=1", "initial_cells=0", "spawn_cells=0", "colony.min_size=1", "catalyst.max=0"), []string{"a1 . ."}, engine.Right, "", "the colony died out"},
		{"turn limit", build("cellular", "width=2", "height=2", "initial_cells=0", "spawn_cells=0", "goal.turns=1", "goal.stabilize_per_cell=3", "idle_swipe_ticks=true", "colony.min_size=1"), []string{"a1 a1", "a1 a1"}, engine.Right, "", "the turn limit ran out: 1 turns"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rules, _, err := c.cfg.Game(1, true)
			if err != nil {
				t.Fatal(err)
			}
			b, err := engine.ParseRows(rules, c.rows, len(strings.Fields(c.rows[0])), len(c.rows))
			if err != nil {
				t.Fatal(err)
			}
			st := session.Start{Board: &b, Scripted: true}
			if c.spawn != "" {
				cell, err := rules.ParseCell(c.spawn)
				if err != nil {
					t.Fatal(err)
				}
				st.Spawns = []engine.SpawnEntry{{Pos: engine.Pos{Row: len(c.rows) - 1, Col: 0}, Cell: cell}}
			}
			s, err := session.New(session.Setup{Config: c.cfg}, st)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if m := s.StatusMessage(); m != "" {
				t.Fatalf("a game going on says %q", m)
			}
			if _, err := s.Move(c.move); err != nil {
				t.Fatal(err)
			}
			if m := s.StatusMessage(); !s.Status().Over() && s.Status() != engine.WonContinue || !strings.Contains(m, c.want) {
				t.Errorf("status %v, message %q, want %q", s.Status(), m, c.want)
			}
		})
	}
}

// TestNoUndo: a session started with NoUndo keeps no history (undo has
// nothing to take back) and plays the same game, move for move, as one
// with the configuration's undo history, mods and all.
func TestNoUndo(t *testing.T) {
	c, err := config.Build(config.BuildOptions{Ruleset: "cellular", Difficulty: "mid"})
	if err != nil {
		t.Fatal(err)
	}
	setup := session.Setup{Config: c, Mods: []*mod.Mod{loadMod(t, "moss")}}
	var sessions [2]*session.Session
	for k, noUndo := range []bool{false, true} {
		s, err := session.New(setup, session.Start{Seed: 9, NoUndo: noUndo})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		sessions[k] = s
	}
	for i := 0; i < 15 && !sessions[0].Status().Over(); i++ {
		legal := sessions[0].Legal().List()
		d := legal[i%len(legal)]
		for _, s := range sessions {
			if _, err := s.Move(d); err != nil {
				t.Fatal(err)
			}
		}
		a, b := sessions[0].State(), sessions[1].State()
		if !slices.Equal(a.Board.Cells, b.Board.Cells) || a.Score != b.Score || !slices.Equal(a.Marks, b.Marks) || a.Status != b.Status {
			t.Fatalf("move %d: the games differ:\n%v\n%v", i+1, a, b)
		}
	}
	if err := sessions[0].Undo(); err != nil {
		t.Fatalf("with history, Undo: %v", err)
	}
	if err := sessions[1].Undo(); err == nil {
		t.Fatal("without history, Undo took a move back")
	}
}
