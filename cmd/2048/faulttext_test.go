package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// faultTextLua fails its tick handler with an error of control bytes and
// invalid UTF-8: issue 50's 600 \1 on even turns, 1 MB on odd ones.
const faultTextLua = `game.on("tick", function(ev)
  if ev.turn % 2 == 0 then error(string.rep("\1", 600), 0) end
  error(string.rep("\27[2J\255", 200000))
end)`

// TestPlayFaultText: the terminal plays on with a mod whose errors are
// control bytes: the status line shows the report, printable, the mod is
// disabled after three turns, the L view shows the reports, and the game,
// its faults in its record, saves and resumes.
func TestPlayFaultText(t *testing.T) {
	dir := t.TempDir()
	mod := writeMod(t, "ctl", faultTextLua)
	_, cfg := testSession(t, dir, "--mod", mod, "--seed", "2")
	sc := openScreen(t, cfg, 100, 30)
	for i := 0; sc.app.Session().State().Turn < 1 && i < 4; i++ {
		sc.press([]string{"Left", "Right", "Up", "Down"}[i])
	}
	sc.contains("mod ctl (main.lua:3): tick: \uFFFD[2J\uFFFD\uFFFD[2J")
	for i := 0; sc.app.Session().State().Turn < 5 && i < 40; i++ {
		sc.press([]string{"Left", "Up", "Right", "Down"}[i%4])
	}
	st := sc.app.Session().State()
	if st.Turn != 5 {
		t.Fatalf("the game stopped at turn %d:\n%s", st.Turn, sc.text())
	}
	if len(st.Faults) != 4 || !st.HookDisabled("ctl") {
		t.Errorf("the record %+v: want three errors and the disable", st.Faults)
	}
	if text := sc.text(); strings.ContainsAny(text, "\x01\x1b") {
		t.Errorf("the screen holds a control character:\n%q", text)
	}
	sc.press("L")
	sc.contains("Messages")
	sc.contains("(the mod is now disabled)")
	sc.press("L")
	board := boardOf(sc.text())
	sc.press("q")

	// The next start resumes the game, its record and all.
	_, cfg = testSession(t, dir, "--mod", mod)
	sc = openScreen(t, cfg, 100, 30)
	if cfg.Message != "" {
		t.Errorf("message %q", cfg.Message)
	}
	sameBoard(t, "resumed", boardOf(sc.text()), board)
	if got := sc.app.Session().State(); got.Turn != 5 || !got.HookDisabled("ctl") {
		t.Errorf("resumed at turn %d, disabled %v", got.Turn, got.HookDisabled("ctl"))
	}
}

// TestSimFaultText: `2048 sim` with a mod whose errors are control bytes
// plays its games and writes its report, the mod's errors counted.
func TestSimFaultText(t *testing.T) {
	mod := writeMod(t, "ctl", faultTextLua)
	js := filepath.Join(t.TempDir(), "run.json")
	var out, errOut bytes.Buffer
	if code := run([]string{"sim", "run", "--games", "2", "--policy", "random", "--mod", mod, "--json", js}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d:\n%s%s", code, out.String(), errOut.String())
	}
	data, err := os.ReadFile(js)
	if err != nil {
		t.Fatalf("no report: %v", err)
	}
	var rep struct {
		Entries []struct {
			Config string `json:"config"`
			Report struct {
				Mods []struct {
					Mod        string `json:"mod"`
					Errors     int    `json:"errors"`
					Disables   int    `json:"disables"`
					FirstError string `json:"first_error"`
				} `json:"mods"`
			} `json:"report"`
		} `json:"entries"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range rep.Entries {
		for _, m := range e.Report.Mods {
			found = true
			if m.Mod != "ctl" || m.Errors != 6 || m.Disables != 2 || !strings.HasPrefix(m.FirstError, "mod ctl (main.lua:3): tick: \uFFFD[2J") {
				t.Errorf("%s: the mod's counts %+v", e.Config, m)
			}
		}
	}
	if !found {
		t.Errorf("the report counts no mod:\n%s", data)
	}
	if strings.ContainsAny(out.String()+errOut.String(), "\x01\x1b") {
		t.Errorf("the output holds a control character:\n%q", out.String()+errOut.String())
	}
}
