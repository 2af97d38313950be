package bridge_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mod2048/mod2048/cmd/internal/web/bridge"
	"github.com/mod2048/mod2048/scripting"
)

// faultTextLua fails every tick with an error of control bytes and invalid
// UTF-8 (issue 50's 600 \1, and 1 MB), after showing the player the same
// bytes (a notice the failed attempt drops), and refuses Down with them.
const faultTextLua = `
game.hazard{ name = "x", glyph = "x", description = string.rep("\27", 200) }
game.on("before_move", function(e) if e.dir == "down" then return {refuse = string.rep("\155", 200)} end end)
game.on("tick", function(e)
  print(string.rep("\27[2J\255", 200000))
  if e.turn % 2 == 0 then error(string.rep("\1", 600), 0) end
  error(string.rep("\27[2J\255", 200000))
end)`

// printableText fails unless s is valid UTF-8 of at most n bytes with no
// control character but tab and newline.
func printableText(t *testing.T, what, s string, n int) {
	t.Helper()
	if !utf8.ValidString(s) || len(s) > n || strings.ContainsFunc(s, func(r rune) bool {
		return (r < 0x20 && r != '\t' && r != '\n') || r == 0x7f || (r >= 0x80 && r < 0xa0)
	}) {
		t.Errorf("%s: %d bytes (at most %d): %q", what, len(s), n, s)
	}
}

// TestFaultTextMod: the bridge plays on with a mod whose errors, refusal
// and description are control bytes: each move's reports are printable
// and within the report's limits, the mod is disabled after
// scripting.FailLimit turns, every view encodes to JSON, and the game
// saves and resumes.
func TestFaultTextMod(t *testing.T) {
	b := bridge.New()
	defer b.Close()
	o := bridge.Options{Mods: []bridge.ModSource{{Name: "mine", Files: map[string]string{"mine/mod.toml": ownManifest, "mine/main.lua": faultTextLua}}}, Seed: "1"}
	v := ok(t, b.NewGame(o, nil))
	if len(v.Hazards) != 1 {
		t.Fatalf("hazards %+v", v.Hazards)
	}
	printableText(t, "the description", v.Hazards[0].Description, 200)
	reports, disabled := 0, false
	for i := 0; i < 6; i++ {
		d := v.Legal[0]
		if d == "down" && len(v.Legal) > 1 {
			d = v.Legal[1]
		}
		r := b.Move(d)
		v = ok(t, r)
		if !v.Changed {
			t.Fatalf("move %d (%s) changed nothing: the mod stopped play", i+1, d)
		}
		for _, rep := range v.Reports {
			reports++
			disabled = disabled || rep.Disabled
			printableText(t, "a report's message", rep.Message, scripting.MaxMessage)
			printableText(t, "a report's text", rep.Text, 1024)
		}
		if _, err := json.Marshal(r); err != nil {
			t.Fatalf("the reply does not encode: %v", err)
		}
	}
	if reports != scripting.FailLimit || !disabled {
		t.Errorf("%d reports, disabled %v: want %d and the mod disabled", reports, disabled, scripting.FailLimit)
	}
	save := b.Save().Save
	if save == "" {
		t.Fatal("empty save")
	}
	after := ok(t, bridge.New().Resume(o, save, nil))
	if rowsOf(after, "0") != rowsOf(v, "0") || after.Score != v.Score {
		t.Errorf("resumed\n%s\nwant\n%s", rowsOf(after, "0"), rowsOf(v, "0"))
	}
}

// TestFaultTextRefusal: a refusal of control bytes reaches the page
// printable, within the mod's name and the reason's 200 bytes.
func TestFaultTextRefusal(t *testing.T) {
	b := bridge.New()
	defer b.Close()
	o := bridge.Options{Mods: []bridge.ModSource{{Name: "mine", Files: map[string]string{"mine/mod.toml": ownManifest, "mine/main.lua": faultTextLua}}}, Seed: "1"}
	o.Board, o.Spawns, o.Scripted = []string{"2 0 0 0", "0 0 0 0", "0 0 0 0", "0 0 0 0"}, []string{"3,3,2"}, true
	v := ok(t, b.NewGame(o, nil))
	for _, d := range v.Legal {
		if d == "down" {
			t.Fatalf("legal %v has the refused direction", v.Legal)
		}
	}
	v = ok(t, b.Move("down"))
	if v.Changed || !strings.HasPrefix(v.Notice, "Move refused: Mine: \uFFFD") {
		t.Fatalf("refused move: changed %v notice %q", v.Changed, v.Notice)
	}
	printableText(t, "the refusal", v.Notice, len("Move refused: ")+64+len(": ")+200)
}
