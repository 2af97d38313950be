package scripting_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
)

// luaBytes writes b as a Lua string literal, every byte escaped.
func luaBytes(b []byte) string {
	var s strings.Builder
	s.WriteByte('"')
	for _, c := range b {
		fmt.Fprintf(&s, "\\%d", c)
	}
	s.WriteByte('"')
	return s.String()
}

// shown fails unless s is valid UTF-8 of at most n bytes with no control
// character but tab and newline: what the game's record and every frontend
// accept.
func shown(t tb, what, s string, n int) {
	t.Helper()
	if !utf8.ValidString(s) || len(s) > n {
		t.Fatalf("%s: %d bytes (at most %d), valid UTF-8 %v: %q", what, len(s), n, utf8.ValidString(s), s)
	}
	for _, r := range s {
		if (r < 0x20 && r != '\t' && r != '\n') || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			t.Fatalf("%s keeps the control %U: %q", what, r, s)
		}
	}
}

// reportShown checks each text of a report, and its Error.
func reportShown(t tb, r scripting.Report) {
	t.Helper()
	shown(t, "the message", r.Message, scripting.MaxMessage)
	shown(t, "the file", r.File, 256)
	shown(t, "the traceback", r.Traceback, 4096)
	shown(t, "the event", r.Event, engine.MaxFaultText)
	shown(t, "Error()", r.Error(), 2048)
}

// TestFaultTextAnyBytes: whatever bytes a mod raises, prints or shows (up
// to the longest string a mod may build), at load or in a handler of any
// event, the report, the log, the notices and the game's record are
// printable and within their limits, play goes on, the mod is disabled
// after FailLimit turns, and a save of the game loads again
// (engine.Unmarshal checks the faults).
func TestFaultTextAnyBytes(t *testing.T) {
	piece := rapid.OneOf(
		rapid.SliceOfN(rapid.Byte(), 0, 64),
		rapid.SampledFrom([][]byte{
			[]byte("\x01"), []byte("\x1b[2J"), []byte("\xff"), []byte("\xe2\x82"), []byte("é"), []byte("\u0085"),
			[]byte("main.lua:7: "), []byte("x.lua:1: "), []byte("table: 0xc000123456 "), []byte("callstack overflow"), []byte("\n"),
		}),
	)
	rapid.Check(t, func(rt *rapid.T) {
		var chunk []byte
		for range rapid.IntRange(1, 16).Draw(rt, "pieces") {
			chunk = append(chunk, piece.Draw(rt, "piece")...)
		}
		// Repeated up to a string of the most a mod may build.
		most := testLimits.MaxString / max(len(chunk), 1)
		rep := rapid.OneOf(rapid.IntRange(1, 4), rapid.IntRange(1, most)).Draw(rt, "rep")
		level := rapid.IntRange(0, 2).Draw(rt, "level")
		atLoad := rapid.IntRange(0, 5).Draw(rt, "atLoad") == 0
		event := rapid.SampledFrom([]string{"tick", "before_move", "spawn", "after_merge"}).Draw(rt, "event")
		s := fmt.Sprintf("local s = string.rep(%s, %d)\n", luaBytes(chunk), rep)
		src := s + fmt.Sprintf(`
local function raise() print(s); error(s, %d) end
if %v then raise() end
game.on(%q, function() raise() end)
`, level, atLoad, event)
		// What a mod shows: a notice of a failed attempt is dropped, so
		// another mod, which does not fail, shows it.
		shows := s + `game.on("tick", function() print(s); pcall(game.notify, s:sub(1, 200)) end)`
		mods := []*mod.Mod{writeModVersion(t, "hostile", "2", src), writeModVersion(t, "shows", "2", shows)}
		g := seededGame(rt, 7)
		h, err := scripting.NewHost(mods, g.Rules(), g.Options(), testLimits)
		if atLoad {
			var me *scripting.ModError
			if !errors.As(err, &me) {
				rt.Fatalf("a mod that fails at load: %v, want a *ModError", err)
			}
			reportShown(rt, me.Report)
			return
		}
		if err != nil {
			rt.Fatal(err)
		}
		defer h.Close()
		g.SetHooks(h)
		for turn := range scripting.FailLimit + 1 {
			res, err := h.Move(g, legal(rt, g, turn))
			if err != nil || !res.Changed {
				rt.Fatalf("turn %d: %+v, %v: play stopped", turn+1, res, err)
			}
			reports := h.TakeReports()
			if event != "after_merge" && turn < scripting.FailLimit && len(reports) != 1 {
				rt.Fatalf("turn %d: %d reports, want 1", turn+1, len(reports))
			}
			for _, r := range reports {
				reportShown(rt, r)
			}
		}
		if event != "after_merge" && !h.Disabled("hostile") {
			rt.Fatalf("the mod failed %d turns and is not disabled", scripting.FailLimit+1)
		}
		notices := h.TakeNotices()
		if first := strings.Repeat(string(chunk), rep); strings.TrimSpace(first[:min(len(first), 200)]) != "" && len(notices) == 0 {
			rt.Fatalf("no notice")
		}
		for _, n := range notices {
			shown(rt, "a notice", n.Text, scripting.MaxNotice)
		}
		for _, id := range []string{"hostile", "shows"} {
			for _, line := range h.Log(id) {
				shown(rt, "a log line", line, 1024)
			}
		}
		for _, f := range g.State().Faults {
			shown(rt, "the record's message", f.Message, scripting.MaxMessage)
		}
		data, err := g.Marshal()
		if err != nil {
			rt.Fatalf("save: %v", err)
		}
		back, err := engine.Unmarshal(data)
		if err != nil {
			rt.Fatalf("the save does not load: %v", err)
		}
		if got, want := back.State().Faults, g.State().Faults; fmt.Sprint(got) != fmt.Sprint(want) {
			rt.Fatalf("the save's faults %+v, want %+v", got, want)
		}
	})
}

