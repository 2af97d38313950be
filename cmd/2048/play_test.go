package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/mod2048/mod2048/cellular"
	"github.com/mod2048/mod2048/cmd/2048/internal/saves"
	"github.com/mod2048/mod2048/cmd/2048/internal/tui"
	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
)

// The terminal game's tests drive it through tcell's simulation screen:
// keys in, the screen's text out, compared with golden files in
// testdata/screens (rewrite them with go test ./cmd/2048 -update). The
// end-to-end test at the bottom runs the real binary in tmux.

// testSession makes the session `2048 play ARGS` would, with saves in dir
// and new games seeded 101, 102, ...; its game starts as the command's
// would.
func testSession(t *testing.T, dir string, args ...string) (*player, tui.Config) {
	t.Helper()
	o, ok, code := parsePlay(args, io.Discard)
	if !ok {
		t.Fatalf("2048 play %v: exit %d", args, code)
	}
	o.stateDir = dir
	s, err := newPlayer(o)
	if err != nil {
		t.Fatal(err)
	}
	next := uint64(100)
	s.seed = func() uint64 { next++; return next }
	cfg, err := s.start(o)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Colors = tui.ColorRGB
	return s, cfg
}

// screen is a game on a simulated terminal.
type screen struct {
	t    *testing.T
	sim  tcell.SimulationScreen
	app  *tui.App
	quit bool
}

func openScreen(t *testing.T, cfg tui.Config, w, h int) *screen {
	t.Helper()
	sim := tcell.NewSimulationScreen("UTF-8")
	if err := sim.Init(); err != nil {
		t.Fatal(err)
	}
	sim.SetSize(w, h)
	app, err := tui.New(sim, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		app.Close()
		sim.Fini()
	})
	app.Draw()
	return &screen{t: t, sim: sim, app: app}
}

var namedKeys = map[string]tcell.Key{
	"Left": tcell.KeyLeft, "Right": tcell.KeyRight, "Up": tcell.KeyUp, "Down": tcell.KeyDown,
	"Esc": tcell.KeyEscape, "Enter": tcell.KeyEnter, "Home": tcell.KeyHome, "End": tcell.KeyEnd, "Ctrl+R": tcell.KeyCtrlR, "Ctrl+C": tcell.KeyCtrlC,
}

// press sends keys, drawing after each, as the game loop does, once the
// move's slide is over (TestPlayAnimation looks at the slide itself).
func (s *screen) press(keys ...string) {
	for _, k := range keys {
		var ev *tcell.EventKey
		if nk, ok := namedKeys[k]; ok {
			ev = tcell.NewEventKey(nk, 0, tcell.ModNone)
		} else {
			ev = tcell.NewEventKey(tcell.KeyRune, []rune(k)[0], tcell.ModNone)
		}
		if !s.app.HandleEvent(ev) {
			s.quit = true
		}
		s.app.Settle()
		s.app.Draw()
	}
}

func (s *screen) resize(w, h int) {
	s.sim.SetSize(w, h)
	s.app.HandleEvent(tcell.NewEventResize(w, h))
	s.app.Draw()
}

// text returns the screen's text, one line per row, without trailing
// spaces.
func (s *screen) text() string {
	cells, w, h := s.sim.GetContents()
	var b strings.Builder
	for y := 0; y < h; y++ {
		var line strings.Builder
		for x := 0; x < w; x++ {
			if r := cells[y*w+x].Runes; len(r) > 0 {
				line.WriteString(string(r))
			} else {
				line.WriteByte(' ')
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// cell returns the character and style at x, y.
func (s *screen) cell(x, y int) (string, tcell.Style) {
	cells, w, _ := s.sim.GetContents()
	c := cells[y*w+x]
	return string(c.Runes), c.Style
}

// find returns the position of the first occurrence of text on screen.
func (s *screen) find(text string) (x, y int, ok bool) {
	for y, line := range strings.Split(s.text(), "\n") {
		if i := strings.Index(line, text); i >= 0 {
			return len([]rune(line[:i])), y, true
		}
	}
	return 0, 0, false
}

func (s *screen) contains(want string) {
	s.t.Helper()
	if !strings.Contains(s.text(), want) {
		s.t.Errorf("the screen lacks %q:\n%s", want, s.text())
	}
}

// golden compares the screen with testdata/screens/NAME.golden.
func (s *screen) golden(name string) {
	s.t.Helper()
	golden(s.t, name+".golden", s.text())
}

// golden compares got with testdata/screens/NAME (-update writes it).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "screens", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/2048 -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("the output differs from %s (rerun with -update if the change is meant):\n%s\ngot:\n%s", path, lineDiff(string(want), got), got)
	}
}

// boardOf reads the board off a screen's text: the cells' texts, row by
// row, from the box-drawn grid (the middle line of each row of cells).
func boardOf(text string) [][]string {
	var rows [][]string
	var group []string
	in := false
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "┌"):
			in = true
		case !in:
		case strings.HasPrefix(t, "├") || strings.HasPrefix(t, "└"):
			mid := group[len(group)/2]
			parts := strings.Split(strings.TrimSpace(mid), "│")
			var row []string
			for _, p := range parts[1 : len(parts)-1] {
				row = append(row, strings.TrimSpace(p))
			}
			rows = append(rows, row)
			group = nil
			if strings.HasPrefix(t, "└") {
				return rows
			}
		default:
			group = append(group, line)
		}
	}
	return rows
}

// cellsOf writes a game's board as the screen shows small tiles.
// game is what cellsOf reads: an engine.Game or a session.Session.
type game interface {
	State() *engine.State
	Rules() engine.Rules
}

func cellsOf(g game) [][]string {
	b := g.State().Board
	var rows [][]string
	for r, line := range engine.FormatRows(g.Rules(), &b) {
		rows = append(rows, nil)
		for _, c := range strings.Fields(line) {
			if c == "0" || c == "." {
				c = ""
			}
			rows[r] = append(rows[r], c)
		}
	}
	return rows
}

func sameBoard(t *testing.T, what string, got, want [][]string) {
	t.Helper()
	if len(got) != len(want) || strings.Join(flat(got), "|") != strings.Join(flat(want), "|") {
		t.Errorf("%s: the screen shows\n%v\nthe game holds\n%v", what, got, want)
	}
}

func flat(rows [][]string) []string {
	var out []string
	for _, r := range rows {
		out = append(out, strings.Join(r, ","))
	}
	return out
}

