package web_test

import (
	"archive/zip"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/mod2048/mod2048/cmd/internal/web"
	"github.com/mod2048/mod2048/cmd/internal/web/internal/wasmstamp"
	"github.com/mod2048/mod2048/cmd/internal/web/webtest"
)

// burnHazard is what the stranger adds to the new mod's main.lua
// (testdata/burn.lua): a hazard that burns a tile after a countdown. Its
// first line is typed key by key, with the editor's completion; the rest
// is pasted.
var burnHazard = func() string {
	data, err := os.ReadFile("testdata/burn.lua")
	if err != nil {
		panic(err)
	}
	_, code, _ := strings.Cut(string(data), "\n\n")
	return code
}()

// TestWorkshopStranger does in the page what a stranger would, with
// nothing installed: open the workshop and make a new mod; type a hazard
// that burns a tile after a countdown and see it act in the game beside
// the editor; break the code and see the error at its line while the
// game goes on; fix it and record a fixture from play; run the fixtures
// green; export the zip (which `2048 mod install` then takes and `2048
// test` passes); open the share link in a fresh browser profile, confirm,
// and play the mod.
func TestWorkshopStranger(t *testing.T) {
	b := browser(t)
	url := webtest.Serve(t, nil)
	p := b.Open(t, url, webtest.PageOptions{Width: 1400, Height: 900})

	// Open the workshop, make a new mod.
	// A player who does not open the workshop loads none of it.
	var loaded []string
	p.Eval(`performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname).filter((n) => /workshop|editor/.test(n))`, &loaded)
	if len(loaded) > 0 {
		t.Errorf("the page loaded %v before the workshop was opened", loaded)
	}

	// The workshop's games take the settings' seed (a stranger leaves it
	// empty for a random one).
	p.Eval(`document.getElementById("seed").value = "7"`, nil)
	p.Click("#open-workshop")
	p.WaitFor(`!!document.getElementById("ws-new-form") && !document.getElementById("ws-new-form").hidden`, waitLong)
	p.Eval(`document.getElementById("ws-new-id").value = ""`, nil)
	p.Run(
		chromedp.SendKeys("#ws-new-id", "burn", chromedp.ByQuery),
		webtest.Click("#ws-new-create"),
	)
	p.WaitFor(`document.querySelector('#ws-status').dataset.kind === "ok"`, waitLong)
	var tabs []string
	p.Eval(`[...document.querySelectorAll("#ws-tabs .ws-tab[data-path]")].map((b) => b.textContent)`, &tabs)
	if strings.Join(tabs, " ") != "mod.toml main.lua burn.cases README.md" {
		t.Fatalf("the new mod's tabs: %v", tabs)
	}
	if got := p.Text("#ws-name"); got != "burn" {
		t.Errorf("the workshop names the mod %q", got)
	}
	if loc := location(p); !strings.HasSuffix(loc, "#workshop") {
		t.Errorf("the workshop's address: %s", loc)
	}

	// Type the hazard at the end of main.lua: completion offers the API.
	endOfDoc(p, "main.lua")
	p.Run(chromedp.KeyEvent("\n"), chromedp.KeyEvent("game.ha"))
	// The list is there once it offers what was typed for (it may first
	// show what an earlier prefix offered).
	p.WaitFor(`[...document.querySelectorAll(".cm-tooltip-autocomplete li")].some((li) => li.textContent.startsWith("hazard"))`, waitLong)
	var offered []string
	p.Eval(`[...document.querySelectorAll(".cm-tooltip-autocomplete li")].map((li) => li.textContent)`, &offered)
	if len(offered) == 0 || !strings.HasPrefix(offered[0], "hazard") {
		t.Errorf("completion after game.ha offers %v, want hazard", offered)
	}
	// Take it, as a person does: after a look. CodeMirror takes no Enter
	// in the list's first 75 ms (its interactionDelay), a delay of its
	// own that no state of the page shows: a wait longer than it is the
	// one wait on time here, and a longer one is never wrong.
	time.Sleep(200 * time.Millisecond)
	p.Run(
		input.DispatchKeyEvent(input.KeyRawDown).WithKey("Enter").WithCode("Enter").WithWindowsVirtualKeyCode(13),
		input.DispatchKeyEvent(input.KeyUp).WithKey("Enter").WithCode("Enter").WithWindowsVirtualKeyCode(13),
	)
	var line string
	p.Eval(`(() => { const v = window.mod2048Workshop.editor("main.lua").view; const s = v.state; return s.doc.lineAt(s.selection.main.head).text; })()`, &line)
	if line != "game.hazard" {
		t.Errorf("after taking the completion the line is %q", line)
	}
	selectLine(p, "main.lua")
	p.Run(input.InsertText(burnHazard))

	// The template refuses every move after three turns: its setting
	// max_turns, changed while the game runs, lets it go on.
	// The edit is applied (no pause in typing is pending, which would
	// apply it over the setting's change) and the game runs it.
	p.WaitFor(`!window.mod2048Workshop.pending() && document.querySelector('#ws-status').dataset.kind === "ok" && document.querySelector('#ws-status').textContent.startsWith("Running")`, waitLong)
	p.WaitFor(`!!document.getElementById("set-burn-max_turns")`, waitLong)
	p.Run(chromedp.SetValue("#set-burn-max_turns", "0", chromedp.ByQuery))
	p.Eval(`document.getElementById("set-burn-max_turns").dispatchEvent(new Event("change", {bubbles: true}))`, nil)
	p.WaitFor(`document.querySelector('#ws-status').textContent.includes("burn.max_turns=0")`, waitLong)

	// Play beside the editor until a tile burns.
	p.Click("#game")
	burned := playUntil(t, p, `document.getElementById("ws-log").textContent.includes("notice: a tile burned")`, 60)
	if !burned {
		t.Fatalf("no tile burned; the log:\n%s", p.Text("#ws-log"))
	}
	var marks int
	p.Eval(`document.querySelectorAll("#tiles .mark").length`, &marks)
	viewShot(t, p, "workshop")

	// Break the code: the error at its line, the game going on.
	var before string
	p.Eval(`JSON.stringify(window.mod2048.view().view.cells)`, &before)
	endOfDoc(p, "main.lua")
	p.Run(input.InsertText("\nlocal broken = = 1"))
	var brokenLine int
	p.Eval(`(() => { const d = window.mod2048Workshop.editor("main.lua").view.state.doc; for (let i = 1; i <= d.lines; i++) if (d.line(i).text.includes("local broken")) return i; return 0; })()`, &brokenLine)
	p.WaitFor(`document.querySelector('#ws-status').dataset.kind === "error"`, waitLong)
	status := p.Text("#ws-status")
	if !strings.Contains(status, fmt.Sprintf("main.lua:%d:", brokenLine)) || !strings.Contains(status, "the game goes on") {
		t.Errorf("the error: %q, want it at main.lua:%d", status, brokenLine)
	}
	var marked []int
	p.Eval(`(() => { const v = window.mod2048Workshop.editor("main.lua").view; return [...document.querySelectorAll('.ws-editor[data-path="main.lua"] .cm-lintRange-error')].map((e) => v.state.doc.lineAt(v.posAtDOM(e)).number); })()`, &marked)
	if len(marked) == 0 || marked[0] != brokenLine {
		t.Errorf("the editor marks lines %v, want %d", marked, brokenLine)
	}
	p.Click("#game")
	if !playUntil(t, p, fmt.Sprintf(`JSON.stringify(window.mod2048.view().view.cells) !== %q`, before), 8) {
		t.Error("the game does not go on while the code is broken")
	}
	viewShot(t, p, "workshop_error")

	// Fix it (undo in the editor), then record the game so far as a case.
	p.Run(webtest.Click(`.ws-editor[data-path="main.lua"] .cm-content`), chromedp.KeyEvent("z", chromedp.KeyModifiers(input.ModifierCtrl)))
	p.WaitFor(`document.querySelector('#ws-status').dataset.kind === "ok"`, waitLong)
	p.Click("#game")
	playUntil(t, p, `false`, 4)
	p.Press("f") // on the game, as in the terminal
	p.WaitFor(`document.querySelector('.ws-tab[aria-selected="true"]').textContent === "burn.cases"`, waitLong)
	var focus string
	p.Eval(`document.activeElement.id`, &focus)
	if focus != "game" {
		t.Errorf("after f the focus is on %q, want the game", focus)
	}
	var cases string
	p.Eval(`window.mod2048Workshop.editor("burn.cases").view.state.doc.toString()`, &cases)
	for _, want := range []string{"Case: BURN-2 written from play", "Mods: .", "ModSet: burn.max_turns=0", "Notice: burn: a tile burned"} {
		if !strings.Contains(cases, want) {
			t.Errorf("the recorded case lacks %q:\n%s", want, cases)
		}
	}

	// Run the fixtures with one key (in the editor, which keeps its text):
	// green.
	cases = ""
	p.Eval(`window.mod2048Workshop.editor("burn.cases").view.state.doc.toString()`, &cases)
	p.Run(webtest.Click(`.ws-editor[data-path="burn.cases"] .cm-content`))
	p.Run(
		input.DispatchKeyEvent(input.KeyRawDown).WithKey("Enter").WithCode("Enter").WithWindowsVirtualKeyCode(13).WithModifiers(input.ModifierCtrl),
		input.DispatchKeyEvent(input.KeyUp).WithKey("Enter").WithCode("Enter").WithWindowsVirtualKeyCode(13).WithModifiers(input.ModifierCtrl),
	)
	p.WaitFor(`document.getElementById("ws-summary").textContent !== ""`, waitLong)
	if got := p.Text("#ws-summary"); got != "3 passed, 0 failed" {
		t.Fatalf("the fixtures: %q\n%s", got, p.Text("#ws-fixtures"))
	}
	var after string
	p.Eval(`window.mod2048Workshop.editor("burn.cases").view.state.doc.toString()`, &after)
	if after != cases {
		t.Error("Ctrl-Enter changed the fixture file")
	}
	viewShot(t, p, "workshop_fixtures")

	// Export the zip.
	dir := t.TempDir()
	p.Run(cdpbrowser.SetDownloadBehavior(cdpbrowser.SetDownloadBehaviorBehaviorAllow).WithDownloadPath(dir))
	p.Click("#ws-export")
	zipPath := filepath.Join(dir, "burn.zip")
	waitFile(t, zipPath)
	checkZip(t, zipPath)
	if got := p.Text("#ws-status"); got != "Exported burn.zip: install it with 2048 mod install burn.zip" {
		t.Errorf("after export, with the fixtures green: %q", got)
	}

	// Share: the link opens in a fresh profile, asks, and plays the mod.
	p.Click("#ws-share")
	p.WaitFor(`document.getElementById("ws-share-link").value.includes("#share=")`, waitLong)
	var link string
	p.Eval(`document.getElementById("ws-share-link").value`, &link)
	fresh := webtest.Start(t)
	q := fresh.Open(t, link, webtest.PageOptions{Width: 1400, Height: 900})
	q.WaitFor(`!!document.getElementById("ws-confirm") && !document.getElementById("ws-confirm").hidden`, waitLong)
	ask := q.Text("#ws-confirm")
	for _, want := range []string{"Open the shared mod Burn (burn)?", "main.lua", "burn.cases", "mod.toml", "Its settings: burn.max_turns=0."} {
		if !strings.Contains(ask, want) {
			t.Errorf("the question lacks %q: %q", want, ask)
		}
	}
	var mods int
	q.Eval(`(window.mod2048.view().view.mods || []).length`, &mods)
	if mods != 0 {
		t.Fatal("the shared mod runs before the player says yes")
	}
	viewShot(t, q, "workshop_share")
	q.Click("#ws-confirm-yes")
	q.WaitFor(`document.querySelector('#ws-status').dataset.kind === "ok"`, waitLong)
	q.Click("#game")
	if !playUntil(t, q, `document.querySelectorAll("#tiles .mark").length > 0`, 30) {
		t.Error("the shared mod puts no fire on the board")
	}
	// With its settings: past the template's three turns.
	if !playUntil(t, q, `window.mod2048.view().view.undo >= 5`, 12) {
		t.Error("the shared mod's game stops: its settings did not come with it")
	}
	if logs := append(p.Logs(), q.Logs()...); len(logs) > 0 {
		t.Errorf("the pages logged errors: %v", logs)
	}
}

