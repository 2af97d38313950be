package tui

import (
	"errors"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"github.com/mod2048/mod2048/cellular"
	"github.com/mod2048/mod2048/cmd/2048/internal/termtext"
	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/session"
)

func TestTileText(t *testing.T) {
	tests := []struct {
		level, width int
		want         string
	}{
		{1, 5, "2"},
		{11, 5, "2048"},
		{16, 5, "65536"},
		{17, 5, "131k"},
		{17, 6, "131072"},
		{20, 5, "1048k"},
		{30, 5, "1073M"},
		{39, 5, "549G"},
		{40, 5, "2^40"},
		{70, 5, "2^70"},
		{320, 5, "2^320"},
		{17, 3, "^17"},
		{11, 3, "2k"},
		{14, 3, "16k"},
		{20, 3, "1M"},
		{200, 3, "^2…"},
		{11, 1, "…"},
	}
	for _, tt := range tests {
		if got := TileText(tt.level, tt.width); got != tt.want {
			t.Errorf("TileText(%d, %d) = %q, want %q", tt.level, tt.width, got, tt.want)
		}
	}
}

func TestCellularText(t *testing.T) {
	s, err := cellularSettings()
	if err != nil {
		t.Fatal(err)
	}
	r, err := cellular.New(s)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		cell  string
		width int
		want  string
	}{
		{".", 5, ""},
		{"a3", 5, "a3"},
		{"d2", 5, "d2"},
		{"a1/2", 5, "a1/2"},
		{"a1/2+C", 5, "a1+C"},
		{"a1/2+C", 3, "a1"},
		{"d3+C", 3, "d3"},
		{"C", 3, "C"},
		{"B2", 3, "B2"},
		{"b", 3, "b"},
		{"a7", 1, "7"},
	}
	for _, tt := range tests {
		c, err := r.ParseCell(tt.cell)
		if err != nil {
			t.Fatal(err)
		}
		if got := CellularText(r, c, tt.width); got != tt.want {
			t.Errorf("CellularText(%s, %d) = %q, want %q", tt.cell, tt.width, got, tt.want)
		}
	}
}

func cellularSettings() (cellular.Settings, error) {
	s := cellular.Settings{Width: 6, Height: 6, ECap: 8, InitialCells: 8, SpawnCells: 1, SpawnAlive: 1, SpawnEvery: 1, StopOnWin: true, ExtinctionLoses: true, UndoLimit: 100}
	s.Catalyst.Doubling = cellular.DoubleAfterMerge
	s.Score.Unstable = 1
	s.Life.Enabled = true
	s.Dormancy.Ticks = 3
	s.Colony = cellular.Colony{Bonus: 1, MinSize: 4}
	s.Blight.Charges = 1
	s.Goal.PerCell, s.Goal.Hold = 0.5, 1
	return s, s.Validate()
}

func TestWrap(t *testing.T) {
	got := wrap("the quick brown fox jumps over the lazy dog", 10)
	want := []string{"the quick", "brown fox", "jumps over", "the lazy", "dog"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("wrap: %q", got)
	}
	if got := wrap("abcdefghij", 4); strings.Join(got, "|") != "abcd|efgh|ij" {
		t.Errorf("wrap of a long word: %q", got)
	}
}