// shadow replays the session's game in the engine alone, for comparison.
func shadow(t *testing.T, p *player, seed uint64) *engine.Game {
	t.Helper()
	rules, opt, err := p.setup.Config.Game(seed, false)
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.New(rules, opt)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestPlayClassic(t *testing.T) {
	s, cfg := testSession(t, t.TempDir(), "--seed", "1")
	sc := openScreen(t, cfg, 80, 24)
	ref := shadow(t, s, 1)
	sc.golden("classic_start")
	sameBoard(t, "start", boardOf(sc.text()), cellsOf(ref))

	// The tiles, in the original palette: dark text on the 2.
	x, y, ok := sc.find("  2  ")
	if !ok {
		t.Fatalf("no 2 on screen:\n%s", sc.text())
	}
	if ch, st := sc.cell(x+2, y); ch != "2" {
		t.Errorf("found %q", ch)
	} else if fg, bg, attr := st.Decompose(); fg != tcell.NewHexColor(0x776e65) || bg != tcell.NewHexColor(0xeee4da) || attr&tcell.AttrBold == 0 {
		t.Errorf("the 2's style: fg %v bg %v attr %v", fg, bg, attr)
	}

	keys := []string{"Left", "a", "Up", "k", "Right", "l", "Down", "j", "h", "w", "d", "s"}
	dirs := []engine.Direction{engine.Left, engine.Left, engine.Up, engine.Up, engine.Right, engine.Right, engine.Down, engine.Down, engine.Left, engine.Up, engine.Right, engine.Down}
	for i, k := range keys {
		sc.press(k)
		if _, err := ref.Move(dirs[i]); err != nil {
			t.Fatal(err)
		}
		sameBoard(t, "after "+k, boardOf(sc.text()), cellsOf(ref))
	}
	if ref.Score().IsZero() {
		t.Fatal("no merge in the moves played: pick other moves")
	}
	sc.golden("classic_moves")
	sc.contains("Score " + ref.Score().String())
	sc.contains("Best " + ref.Score().String())

	sc.press("u")
	ref.Undo()
	sameBoard(t, "undo", boardOf(sc.text()), cellsOf(ref))
	sc.golden("classic_undo")
	undone := sc.text()

	sc.press("?")
	sc.golden("classic_help")
	sc.press("Left") // ignored under the help
	sc.press("Esc")
	if sc.text() != undone {
		t.Errorf("after the help closed:\n%s\nwant\n%s", sc.text(), undone)
	}
	sc.press("?", "?")
	if sc.text() != undone {
		t.Error("? did not close the help")
	}

	sc.press("U")
	ref.Redo()
	sameBoard(t, "redo", boardOf(sc.text()), cellsOf(ref))
	sc.press("u", "Ctrl+R")
	sameBoard(t, "undo and Ctrl+R", boardOf(sc.text()), cellsOf(ref))
	sc.press("U")
	sc.contains("nothing to redo")
	sc.press("Left")
	if strings.Contains(sc.text(), "nothing to redo") {
		t.Error("the message outlived the next key")
	}

	// r asks first; anything but y keeps the game.
	before := sc.app.Session().State().Turn
	sc.press("r")
	sc.contains("New game? This one will be gone. (y/n)")
	sc.golden("classic_confirm")
	sc.press("n")
	if g := sc.app.Session(); g.State().Turn != before || g.Options().Seed != 1 {
		t.Error("n started a new game")
	}
	sc.contains("kept this game")
	sc.press("r", "y")
	if g := sc.app.Session(); before == 0 || g.State().Turn != 0 || g.Options().Seed != 101 {
		t.Errorf("y: a new game was not started (turn %d, seed %d)", g.State().Turn, g.Options().Seed)
	}
	sc.contains("Best " + ref.Score().String()) // the best score stays

	sc.press("q")
	if !sc.quit {
		t.Error("q did not quit")
	}
}

func TestPlayQuitKeys(t *testing.T) {
	for _, k := range []string{"q", "Q", "Ctrl+C"} {
		_, cfg := testSession(t, t.TempDir(), "--seed", "1")
		sc := openScreen(t, cfg, 80, 24)
		sc.press("?", k)
		if !sc.quit {
			t.Errorf("%s did not quit", k)
		}
	}
}

// boardGame returns a tui.Config for a game from a written board, with
// scripted spawns.
func boardGame(t *testing.T, o config.BuildOptions, rows []string, spawns ...engine.SpawnEntry) tui.Config {
	t.Helper()
	c, err := config.Build(o)
	if err != nil {
		t.Fatal(err)
	}
	rules, _, err := c.Game(9, false)
	if err != nil {
		t.Fatal(err)
	}
	board, err := engine.ParseRows(rules, rows, len(strings.Fields(rows[0])), len(rows))
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.New(session.Setup{Config: c}, session.Start{Seed: 9, Board: &board, Spawns: spawns})
	if err != nil {
		t.Fatal(err)
	}
	return tui.Config{Ruleset: c.Ruleset, Difficulty: c.Preset, Session: s, Colors: tui.ColorRGB}
}

// TestPlayRefusedEverywhere: under one_way, a board whose only move is the
// closed one is lost, and the screen says which mod refused it.
func TestPlayRefusedEverywhere(t *testing.T) {
	c, err := config.Build(config.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := mod.Load(filepath.Join("..", "..", "mods", "one_way"))
	if err != nil {
		t.Fatal(err)
	}
	rules, _, _ := c.Game(9, false)
	board, err := engine.ParseRows(rules, []string{"2 4 2 4", "4 2 4 2", "2 4 2 4", "0 0 0 0"}, 4, 4)
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.New(session.Setup{Config: c, Mods: []*mod.Mod{m}}, session.Start{Seed: 9, Board: &board})
	if err != nil {
		t.Fatal(err)
	}
	sc := openScreen(t, tui.Config{Ruleset: "classic", Difficulty: "classic", Session: s, Colors: tui.ColorRGB}, 140, 24)
	sc.contains("Game over: no move left: every move is refused by One Way (Down is closed on this board).")
	sc.contains("r new game · u undo")
	sc.press("Down")
	sc.contains("no move left: every move is refused by One Way (Down is closed on this board): u to undo, r for a new game")
	if st := sc.app.Session().Status(); st != engine.Lost || s.State().Turn != 0 {
		t.Errorf("status %v at turn %d", st, s.State().Turn)
	}
}

func TestPlayWinAndLose(t *testing.T) {
	won := boardGame(t, config.BuildOptions{}, []string{
		"1024 1024 0 0",
		"2 0 0 0",
		"0 0 0 0",
		"0 0 0 4",
	})
	sc := openScreen(t, won, 80, 24)
	sc.press("Left")
	if st := sc.app.Session().Status(); st != engine.Won {
		t.Fatalf("status %v", st)
	}
	sc.golden("classic_won")
	sc.contains("You win! You made 2048.")
	sc.contains("c or Enter keep playing")
	sameBoard(t, "won", boardOf(sc.text()), cellsOf(sc.app.Session())) // the banner hides no tile
	sc.press("Right")
	sc.contains("you won: c or Enter to keep playing")
	sc.press("c")
	if st := sc.app.Session().Status(); st != engine.WonContinue {
		t.Fatalf("c: status %v", st)
	}
	sc.contains("keep going!")
	sc.contains("Won (continue)")
	sc.press("Right")
	if sc.app.Session().State().Turn != 2 {
		t.Error("no move after keeping playing")
	}

	// Without stop on win, the game says so once and goes on.
	goOn := config.BuildOptions{Sets: []string{"size=2", "stop_on_win=false"}}
	won = boardGame(t, goOn, []string{"1024 1024", "0 4"}, engine.SpawnEntry{Pos: engine.Pos{Row: 0, Col: 1}, Cell: engine.Cell{Kind: engine.KindTile, Level: 1}})
	sc = openScreen(t, won, 80, 24)
	sc.press("Left")
	sc.contains("You win! Play goes on.")
	if st := sc.app.Session().Status(); st != engine.WonContinue {
		t.Errorf("status %v", st)
	}

	won = boardGame(t, config.BuildOptions{Sets: []string{"size=2"}}, []string{"1024 1024", "2 4"})
	sc = openScreen(t, won, 80, 24)
	sc.press("Left", "Enter")
	if st := sc.app.Session().Status(); st != engine.WonContinue {
		t.Errorf("Enter: status %v", st)
	}

	lost := boardGame(t, config.BuildOptions{}, []string{
		"2 4 2 4",
		"4 2 4 2",
		"2 4 2 4",
		"8 16 8 0",
	}, engine.SpawnEntry{Pos: engine.Pos{Row: 3, Col: 0}, Cell: engine.Cell{Kind: engine.KindTile, Level: 2}})
	lost.Seed = func() uint64 { return 5 }
	sc = openScreen(t, lost, 80, 24)
	sc.press("Right")
	if st := sc.app.Session().Status(); st != engine.Lost {
		t.Fatalf("status %v", st)
	}
	sc.golden("classic_lost")
	sc.contains("Game over: no move left.")
	sameBoard(t, "lost", boardOf(sc.text()), cellsOf(sc.app.Session()))
	sc.press("Up")
	sc.contains("no move left: u to undo, r for a new game")
	sc.press("u")
	if sc.app.Session().Status() != engine.Playing {
		t.Error("undo did not take the losing move back")
	}
	sc.press("Right", "r") // over: r needs no question
	if g := sc.app.Session(); g.State().Turn != 0 || g.Options().Seed != 5 {
		t.Error("r after losing did not start a new game")
	}
}

// TestPlayCellularBestStable: once a cellular game is over, its goal
// line says how close it came: the energy of its best stable turn against
// the goal, as the rules scored it; a new game starts the count again.
// (Without the Life tick every turn is stable.)
func TestPlayCellularBestStable(t *testing.T) {
	s, cfg := testSession(t, t.TempDir(), "--ruleset", "cellular", "--seed", "3", "--set", "goal.turns=12", "--set", "goal.stabilize_per_cell=0.9", "--set", "life.enabled=false")
	sc := openScreen(t, cfg, 80, 24)
	ref := shadow(t, s, 3)
	best := 0
	for i := 0; ref.State().Status == engine.Playing && i < 100; i++ {
		for k := range engine.Directions {
			if d := engine.Directions[(i+k)%4]; ref.Legal(d) {
				sc.press(d.String())
				ref.Move(d)
				if st := ref.State(); st.Vars[cellular.VarStreak] > 0 {
					best = max(best, int(st.Vars[cellular.VarBase]))
				}
				break
			}
		}
	}
	if ref.State().Status != engine.Lost {
		t.Fatalf("the game did not end: %v", ref.State().Status)
	}
	goal := ref.Rules().(*cellular.Rules).Threshold()
	sc.contains(fmt.Sprintf("best stable %d/%d", best, goal))
	if best == 0 {
		t.Error("no stable turn in the game: the test shows nothing")
	}
	sc.press("r")
	if strings.Contains(sc.text(), "best stable") {
		t.Error("a new game shows the last one's best stable energy")
	}
}

func TestPlayCellular(t *testing.T) {
	s, cfg := testSession(t, t.TempDir(), "--ruleset", "cellular", "--seed", "3")
	sc := openScreen(t, cfg, 80, 24)
	ref := shadow(t, s, 3)
	sc.golden("cellular_start")
	sameBoard(t, "start", boardOf(sc.text()), cellsOf(ref))
	sc.contains("cellular · difficulty early")
	for _, k := range []string{"Left", "Up", "Right"} {
		sc.press(k)
		d, _ := engine.ParseDirection(k)
		if _, err := ref.Move(d); err != nil {
			t.Fatal(err)
		}
		sameBoard(t, "after "+k, boardOf(sc.text()), cellsOf(ref))
	}
	sc.golden("cellular_moves")
	sc.contains("Score " + engine.FormatScore(ref.Rules(), ref.Score()))
	// The goal line: the alive energy against the goal, the last turn's
	// stability and multiplier, the turns left, as the rules count them.
	g := ref.Rules().(*cellular.Rules).Standing(ref.State())
	word := map[bool]string{true: "stable", false: "unstable"}[g.Stable]
	sc.contains(fmt.Sprintf("Energy %d/%d · %s ×%g · %d turns left", g.Energy, g.Goal, word, float64(g.Quarters)/4, g.TurnsLeft))
	sc.press("?")
	sc.golden("cellular_help")
	sc.contains("The goal line")
	sc.press("Down", "j", "Down", "Down", "Down", "Down", "Down", "Down", "Down", "Down", "Down", "Down", "Down", "Down", "Down", "Down", "Down", "Down", "Down", "Down")
	sc.golden("cellular_help_scrolled")
	sc.contains("incoming blight")
	sc.press("Esc")

	// Every kind of cell: alive (bright, bold), dormant (dim), catalysts,
	// blight with its charges, incoming blight.
	tokens := boardGame(t, config.BuildOptions{Ruleset: "cellular"}, []string{
		"a1 a3 a8 d2 d5 .",
		"a1/2 a2+C d3+C C . .",
		"B B3 b b2 . .",
		". . . . . .",
		"a1 a1 . . . .",
		"a1 a1 . . . .",
	})
	sc = openScreen(t, tokens, 80, 24)
	sc.golden("cellular_tokens")
	x, y, _ := sc.find(" d2 ")
	if _, st := sc.cell(x+1, y); true {
		_, bg, attr := st.Decompose()
		if attr&tcell.AttrBold != 0 || bg == tcell.ColorDefault {
			t.Errorf("dormant d2: bg %v attr %v", bg, attr)
		}
	}
	x, y, _ = sc.find(" a3 ")
	if _, st := sc.cell(x+1, y); true {
		if _, _, attr := st.Decompose(); attr&tcell.AttrBold == 0 {
			t.Errorf("alive a3 is not bold: %v", attr)
		}
	}
	x, y, _ = sc.find(" B3 ")
	if _, st := sc.cell(x+1, y); true {
		if _, bg, _ := st.Decompose(); bg != tcell.NewHexColor(0xb71c1c) {
			t.Errorf("blight B3: bg %v", bg)
		}
	}
}

// TestPlayModded plays with mods/freeze: on turn 4 the largest tile
// freezes, and the screen shows the hazard's glyph on it.
func TestPlayModded(t *testing.T) {
	s, cfg := testSession(t, t.TempDir(), "--mod", "../../mods/freeze", "--seed", "5")
	sc := openScreen(t, cfg, 80, 24)
	sc.contains("mods Freeze")
	ref := shadow(t, s, 5)
	dirs := []string{"Left", "Up", "Right", "Down"}
	for i := 0; sc.app.Session().State().Turn < 4 && i < 40; i++ {
		sc.press(dirs[i%4])
	}
	st := sc.app.Session().State()
	if len(st.Marks) != 1 || st.Marks[0].Name != "freeze:ice" {
		t.Fatalf("marks after turn %d: %v", st.Turn, st.Marks)
	}
	_ = ref
	sc.golden("modded_frozen")
	// The glyph stands in the top-left corner of the frozen cell, in the
	// hazard's color (cyan).
	m := st.Marks[0]
	bx, by, _ := sc.find("┌")
	x, y := bx+1+m.Pos.Col*8, by+1+m.Pos.Row*4
	ch, style := sc.cell(x, y)
	if _, bg, _ := style.Decompose(); ch != "*" || bg != tcell.ColorAqua {
		t.Errorf("the frozen cell's corner holds %q (bg %v):\n%s", ch, bg, sc.text())
	}
	sc.press("?")
	sc.golden("modded_help")
	sc.contains("Freeze 1.1.0 (freeze)")
	sc.press("End")
	sc.contains("* freeze:ice: A frozen tile")
	// L: the mods' logs and the recent messages, whole.
	sc.press("Esc")
	sc.press("L")
	sc.contains("Log")
	sc.contains("Freeze (freeze): its log")
	sc.press("Esc")
	sc.contains("Score")
}

// writeMod writes a mod folder with the given main.lua.
func writeMod(t *testing.T, id, lua string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), id)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := "id = \"" + id + "\"\nname = \"" + strings.ToUpper(id[:1]) + id[1:] + "\"\nversion = \"0.1\"\napi_version = 1\ndescription = \"A test mod.\"\n"
	if err := os.WriteFile(filepath.Join(dir, "mod.toml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.lua"), []byte(lua), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestPlayMessages checks that a refused move and a mod's error show on
// the status line without stopping the game, until the next key.
func TestPlayMessages(t *testing.T) {
	refuser := writeMod(t, "refuser", `game.on("before_move", function(ev)
  if ev.dir == "up" then return {refuse = "no going up"} end
end)`)
	boom := writeMod(t, "boom", `game.on("tick", function(ev)
  if ev.turn == 2 then error("boom at turn two") end
end)`)
	_, cfg := testSession(t, t.TempDir(), "--mod", refuser, "--mod", boom, "--seed", "2")
	sc := openScreen(t, cfg, 100, 30)
	sc.press("Up")
	sc.contains("Refuser: no going up")
	if sc.app.Session().State().Turn != 0 {
		t.Error("the refused move was played")
	}
	sc.press("Left")
	if strings.Contains(sc.text(), "no going up") {
		t.Error("the message outlived the next key")
	}
	for i := 0; sc.app.Session().State().Turn < 2 && i < 10; i++ {
		sc.press([]string{"Right", "Down", "Left"}[i%3])
	}
	sc.contains("mod boom (main.lua:2): tick: ")
	sc.contains("boom at turn two")
	if sc.app.Session().State().Turn != 2 {
		t.Error("the turn the mod failed in was not played")
	}
}

// apiVersion2 makes the mod in dir (writeMod's, API version 1) one of API
// version 2.
func apiVersion2(t *testing.T, dir string) {
	t.Helper()
	manifest := filepath.Join(dir, "mod.toml")
	data, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(manifest, []byte(strings.Replace(string(data), "api_version = 1", "api_version = 2", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPlayNotices: a mod's game.notify shows on the status line with its
// name, and the L key shows the messages and an error whole, where the
// status line cuts them at the screen's edge.
func TestPlayNotices(t *testing.T) {
	dir := writeMod(t, "lava", `game.on("tick", function(ev)
  game.notify("the lava burns a tile at turn " .. ev.turn)
  if ev.turn == 2 then error("a long error: " .. string.rep("word ", 40) .. "the end") end
end)`)
	apiVersion2(t, dir) // the notify call is API version 2
	_, cfg := testSession(t, t.TempDir(), "--mod", dir, "--seed", "2")
	sc := openScreen(t, cfg, 80, 40)
	for i := 0; sc.app.Session().State().Turn < 1 && i < 4; i++ {
		sc.press([]string{"Left", "Right", "Up", "Down"}[i])
	}
	sc.contains("Lava: the lava burns a tile at turn 1")
	for i := 0; sc.app.Session().State().Turn < 2 && i < 8; i++ {
		sc.press([]string{"Left", "Right", "Up", "Down"}[i%4])
	}
	if strings.Contains(sc.text(), "the end") {
		t.Fatal("the status line showed the long error whole: the test shows nothing")
	}
	sc.press("L")
	sc.contains("Messages")
	sc.contains("turn 1: Lava: the lava burns a tile at turn 1")
	sc.contains("the end")
	sc.contains("Lava (lava): its log")
	sc.press("L")
	sc.contains("Score")
}

// TestPlayLogKeepsAll: the L view shows a notice whole, where a long word
// ends with a character shown as an escape (a right-to-left override, U+202E:
// \u202e) at a line's end: the word goes on over the next line, and the
// words after it, up to the notice's line break and after, all show.
func TestPlayLogKeepsAll(t *testing.T) {
	long := "AB" + strings.Repeat("x", 58) + "CD-"
	dir := writeMod(t, "lava", `game.on("tick", function(ev)
  game.notify("N1 `+long+`\226\128\174-ok")
  game.notify("N2 `+strings.Repeat("y", 60)+`\226\128\174 lost words\nnext line")
end)`)
	apiVersion2(t, dir)
	_, cfg := testSession(t, t.TempDir(), "--mod", dir, "--seed", "2")
	sc := openScreen(t, cfg, 80, 40)
	for i := 0; sc.app.Session().State().Turn < 1 && i < 4; i++ {
		sc.press([]string{"Left", "Right", "Up", "Down"}[i])
	}
	sc.press("L")
	// The log box's text, its lines run together.
	var box strings.Builder
	for _, row := range strings.Split(sc.text(), "\n") {
		row = strings.TrimSpace(row)
		if strings.HasPrefix(row, "│") && strings.HasSuffix(row, "│") {
			box.WriteString(strings.TrimSpace(strings.Trim(row, "│")))
		}
	}
	for _, want := range []string{long + `\u202e-ok`, strings.Repeat("y", 60) + `\u202elost words`, "next line"} {
		if !strings.Contains(box.String(), want) {
			t.Errorf("the log view lacks %q:\n%s", want, sc.text())
		}
	}
}

func TestPlayResize(t *testing.T) {
	_, cfg := testSession(t, t.TempDir(), "--seed", "1")
	sc := openScreen(t, cfg, 80, 24)
	sc.press("Left", "Up")
	large := sc.text()
	sc.resize(60, 10)
	sc.golden("too_small")
	sc.contains("terminal too small: need 25×13")
	sc.press("Down", "u") // the player cannot see the board: moves wait
	if sc.app.Session().State().Turn != 2 {
		t.Error("a key played on a screen too small")
	}
	sc.resize(40, 16)
	sc.golden("compact")
	sc.press("Down", "u")
	sc.resize(80, 24)
	if sc.text() != large {
		t.Errorf("after growing back:\n%s\nwant\n%s", sc.text(), large)
	}
	sc.resize(20, 10)
	sc.golden("too_small_narrow")
	sc.resize(5, 1)
	if !strings.Contains(sc.text(), "termi") {
		t.Errorf("tiny screen:\n%s", sc.text())
	}
}

func TestPlayNoColor(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	_, cfg := testSession(t, t.TempDir(), "--seed", "1")
	cfg.Colors = tui.ColorAuto
	sc := openScreen(t, cfg, 80, 24)
	sc.press("Left", "?", "Esc")
	if m := sc.app.Mode(); m != tui.ColorNone {
		t.Fatalf("mode %v with NO_COLOR", m)
	}
	sc.golden("nocolor")
	cells, _, _ := sc.sim.GetContents()
	for i, c := range cells {
		if fg, bg, _ := c.Style.Decompose(); fg != tcell.ColorDefault || bg != tcell.ColorDefault {
			t.Fatalf("cell %d (%q) has colors %v on %v", i, string(c.Runes), fg, bg)
		}
	}
	// Without color, a tile is a block in reverse video.
	x, y, _ := sc.find("  2  ")
	if _, st := sc.cell(x+2, y); true {
		if _, _, attr := st.Decompose(); attr&tcell.AttrReverse == 0 {
			t.Errorf("the 2 is not in reverse video: %v", attr)
		}
	}
}

func TestPlaySaves(t *testing.T) {
	dir := t.TempDir()
	s, cfg := testSession(t, dir)
	sc := openScreen(t, cfg, 80, 24)
	path := s.store.Path(s.key)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the new game was not saved: %v", err)
	}
	for i := 0; i < 12; i++ {
		sc.press([]string{"Left", "Up", "Right", "Down"}[i%4])
	}
	played := sc.app.Session()
	if played.Score().IsZero() {
		t.Fatal("no score to keep")
	}
	board := boardOf(sc.text())
	sc.press("q")

	// The next start resumes it, best score and all.
	_, cfg = testSession(t, dir)
	sc = openScreen(t, cfg, 80, 24)
	sameBoard(t, "resumed", boardOf(sc.text()), board)
	if cfg.Message != "" {
		t.Errorf("message %q", cfg.Message)
	}
	sc.contains("Best " + played.Score().String())
	sc.press("u")
	back, err := loadSave(t, s)
	if err != nil || back.State().Turn != played.State().Turn-1 {
		t.Errorf("undo was not saved: %v", err)
	}
	sc.press("q")

	// Another configuration or mod set has a save of its own.
	_, other := testSession(t, dir, "--set", "size=5")
	if other.Session.State().Turn != 0 {
		t.Error("size=5 resumed the 4×4 save")
	}
	if entries, _ := filepath.Glob(filepath.Join(dir, "classic-classic-*.json")); len(entries) != 2 {
		t.Errorf("saves: %v", entries)
	}

	// A corrupt save: a message, a new game, the file kept aside.
	if err := os.WriteFile(path, []byte(`{"format": "2048-tui-save", "version": 1, "game": [`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, cfg = testSession(t, dir)
	if !strings.Contains(cfg.Message, "is corrupt") || !strings.Contains(cfg.Message, "kept as "+filepath.Base(path)+".corrupt-") {
		t.Errorf("message %q", cfg.Message)
	}
	if cfg.Session.State().Turn != 0 {
		t.Error("the corrupt save was not replaced by a new game")
	}
	sc = openScreen(t, cfg, 120, 24)
	sc.contains("could not resume: ")
	kept, _ := filepath.Glob(path + ".corrupt-*")
	if len(kept) != 1 {
		t.Fatalf("kept aside: %v", kept)
	}
	if data, _ := os.ReadFile(kept[0]); !bytes.HasSuffix(data, []byte(`"game": [`)) {
		t.Errorf("the corrupt save was changed: %q", data)
	}
	if _, err := loadSave(t, s); err != nil {
		t.Errorf("the new game's save: %v", err)
	}
	sc.press("Left")
	if strings.Contains(sc.text(), "could not resume") {
		t.Error("the message outlived the next key")
	}
}

// TestPlayErrors checks that bad flags, configurations and mods stop
// `2048 play` with a located error before anything is written.
func TestPlayErrors(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	t.Setenv(saves.EnvDir, dir)
	badLua := writeMod(t, "broken", "game.on(\"tick\", function() end\nlocal x = = 1\n")
	badToml := filepath.Join(t.TempDir(), "bad.toml")
	if err := os.WriteFile(badToml, []byte("size = 4\nwinvalue = 8\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--nosuch"}, 2, "2048 play: unknown flag --nosuch; see 2048 play --help\n"},
		{[]string{"extra"}, 2, `unexpected argument "extra"`},
		{[]string{"--seed", "-1"}, 2, "want a whole number"},
		{[]string{"--set", "size=40"}, 1, "--set: size: 40 is outside 2 to 16"},
		{[]string{"--ruleset", "chess"}, 1, `unknown ruleset "chess"`},
		{[]string{"--config", badToml}, 1, badToml + ":2: winvalue"},
		{[]string{"--mod", t.TempDir()}, 1, "not a mod"},
		{[]string{"--mod", badLua}, 1, "main.lua"},
		{[]string{"--ruleset", "cellular", "--mod", "../../mods/freeze"}, 1, "freeze"},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		code := runPlay(tt.args, &out, &errOut)
		if code != tt.code || !strings.Contains(errOut.String(), tt.want) {
			t.Errorf("2048 play %v: exit %d, want %d and %q in:\n%s", tt.args, code, tt.code, tt.want, errOut.String())
		}
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the state directory was touched: %v", err)
	}
	// Not in a terminal: an error, not a garbled screen.
	_, errOut, code := run2048(t, t.TempDir(), "play")
	if code != 1 || !strings.Contains(errOut, "must be a terminal") {
		t.Errorf("2048 play with no terminal: exit %d\n%s", code, errOut)
	}
}

// TestPlayInTmux runs the real binary in tmux, as a person would: keys in,
// the pane's text out. It checks that tiles move and merge as the engine
// says, that undo and the help work, and that quitting gives the shell its
// screen back.
func TestPlayInTmux(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	pn := newPane(t, dir, 90, 30)
	tm := pn.run
	capture := func() string { return tm("capture-pane", "-p") }
	waitFor := pn.waitFor
	pn.typeLine("MOD2048_STATE_DIR=" + state + " " + binary + " play --seed 11; echo EXIT=$?")

	o, _, _ := parsePlay([]string{"--seed", "11"}, io.Discard)
	o.stateDir = state
	s, err := newPlayer(o)
	if err != nil {
		t.Fatal(err)
	}
	ref := shadow(t, s, 11)
	showing := func(what string, g *engine.Game) string {
		t.Helper()
		want := flat(cellsOf(g))
		return waitFor(what, func(text string) bool {
			return strings.Contains(text, "Turn "+strconv.Itoa(g.State().Turn)) && strings.Join(flat(boardOf(text)), "|") == strings.Join(want, "|")
		})
	}
	showing("the first board", ref)
	keys := map[engine.Direction]string{engine.Left: "Left", engine.Right: "Right", engine.Up: "Up", engine.Down: "Down"}
	var history [][]string
	for i := 0; ref.Score().IsZero() && i < 40; i++ {
		d := engine.Directions[i%4]
		if !ref.Legal(d) {
			continue
		}
		history = append(history, flat(cellsOf(ref)))
		if _, err := ref.Move(d); err != nil {
			t.Fatal(err)
		}
		tm("send-keys", keys[d])
		showing("the board after "+keys[d], ref)
	}
	if ref.Score().IsZero() {
		t.Fatal("no merge in 40 moves")
	}
	text := capture()
	if !strings.Contains(text, "Score "+ref.Score().String()) {
		t.Errorf("the merge's score is not shown:\n%s", text)
	}
	t.Logf("after the merge:\n%s", text)
	tm("send-keys", "u")
	ref.Undo()
	showing("the board after undo", ref)
	if strings.Join(flat(cellsOf(ref)), "|") != strings.Join(history[len(history)-1], "|") {
		t.Error("undo did not restore the board before the last move")
	}
	tm("send-keys", "?")
	waitFor("the help", func(s string) bool { return strings.Contains(s, "Help") && strings.Contains(s, "Keys") })
	tm("send-keys", "Escape")
	waitFor("the help to close", func(s string) bool { return !strings.Contains(s, "Keys") && strings.Contains(s, "Score") })
	tm("send-keys", "q")
	text = waitFor("the shell", func(s string) bool { return strings.Contains(s, "\nEXIT=") })
	t.Logf("after quitting:\n%s", text)
	if !strings.Contains(text, "EXIT=0") {
		t.Errorf("the game did not exit 0:\n%s", text)
	}
	// The shell's screen is back as it was: the command line typed, the
	// prompt, and nothing of the game (no alternate-screen leftovers).
	if strings.ContainsAny(text, "┌│└") || strings.Contains(text, "Score") {
		t.Errorf("the game left itself on the screen:\n%s", text)
	}
	if !strings.Contains(text, "play --seed 11; echo EXIT=$?") {
		t.Errorf("the shell's screen was not restored:\n%s", text)
	}
	lines := strings.Split(strings.TrimRight(text, "\n "), "\n")
	if last := strings.TrimSpace(lines[len(lines)-1]); last != "PROMPT$" {
		t.Errorf("the last line is %q, not the prompt:\n%s", last, text)
	}
	if alt := strings.TrimSpace(tm("display-message", "-p", "#{alternate_on}")); alt != "0" {
		t.Errorf("the pane is still in the alternate screen (%s)", alt)
	}
	if _, err := os.Stat(s.store.Path(s.key)); err != nil {
		t.Errorf("no save in MOD2048_STATE_DIR: %v", err)
	}
}

// TestPlayWideGlyph checks that a hazard whose glyph is two columns wide
// keeps the board's lines in place, in tall cells and in compact ones.
func TestPlayWideGlyph(t *testing.T) {
	mod := writeMod(t, "ice", `local ice = game.hazard{name = "cube", glyph = "🧊", color = "#88ccff", description = "An ice cube."}
game.on("tick", function(ev)
  return {mark = {{row = 0, col = 0, name = "cube"}, {row = 0, col = 0, name = "cube2"}}}
end)
game.hazard{name = "cube2", glyph = "❄", color = "blue"}`)
	_, cfg := testSession(t, t.TempDir(), "--mod", mod, "--seed", "4")
	sc := openScreen(t, cfg, 80, 24)
	for i := 0; sc.app.Session().State().Turn < 1 && i < 4; i++ {
		sc.press([]string{"Left", "Right", "Up", "Down"}[i])
	}
	if n := len(sc.app.Session().State().Marks); n != 2 {
		t.Fatalf("%d marks", n)
	}
	for _, size := range [][2]int{{80, 24}, {40, 16}} {
		sc.resize(size[0], size[1])
		rows := boardOf(sc.text())
		if len(rows) != 4 {
			t.Fatalf("%v: the board is broken:\n%s", size, sc.text())
		}
		for _, r := range rows {
			if len(r) != 4 {
				t.Errorf("%v: a row of %d cells:\n%s", size, len(r), sc.text())
			}
		}
	}
	sc.contains("!") // compact cells show a wide glyph as "!"
}

// TestPlayUnreadableSave: a save that cannot be read (here a folder in its
// place, or a state "folder" that is a file: cases root meets too, as it
// does permission denied after a run with sudo) stops `2048 play` with an
// error that names the file and the fix, and nothing is written over it;
// with --seed too.
func TestPlayUnreadableSave(t *testing.T) {
	dir := t.TempDir()
	o, _, _ := parsePlay(nil, io.Discard)
	o.stateDir = dir
	s, err := newPlayer(o)
	if err != nil {
		t.Fatal(err)
	}
	path := s.store.Path(s.key)
	if err := os.MkdirAll(filepath.Join(path, "kept"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{nil, {"--seed", "5"}} {
		o, _, _ := parsePlay(args, io.Discard)
		o.stateDir = dir
		s, err := newPlayer(o)
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.start(o)
		var re *saves.ReadError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), "cannot read "+path+" (a folder, not a regular file)") || !strings.Contains(err.Error(), "move it away") {
			t.Errorf("2048 play %v: %v", args, err)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("2048 play %v wrote beside the unreadable save: %v", args, entries)
		}
		if _, err := os.Stat(filepath.Join(path, "kept")); err != nil {
			t.Errorf("the unreadable save was touched: %v", err)
		}
	}

	// The state folder is a file: the save's path goes through it.
	file := filepath.Join(t.TempDir(), "state")
	if err := os.WriteFile(file, []byte("not a folder"), 0o644); err != nil {
		t.Fatal(err)
	}
	o.stateDir = file
	s, err = newPlayer(o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.start(o); err == nil || !strings.Contains(err.Error(), "cannot read "+s.store.Path(s.key)) {
		t.Errorf("a state folder that is a file: %v", err)
	}
}

// TestPlayForeignBoard: a save whose game does not match its configuration
// (a 256×256 board under the classic 4×4, which left the terminal stuck on
// "terminal too small") is kept aside, untouched, and a new 4×4 game goes
// to the save's place.
func TestPlayForeignBoard(t *testing.T) {
	dir := t.TempDir()
	s, _ := testSession(t, dir, "--seed", "1")
	big, err := engine.New(engine.NewClassic(), engine.Options{Width: 256, Height: 256, Seed: 1, UndoLimit: 100})
	if err != nil {
		t.Fatal(err)
	}
	saveGame(t, s, big)
	path := s.store.Path(s.key)
	bad, _ := os.ReadFile(path)
	_, cfg := testSession(t, dir)
	if !strings.Contains(cfg.Message, "board size: the game has 256×256, the configuration 4×4") || !strings.Contains(cfg.Message, "kept as ") {
		t.Errorf("message %q", cfg.Message)
	}
	if o := cfg.Session.Options(); o.Width != 4 || o.Height != 4 || cfg.Session.State().Turn != 0 {
		t.Errorf("the game started is %d×%d at turn %d", o.Width, o.Height, cfg.Session.State().Turn)
	}
	kept, _ := filepath.Glob(path + ".corrupt-*")
	if len(kept) != 1 {
		t.Fatalf("kept aside: %v", kept)
	}
	if data, _ := os.ReadFile(kept[0]); !bytes.Equal(data, bad) {
		t.Error("the save kept aside was changed")
	}
	if back, err := loadSave(t, s); err != nil || back.Options().Width != 4 {
		t.Errorf("the new game's save: %v", err)
	}

	// Other settings than the board's size are checked too.
	other := classicWith(t, 4, func(c *engine.Classic) { c.WinValue = 8 })
	saveGame(t, s, other)
	_, cfg = testSession(t, dir)
	if !strings.Contains(cfg.Message, "rules: the game has ") {
		t.Errorf("win value 8 under the classic configuration: %q", cfg.Message)
	}
}

// loadSave loads the save of p's slot as the engine's game.
func loadSave(t *testing.T, p *player) (*engine.Game, error) {
	t.Helper()
	var g *engine.Game
	_, err := p.store.Load(p.key, func(data []byte) error {
		var err error
		g, err = engine.Unmarshal(data)
		return err
	})
	return g, err
}

// saveGame saves g in p's slot.
func saveGame(t *testing.T, p *player, g *engine.Game) {
	t.Helper()
	data, err := g.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.store.Save(p.key, data); err != nil {
		t.Fatal(err)
	}
}

func classicWith(t *testing.T, size int, change func(*engine.Classic)) *engine.Game {
	t.Helper()
	r := engine.NewClassic()
	change(r)
	g, err := engine.New(r, engine.Options{Width: size, Height: size, Seed: 1, UndoLimit: 100})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestPlayCleansTemps: the temporary files that saves killed half-way
// left (.NAME.json.tmp-N) are removed at the next start, once abandoned.
func TestPlayCleansTemps(t *testing.T) {
	dir := t.TempDir()
	s, _ := testSession(t, dir, "--seed", "1")
	name := filepath.Base(s.store.Path(s.key))
	old := time.Now().Add(-saves.TempAge - time.Minute)
	var stale []string
	for i := 0; i < 25; i++ {
		p := filepath.Join(dir, "."+name+".tmp-"+strconv.Itoa(1000+i))
		if err := os.WriteFile(p, []byte(`{"format": "2048-tui-save", "ver`), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
		stale = append(stale, p)
	}
	fresh := filepath.Join(dir, "."+name+".tmp-42")
	if err := os.WriteFile(fresh, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	testSession(t, dir)
	for _, p := range stale {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s is left: %v", filepath.Base(p), err)
		}
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a temporary file of a save under way was removed: %v", err)
	}
}

// flakyStore is a save slot whose saves fail while fail is set, as a full
// disk does.
type flakyStore struct {
	tui.Store
	fail  bool
	saves int
}

func (f *flakyStore) Save(game []byte) error {
	f.saves++
	if f.fail {
		return &os.PathError{Op: "write", Path: "/home/me/.local/state/2048/.classic-classic-1234abcd.json.tmp-5", Err: syscall.ENOSPC}
	}
	return f.Store.Save(game)
}

// TestPlayAutosaveFails: a failed autosave stays on screen, readable on a
// narrow terminal, until a save succeeds; q then asks before it quits, and
// quitting anyway leaves the error for the exit status.
func TestPlayAutosaveFails(t *testing.T) {
	_, cfg := testSession(t, t.TempDir(), "--seed", "1")
	store := &flakyStore{Store: cfg.Store, fail: true}
	cfg.Store = store
	sc := openScreen(t, cfg, 80, 24)
	sc.press("Left")
	sc.contains("autosave failed: no space left on device (/home/me/")
	sc.press("Up") // fails again: no new message; the warning stays
	sc.golden("autosave_failed")
	if strings.Contains(sc.text(), "autosave failed") {
		t.Error("the same failure was told again")
	}
	sc.contains("NOT SAVED: no space left on device · arrows move · u undo · ? help · q quit")
	sc.resize(26, 14)
	sc.golden("autosave_failed_narrow")
	sc.contains("NOT SAVED: no space left …")
	sc.resize(80, 24)

	// q tries once more, then asks.
	n := store.saves
	sc.press("q")
	if sc.quit || store.saves != n+1 {
		t.Fatalf("q quit at once (quit %v, %d saves tried)", sc.quit, store.saves-n)
	}
	sc.golden("autosave_quit")
	sc.contains("Not saved. Quit anyway? (y/n)")
	sc.press("n")
	if sc.quit {
		t.Fatal("n quit")
	}
	sc.contains("kept playing; the game is still not saved")
	sc.contains("NOT SAVED")

	// The disk has room again: the next move saves, and the warning goes.
	store.fail = false
	sc.press("Right")
	if strings.Contains(sc.text(), "NOT SAVED") || sc.app.Unsaved() != nil {
		t.Errorf("the warning outlived a good save:\n%s", sc.text())
	}
	sc.contains("saved again")
	sc.press("q")
	if !sc.quit {
		t.Fatal("q did not quit a saved game")
	}

	// Quitting anyway: y, and the error stays for the exit status.
	_, cfg = testSession(t, t.TempDir(), "--seed", "1")
	store = &flakyStore{Store: cfg.Store, fail: true}
	cfg.Store = store
	sc = openScreen(t, cfg, 80, 24)
	sc.press("Left", "q", "y")
	if !sc.quit || !errors.Is(sc.app.Unsaved(), syscall.ENOSPC) {
		t.Errorf("y: quit %v, unsaved %v", sc.quit, sc.app.Unsaved())
	}
	// Ctrl+C quits at once, unsaved or not.
	_, cfg = testSession(t, t.TempDir(), "--seed", "1")
	cfg.Store = &flakyStore{Store: cfg.Store, fail: true}
	sc = openScreen(t, cfg, 80, 24)
	sc.press("Left", "Ctrl+C")
	if !sc.quit || sc.app.Unsaved() == nil {
		t.Errorf("Ctrl+C: quit %v, unsaved %v", sc.quit, sc.app.Unsaved())
	}
}

// TestPlayFirstSaveFails: a new game whose first save failed starts marked
// as not saved, and q asks.
func TestPlayFirstSaveFails(t *testing.T) {
	_, cfg := testSession(t, t.TempDir(), "--seed", "1")
	store := &flakyStore{Store: cfg.Store, fail: true}
	cfg.Store = store
	cfg.Unsaved = store.Save(nil)
	sc := openScreen(t, cfg, 80, 24)
	sc.contains("NOT SAVED: no space left on device")
	sc.contains("autosave failed: no space left on device (")
	sc.press("q")
	if sc.quit {
		t.Error("q quit an unsaved game without asking")
	}
}

// TestPlayCellularGoalLineInTmux runs the real binary on cellular mid in
// tmux: its header shows the alive energy against the goal, the turns left
// and, after a move, the last turn's stability and multiplier; the header
// as a person sees it is a golden file.
func TestPlayCellularGoalLineInTmux(t *testing.T) {
	dir := t.TempDir()
	pn := newPane(t, dir, 90, 34)
	pn.typeLine("MOD2048_STATE_DIR=" + dir + " " + binary + " play --ruleset cellular --difficulty mid --seed 3 --no-anim")
	pn.waitFor("the goal line", func(s string) bool { return strings.Contains(s, "Energy 8/14 · 300 turns left") })
	pn.keys("Left")
	text := pn.waitFor("the goal line after a move", func(s string) bool { return strings.Contains(s, "299 turns left") })
	var header []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "2048 · ") || strings.HasPrefix(l, "Score ") || strings.HasPrefix(l, "Energy ") {
			header = append(header, l)
		}
	}
	got := strings.Join(header, "\n") + "\n"
	if !regexp.MustCompile(`Energy \d+/14 · (stable|unstable) ×[0-9.]+ · 299 turns left`).MatchString(got) {
		t.Errorf("the goal line after a move:\n%s", got)
	}
	path := filepath.Join("testdata", "screens", "cellular_goal_line_tmux.golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("the header in tmux:\n%s\nwant:\n%s", got, want)
	}
	pn.keys("q")
}

// TestPlayQuitUnsavedInTmux runs the real binary with saves that always
// fail (a state folder in /proc, where no one, root included, can make a
// file): the key line says NOT SAVED, q asks, y quits, and the program
// says what was lost and exits 1.
func TestPlayQuitUnsavedInTmux(t *testing.T) {
	if info, err := os.Stat("/proc/self"); err != nil || !info.IsDir() {
		t.Skip("no /proc")
	}
	pn := newPane(t, t.TempDir(), 90, 30)
	tm := pn.run
	waitFor := func(what, want string) string {
		t.Helper()
		return pn.waitFor(what, func(s string) bool { return strings.Contains(s, want) })
	}
	pn.typeLine("MOD2048_STATE_DIR=/proc/self " + binary + " play --seed 3; echo EXIT=$?")
	waitFor("the warning", "NOT SAVED: ")
	tm("send-keys", "Left")
	tm("send-keys", "q")
	waitFor("the question", "Not saved. Quit anyway? (y/n)")
	tm("send-keys", "y")
	text := waitFor("the exit", "\nEXIT=") // the echo's line, not the command's
	if !strings.Contains(text, "EXIT=1") || !strings.Contains(text, "2048 play: quit with the game not saved") {
		t.Errorf("quitting unsaved:\n%s", text)
	}
}

// TestPlayAnimation: a move slides its tiles from their cells to their new
// ones over a few frames, drawn from the engine's motions, and then the
// board shows as it stands; a key pressed mid-slide finishes it at once and
// is played; --no-anim shows every move at once.
func TestPlayAnimation(t *testing.T) {
	rows := []string{"2 . . .", ". . . .", ". . . .", ". . . ."}
	spawn := engine.SpawnEntry{Pos: engine.Pos{Row: 3, Col: 0}, Cell: engine.Cell{Kind: engine.KindTile, Level: 1}}
	at := func(r, c int) engine.SpawnEntry {
		e := spawn
		e.Pos = engine.Pos{Row: r, Col: c}
		return e
	}
	s := openScreen(t, boardGame(t, config.BuildOptions{}, rows, spawn, at(3, 3), at(2, 2)), 60, 24)
	key := func(k tcell.Key) {
		s.app.HandleEvent(tcell.NewEventKey(k, 0, tcell.ModNone))
		s.app.Draw()
	}
	// Where the 2 of row 0 is drawn: the column of its text on the row's
	// middle line.
	column := func() int {
		for _, line := range strings.Split(s.text(), "\n") {
			if i := strings.Index(line, "2"); i >= 0 && strings.HasPrefix(strings.TrimSpace(line), "│") {
				return len([]rune(line[:i]))
			}
		}
		return -1
	}
	start := column()
	key(tcell.KeyRight)
	if !s.app.Animating() {
		t.Fatal("no slide after a move")
	}
	var cols []int
	for s.app.Animating() {
		cols = append(cols, column())
		if len(cols) == 2 {
			s.golden("slide_frame2")
		}
		ev := s.sim.PollEvent()
		s.app.HandleEvent(ev)
		s.app.Draw()
	}
	end := column()
	if len(cols) != 3 {
		t.Fatalf("%d frames of slide, want 3", len(cols))
	}
	prev := start
	for i, c := range cols {
		if c <= prev || c >= end {
			t.Errorf("frame %d draws the 2 at column %d, not between %d and %d", i+1, c, prev, end)
		}
		prev = c
	}
	sameBoard(t, "after the slide", boardOf(s.text()), cellsOf(s.app.Session()))

	// A key mid-slide: the slide ends at once and the key's move is played.
	key(tcell.KeyLeft)
	if !s.app.Animating() {
		t.Fatalf("no slide after Left:\n%s", s.text())
	}
	key(tcell.KeyDown)
	if got := s.app.Session().State().Turn; got != 3 {
		t.Errorf("turn %d after Right, Left and Down pressed mid-slide, want 3", got)
	}
	s.app.Settle()
	s.app.Draw()
	sameBoard(t, "after a key mid-slide", boardOf(s.text()), cellsOf(s.app.Session()))

	cfg := boardGame(t, config.BuildOptions{}, rows, spawn)
	cfg.NoAnim = true
	n := openScreen(t, cfg, 60, 24)
	n.app.HandleEvent(tcell.NewEventKey(tcell.KeyRight, 0, tcell.ModNone))
	n.app.Draw()
	if n.app.Animating() {
		t.Error("a slide with --no-anim")
	}
	sameBoard(t, "--no-anim", boardOf(n.text()), cellsOf(n.app.Session()))
}

// TestTipInPlayersWords: the t key's tip names the move and the others in
// the expert's order, in a player's words: on a cellular preset with the
// chance of a win from here the lab measured for a player who follows the
// tips, on classic without; never a search's own value.
func TestTipInPlayersWords(t *testing.T) {
	_, cfg := testSession(t, t.TempDir(), "--ruleset", "cellular", "--difficulty", "mid", "--seed", "3")
	sc := openScreen(t, cfg, 100, 30)
	sc.press("t")
	if !regexp.MustCompile(`tip: (Left|Right|Up|Down): \d+% to win from here, following the tips; next (Left|Right|Up|Down)`).MatchString(sc.text()) {
		t.Errorf("the cellular tip:\n%s", sc.text())
	}
	_, cfg = testSession(t, t.TempDir(), "--seed", "3")
	sc = openScreen(t, cfg, 100, 30)
	sc.press("t")
	if !regexp.MustCompile(`tip: (Left|Right|Up|Down): the expert's best move; next (Left|Right|Up|Down), then (Left|Right|Up|Down)`).MatchString(sc.text()) {
		t.Errorf("the classic tip:\n%s", sc.text())
	}
	if strings.Contains(sc.text(), "expected value") {
		t.Error("the tip shows the search's value")
	}
}
