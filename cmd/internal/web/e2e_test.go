package web_test

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/mod2048/mod2048/cellular"
	"github.com/mod2048/mod2048/cmd/internal/web"
	"github.com/mod2048/mod2048/cmd/internal/web/bridge"
	"github.com/mod2048/mod2048/cmd/internal/web/webtest"
	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/mods"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/mod/modtest"
	"github.com/mod2048/mod2048/scripting/session"
)

var update = flag.Bool("update", false, "rewrite the golden DOM snapshots and the reference screenshots in testdata")

// shared is one browser for the whole suite: starting Chromium is the
// slowest step.
var shared *webtest.Browser

func browser(t *testing.T) *webtest.Browser {
	t.Helper()
	if shared == nil {
		shared = webtest.Start(&keepAlive{t})
	}
	return shared
}

// keepAlive lets the shared browser outlive the test that started it;
// TestMain closes it.
type keepAlive struct{ *testing.T }

func (k *keepAlive) Cleanup(func()) {}

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if shared != nil {
		shared.Close()
	}
	os.Exit(code)
}

// mirror is a Go session played with the same options as the page.
type mirror struct {
	t     *testing.T
	s     *session.Session
	empty string
}

func newMirror(t *testing.T, o bridge.Options, seed uint64) *mirror {
	t.Helper()
	c, err := config.Build(config.BuildOptions{Ruleset: o.Ruleset, Difficulty: o.Difficulty, Sets: o.Sets})
	if err != nil {
		t.Fatal(err)
	}
	setup := session.Setup{Config: c}
	for _, m := range o.Mods {
		var sub fs.FS
		name := "mods/" + m.Builtin
		if m.Files != nil {
			files := fstest.MapFS{}
			for p, src := range m.Files {
				files[p] = &fstest.MapFile{Data: []byte(src)}
			}
			sub, name = files, m.Name
		} else if sub, err = fs.Sub(modsFS(), m.Builtin); err != nil {
			t.Fatal(err)
		}
		md, err := mod.LoadFS(sub, name)
		if err != nil {
			t.Fatal(err)
		}
		setup.Mods = append(setup.Mods, md)
	}
	for _, kv := range o.ModSets {
		name, value, _ := strings.Cut(kv, "=")
		id, key, _ := strings.Cut(name, ".")
		for _, m := range setup.Mods {
			if m.ID() == id {
				if err := m.Set(key, value); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	s, err := session.New(setup, session.Start{Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	empty := "0"
	if c.Ruleset == "cellular" {
		empty = "."
	}
	return &mirror{t: t, s: s, empty: empty}
}

func (m *mirror) board() string {
	b := m.s.Board()
	var sb strings.Builder
	for i, c := range b.Cells {
		if i > 0 && i%b.Width == 0 {
			sb.WriteByte('\n')
		} else if i > 0 {
			sb.WriteByte(' ')
		}
		if c.IsEmpty() {
			sb.WriteString(m.empty)
		} else {
			sb.WriteString(m.s.Rules().FormatCell(c))
		}
	}
	return sb.String()
}

func (m *mirror) move(d engine.Direction) {
	m.t.Helper()
	if _, err := m.s.Move(d); err != nil {
		m.t.Fatal(err)
	}
	m.s.TakeReports()
}

func (m *mirror) score() string { return engine.FormatScore(m.s.Rules(), m.s.Score()) }

// same fails the test when the page's board or score is not the mirror's.
func same(t *testing.T, p *webtest.Page, m *mirror, step string) {
	t.Helper()
	p.Idle()
	if got, want := p.Board(m.empty), m.board(); got != want {
		t.Fatalf("%s: the page's board\n%s\nthe engine's\n%s", step, got, want)
	}
	if got, want := firstLine(p.Text("#score")), m.score(); got != want {
		t.Fatalf("%s: the page's score %q, the engine's %q", step, got, want)
	}
	if r, ok := m.s.Rules().(*cellular.Rules); ok && !m.s.Status().Over() {
		// The goal line, as the terminal's: the energy against the goal,
		// the last turn stable or not and its multiplier, the turns left.
		g := r.Standing(m.s.State())
		want := fmt.Sprintf("Energy %d/%d", g.Energy, g.Goal)
		if g.Played {
			want += " · " + map[bool]string{true: "stable ", false: "unstable "}[g.Stable] + g.Multiplier()
		}
		want += fmt.Sprintf(" · %d turns left", g.TurnsLeft)
		if got := p.Text("#goal-line"); got != want {
			t.Fatalf("%s: the page's goal line %q, want %q", step, got, want)
		}
	}
}

// arrows are the arrow keys of the directions.
var arrows = map[engine.Direction]string{engine.Left: "ArrowLeft", engine.Right: "ArrowRight", engine.Up: "ArrowUp", engine.Down: "ArrowDown"}

// sameMarks fails the test when the marks the page draws (name, cell,
// glyph and colour) are not the mirror's, each drawn with glyph and
// colour; it returns how many there are.
func sameMarks(t *testing.T, p *webtest.Page, m *mirror, glyph, colour, step string) int {
	t.Helper()
	var got []string
	p.Eval(`[...document.querySelectorAll("#tiles .mark")].map((e) => e.dataset.mark + "(" + e.dataset.row + "," + e.dataset.col + ")" + e.textContent + " " + e.style.backgroundColor)`, &got)
	var want []string
	for _, mk := range m.s.State().Marks {
		want = append(want, fmt.Sprintf("%s(%d,%d)%s %s", mk.Name, mk.Pos.Row, mk.Pos.Col, glyph, colour))
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("%s: the page's marks %q, the engine's %q", step, got, want)
	}
	return len(got)
}

// firstLine is the score without its "+N" pop-up.
func firstLine(s string) string {
	if i := strings.Index(s, "+"); i >= 0 {
		return s[:i]
	}
	return s
}

// way is a way to give a direction.
type way struct {
	name string
	do   func(p *webtest.Page)
}

func key(k string) func(p *webtest.Page) { return func(p *webtest.Page) { p.Press(k) } }

func swipe(dx, dy float64) func(p *webtest.Page) {
	return func(p *webtest.Page) { p.Swipe(dx, dy) }
}

var inputs = map[engine.Direction][]way{
	engine.Left:  {{"ArrowLeft", key("ArrowLeft")}, {"a", key("a")}, {"h", key("h")}, {"swipe left", swipe(-80, 6)}},
	engine.Right: {{"ArrowRight", key("ArrowRight")}, {"d", key("d")}, {"l", key("l")}, {"swipe right", swipe(80, -5)}},
	engine.Up:    {{"ArrowUp", key("ArrowUp")}, {"w", key("w")}, {"k", key("k")}, {"swipe up", swipe(4, -90)}},
	engine.Down:  {{"ArrowDown", key("ArrowDown")}, {"s", key("s")}, {"j", key("j")}, {"swipe down", swipe(-3, 70)}},
}

func modsFS() fs.FS { return mods.FS() }

// TestPlayClassic plays a seeded classic game with every key and swipes,
// checking the page's board against the engine's after each move; then
// undo, redo, a reload, and a damaged save.
func TestPlayClassic(t *testing.T) {
	b := browser(t)
	o := bridge.Options{Ruleset: "classic", Seed: "2048"}
	url := webtest.Serve(t, &web.Defaults{Options: o})
	p := b.Open(t, url, webtest.PageOptions{})
	m := newMirror(t, o, 2048)
	same(t, p, m, "start")
	golden(t, p, "start")
	order := []engine.Direction{engine.Left, engine.Up, engine.Right, engine.Down, engine.Left, engine.Down, engine.Right, engine.Up}
	merged := false
	for i := 0; i < 32; i++ {
		d := order[i%len(order)]
		in := inputs[d][i/len(order)%len(inputs[d])]
		before := m.score()
		in.do(p)
		m.move(d)
		same(t, p, m, fmt.Sprintf("move %d (%s)", i+1, in.name))
		if !merged && m.score() != before {
			merged = true
			golden(t, p, "merge")
		}
	}
	// Diagonal and short swipes, and moves with a modifier, are no move.
	p.Swipe(60, 55)
	p.Swipe(6, 2)
	p.Run(chromedp.KeyEvent(kb.ArrowLeft, chromedp.KeyModifiers(input.ModifierShift)))
	same(t, p, m, "diagonal, short and shifted")

	p.Press("u")
	if err := m.s.Undo(); err != nil {
		t.Fatal(err)
	}
	same(t, p, m, "undo")
	p.Click("#undo")
	if err := m.s.Undo(); err != nil {
		t.Fatal(err)
	}
	same(t, p, m, "undo button")
	p.Press("U")
	if err := m.s.Redo(); err != nil {
		t.Fatal(err)
	}
	same(t, p, m, "redo")

	p.Reload()
	same(t, p, m, "reload")
	var live string
	p.Press("ArrowLeft")
	m.move(engine.Left)
	same(t, p, m, "after reload")
	p.Run(chromedp.Poll(`document.getElementById("live").textContent.includes("Score")`, nil))
	live = p.Text("#live")
	if !strings.Contains(live, "Score "+m.score()) {
		t.Errorf("live region %q does not announce the score %s", live, m.score())
	}

	// A damaged save: a new game, and a notice.
	p.Eval(`localStorage.setItem("gameState", "{not json"); true`, nil)
	p.Reload()
	if !p.Visible("#notice") || !strings.Contains(p.Text("#notice-text"), "could not be resumed") {
		t.Fatalf("no notice for a damaged save: %q", p.Text("#notice-text"))
	}
	tiles := 0
	for _, f := range strings.Fields(p.Board("0")) {
		if f != "0" {
			tiles++
		}
	}
	if firstLine(p.Text("#score")) != "0" || tiles != 2 {
		t.Fatalf("after a damaged save: score %s, %d tiles, want a new game", p.Text("#score"), tiles)
	}
	var kept string
	p.Eval(`localStorage.getItem("gameState.unreadable")`, &kept)
	if kept != "{not json" {
		t.Errorf("the damaged save was not kept aside: %q", kept)
	}
}

// TestQueuedInput: keys pressed during the animations are all played, in
// order, once.
func TestQueuedInput(t *testing.T) {
	b := browser(t)
	o := bridge.Options{Ruleset: "classic", Seed: "99"}
	url := webtest.Serve(t, &web.Defaults{Options: o})
	p := b.Open(t, url, webtest.PageOptions{Motion: true})
	m := newMirror(t, o, 99)
	seq := []engine.Direction{engine.Left, engine.Down, engine.Right, engine.Down, engine.Left, engine.Up, engine.Right, engine.Down, engine.Left, engine.Down, engine.Right, engine.Up}
	var keys []string
	for _, d := range seq {
		keys = append(keys, arrows[d])
		m.move(d)
	}
	p.Press(keys...)
	same(t, p, m, "12 keys at once")
	// A move's animation, then the board as the engine has it.
	p.Press("ArrowLeft")
	m.move(engine.Left)
	same(t, p, m, "an animated move")
}

// TestWinAndLose: the win overlay with keep going, and the lose overlay
// with try again, from given boards.
func TestWinAndLose(t *testing.T) {
	b := browser(t)
	win := bridge.Options{Board: []string{"1024 1024 0 0", "0 0 0 0", "0 0 0 0", "0 0 0 0"}, Spawns: []string{"3,3,2", "3,2,2"}, Scripted: true}
	p := b.Open(t, webtest.Serve(t, &web.Defaults{Options: win}), webtest.PageOptions{})
	p.Press("ArrowLeft")
	p.Idle()
	if !p.Visible("#message") || p.Text("#message-text") != "You win!" || !p.Visible("#keep-playing") {
		t.Fatalf("no win overlay: %q", p.Text("#message-text"))
	}
	golden(t, p, "win")
	p.Click("#keep-playing")
	p.Idle()
	if p.Visible("#message") {
		t.Fatal("the win overlay stays after keep going")
	}
	p.Press("ArrowRight")
	p.Idle()
	// A stopping win spawns nothing, so the queue's first entry comes now.
	if got := p.Board("0"); got != "0 0 0 2048\n0 0 0 0\n0 0 0 0\n0 0 0 2" {
		t.Fatalf("after keep going and a move:\n%s", got)
	}

	lose := bridge.Options{Board: []string{"2 4 2 4", "4 2 4 2", "2 4 2 4", "4 2 8 8"}, Spawns: []string{"3,3,2"}, Scripted: true}
	p = b.Open(t, webtest.Serve(t, &web.Defaults{Options: lose}), webtest.PageOptions{})
	p.Press("ArrowLeft")
	p.Idle()
	if !p.Visible("#message") || p.Text("#message-text") != "Game over!" || p.Visible("#keep-playing") || !p.Visible("#retry") {
		t.Fatalf("no lose overlay: %q", p.Text("#message-text"))
	}
	golden(t, p, "lose")
	var stored bool
	p.Eval(`localStorage.getItem("gameState") === null`, &stored)
	if !stored {
		t.Error("a lost game is still saved")
	}
	p.Click("#retry")
	p.Idle()
	if p.Visible("#message") || firstLine(p.Text("#score")) != "0" {
		t.Fatal("try again did not start a new game")
	}
}

// TestCellular plays a seeded cellular game.
func TestCellular(t *testing.T) {
	b := browser(t)
	o := bridge.Options{Ruleset: "cellular", Difficulty: "mid", Seed: "7"}
	p := b.Open(t, webtest.Serve(t, &web.Defaults{Options: o}), webtest.PageOptions{})
	m := newMirror(t, o, 7)
	same(t, p, m, "start")
	order := []engine.Direction{engine.Left, engine.Up, engine.Right, engine.Down}
	for i := 0; i < 12; i++ {
		d := order[i*3%4]
		p.Press(arrows[d])
		m.move(d)
		same(t, p, m, fmt.Sprintf("cellular move %d", i+1))
		if m.s.Status().Over() {
			break
		}
	}
	golden(t, p, "cellular")
	if p.Visible("#goal-line") != true {
		t.Error("a cellular game shows no goal line")
	}
}

// TestModded plays with the freeze mod: its hazard on the board, with its
// glyph and colour, where the engine has it.
func TestModded(t *testing.T) {
	b := browser(t)
	o := bridge.Options{Ruleset: "classic", Mods: []bridge.ModSource{{Builtin: "freeze"}}, ModSets: []string{"freeze.interval=2"}, Seed: "11"}
	p := b.Open(t, webtest.Serve(t, &web.Defaults{Options: o}), webtest.PageOptions{})
	m := newMirror(t, o, 11)
	seen := false
	for i, d := range []engine.Direction{engine.Left, engine.Down, engine.Right, engine.Down, engine.Left, engine.Up} {
		p.Press(arrows[d])
		m.move(d)
		same(t, p, m, fmt.Sprintf("modded move %d", i+1))
		if sameMarks(t, p, m, "*", "cyan", fmt.Sprintf("move %d", i+1)) > 0 {
			seen = true
		}
	}
	if !seen {
		t.Fatal("no mark was ever shown")
	}
	const ice = "A frozen tile: it neither moves nor merges until it thaws."
	modded(t, p, m, ice)
	// Play on to a mark with one turn left: "1 turn left".
	one := false
	for i := 0; i < 8 && !one && !m.s.Status().Over(); i++ {
		d := []engine.Direction{engine.Up, engine.Left, engine.Down, engine.Right}[i%4]
		p.Press(arrows[d])
		m.move(d)
		same(t, p, m, fmt.Sprintf("modded move %d", i+7))
		for _, mk := range m.s.State().Marks {
			one = one || mk.Turns == 1
		}
		checkMarks(t, p, m, ice)
	}
	if !one {
		t.Error("no mark had one turn left")
	}
	var seed string
	p.Eval(`document.getElementById("seed").value`, &seed)
	if seed != "11" {
		t.Errorf("the seed field says %q in a game of seed 11", seed)
	}
}

// modded checks what a modded game shows of its hazards: each mark's
// tooltip (the hazard's description and the turns left, "1 turn left",
// "3 turns left"), the marks in the board's text for screen readers, and
// the legend; then the golden DOM and screenshot "modded", with the
// mouse over the last mark to show its tooltip.
func modded(t *testing.T, p *webtest.Page, m *mirror, desc string) {
	t.Helper()
	checkMarks(t, p, m, desc)
	var box []float64
	p.Eval(`(() => { const all = document.querySelectorAll("#tiles .mark"); const r = all[all.length - 1].getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`, &box)
	p.Run(input.DispatchMouseEvent(input.MouseMoved, box[0], box[1]))
	p.Run(chromedp.Poll(`document.querySelectorAll("#tiles .mark:hover").length === 1`, nil))
	golden(t, p, "modded")
	p.Run(input.DispatchMouseEvent(input.MouseMoved, 1, 1))
}

// checkMarks checks each mark's tooltip, the marks in the board's text
// for screen readers, and the legend, for marks all of the hazard
// described by desc.
func checkMarks(t *testing.T, p *webtest.Page, m *mirror, desc string) {
	t.Helper()
	p.Idle()
	var tips []string
	p.Eval(`[...document.querySelectorAll("#tiles .mark")].map((e) => e.dataset.tip)`, &tips)
	marks := m.s.State().Marks
	if len(tips) != len(marks) {
		t.Fatalf("tooltips %q for marks %+v", tips, marks)
	}
	text := p.Text("#board-text")
	for i, mk := range marks {
		want := desc
		words := ""
		switch {
		case mk.Turns == 1:
			words = "1 turn left"
		case mk.Turns > 1:
			words = fmt.Sprintf("%d turns left", mk.Turns)
		}
		if words != "" {
			want += " (" + words + ")"
		}
		if tips[i] != want {
			t.Errorf("mark %d's tooltip %q, want %q", i, tips[i], want)
		}
		_, short, _ := strings.Cut(mk.Name, ":")
		row := fmt.Sprintf("Row %d: ", mk.Pos.Row+1)
		at := strings.Index(text, row)
		if at < 0 || !strings.Contains(strings.SplitN(text[at:], ".", 2)[0], "("+short) {
			t.Errorf("the board's text %q does not name the %s on row %d", text, short, mk.Pos.Row+1)
		}
	}
	if !p.Visible("#legend") || !strings.Contains(p.Text("#legend"), desc) {
		t.Errorf("the legend %q lacks the hazard's description", p.Text("#legend"))
	}
}

// TestModdedCellular plays cellular with the plague mod (mod API version
// 2): its start handler infects a cell of the first board, and the
// infection travels with its cell; the page draws it where the engine has
// it, glyph and colour, from the first frame.
func TestModdedCellular(t *testing.T) {
	b := browser(t)
	o := bridge.Options{Ruleset: "cellular", Difficulty: "early", Mods: []bridge.ModSource{{Builtin: "plague"}}, ModSets: []string{"plague.interval=2"}, Seed: "5"}
	p := b.Open(t, webtest.Serve(t, &web.Defaults{Options: o}), webtest.PageOptions{})
	m := newMirror(t, o, 5)
	same(t, p, m, "start")
	if sameMarks(t, p, m, "%", "green", "start") == 0 {
		t.Fatal("the start handler's infection is not on the first board")
	}
	for i, d := range []engine.Direction{engine.Left, engine.Up, engine.Right, engine.Down, engine.Left, engine.Up} {
		if m.s.Status().Over() {
			break
		}
		p.Press(arrows[d])
		m.move(d)
		same(t, p, m, fmt.Sprintf("plague move %d", i+1))
		sameMarks(t, p, m, "%", "green", fmt.Sprintf("plague move %d", i+1))
		checkMarks(t, p, m, "Infected: loses 1 energy a turn until it falls dormant; a merge spreads it to the cells around.")
	}
}

// TestSettings: a custom TOML's error shows its line and key; a good one
// starts its game; a mod that fails shows without stopping play.
func TestSettings(t *testing.T) {
	b := browser(t)
	p := b.Open(t, webtest.Serve(t, nil), webtest.PageOptions{})
	p.Run(
		webtest.Click("#settings summary"),
		chromedp.SetValue("#toml", "size = 5\nwin_value = 3\n", chromedp.ByQuery),
		webtest.Click("#start"),
	)
	if got := p.Text("#toml-error"); !strings.Contains(got, "Line 2, key win_value") {
		t.Fatalf("TOML error %q, want its line and key", got)
	}
	p.Run(
		chromedp.SetValue("#toml", "size = 5\nwin_value = 64\n", chromedp.ByQuery),
		chromedp.SetValue("#seed", "5", chromedp.ByQuery),
		webtest.Click("#start"),
	)
	p.Idle()
	if got := p.Board("0"); len(strings.Split(got, "\n")) != 5 || p.Visible("#toml-error") {
		t.Fatalf("the 5×5 game did not start:\n%s\nerror %q", got, p.Text("#toml-error"))
	}
	if p.Text("#goal") != "64!" {
		t.Errorf("goal %q, want 64!", p.Text("#goal"))
	}
	// The mod2048 object gives errors as values, whatever it is given.
	var errs []string
	p.Eval(`(() => {
		const cyclic = {}; cyclic.self = cyclic;
		return [
			window.mod2048.newGame(cyclic),
			window.mod2048.move(42),
			window.mod2048.move("sideways"),
			window.mod2048.resume({}, "not a save"),
			window.mod2048.newGame({ruleset: "chess"}),
		].map((r) => r.error ? r.error.kind : "no error");
	})()`, &errs)
	if strings.Join(errs, " ") != "input input input save config" {
		t.Fatalf("error kinds %v", errs)
	}
	// A player's mod (files, as the page reads a folder) that fails on
	// each turn: reported, and the game goes on. The page starts the last
	// setup it played when it has no game to resume.
	own := `{name: "boom", files: {"boom/mod.toml": "id = \"boom\"\nname = \"Boom\"\nversion = \"1.0.0\"\napi_version = 2\n", "boom/main.lua": "game.on(\"tick\", function() error(\"kaboom\") end)"}}`
	p.Eval(`(() => { const o = {ruleset: "classic", seed: "3", mods: [`+own+`]}; localStorage.setItem("gameSetup", JSON.stringify(o)); localStorage.removeItem("gameState"); return true; })()`, nil)
	p.Reload()
	p.Press("ArrowLeft", "ArrowRight")
	p.Idle()
	if !p.Visible("#reports-box") || !strings.Contains(p.Text("#reports"), "kaboom") {
		t.Fatalf("the mod's error is not shown: %q", p.Text("#reports"))
	}
	if firstLine(p.Text("#score")) == "" || p.Visible("#message") {
		t.Fatal("the failing mod stopped the game")
	}
	// Failing every turn, the mod is turned off, which its last report
	// says once.
	for i := 0; i < scripting.FailLimit; i++ {
		p.Press("ArrowLeft", "ArrowRight")
		p.Idle()
	}
	var disabled []string
	p.Eval(`[...document.querySelectorAll("#reports li.disabled")].map((li) => li.textContent)`, &disabled)
	if len(disabled) != 1 || strings.Count(disabled[0], "disabled")+strings.Count(disabled[0], " off") != 1 {
		t.Errorf("the disabled mod's reports %q: want one, saying it once", disabled)
	}

	// A player's mod as a zip, picked in the settings, with a shipped mod.
	zipPath := filepath.Join(t.TempDir(), "tick_log.zip")
	writeZip(t, zipPath, map[string]string{
		"tick_log/mod.toml": "id = \"tick_log\"\nname = \"Tick log\"\nversion = \"1.0.0\"\napi_version = 2\n",
		"tick_log/main.lua": `game.on("tick", function() game.log("tick") end)`,
	})
	p.Run(
		webtest.Click("#settings summary"),
		chromedp.SetUploadFiles("#mod-zip", []string{zipPath}, chromedp.ByQuery),
		chromedp.Poll(`document.getElementById("own-mods").textContent.includes("Tick log 1.0.0")`, nil),
		webtest.Click("#mod-freeze"),
		chromedp.SetValue("#seed", "8", chromedp.ByQuery),
		webtest.Click("#start"),
	)
	p.Idle()
	var mods []string
	p.Eval(`window.mod2048.view().view.mods.map((m) => m.id)`, &mods)
	if strings.Join(mods, " ") != "boom freeze tick_log" || p.Visible("#mod-error") { // boom stays from the game before
		t.Fatalf("mods %v, error %q", mods, p.Text("#mod-error"))
	}
	// The player's mods are listed by their manifests' names.
	if got := p.Text("#own-mods"); !strings.Contains(got, "Boom 1.0.0") || !strings.Contains(got, "Tick log 1.0.0 (tick_log.zip)") {
		t.Errorf("own mods listed as %q, want their manifests' names", got)
	}
	var seed string
	p.Eval(`document.getElementById("seed").value`, &seed)
	if seed != "8" {
		t.Errorf("the seed field says %q in a game of seed 8", seed)
	}
	// A mod that cannot load is refused when picked, with its error.
	bad := filepath.Join(t.TempDir(), "bad.zip")
	writeZip(t, bad, map[string]string{"bad/mod.toml": "id = \"bad\"\n"})
	p.Run(
		chromedp.SetUploadFiles("#mod-zip", []string{bad}, chromedp.ByQuery),
		chromedp.Poll(`!document.getElementById("mod-error").hidden`, nil),
	)
	if got := p.Text("#mod-error"); !strings.Contains(got, "bad.zip") || strings.Contains(p.Text("#own-mods"), "bad.zip") {
		t.Errorf("a mod that cannot load: error %q, listed %q", got, p.Text("#own-mods"))
	}
}

// awaitWorker waits until the page's service worker has the site in its
// cache and controls the page.
func awaitWorker(p *webtest.Page) {
	p.Run(chromedp.Poll(`!!navigator.serviceWorker.controller && navigator.serviceWorker.controller.state === "activated"`, nil, chromedp.WithPollingTimeout(waitLong)))
}

// TestSaveOnLeave: a move is saved after its frame, and a page that goes
// away at once (a reload right after the keys) still keeps every move.
func TestSaveOnLeave(t *testing.T) {
	b := browser(t)
	o := bridge.Options{Ruleset: "classic", Seed: "4"}
	p := b.Open(t, webtest.Serve(t, &web.Defaults{Options: o}), webtest.PageOptions{})
	m := newMirror(t, o, 4)
	for _, d := range []engine.Direction{engine.Left, engine.Up, engine.Right} {
		m.move(d)
	}
	p.Press("ArrowLeft", "ArrowUp", "ArrowRight")
	p.Reload()
	same(t, p, m, "after a reload straight after three moves")
}

// TestModNotices: a mod's game.notify shows as a toast with the mod's
// name, and a hazard with a counter shows its number on the tile (the
// bomb's fuse).
func TestModNotices(t *testing.T) {
	b := browser(t)
	o := bridge.Options{Ruleset: "classic", Mods: []bridge.ModSource{{Builtin: "bomb"}}, ModSets: []string{"bomb.interval=1", "bomb.fuse=2"}, Seed: "5"}
	p := b.Open(t, webtest.Serve(t, &web.Defaults{Options: o}), webtest.PageOptions{})
	m := newMirror(t, o, 5)
	toast, fuse := "", false
	for i := 0; i < 12 && toast == "" && !m.s.Status().Over(); i++ {
		d := []engine.Direction{engine.Left, engine.Down, engine.Right, engine.Up}[i%4]
		if !m.s.Legal().Has(d) {
			continue
		}
		p.Press(arrows[d])
		p.Idle()
		m.move(d)
		same(t, p, m, fmt.Sprintf("bomb move %d", i+1))
		// Each fuse shows its turns left.
		var got []string
		p.Eval(`[...document.querySelectorAll("#tiles .mark")].map((e) => e.dataset.mark + "(" + e.dataset.row + "," + e.dataset.col + ")" + e.textContent)`, &got)
		var want []string
		for _, mk := range m.s.State().Marks {
			want = append(want, fmt.Sprintf("%s(%d,%d)%d", mk.Name, mk.Pos.Row, mk.Pos.Col, mk.Turns))
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("bomb move %d: the page's marks %q, the engine's %q", i+1, got, want)
		}
		fuse = fuse || len(got) > 0
		p.Eval(`Array.from(document.querySelectorAll("#toasts .toast")).map((e) => e.textContent).join("|")`, &toast)
	}
	if !fuse {
		t.Error("no fuse was shown")
	}
	if !strings.HasPrefix(toast, "Bomb: A bomb went off at row ") {
		t.Fatalf("no toast of the bomb's notice; the toasts: %q", toast)
	}
	// The reference screenshot shows the toast under the board and the
	// fuses' counts (the DOM snapshot leaves the passing toast out).
	golden(t, p, "notice")
}

// shot writes a reference screenshot, testdata/screens/NAME.png, with
// -update (as golden does): a picture to look at, not compared.
func shot(t *testing.T, name string, png []byte) {
	t.Helper()
	if !*update {
		return
	}
	path := filepath.Join("testdata", "screens", name+".png")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestModSettingsPanel: the settings panel lists a chosen mod's settings
// from its manifest (a number with its bounds, its default and its
// description); a bad value shows the manifest's error and leaves the
// game as it was; a good one starts the game with it (a bomb on the
// first move with interval 1) under a setup key of its own, and the
// panel shows it again after a reload; a player's mod's settings (a
// switch, a text) reach its Lua. With -update, the reference screenshots
// mod-settings and mod-settings-own show the panel.
func TestModSettingsPanel(t *testing.T) {
	b := browser(t)
	p := b.Open(t, webtest.Serve(t, nil), webtest.PageOptions{})
	p.Run(
		webtest.Click("#settings summary"),
		webtest.Click("#mod-bomb"),
	)
	if !p.Visible("#settings-bomb") {
		t.Fatal("bomb's settings are not shown once it is chosen")
	}
	var fields []string
	p.Eval(`[...document.querySelectorAll("#settings-bomb label.setting")].map((l) => {
		const f = l.querySelector("input");
		return [f.dataset.key, f.type, f.min, f.max, f.step, f.value, l.querySelector(".setting-name").textContent, l.querySelector(".setting-desc").textContent].join("|");
	})`, &fields)
	want := []string{
		"bomb.fuse|number|1|9|1|5|fuse (1 to 9, default 5)|Turns a bomb's fuse burns before it explodes; the tile shows the turns left.",
		"bomb.interval|number|1|100|1|6|interval (1 to 100, default 6)|Turns between two bombs.",
	}
	if strings.Join(fields, "\n") != strings.Join(want, "\n") {
		t.Fatalf("bomb's settings fields:\n%s\nwant\n%s", strings.Join(fields, "\n"), strings.Join(want, "\n"))
	}
	// A mod not chosen shows none; a switch and a text for the other
	// types (moss's choke, one way's direction).
	if p.Visible("#settings-freeze") {
		t.Error("freeze's settings are shown, freeze not chosen")
	}
	var kinds []string
	p.Eval(`[document.getElementById("set-one_way-direction").type, document.getElementById("set-one_way-direction").value]`, &kinds)
	if strings.Join(kinds, " ") != "text down" {
		t.Errorf("one way's direction field: %v, want a text with down", kinds)
	}
	p.Run(chromedp.SetValue("#ruleset", "cellular", chromedp.ByQuery))
	p.Eval(`(() => { const r = document.getElementById("ruleset"); r.dispatchEvent(new Event("change")); const f = document.getElementById("set-moss-choke"); return [f.type, String(f.checked)]; })()`, &kinds)
	if strings.Join(kinds, " ") != "checkbox true" {
		t.Errorf("moss's choke field: %v, want a checked checkbox", kinds)
	}
	p.Run(chromedp.SetValue("#ruleset", "classic", chromedp.ByQuery))
	p.Eval(`document.getElementById("ruleset").dispatchEvent(new Event("change"))`, nil)
	p.Click("#mod-bomb") // a mod of another ruleset is unchosen

	// A bad value: the manifest's bounds, said as --mod-set says them; the
	// game is the one before.
	var before, after string
	game := `JSON.stringify((({key, cells, score, seed, mods}) => ({key, cells, score, seed, mods}))(window.mod2048.view().view))`
	p.Eval(game, &before)
	p.Run(
		chromedp.SetValue("#set-bomb-interval", "0", chromedp.ByQuery),
		webtest.Click("#start"),
	)
	p.Idle()
	if got := p.Text("#mod-error"); got != "mod bomb: setting interval: 0 is below the minimum 1" || !p.Visible("#mod-error") {
		t.Errorf("the error of interval 0: %q", got)
	}
	var marked bool
	p.Eval(`document.getElementById("set-bomb-interval").classList.contains("has-error") && document.activeElement.id === "set-bomb-interval"`, &marked)
	if !marked {
		t.Error("the refused field is not marked and focused")
	}
	if p.Eval(game, &after); after != before {
		t.Fatalf("a refused setting changed the game:\n%s\nwas\n%s", after, before)
	}

	// A good value starts the game with it.
	p.Run(
		chromedp.SetValue("#set-bomb-interval", "1", chromedp.ByQuery),
		chromedp.SetValue("#seed", "5", chromedp.ByQuery),
		webtest.Click("#start"),
	)
	p.Idle()
	if p.Visible("#mod-error") {
		t.Fatalf("interval 1 refused: %q", p.Text("#mod-error"))
	}
	var o bridge.Options
	p.Eval(`JSON.parse(localStorage.getItem("gameSetup"))`, &o)
	if strings.Join(o.ModSets, " ") != "bomb.interval=1" || len(o.Mods) != 1 || o.Mods[0].Builtin != "bomb" {
		t.Fatalf("the game's options %+v, want bomb with interval 1", o)
	}
	var legal []string
	var key string
	p.Eval(`window.mod2048.view().view.legal`, &legal)
	p.Eval(`window.mod2048.view().view.key`, &key)
	p.Press(map[string]string{"left": "ArrowLeft", "right": "ArrowRight", "up": "ArrowUp", "down": "ArrowDown"}[legal[0]])
	p.Idle()
	var bombs []string
	p.Eval(`[...document.querySelectorAll("#tiles .mark")].map((e) => e.dataset.mark + " " + e.textContent)`, &bombs)
	if strings.Join(bombs, ",") != "bomb:fuse 5" {
		t.Fatalf("after the first move with interval 1, the marks %q: want one bomb, its fuse at 5", bombs)
	}
	// Its own setup key: bomb with its defaults has another, and its own
	// best.
	d := bridge.New()
	defer d.Close()
	def := d.NewGame(bridge.Options{Ruleset: "classic", Mods: []bridge.ModSource{{Builtin: "bomb"}}, Seed: "5"}, nil)
	if def.Error != nil || def.View.Key == key {
		t.Fatalf("bomb with interval 1 has the key %s of bomb with its defaults (%+v)", key, def.Error)
	}
	var bests map[string]string
	p.Eval(`JSON.parse(localStorage.getItem("bestScores"))`, &bests)
	if _, ok := bests[key]; !ok {
		t.Errorf("no best score kept under the game's key %s: %v", key, bests)
	}

	// After a reload: the same game, and the panel shows its settings.
	p.Reload()
	p.Run(webtest.Click("#settings summary"))
	var shown []string
	p.Eval(`[document.getElementById("mod-bomb").checked ? "bomb" : "no bomb", document.getElementById("settings-bomb").hidden ? "hidden" : "shown", document.getElementById("set-bomb-interval").value, document.getElementById("set-bomb-fuse").value, window.mod2048.view().view.key]`, &shown)
	if strings.Join(shown, " ") != "bomb shown 1 5 "+key {
		t.Fatalf("after a reload the panel shows %v, want bomb shown 1 5 %s", shown, key)
	}
	p.Run(chromedp.SetValue("#set-bomb-fuse", "3", chromedp.ByQuery))
	p.Eval(`document.getElementById("set-bomb-fuse").dispatchEvent(new Event("input"))`, nil)
	p.Eval(`document.getElementById("settings").scrollIntoView()`, nil)
	shot(t, "mod-settings", p.ScreenshotOf("#settings"))

	// A player's mod's settings, from its manifest: a switch, a text, whose
	// string goes to the mod quoted, as TOML, and a choice, a select.
	zipPath := filepath.Join(t.TempDir(), "says.zip")
	writeZip(t, zipPath, map[string]string{
		"says/mod.toml": "id = \"says\"\nname = \"Says\"\nversion = \"1.0.0\"\napi_version = 2\n\n[settings.word]\ntype = \"string\"\ndefault = \"hello\"\ndescription = \"What it says.\"\n\n[settings.loud]\ntype = \"bool\"\ndefault = false\ndescription = \"Whether it shouts.\"\n\n[settings.mark]\ntype = \"choice\"\nchoices = [\"!\", \"?\", \"...\"]\ndefault = \"!\"\ndescription = \"How it ends.\"\n",
		"says/main.lua": `game.on("tick", function() local w = game.settings.word; if game.settings.loud then w = w:upper() end; game.notify(w .. game.settings.mark) end)`,
	})
	p.Run(
		chromedp.SetUploadFiles("#mod-zip", []string{zipPath}, chromedp.ByQuery),
		chromedp.Poll(`!!document.getElementById("set-says-word")`, nil),
		chromedp.SetValue("#set-says-word", "bye, \"you\"", chromedp.ByQuery),
		webtest.Click("#set-says-loud"),
		chromedp.SetValue("#set-says-mark", "?", chromedp.ByQuery),
		webtest.Click("#start"),
	)
	var choices []string
	p.Eval(`[...document.querySelectorAll("select#set-says-mark option")].map((o) => o.value)`, &choices)
	if strings.Join(choices, " ") != "! ? ..." {
		t.Errorf("the choice's select offers %q", choices)
	}
	p.Idle()
	if p.Visible("#mod-error") {
		t.Fatalf("the player's mod's settings refused: %q", p.Text("#mod-error"))
	}
	p.Eval(`JSON.parse(localStorage.getItem("gameSetup"))`, &o)
	if got := strings.Join(o.ModSets, " "); got != `bomb.fuse=3 bomb.interval=1 says.loud=true says.mark="?" says.word="bye, \"you\""` {
		t.Errorf("the game's mod settings %s", got)
	}
	p.Eval(`window.mod2048.view().view.legal`, &legal)
	p.Press(map[string]string{"left": "ArrowLeft", "right": "ArrowRight", "up": "ArrowUp", "down": "ArrowDown"}[legal[0]])
	p.Idle()
	if got := p.Text("#toasts"); !strings.Contains(got, `Says: BYE, "YOU"?`) {
		t.Errorf("the toasts %q: want the player's mod's word, loud", got)
	}
	shot(t, "mod-settings-own", p.ScreenshotOf("#settings fieldset"))
}

// TestToastBesideBoard: a mod's toast (game.notify) never covers the
// board: under it on a phone and a narrow window, beside it on a wide
// one, within the viewport. With -update, the reference screenshots
// toast-narrow and toast-wide show the toast with the board.
func TestToastBesideBoard(t *testing.T) {
	b := browser(t)
	o := bridge.Options{Ruleset: "classic", Mods: []bridge.ModSource{{Builtin: "bomb"}}, ModSets: []string{"bomb.interval=1", "bomb.fuse=1"}, Seed: "5"}
	url := webtest.Serve(t, &web.Defaults{Options: o})
	for _, vp := range []struct {
		name          string
		width, height int64
		beside        bool
	}{
		{"narrow", 360, 740, false},
		{"middle", 800, 900, false},
		{"wide", 1280, 900, true},
	} {
		p := b.Open(t, url, webtest.PageOptions{Width: vp.width, Height: vp.height})
		p.Eval(`localStorage.clear()`, nil)
		p.Reload()
		type rect struct{ Left, Top, Right, Bottom float64 }
		var boxes struct {
			Board  rect
			Toasts []rect
			Width  float64
		}
		for i := 0; i < 12 && len(boxes.Toasts) == 0; i++ {
			p.Press([]string{"ArrowLeft", "ArrowDown", "ArrowRight", "ArrowUp"}[i%4])
			p.Idle()
			p.Eval(`(() => {
				const r = (e) => { const b = e.getBoundingClientRect(); return {Left: b.left, Top: b.top, Right: b.right, Bottom: b.bottom}; };
				return {Board: r(document.getElementById("game")), Toasts: [...document.querySelectorAll("#toasts .toast")].map(r), Width: window.innerWidth};
			})()`, &boxes)
		}
		if len(boxes.Toasts) == 0 {
			t.Fatalf("%s: no toast in 12 moves", vp.name)
		}
		if vp.name != "middle" {
			shot(t, "toast-"+vp.name, p.ScreenshotView())
		}
		bd := boxes.Board
		for _, tb := range boxes.Toasts {
			if tb.Left < bd.Right && bd.Left < tb.Right && tb.Top < bd.Bottom && bd.Top < tb.Bottom {
				t.Errorf("%s: a toast %+v covers the board %+v", vp.name, tb, bd)
			}
			if tb.Left < 0 || tb.Right > boxes.Width {
				t.Errorf("%s: a toast %+v is outside the viewport's %v px", vp.name, tb, boxes.Width)
			}
			if beside := tb.Left >= bd.Right; beside != vp.beside {
				t.Errorf("%s: a toast %+v beside the board %+v: %v, want %v", vp.name, tb, bd, beside, vp.beside)
			}
		}
		p.Close()
	}
}

// writeZip writes a zip of files (name → content) at path.
func writeZip(t *testing.T, path string, files map[string]string) {
	t.Helper()
	if err := os.WriteFile(path, modtest.Zip(files), 0o644); err != nil {
		t.Fatal(err)
	}
}
