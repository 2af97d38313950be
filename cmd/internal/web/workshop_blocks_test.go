package web_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/cmd/internal/web/webtest"
)

// TestWorkshopBlockLeftOpen: a file whose block is left open says so as
// the terminal does (the place where the parser stopped, the closer it
// wanted and the line the block opens at), and the editor marks both
// lines: the error's, and the opening one as its related place, which the
// Problems list links too. An end too many is '<eof>' expected, with no
// second mark; a fixed file clears both.
func TestWorkshopBlockLeftOpen(t *testing.T) {
	b := browser(t)
	p := newWorkshopMod(t, b, webtest.Serve(t, nil), "entropy")

	setFile(p, "main.lua", "-- entropy: the board forgets a little each turn\nlocal forgotten = 0\n\nlocal function forget(ev)\n"+
		"  if ev.moved then\n    forgotten = forgotten + 1\n  end\n  return forgotten\n\n-- the end of forget is missing\n"+
		"  local after = forgotten\nend\n\ngame.on(\"turn_end\", forget)\n")
	const want = "main.lua:11:3: 'end' expected (to close 'function' at line 4) near 'local'"
	if got := p.Text("#ws-status"); !strings.HasPrefix(got, want) {
		t.Errorf("the status: %q, want %q", got, want)
	}
	if got := uniq(lintLines(p, "main.lua", "error")); !slices.Equal(got, []int{11}) {
		t.Errorf("the error marks lines %v, want 11", got)
	}
	if got := uniq(lintLines(p, "main.lua", "info")); !slices.Equal(got, []int{4}) {
		t.Errorf("the opening line's mark is on lines %v, want 4", got)
	}
	if got := p.Text("#ws-problems"); !strings.Contains(got, "main.lua:11 'end' expected (to close 'function' at line 4) near 'local' (opened at main.lua:4)") {
		t.Errorf("the problems: %q, want the error at line 11, opened at line 4", got)
	}
	var links []string
	p.Eval(`[...document.querySelectorAll("#ws-problems .ws-problem .ws-at")].map((e) => e.textContent)`, &links)
	if !slices.Equal(links, []string{"main.lua:11", "main.lua:4"}) {
		t.Errorf("the problem's links: %q, want main.lua:11 and main.lua:4", links)
	}

	// An end too many: the file is done before it, and nothing opened.
	setFile(p, "main.lua", "local function forget(ev)\n  return 0\nend\nend\n")
	if got := p.Text("#ws-status"); !strings.HasPrefix(got, "main.lua:4:1: '<eof>' expected near 'end'") {
		t.Errorf("an end too many: %q", got)
	}
	if e, i := uniq(lintLines(p, "main.lua", "error")), lintLines(p, "main.lua", "info"); !slices.Equal(e, []int{4}) || len(i) != 0 {
		t.Errorf("an end too many marks lines %v, and %v as opening, want 4 and none", e, i)
	}

	// Fixed: no mark left.
	setFile(p, "main.lua", "local function forget(ev)\n  return 0\nend\n")
	if got := p.Text("#ws-status"); !strings.HasPrefix(got, "Running") {
		t.Errorf("the fixed file: %q", got)
	}
	if e, i := lintLines(p, "main.lua", "error"), lintLines(p, "main.lua", "info"); len(e)+len(i) != 0 {
		t.Errorf("the fixed file keeps marks at %v and %v", e, i)
	}
}

// uniq is lines sorted, each once (a line's mark may be drawn in pieces).
func uniq(lines []int) []int {
	slices.Sort(lines)
	return slices.Compact(lines)
}