// location is the page's address.
func location(p *webtest.Page) string {
	var s string
	p.Eval(`location.href`, &s)
	return s
}

// endOfDoc puts the cursor of the file's editor at the end of its text.
func endOfDoc(p *webtest.Page, file string) {
	p.Eval(fmt.Sprintf(`(() => { const v = window.mod2048Workshop.editor(%q).view; v.focus(); v.dispatch({selection: {anchor: v.state.doc.length}}); })()`, file), nil)
}

// selectLine selects the cursor's line in the file's editor.
func selectLine(p *webtest.Page, file string) {
	p.Eval(fmt.Sprintf(`(() => { const v = window.mod2048Workshop.editor(%q).view; const l = v.state.doc.lineAt(v.state.selection.main.head); v.focus(); v.dispatch({selection: {anchor: l.from, head: l.to}}); })()`, file), nil)
}

// playUntil plays moves round the four directions until cond holds, at
// most n of them.
func playUntil(t *testing.T, p *webtest.Page, cond string, n int) bool {
	t.Helper()
	keys := []string{"ArrowLeft", "ArrowDown", "ArrowRight", "ArrowUp"}
	for i := 0; i < n; i++ {
		var ok bool
		p.Eval(cond, &ok)
		if ok {
			return true
		}
		p.Press(keys[i%4])
		p.Idle()
	}
	var ok bool
	p.Eval(cond, &ok)
	return ok
}