// TestWrapKeepsAll: wrap loses nothing: a word longer than a line goes on
// over the next lines, by columns (a wide character takes two), every line
// of a message is kept, and a character that put shows as an escape
// (\u202e) is measured as the escape, so that no line is cut when drawn.
func TestWrapKeepsAll(t *testing.T) {
	tests := []struct {
		name, text string
		width      int
		want       []string
	}{
		{"words", "the quick brown fox", 9, []string{"the quick", "brown fox"}},
		{"long word", "abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"long word after words", "N1 ABxxxxxxCD-ok", 6, []string{"N1", "ABxxxx", "xxCD-o", "k"}},
		{"long word, then words", "ABCDEFG hi there", 5, []string{"ABCDE", "FG hi", "there"}},
		{"lines", "one two\nthree four five\n\nsix", 9, []string{"one two", "three", "four five", "", "six"}},
		{"long word in a line of several", "first\nAAAAAAAAAA tail\nlast", 4, []string{"firs", "t", "AAAA", "AAAA", "AA", "tail", "last"}},
		{"CRLF", "one\r\ntwo", 10, []string{"one", "two"}},
		{"tab", "a\tb", 10, []string{"a b"}},
		{"wide runes", "日本語の文字", 5, []string{"日本", "語の", "文字"}},
		{"wide rune after a narrow one", "a日本", 2, []string{"a", "日", "本"}},
		{"wide words", "日本 語の 文字", 5, []string{"日本", "語の", "文字"}},
		{"combining marks", "e\u0301e\u0301e\u0301", 2, []string{"e\u0301e\u0301", "e\u0301"}},
		{"right-to-left override", "CD-\u202e-ok", 8, []string{`CD-\u202`, `e-ok`}},
		{"override at a line's end", "N1 ABCDEF\u202e-ok", 8, []string{"N1", `ABCDEF\u`, `202e-ok`}},
		{"escape", "x \x1b[2J", 10, []string{`x \x1b[2J`}},
		{"not UTF-8", "a\xffb", 4, []string{`a\xf`, `fb`}},
	}
	for _, tt := range tests {
		got := wrap(tt.text, tt.width)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
			t.Errorf("%s: wrap(%q, %d) = %q, want %q", tt.name, tt.text, tt.width, got, tt.want)
		}
		for _, l := range got {
			// As put draws it: no wider than the line.
			if w := uniseg.StringWidth(termtext.Printable(l)); w > tt.width {
				t.Errorf("%s: line %q is %d columns wide when drawn, over %d", tt.name, l, w, tt.width)
			}
		}
	}
}

func TestLayout(t *testing.T) {
	tests := []struct {
		sw, sh, cols, rows int
		want               geom
		fits               bool
	}{
		{80, 24, 4, 4, geom{7, 3}, true},
		{80, 20, 4, 4, geom{7, 1}, true},
		{30, 14, 4, 4, geom{5, 1}, true},
		{20, 10, 4, 4, geom{5, 1}, false},
		{80, 24, 6, 6, geom{7, 1}, true},
	}
	for _, tt := range tests {
		g, ok := layout(tt.sw, tt.sh, tt.cols, tt.rows, 0)
		if g != tt.want || ok != tt.fits {
			t.Errorf("layout(%d×%d, %d×%d) = %v %v, want %v %v", tt.sw, tt.sh, tt.cols, tt.rows, g, ok, tt.want, tt.fits)
		}
	}
	if w, h := MinSize(4, 4, 0); w != 25 || h != 13 {
		t.Errorf("MinSize(4, 4, 0) = %d×%d", w, h)
	}
	// Cellular's goal line takes a row more: 6×6 at its largest cells
	// needs 30 rows.
	if g, ok := layout(80, 29, 6, 6, 1); g != (geom{7, 1}) || !ok {
		t.Errorf("layout(80×29, 6×6, a goal line) = %v %v, want the smaller cells", g, ok)
	}
	if g, ok := layout(80, 30, 6, 6, 1); g != (geom{7, 3}) || !ok {
		t.Errorf("layout(80×30, 6×6, a goal line) = %v %v, want the largest cells", g, ok)
	}
}

