package sim

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
)

// faultTextSrc fails every tick with an error of control bytes and
// invalid UTF-8: issue 50's 600 \1 on even turns, 1 MB on odd ones.
const faultTextSrc = `game.on("tick", function(ev)
  if ev.turn % 2 == 0 then error(string.rep("\1", 600), 0) end
  error(string.rep("\27[2J\255", 200000))
end)`

// TestFaultTextRun: a run with a mod whose errors are control bytes plays
// every game to its end and writes its report, the mod's errors and
// disables counted and its first error printable.
func TestFaultTextRun(t *testing.T) {
	o := options(t, "random", 3)
	o.Setup.Mods = []*mod.Mod{endsMod(t, "ctl", faultTextSrc)}
	results, err := Run(o)
	if err != nil {
		t.Fatalf("the run stopped: %v", err)
	}
	r := NewReport(header(o), results)
	if r.Games != 3 || len(r.Mods) != 1 {
		t.Fatalf("report of %d games, mods %+v", r.Games, r.Mods)
	}
	m := r.Mods[0]
	if m.Errors != 3*scripting.FailLimit || m.Disables != 3 {
		t.Errorf("the mod's %d errors and %d disables, want %d and 3", m.Errors, m.Disables, 3*scripting.FailLimit)
	}
	if !utf8.ValidString(m.FirstError) || len(m.FirstError) > MaxFirstError || strings.ContainsAny(m.FirstError, "\x01\x1b") ||
		!strings.Contains(m.FirstError, "\uFFFD") {
		t.Errorf("the first error %q: want printable U+FFFDs within %d bytes", m.FirstError, MaxFirstError)
	}
	data, err := r.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(data, &back); err != nil || back.Mods[0].FirstError != m.FirstError {
		t.Errorf("the report's JSON reads back %v, %+v", err, back.Mods)
	}
	var text bytes.Buffer
	if err := r.Text(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "ctl") {
		t.Errorf("the text does not name the mod:\n%s", text.String())
	}
}