// viewShot writes the viewport to testdata/screens/NAME.png with -update.
func viewShot(t *testing.T, p *webtest.Page, name string) {
	t.Helper()
	if *update {
		p.Idle()
		shot(t, name, p.ScreenshotView())
	}
}

func waitFile(t *testing.T, path string) {
	t.Helper()
	for deadline := time.Now().Add(waitLong); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if info, err := os.Stat(path); err == nil && info.Size() > 0 {
			return
		}
	}
	t.Fatalf("%s was not downloaded", path)
}

// checkZip installs the exported zip with the real binary's `2048 mod
// install` into a fresh data folder, and runs `2048 test` on the
// installed mod.
func checkZip(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	t.Logf("the exported zip: %d bytes, %v", len(data), names)
	root, err := wasmstamp.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "2048")
	build := exec.Command(wasmstamp.Go(), "build", "-o", bin, "./cmd/2048")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	home := t.TempDir()
	env := append(os.Environ(), "XDG_DATA_HOME="+home, "HOME="+home)
	install := exec.Command(bin, "mod", "install", path)
	install.Env = env
	out, err := install.CombinedOutput()
	if err != nil {
		t.Fatalf("2048 mod install %s: %v\n%s", path, err, out)
	}
	// By the installed mod's id, from a folder that has no mod of it.
	test := exec.Command(bin, "test", "-v", "burn")
	test.Env, test.Dir = env, t.TempDir()
	out, err = test.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "3 passed, 0 failed") {
		t.Fatalf("2048 test burn: %v\n%s", err, out)
	}
	t.Logf("2048 test on the installed mod: %s", strings.TrimSpace(string(out)))
}

