package main

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/mod2048/mod2048/cmd/2048/internal/tui"
	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
	"github.com/mod2048/mod2048/scripting/session/replay"
)

// TestRecordReplayFixture is the mod author's loop through the real binary
// in tmux, with the bomb mod of MODDING.md's walkthrough (its marks follow
// their tiles): play it with --record, press f for a fixture, quit;
// then the replay reproduces (--check), the fixture passes `2048 test` as
// written, --to-fixture writes one that passes too, and an expectation
// edited into what the mod should have done fails until the game does it.
func TestRecordReplayFixture(t *testing.T) {
	dir := t.TempDir()
	p := newPane(t, dir, 120, 30)
	bomb, err := filepath.Abs(filepath.Join("..", "..", "mods", "bomb"))
	if err != nil {
		t.Fatal(err)
	}
	turn := regexp.MustCompile(`Turn (\d+)`)
	turnIs := func(n string) func(string) bool {
		return func(s string) bool { m := turn.FindStringSubmatch(s); return m != nil && m[1] == n }
	}
	p.typeLine("MOD2048_STATE_DIR=" + filepath.Join(dir, "state") + " " + binary + " play --seed 5 --mod " + bomb + " --mod-set bomb.interval=2 --record game.replay 2>/dev/null; echo EXIT=$?")
	p.waitFor("the game", turnIs("0"))
	// Moves, an undo and a redo, an undo and another move: the fixture
	// keeps the moves that stand.
	played := 0
	for _, k := range []string{"Left", "Up", "Right", "Down", "Left", "Up", "Right", "Down", "Left", "Up"} {
		before := turn.FindStringSubmatch(p.screen())[1]
		p.keys(k)
		time.Sleep(50 * time.Millisecond)
		if turn.FindStringSubmatch(p.screen())[1] != before {
			played++
		}
	}
	if played < 4 {
		t.Fatalf("only %d of 10 moves changed the board", played)
	}
	p.keys("u")
	p.keys("U")
	p.keys("u")
	p.keys("Left", "Right")
	time.Sleep(100 * time.Millisecond)
	p.keys("f")
	text := p.waitFor("the fixture", func(s string) bool { return strings.Contains(s, "fixture written: ") })
	name := regexp.MustCompile(`fixture written: (\S+\.cases)`).FindStringSubmatch(text)
	if name == nil {
		t.Fatalf("no fixture name on the screen:\n%s", text)
	}
	p.keys("q")
	p.waitFor("the exit", func(s string) bool { return strings.Contains(s, "EXIT=0") })

	// The replay reproduces, and says what it played.
	out, errOut, code := run2048(t, dir, "replay", "--check", "game.replay")
	if code != 0 || !strings.Contains(out, "game.replay reproduces: ") {
		t.Fatalf("replay --check: exit %d\n%s%s", code, out, errOut)
	}
	f, err := replay.Read(filepath.Join(dir, "game.replay"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Seed != 5 || len(f.Mods) != 1 || f.Mods[0].ID != "bomb" || f.Mods[0].Settings["interval"] != "2" || len(f.Actions) < played+3 {
		t.Errorf("the replay: seed %d, mods %+v, %d actions", f.Seed, f.Mods, len(f.Actions))
	}

	// The fixture the f key wrote passes as written.
	fixture := filepath.Join(dir, name[1])
	out, errOut, code = run2048(t, dir, "test", name[1])
	if code != 0 || !strings.Contains(out, "1 passed, 0 failed") {
		data, _ := os.ReadFile(fixture)
		t.Fatalf("2048 test %s: exit %d\n%s%s\n%s", name[1], code, out, errOut, data)
	}
	// So does the one --to-fixture writes from the replay.
	out, errOut, code = run2048(t, dir, "replay", "--to-fixture", "from-replay.cases", "game.replay")
	if code != 0 {
		t.Fatalf("replay --to-fixture: exit %d\n%s%s", code, out, errOut)
	}
	if out, _, code = run2048(t, dir, "test", "from-replay.cases"); code != 0 || !strings.Contains(out, "1 passed, 0 failed") {
		t.Fatalf("2048 test from-replay.cases: exit %d\n%s", code, out)
	}

	// The mod author edits an expectation into what the mod should have
	// done: the fixture fails, naming the step.
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the fixture written from play:\n%s", data)
	edited := strings.Replace(string(data), "Status: Playing", "Status: Lost", 1)
	if err := os.WriteFile(fixture, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, _, code = run2048(t, dir, "test", name[1]); code != 1 || !strings.Contains(out, "Status: expected Lost, actual Playing") {
		t.Errorf("an edited expectation: exit %d\n%s", code, out)
	}
}

// TestReplayCheckDiverges: a replay edited to play another move fails its
// check, naming the action and turn; a damaged file is an error.
func TestReplayCheckDiverges(t *testing.T) {
	dir := t.TempDir()
	p, cfg := testSession(t, dir, "--seed", "3", "--record", filepath.Join(dir, "r.replay"))
	sc := openScreen(t, cfg, 80, 24)
	for _, k := range []string{"Left", "Up", "Right", "Down", "Left", "Up"} {
		sc.press(k)
	}
	_ = p
	data, err := os.ReadFile(filepath.Join(dir, "r.replay"))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, code := run2048(t, dir, "replay", "--check", "r.replay"); code != 0 {
		t.Fatal("the recorded game does not reproduce")
	}
	f, err := replay.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	i := len(f.Actions) - 1
	f.Actions[i].Dir = map[string]string{"left": "right", "right": "left", "up": "down", "down": "up"}[f.Actions[i].Dir]
	if err := f.WriteFile(filepath.Join(dir, "edited.replay")); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := run2048(t, dir, "replay", "--check", "edited.replay")
	if code != 1 || !strings.Contains(errOut, "edited.replay does not reproduce: action ") {
		t.Errorf("an edited replay: exit %d\n%s", code, errOut)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.replay"), []byte(`{"format": "2048-replay"`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := run2048(t, dir, "replay", "--check", "bad.replay"); code != 1 || !strings.Contains(errOut, "not a replay") {
		t.Errorf("a damaged replay: exit %d\n%s", code, errOut)
	}
	if _, _, code := run2048(t, dir, "replay"); code != 2 {
		t.Errorf("no file: exit %d", code)
	}
}

// TestReplayViewer plays a replay back on a simulated terminal: steps,
// a jump to a turn, the start again.
func TestReplayViewer(t *testing.T) {
	dir := t.TempDir()
	_, cfg := testSession(t, dir, "--seed", "4", "--record", filepath.Join(dir, "r.replay"))
	sc := openScreen(t, cfg, 80, 24)
	for _, k := range []string{"Left", "Up", "Right", "Down", "Left", "Up", "Right", "Down"} {
		sc.press(k)
	}
	want := sc.app.Session().State().Turn
	f, err := replay.Read(filepath.Join(dir, "r.replay"))
	if err != nil {
		t.Fatal(err)
	}
	setup, _, err := f.Setup(nil)
	if err != nil {
		t.Fatal(err)
	}
	v, err := newViewer(f, setup, nil)
	if err != nil {
		t.Fatal(err)
	}
	vc := v.config()
	vc.Colors = tui.ColorRGB
	rs := openScreen(t, vc, 80, 24)
	rs.press(" ") // pause before the timer plays
	rs.contains("paused")
	rs.press("n", "n")
	if done, _ := v.Pos(); done != 2 || rs.app.Session().State().Turn != 2 {
		t.Errorf("two steps: at action %d, turn %d", done, rs.app.Session().State().Turn)
	}
	rs.contains("replay 2/")
	rs.press("g", "5", "Enter")
	if rs.app.Session().State().Turn != 5 {
		t.Errorf("jump to turn 5: turn %d", rs.app.Session().State().Turn)
	}
	rs.press("Home")
	if rs.app.Session().State().Turn != 0 {
		t.Error("Home did not go back to the start")
	}
	// Played to the end, it is the game that was recorded.
	for range len(f.Actions) {
		rs.press("n")
	}
	rs.contains("the end")
	if got := rs.app.Session().State().Turn; got != want {
		t.Errorf("the replay ends at turn %d, the game at %d", got, want)
	}
	_ = tcell.KeyHome
}

// TestWatchReload: with --watch, an edit of a mod's file is noticed
// (fsnotify) and the mod reloaded between two moves, keeping its storage;
// a broken edit shows in the status line and the last good version runs.
func TestWatchReload(t *testing.T) {
	if _, ok, code := parsePlay([]string{"--watch"}, io.Discard); ok || code != 2 {
		t.Errorf("--watch without a mod: ok %v, exit %d", ok, code)
	}
	dir := t.TempDir()
	modDir := filepath.Join(dir, "counter")
	if err := os.MkdirAll(modDir, 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := "id = \"counter\"\nname = \"Counter\"\nversion = \"1.0.0\"\napi_version = 1\nrulesets = [\"classic\"]\n"
	write := func(lua string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(modDir, "mod.toml"), []byte(manifest), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(modDir, "main.lua"), []byte(lua), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(`game.on("tick", function() storage.n = (storage.n or 0) + 1 end)`)
	rec := filepath.Join(dir, "watch.replay")
	_, cfg := testSession(t, filepath.Join(dir, "state"), "--seed", "2", "--mod", modDir, "--watch", "--record", rec)
	if cfg.Watch == nil || cfg.Reload == nil {
		t.Fatal("--watch gave the game nothing to watch")
	}
	sc := openScreen(t, cfg, 100, 24)
	sc.press("Left", "Right")
	turns := sc.app.Session().State().Turn

	write(`game.on("tick", function() storage.n = (storage.n or 0) + 100 end)
game.on("before_move", function(e) if e.dir == "up" then return {refuse = "up is closed"} end end)`)
	select {
	case <-cfg.Watch:
	case <-time.After(5 * time.Second):
		t.Fatal("the edit was not noticed")
	}
	sc.app.HandleEvent(tui.ReloadEvent())
	sc.app.Draw()
	sc.contains("mods reloaded")
	sc.press("Up")
	sc.contains("up is closed")
	sc.press("Down", "Left")
	st := sc.app.Session().State()
	// The count goes on from the storage the game kept: 1 a turn before
	// the reload, 100 a turn after.
	want := strconv.Itoa(turns + 100*(st.Turn-turns))
	if data := st.Data["mod:counter"]; !strings.Contains(data, want) || st.Turn <= turns {
		t.Fatalf("storage %q at turn %d, want n = %s", data, st.Turn, want)
	}

	write(`game.on("tick", function(`)
	<-cfg.Watch
	sc.app.HandleEvent(tui.ReloadEvent())
	sc.app.Draw()
	// The place, read from the error's values: the mod and its file's line
	// and column, once.
	sc.contains("mods not reloaded, the last good version runs: counter main.lua:1: ')' expected at the end")
	sc.press("Up")
	sc.contains("up is closed")
	sc.press("Right")

	// The replay holds the reload with the edited code: it reproduces with
	// the mod's folder gone.
	if err := os.RemoveAll(modDir); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run2048(t, dir, "replay", "--check", rec)
	if code != 0 || !strings.Contains(out, "reproduces") {
		t.Fatalf("replay --check without the mod's folder: exit %d\n%s%s", code, out, errOut)
	}
	data, _ := os.ReadFile(rec)
	if !strings.Contains(string(data), `"a":"reload"`) || !strings.Contains(string(data), "up is closed") {
		t.Errorf("the replay lacks the reload with its code:\n%s", data)
	}
}

// TestAutoplayInTmux: --autoplay plays moves by itself in the real binary,
// any key stops it, and t gives a tip.
func TestAutoplayInTmux(t *testing.T) {
	dir := t.TempDir()
	p := newPane(t, dir, 100, 30)
	turn := regexp.MustCompile(`Turn (\d+)`)
	turnOf := func(s string) int {
		m := turn.FindStringSubmatch(s)
		if m == nil {
			return -1
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	p.typeLine("MOD2048_STATE_DIR=" + filepath.Join(dir, "state") + " " + binary + " play --seed 8 --autoplay; echo EXIT=$?")
	p.waitFor("autoplay to play", func(s string) bool { return turnOf(s) >= 4 && strings.Contains(s, "any key stops") })
	p.run("send-keys", "-l", "+")
	p.keys("x")
	text := p.waitFor("autoplay to stop", func(s string) bool { return strings.Contains(s, "autoplay stopped") })
	stopped := turnOf(text)
	time.Sleep(800 * time.Millisecond)
	if now := turnOf(p.screen()); now != stopped {
		t.Errorf("autoplay went on after a key: turn %d, then %d", stopped, now)
	}
	p.keys("t")
	p.waitFor("a tip", func(s string) bool {
		return regexp.MustCompile(`tip: (Left|Right|Up|Down): (the expert's best move|\d+% to win from here, following the tips); (next (Left|Right|Up|Down)|the only move)`).MatchString(s)
	})
	p.keys("q")
	p.waitFor("the exit", func(s string) bool { return strings.Contains(s, "EXIT=0") })
}

// TestFixtureWithStartMarks: a mod's start handler marks the first board
// (plague infects a cell); a recording keeps the board from before it, so
// the fixture written from the replay starts there, the runner's game runs
// the start handler again, and the case passes as written.
func TestFixtureWithStartMarks(t *testing.T) {
	dir := t.TempDir()
	c, err := config.Build(config.BuildOptions{Ruleset: "cellular", Difficulty: "mid"})
	if err != nil {
		t.Fatal(err)
	}
	plague, err := filepath.Abs(filepath.Join("..", "..", "mods", "plague"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := mod.Load(plague)
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.New(session.Setup{Config: c, Mods: []*mod.Mod{m}}, session.Start{Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if len(s.State().Marks) != 1 {
		t.Fatalf("the start left marks %+v, want the first infection", s.State().Marks)
	}
	if err := s.Record(); err != nil {
		t.Fatal(err)
	}
	for _, d := range []engine.Direction{engine.Left, engine.Up, engine.Right, engine.Down, engine.Left, engine.Up} {
		if _, err := s.Move(d); err != nil {
			t.Fatal(err)
		}
	}
	f, err := replay.New(s, replay.Meta{Program: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Origin) != 6 {
		t.Fatalf("the replay's origin: %q", f.Origin)
	}
	if err := f.WriteFile(filepath.Join(dir, "game.replay")); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run2048(t, dir, "replay", "--to-fixture", "plague.cases", "game.replay")
	if code != 0 {
		t.Fatalf("replay --to-fixture: exit %d\n%s%s", code, out, errOut)
	}
	if out, errOut, code = run2048(t, dir, "test", "plague.cases"); code != 0 || !strings.Contains(out, "1 passed, 0 failed") {
		data, _ := os.ReadFile(filepath.Join(dir, "plague.cases"))
		t.Fatalf("2048 test plague.cases: exit %d\n%s%s\n%s", code, out, errOut, data)
	}
}