// TestPalette checks the original game's colors and the text on them.
func TestPalette(t *testing.T) {
	th := newTheme(ColorRGB)
	check := func(level int, bg, fg int32) {
		t.Helper()
		f, b, attr := th.tile(level).Decompose()
		if b != tcell.NewHexColor(bg) || f != tcell.NewHexColor(fg) || attr&tcell.AttrBold == 0 {
			t.Errorf("tile 2^%d: fg %v bg %v attr %v", level, f, b, attr)
		}
	}
	check(1, 0xeee4da, 0x776e65)
	check(2, 0xede0c8, 0x776e65)
	check(3, 0xf2b179, 0xf9f6f2)
	check(11, 0xedc22e, 0xf9f6f2)
	check(12, 0x3c3a32, 0xf9f6f2)
	check(17, 0x3c3a32, 0xf9f6f2)
	for _, mode := range []ColorMode{Color8, Color16} {
		th := newTheme(mode)
		for level := 1; level <= 70; level++ {
			f, b, _ := th.tile(level).Decompose()
			if f == b || !f.Valid() || !b.Valid() {
				t.Errorf("mode %v, tile 2^%d: fg %v on bg %v", mode, level, f, b)
			}
			if mode == Color8 && (f > tcell.ColorSilver && f != tcell.ColorWhite || b > tcell.ColorSilver) {
				t.Errorf("mode 8, tile 2^%d uses a color beyond the 8: %v on %v", level, f, b)
			}
		}
	}
	f, b, attr := newTheme(ColorNone).tile(5).Decompose()
	if f != tcell.ColorDefault || b != tcell.ColorDefault || attr&tcell.AttrReverse == 0 {
		t.Errorf("no color: tile %v %v %v", f, b, attr)
	}
}

func TestDetectColors(t *testing.T) {
	s := tcell.NewSimulationScreen("UTF-8")
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	defer s.Fini()
	t.Setenv("NO_COLOR", "")
	if m := detectColors(ColorAuto, s); m != ColorRGB {
		t.Errorf("256 colors: %v", m)
	}
	t.Setenv("NO_COLOR", "1")
	if m := detectColors(ColorAuto, s); m != ColorNone {
		t.Errorf("NO_COLOR: %v", m)
	}
	if m := detectColors(Color16, s); m != Color16 {
		t.Errorf("asked for 16: %v", m)
	}
}

// classicSession starts a classic game of the classic preset with seed,
// on board when it is not nil.
func classicSession(tb testing.TB, seed uint64, board *engine.Board) *session.Session {
	tb.Helper()
	c, err := config.Default("classic")
	if err != nil {
		tb.Fatal(err)
	}
	s, err := session.New(session.Setup{Config: c}, session.Start{Seed: seed, Board: board})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(s.Close)
	return s
}

// benchGame is a classic game well under way, on a board with big tiles.
func benchGame(b *testing.B) *session.Session {
	board, err := engine.ParseRows(engine.NewClassic(), []string{
		"2 4 8 16",
		"32 64 128 256",
		"512 1024 0 4096",
		"131072 0 2 2",
	}, 4, 4)
	if err != nil {
		b.Fatal(err)
	}
	return classicSession(b, 1, &board)
}

// BenchmarkDrawFrame draws one whole frame of a classic game on an 80×24
// screen, as every key does: the frame and tcell's Show.
func BenchmarkDrawFrame(b *testing.B) {
	s := tcell.NewSimulationScreen("UTF-8")
	if err := s.Init(); err != nil {
		b.Fatal(err)
	}
	defer s.Fini()
	s.SetSize(80, 24)
	a, err := New(s, Config{Ruleset: "classic", Difficulty: "classic", Session: benchGame(b), Colors: ColorRGB})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a.Draw()
	}
}

// panicStore panics on the first save, to check that Run restores the
// terminal on a panic.
type panicStore struct{}

func (panicStore) Save([]byte) error                        { panic("disk on fire") }
func (panicStore) Best(engine.Rules) (engine.Score, error)  { return engine.Score{}, nil }
func (panicStore) SetBest(engine.Rules, engine.Score) error { return nil }

// shownScreen is a simulation screen that says when it first shows a
// frame.
type shownScreen struct {
	tcell.SimulationScreen
	once  sync.Once
	shown chan struct{}
}

func (s *shownScreen) Show() {
	s.SimulationScreen.Show()
	s.once.Do(func() { close(s.shown) })
}