// setFile replaces the text of a file in the workshop's editor, as an
// edit (the workshop reloads the mod after it), and waits for the reload.
func setFile(p *webtest.Page, file, text string) {
	p.Eval(fmt.Sprintf(`(() => { const v = window.mod2048Workshop.editor(%q).view; v.dispatch({changes: {from: 0, to: v.state.doc.length, insert: %q}}); document.getElementById("ws-status").dataset.kind = "pending"; })()`, file, text), nil)
	p.WaitFor(`document.getElementById("ws-status").dataset.kind !== "pending"`, waitLong)
}

// lintLines are the lines of a file's editor marked with severity.
func lintLines(p *webtest.Page, file, severity string) []int {
	var lines []int
	p.Eval(fmt.Sprintf(`(() => { const v = window.mod2048Workshop.editor(%q).view; return [...v.dom.querySelectorAll(".cm-lintRange-%s")].map((e) => v.state.doc.lineAt(v.posAtDOM(e)).number); })()`, file, severity), &lines)
	return lines
}

// newWorkshopMod opens the workshop on a fresh page and makes the mod id.
func newWorkshopMod(t *testing.T, b *webtest.Browser, url, id string) *webtest.Page {
	t.Helper()
	p := b.Open(t, url+"#workshop", webtest.PageOptions{Width: 1400, Height: 900})
	p.Eval(`document.getElementById("seed").value = "11"`, nil)
	p.WaitFor(`!!document.getElementById("ws-new-form") && !document.getElementById("ws-new-form").hidden`, waitLong)
	p.Eval(fmt.Sprintf(`document.getElementById("ws-new-id").value = %q`, id), nil)
	p.Click("#ws-new-create")
	p.WaitFor(`document.querySelector('#ws-status').dataset.kind === "ok"`, waitLong)
	return p
}