// TestFaultTextIssue50: issue 50's mod, whose error is 600 control bytes,
// is reported with its message made printable and cut within
// MaxMessage; the game plays on, records the fault and saves.
func TestFaultTextIssue50(t *testing.T) {
	g := seededGame(t, 3)
	h := attach(t, g, luaMod(t, "ctl", `game.on("tick", function() error(string.rep("\1", 600), 0) end)`))
	move(t, h, g, legal(t, g, 0))
	r := h.TakeReports()
	if len(r) != 1 {
		t.Fatalf("reports %+v, want 1", r)
	}
	want := strings.Repeat("\uFFFD", (scripting.MaxMessage-len("…"))/len("\uFFFD")) + "…"
	if r[0].Message != want {
		t.Errorf("message %q (%d bytes), want %d U+FFFD and an ellipsis", r[0].Message, len(r[0].Message), len(want)/3)
	}
	if f := g.State().Faults; len(f) != 1 || f[0].Message != want {
		t.Errorf("the record %+v, want the message", f)
	}
	if _, err := engine.Unmarshal(must(g.Marshal())); err != nil {
		t.Errorf("the save does not load: %v", err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestModTextPrintable: a refusal's reason, a notice and a hazard's
// description of control bytes at their longest are made printable and
// kept within their limits.
func TestModTextPrintable(t *testing.T) {
	g := seededGame(t, 3)
	h := attach(t, g, writeModVersion(t, "ctl", "2", `
game.hazard{ name = "x", glyph = "x", description = string.rep("\27", 200) }
game.on("tick", function() game.notify(string.rep("\27", 200)) end)
game.on("before_move", function(e)
  if e.turn > 1 then return {refuse = string.rep("\155", 200)} end
end)
`))
	desc := h.Hazards()[0].Description
	shown(t, "the description", desc, 200)
	move(t, h, g, legal(t, g, 0))
	noReports(t, h)
	notices := h.TakeNotices()
	if len(notices) != 1 {
		t.Fatalf("notices %+v, want 1", notices)
	}
	shown(t, "the notice", notices[0].Text, scripting.MaxNotice)
	_, err := h.Move(g, legal(t, g, 1))
	var ref *engine.Refusal
	if !errors.As(err, &ref) {
		t.Fatalf("the second move: %v, want a refusal", err)
	}
	shown(t, "the refusal", ref.Reason, 64+len(": ")+200)
	if !strings.HasPrefix(ref.Reason, "ctl: \uFFFD") || !strings.HasSuffix(ref.Reason, "…") {
		t.Errorf("the refusal %q, want the mod's name, then U+FFFDs cut", ref.Reason)
	}
	for _, s := range []string{desc, notices[0].Text} {
		if !strings.HasPrefix(s, "\uFFFD") || !strings.HasSuffix(s, "…") {
			t.Errorf("%q: want U+FFFDs cut", s)
		}
	}
}