// runScreen starts Run on a simulation screen and returns once the first
// frame is shown; done receives Run's end (its error, or its panic).
func runScreen(t *testing.T, cfg Config) (tcell.SimulationScreen, chan any) {
	t.Helper()
	s := &shownScreen{SimulationScreen: tcell.NewSimulationScreen("UTF-8"), shown: make(chan struct{})}
	done := make(chan any, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- r
			}
		}()
		done <- Run(s, cfg)
	}()
	select {
	case <-s.shown:
	case r := <-done:
		t.Fatalf("Run ended before drawing: %v", r)
	case <-time.After(5 * time.Second):
		t.Fatal("Run drew nothing")
	}
	return s.SimulationScreen, done
}

func testGame(t *testing.T) *session.Session { return classicSession(t, 1, nil) }

// finished reports whether Fini ran on the simulation screen (it empties
// the screen).
func finished(s tcell.SimulationScreen) bool {
	w, h := s.Size()
	return w == 0 && h == 0
}

func TestRunQuits(t *testing.T) {
	s, done := runScreen(t, Config{Ruleset: "classic", Difficulty: "classic", Session: testGame(t)})
	s.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
	select {
	case r := <-done:
		if r != nil {
			t.Fatalf("Run: %v", r)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("q did not end Run")
	}
	if !finished(s) {
		t.Error("the screen was not restored")
	}
}

func TestRunRestoresOnPanic(t *testing.T) {
	s, done := runScreen(t, Config{Ruleset: "classic", Difficulty: "classic", Session: testGame(t), Store: panicStore{}})
	s.InjectKey(tcell.KeyLeft, 0, tcell.ModNone)
	s.InjectKey(tcell.KeyRight, 0, tcell.ModNone)
	select {
	case r := <-done:
		if r != "disk on fire" {
			t.Fatalf("Run ended with %v, want the panic", r)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not end")
	}
	if !finished(s) {
		t.Error("the screen was not restored before the panic went on")
	}
}

// fullDisk is a store whose saves fail.
type fullDisk struct{}

func (fullDisk) Save([]byte) error {
	return &os.PathError{Op: "write", Path: "/state/.x.json.tmp-1", Err: syscall.ENOSPC}
}
func (fullDisk) Best(engine.Rules) (engine.Score, error)  { return engine.Score{}, nil }
func (fullDisk) SetBest(engine.Rules, engine.Score) error { return nil }

// TestRunQuitUnsaved: quitting with the game not saved (q, then y) ends
// Run with a *NotSavedError, for the exit status; the terminal is restored.
func TestRunQuitUnsaved(t *testing.T) {
	s, done := runScreen(t, Config{Ruleset: "classic", Difficulty: "classic", Session: testGame(t), Store: fullDisk{}})
	s.InjectKey(tcell.KeyLeft, 0, tcell.ModNone)
	s.InjectKey(tcell.KeyRight, 0, tcell.ModNone)
	s.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
	s.InjectKey(tcell.KeyRune, 'y', tcell.ModNone)
	select {
	case r := <-done:
		var ns *NotSavedError
		err, _ := r.(error)
		if !errors.As(err, &ns) || !errors.Is(err, syscall.ENOSPC) {
			t.Fatalf("Run ended with %v, want a *NotSavedError", r)
		}
		if want := "quit with the game not saved"; !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("q, y did not end Run")
	}
	if !finished(s) {
		t.Error("the screen was not restored")
	}
}

func TestReason(t *testing.T) {
	tests := []struct {
		err        error
		why, descr string
	}{
		{&os.PathError{Op: "open", Path: "/s/.a.json.tmp-1", Err: syscall.EACCES}, "permission denied", "permission denied (/s/.a.json.tmp-1)"},
		{&os.LinkError{Op: "rename", Old: "/s/.a.json.tmp-1", New: "/s/a.json", Err: syscall.EROFS}, "read-only file system", "read-only file system (/s/a.json)"},
		{errors.New("the save would have 9 bytes"), "the save would have 9 bytes", "the save would have 9 bytes"},
	}
	for _, tt := range tests {
		if got := reason(tt.err); got != tt.why {
			t.Errorf("reason(%v) = %q, want %q", tt.err, got, tt.why)
		}
		if got := describe(tt.err); got != tt.descr {
			t.Errorf("describe(%v) = %q, want %q", tt.err, got, tt.descr)
		}
	}
}