// TestWorkshopProblems: every kind of a mod's error is marked at its file
// and line, the game going on: a handler's error and a budget stop as
// they happen in play, a manifest's error at load; the mod's log shows;
// a failing case shows its boards side by side.
func TestWorkshopProblems(t *testing.T) {
	b := browser(t)
	p := newWorkshopMod(t, b, webtest.Serve(t, nil), "oops")
	p.Click("#game")
	playUntil(t, p, `window.mod2048.view().view.undo >= 2`, 8)
	p.Click("#ws-tab-log")
	if log := p.Text("#ws-log"); !strings.Contains(log, "turn 1: ") {
		t.Errorf("the log panel shows %q, want the template's turn lines", log)
	}

	// Completion knows the events in game.on(" and the keys of a request
	// in a table; the edits below replace these.
	for _, c := range []struct{ text, want string }{
		{"game.on(\"ti", "tick"},
		{"game.on(\"tick\", function(ev)\n  return { ref", "refuse"},
		{"game.hazard{ name = \"x\", cou", "counter"},
		{"local n = game.", "cells"},
	} {
		p.Eval(fmt.Sprintf(`(() => { const v = window.mod2048Workshop.editor("main.lua").view; v.dispatch({changes: {from: 0, to: v.state.doc.length, insert: %q}, selection: {anchor: %d}}); v.focus(); window.mod2048Editor.startCompletion(v); })()`, c.text, len([]rune(c.text))), nil)
		p.WaitFor(`window.mod2048Editor.currentCompletions(window.mod2048Workshop.editor("main.lua")).length > 0`, waitLong)
		var got []string
		p.Eval(`window.mod2048Editor.currentCompletions(window.mod2048Workshop.editor("main.lua"))`, &got)
		if !slices.Contains(got, c.want) {
			t.Errorf("completion at %q offers %v, want %s", c.text, got, c.want)
		}
	}

	// A handler's error, in play.
	setFile(p, "main.lua", "game.on(\"tick\", function(ev)\n  local t = nil\n  return t.x\nend)\n")
	p.Click("#game")
	playUntil(t, p, `document.querySelectorAll("#ws-problems .ws-problem").length > 0`, 6)
	if got := p.Text("#ws-problems"); !strings.Contains(got, "main.lua:3") || !strings.Contains(got, "tick: ") {
		t.Errorf("the problems: %q, want the tick handler's error at main.lua:3", got)
	}
	if got := lintLines(p, "main.lua", "warning"); len(got) == 0 || got[0] != 3 {
		t.Errorf("the editor marks lines %v, want 3", got)
	}

	// A budget stop.
	setFile(p, "main.lua", "game.on(\"tick\", function(ev)\n  while true do\n  end\nend)\n")
	if got := p.Text("#ws-problems"); got != "No problems." {
		t.Errorf("a good reload keeps the problems: %q", got)
	}
	p.Click("#game")
	playUntil(t, p, `document.querySelectorAll("#ws-problems .ws-problem").length > 0`, 6)
	if got := p.Text("#ws-problems"); !strings.Contains(got, "instruction budget") || !regexpMatch(`main\.lua:[23]`, got) {
		t.Errorf("the problems: %q, want a budget stop in the loop", got)
	}

	// A manifest's error: at its line, the game going on.
	var toml string
	p.Eval(`window.mod2048Workshop.editor("mod.toml").view.state.doc.toString()`, &toml)
	setFile(p, "mod.toml", toml+"bogus = 1\n")
	line := strings.Count(toml, "\n") + 1
	if got := p.Text("#ws-status"); !strings.HasPrefix(got, fmt.Sprintf("mod.toml:%d:1: ", line)) || !strings.Contains(got, "unknown key") {
		t.Errorf("the manifest's error: %q, want it at mod.toml:%d:1", got, line)
	}
	p.Click(`.ws-tab[data-path="mod.toml"]`)
	if got := lintLines(p, "mod.toml", "error"); len(got) == 0 || got[0] != line {
		t.Errorf("mod.toml marks lines %v, want %d", got, line)
	}
	setFile(p, "mod.toml", toml)

	// A file of its own for require: added, its error marked in it, and
	// deleted, which leaves main.lua's require failing at its line.
	p.Click("#ws-new-file")
	p.Eval(`document.getElementById("ws-file-name").value = "lib.lua"`, nil)
	p.Click("#ws-file-add")
	p.WaitFor(`document.querySelector('.ws-tab[aria-selected="true"]').textContent === "lib.lua"`, waitLong)
	setFile(p, "lib.lua", "local M = {}\nM.fuse = = 3\nreturn M\n")
	setFile(p, "main.lua", "local lib = require(\"lib\")\n")
	if got := p.Text("#ws-status"); !strings.HasPrefix(got, "lib.lua:2:10: syntax error near '='") {
		t.Errorf("an error in a required file: %q, want it at lib.lua:2", got)
	}
	if got := lintLines(p, "lib.lua", "error"); len(got) != 1 || got[0] != 2 {
		t.Errorf("lib.lua marks lines %v, want 2", got)
	}
	setFile(p, "lib.lua", "local M = {}\nM.fuse = 3\nreturn M\n")
	if kind := p.Text("#ws-status"); !strings.HasPrefix(kind, "Running") {
		t.Errorf("with lib.lua fixed: %q", kind)
	}
	p.Click("#ws-delete-file")
	p.WaitFor(`!document.getElementById("ws-confirm").hidden`, waitLong)
	p.Click("#ws-confirm-yes")
	p.WaitFor(`!document.querySelector('.ws-tab[data-path="lib.lua"]') && document.querySelector('#ws-status').dataset.kind === "error"`, waitLong)
	if got := p.Text("#ws-status"); !strings.HasPrefix(got, "main.lua:1: ") {
		t.Errorf("a require of a deleted file: %q, want it at main.lua:1", got)
	}

	// A failing case: red, at its line, its boards side by side.
	setFile(p, "main.lua", "")
	var cases string
	p.Eval(`window.mod2048Workshop.editor("oops.cases").view.state.doc.toString()`, &cases)
	// (The template's case of the template's code goes: main.lua is not
	// that code any more.)
	cases = cases[:strings.Index(cases, "# The template's example code")]
	setFile(p, "oops.cases", strings.Replace(cases, "Move: Right\nExpect:\n0 0 0 2", "Move: Right\nExpect:\n0 0 2 0", 1))
	p.Click("#ws-run")
	p.WaitFor(`document.getElementById("ws-summary").textContent !== ""`, waitLong)
	if got := p.Text("#ws-summary"); got != "0 passed, 1 failed" {
		t.Errorf("the summary: %q", got)
	}
	var boards []string
	p.Eval(`[...document.querySelectorAll("#ws-fixtures .ws-case.fail .ws-boards pre")].map((e) => e.textContent)`, &boards)
	if len(boards) != 2 || !strings.HasPrefix(boards[0], "0 0 2 0") || !strings.HasPrefix(boards[1], "0 0 0 2") {
		t.Errorf("the failure's boards: %q", boards)
	}
	if got := lintLines(p, "oops.cases", "error"); len(got) != 1 {
		t.Errorf("the case file marks lines %v, want the failing one", got)
	}
	viewShot(t, p, "workshop_failing_case")
	if logs := p.Logs(); len(logs) > 0 {
		t.Errorf("the page logged errors: %v", logs)
	}
}

func regexpMatch(pattern, s string) bool { return regexp.MustCompile(pattern).MatchString(s) }

// TestWorkshopKept: the work is kept in the browser: a reload opens the
// same files with the game where it was, and once the workshop has been
// opened online it opens offline too. A zip imports (the workshop asks
// before it replaces the mod it holds).
func TestWorkshopKept(t *testing.T) {
	b := browser(t)
	h, err := web.Handler(nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := webtest.NewServer(t, h)
	p := b.Open(t, srv.URL, webtest.PageOptions{Width: 1400, Height: 900})
	awaitWorker(p)
	p.Eval(`document.getElementById("seed").value = "5"`, nil)
	p.Click("#open-workshop")
	p.WaitFor(`!!document.getElementById("ws-new-form") && !document.getElementById("ws-new-form").hidden`, waitLong)
	p.Eval(`document.getElementById("ws-new-id").value = "keep"`, nil)
	p.Click("#ws-new-create")
	p.WaitFor(`document.querySelector('#ws-status').dataset.kind === "ok"`, waitLong)
	var main string
	p.Eval(`window.mod2048Workshop.editor("main.lua").view.state.doc.toString()`, &main)
	setFile(p, "main.lua", "-- kept across reloads\n"+main)
	p.Click("#game")
	playUntil(t, p, `false`, 2)
	var before string
	p.Eval(`JSON.stringify(window.mod2048.view().view.cells)`, &before)

	srv.Stop()
	p.Reload()
	p.WaitFor(`!!window.mod2048Workshop && document.querySelector('#ws-status').dataset.kind === "ok"`, waitLong)
	var kept, after string
	p.Eval(`window.mod2048Workshop.editor("main.lua").view.state.doc.toString()`, &kept)
	p.Eval(`JSON.stringify(window.mod2048.view().view.cells)`, &after)
	if !strings.HasPrefix(kept, "-- kept across reloads\n") {
		t.Errorf("main.lua after an offline reload: %q", kept[:min(len(kept), 80)])
	}
	if after != before {
		t.Errorf("the game after the reload:\n%s\nwas\n%s", after, before)
	}
	// The game goes on with the mod: the template's limit of three turns.
	p.Click("#game")
	playUntil(t, p, `window.mod2048.view().view.status === "lost"`, 4)
	var status string
	p.Eval(`window.mod2048.view().view.status`, &status)
	if status != "lost" {
		t.Errorf("after five moves of the template's mod the game is %q, want lost", status)
	}

	// A zip imports, once the player says yes.
	zipPath := filepath.Join(t.TempDir(), "bomb.zip")
	writeModZip(t, zipPath, "../../../mods/bomb")
	p.Run(chromedp.SetUploadFiles("#ws-import-zip", []string{zipPath}, chromedp.ByQuery))
	p.WaitFor(`!document.getElementById("ws-confirm").hidden`, waitLong)
	if ask := p.Text("#ws-confirm"); !strings.Contains(ask, "Replace the mod keep in the workshop with bomb?") || !strings.Contains(ask, "main.lua") {
		t.Errorf("the question: %q", ask)
	}
	p.Click("#ws-confirm-yes")
	p.WaitFor(`document.getElementById("ws-name").textContent === "bomb" && document.querySelector('#ws-status').dataset.kind === "ok"`, waitLong)
	var tabs []string
	p.Eval(`[...document.querySelectorAll("#ws-tabs .ws-tab[data-path]")].map((b) => b.textContent)`, &tabs)
	if strings.Join(tabs, " ") != "mod.toml main.lua bomb.cases README.md" {
		t.Errorf("the imported mod's tabs: %v", tabs)
	}
	var mods []string
	p.Eval(`(window.mod2048.view().view.mods || []).map((m) => m.id)`, &mods)
	if strings.Join(mods, " ") != "bomb" {
		t.Errorf("the game plays %v, want bomb", mods)
	}

	// And a folder.
	dir, err := filepath.Abs("../../../mods/freeze")
	if err != nil {
		t.Fatal(err)
	}
	p.Run(chromedp.SetUploadFiles("#ws-import-folder", []string{dir}, chromedp.ByQuery))
	p.WaitFor(`!document.getElementById("ws-confirm").hidden`, waitLong)
	if ask := p.Text("#ws-confirm"); !strings.Contains(ask, "Replace the mod bomb in the workshop with freeze?") {
		t.Errorf("the question: %q", ask)
	}
	p.Click("#ws-confirm-yes")
	p.WaitFor(`document.getElementById("ws-name").textContent === "freeze" && document.querySelector('#ws-status').dataset.kind === "ok"`, waitLong)
	p.Eval(`(window.mod2048.view().view.mods || []).map((m) => m.id)`, &mods)
	if strings.Join(mods, " ") != "freeze" {
		t.Errorf("the game plays %v, want freeze", mods)
	}
	if logs := p.Logs(); len(logs) > 0 {
		t.Errorf("the page logged errors: %v", logs)
	}
}

// writeModZip zips the mod folder dir into path, in a folder of its name.
func writeModZip(t *testing.T, path, dir string) {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		w, err := zw.Create(filepath.Base(dir) + "/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestWorkshopNarrow: on a page narrower than the editor and the board
// side by side, the workshop goes above the game, neither over the other.
func TestWorkshopNarrow(t *testing.T) {
	b := browser(t)
	p := b.Open(t, webtest.Serve(t, nil)+"#workshop", webtest.PageOptions{Width: 800, Height: 1000})
	p.WaitFor(`!!document.getElementById("ws-new-form") && !document.getElementById("ws-new-form").hidden`, waitLong)
	// A cellular mod: its game is cellular, its fixture passes.
	p.Eval(`document.getElementById("ws-new-ruleset").value = "cellular"`, nil)
	p.Click("#ws-new-create")
	p.WaitFor(`document.querySelector('#ws-status').dataset.kind === "ok"`, waitLong)
	var ruleset string
	p.Eval(`window.mod2048.view().view.ruleset`, &ruleset)
	if ruleset != "cellular" {
		t.Errorf("a new cellular mod plays %q", ruleset)
	}
	p.Click("#ws-run")
	p.WaitFor(`document.getElementById("ws-summary").textContent !== ""`, waitLong)
	if got := p.Text("#ws-summary"); got != "2 passed, 0 failed" {
		t.Errorf("the cellular mod's fixtures: %q", got)
	}
	// Made a classic mod, it gets a classic game.
	var toml string
	p.Eval(`window.mod2048Workshop.editor("mod.toml").view.state.doc.toString()`, &toml)
	setFile(p, "mod.toml", strings.Replace(toml, `rulesets = ["cellular"]`, `rulesets = ["classic"]`, 1))
	p.Eval(`window.mod2048.view().view.ruleset`, &ruleset)
	if ruleset != "classic" {
		t.Errorf("a mod made classic plays %q", ruleset)
	}
	var box struct{ WorkshopBottom, GameTop, EditorHeight, Width, PageWidth float64 }
	p.Eval(`(() => { const w = document.getElementById("workshop").getBoundingClientRect(); const g = document.querySelector(".container").getBoundingClientRect(); const e = document.getElementById("ws-editors").getBoundingClientRect(); return {WorkshopBottom: w.bottom, GameTop: g.top, EditorHeight: e.height, Width: w.width, PageWidth: document.documentElement.scrollWidth}; })()`, &box)
	if box.WorkshopBottom > box.GameTop || box.EditorHeight < 200 || box.PageWidth > 800 {
		t.Errorf("the narrow layout: %+v", box)
	}
	viewShot(t, p, "workshop_narrow")
}

// TestWorkshopFixtureNews: the template's case says, once the template's
// code is replaced, that it was recorded for other code, at the one line of
// its failing assertion, and points to Record a case; export and share go
// ahead but name the fixtures that fail, or say that they have not run on
// the files as they are.
func TestWorkshopFixtureNews(t *testing.T) {
	b := browser(t)
	p := newWorkshopMod(t, b, webtest.Serve(t, nil), "entropy")
	dir := t.TempDir()
	p.Run(cdpbrowser.SetDownloadBehavior(cdpbrowser.SetDownloadBehaviorBehaviorAllow).WithDownloadPath(dir))
	status := func() string {
		var kind string
		p.Eval(`document.getElementById("ws-status").dataset.kind`, &kind)
		return kind + ": " + p.Text("#ws-status")
	}
	export := func(want string) {
		t.Helper()
		os.Remove(filepath.Join(dir, "entropy.zip"))
		p.Click("#ws-export")
		waitFile(t, filepath.Join(dir, "entropy.zip"))
		if got := status(); got != want {
			t.Errorf("after export:\n%s\nwant\n%s", got, want)
		}
	}
	export("warning: Exported entropy.zip, but its fixtures have not been run: Run fixtures first (Ctrl-Enter). Install it with 2048 mod install entropy.zip")

	// The template's code replaced: its case fails, saying why, at the
	// line of its Legal: assertion; the case any mod keeps passes.
	setFile(p, "main.lua", "game.on(\"tick\", function(ev) end)\n")
	var cases string
	p.Eval(`window.mod2048Workshop.editor("entropy.cases").view.state.doc.toString()`, &cases)
	legal := 1 + strings.Count(cases[:strings.Index(cases, "Legal: none")], "\n")
	p.Click("#ws-run")
	p.WaitFor(`document.getElementById("ws-summary").textContent !== ""`, waitLong)
	if got := p.Text("#ws-summary"); got != "1 passed, 1 failed" {
		t.Fatalf("the fixtures: %q\n%s", got, p.Text("#ws-fixtures"))
	}
	at := fmt.Sprintf("entropy.cases:%d", legal)
	fail := p.Text("#ws-fixtures .ws-case.fail")
	for _, want := range []string{
		"✗ " + at + " ENTROPY-TEMPLATE The template's turn limit",
		"step 3 (Move: Left): Legal: expected none, actual Right Up Down",
		"This case was recorded for other code: main.lua has changed since. If the change is meant, play the mod as it is now, Record a case (or f on the game), and delete this one.",
	} {
		if !strings.Contains(fail, want) {
			t.Errorf("the failed case does not say %q:\n%s", want, fail)
		}
	}
	// Its link goes to that line, marked.
	p.Click("#ws-fixtures .ws-case.fail .ws-at")
	p.WaitFor(`document.querySelector('.ws-tab[aria-selected="true"]').textContent === "entropy.cases"`, waitLong)
	var cursor int
	p.Eval(`(() => { const s = window.mod2048Workshop.editor("entropy.cases").view.state; return s.doc.lineAt(s.selection.main.head).number; })()`, &cursor)
	if lines := lintLines(p, "entropy.cases", "error"); cursor != legal || !slices.Equal(lines, []int{legal}) {
		t.Errorf("the link goes to line %d, and entropy.cases marks lines %v, want %d", cursor, lines, legal)
	}
	viewShot(t, p, "workshop_stale")

	export(fmt.Sprintf("warning: Exported entropy.zip, but 1 fixture fails: %s (ENTROPY-TEMPLATE, recorded for other code). Install it with 2048 mod install entropy.zip", at))
	p.Click("#ws-share")
	p.WaitFor(`document.getElementById("ws-share-link").value.includes("#share=")`, waitLong)
	if got, want := status(), fmt.Sprintf("warning: The link holds entropy, but 1 fixture fails: %s (ENTROPY-TEMPLATE, recorded for other code).", at); got != want {
		t.Errorf("after share:\n%s\nwant\n%s", got, want)
	}
	if note := p.Text("#ws-share-note"); !strings.Contains(note, ".luals/mod2048.lua is left out: it is the mod API's, and comes back when the link opens") {
		t.Errorf("the share note does not say what the link leaves out: %q", note)
	}
	p.Click("#ws-share-hide")

	// An edit since the run: export says the fixtures have not run on it.
	setFile(p, "main.lua", "game.on(\"tick\", function(ev) end)\n-- edited\n")
	export("warning: Exported entropy.zip, but its fixtures have not run since the last edit: Run fixtures first (Ctrl-Enter). Install it with 2048 mod install entropy.zip")

	// The note's Record a case records the game as it is now, for this
	// code; with the template's case deleted, all pass, and export says
	// nothing more.
	p.Click("#ws-run")
	p.WaitFor(`!!document.querySelector("#ws-fixtures .ws-record-again")`, waitLong)
	p.Click("#game")
	playUntil(t, p, "false", 4)
	p.Click("#ws-fixtures .ws-record-again")
	p.WaitFor(`document.getElementById("ws-status").textContent.startsWith("Recorded ENTROPY-2 in entropy.cases")`, waitLong)
	p.Eval(`window.mod2048Workshop.editor("entropy.cases").view.state.doc.toString()`, &cases)
	i, j := strings.Index(cases, "# The template's example code"), strings.Index(cases, "Case: ENTROPY-2")
	if i < 0 || j < i {
		t.Fatalf("the recorded case is not after the template's:\n%s", cases)
	}
	setFile(p, "entropy.cases", cases[:i]+cases[j:])
	p.Click("#ws-run")
	p.WaitFor(`document.getElementById("ws-summary").textContent === "2 passed, 0 failed"`, waitLong)
	export("ok: Exported entropy.zip: install it with 2048 mod install entropy.zip")
	if logs := p.Logs(); len(logs) > 0 {
		t.Errorf("the page logged errors: %v", logs)
	}
}
