package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
	"github.com/mod2048/mod2048/scripting/session/replay"
)

// lowFailsafe sets the commands' mods' limits to budgets no loop spends
// and a failsafe of a quarter of a second, until the test ends: a handler
// that loops for ever is then stopped by the wall clock on any machine.
func lowFailsafe(t *testing.T) scripting.Limits {
	old := modLimits
	t.Cleanup(func() { modLimits = old })
	modLimits = scripting.DefaultLimits()
	modLimits.HandlerInstructions, modLimits.TurnInstructions, modLimits.LoadInstructions = 1<<62, 1<<62, 1<<62
	modLimits.GameTurnInstructions = 0 // no game-wide share either
	modLimits.FailsafeTime = 250 * time.Millisecond
	return modLimits
}

// looper is a mod whose tick handler loops for ever on turn n.
func looper(n string) string {
	return `game.on("tick", function(e) storage.n = (storage.n or 0) + 1 if e.turn == ` + n + ` then while true do end end end)`
}

const costModelFailed = "mod hog: the sandbox's cost model failed: tick (main.lua:1) ran for more than 250ms on fewer instructions than its budget"

// TestCostModelSim: `2048 sim` whose mod the failsafe stops exits 1 with
// the cost-model error, and writes no table, no JSON and no CSV.
func TestCostModelSim(t *testing.T) {
	lowFailsafe(t)
	hog := writeMod(t, "hog", looper("3"))
	dir := t.TempDir()
	js, csv := filepath.Join(dir, "run.json"), filepath.Join(dir, "run.csv")
	var out, errOut bytes.Buffer
	code := run([]string{"sim", "run", "--games", "4", "--policy", "random", "--jobs", "2", "--mod", hog, "--json", js, "--csv", csv}, &out, &errOut)
	if code != 1 || !strings.Contains(errOut.String(), costModelFailed) || !strings.Contains(errOut.String(), "please report this mod") {
		t.Fatalf("exit %d, want 1 and the cost-model error:\n%s%s", code, out.String(), errOut.String())
	}
	if strings.Contains(out.String(), "hog") {
		t.Errorf("a table was written:\n%s", out.String())
	}
	for _, f := range []string{js, csv} {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Errorf("%s was written (%v)", f, err)
		}
	}
}

// TestCostModelModCheck: `2048 mod check` of a mod the failsafe stops
// fails with the cost-model error: in its soak, or in its loading.
func TestCostModelModCheck(t *testing.T) {
	lowFailsafe(t)
	for _, tc := range []struct{ src, want string }{
		{looper("3"), "soak classic: FAIL: game 0 (seed 16490336266968443936): " + costModelFailed},
		{"while true do end", "load: FAIL: mod hog: the sandbox's cost model failed: load (main.lua:1) ran for more than 250ms"},
	} {
		var out, errOut bytes.Buffer
		code := run([]string{"mod", "check", "--games", "2", "--moves", "10", writeMod(t, "hog", tc.src)}, &out, &errOut)
		if code != 1 || !strings.Contains(out.String(), tc.want) {
			t.Errorf("exit %d, want 1 and %q:\n%s%s", code, tc.want, out.String(), errOut.String())
		}
		if strings.Contains(out.String(), "soak cellular") {
			t.Errorf("the check went on after the error:\n%s", out.String())
		}
	}
}

// TestCostModelReplay: `2048 replay --check` that the failsafe stops exits
// 1 with the cost-model error, not as a replay that does not reproduce;
// the failsafe stop a replay recorded in play plays back as recorded.
func TestCostModelReplay(t *testing.T) {
	limits := lowFailsafe(t)
	dir := t.TempDir()
	c, err := config.Build(config.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	hog := writeMod(t, "hog", looper("3"))
	m, err := mod.Load(hog)
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.New(session.Setup{Config: c, Mods: []*mod.Mod{m}, Limits: limits}, session.Start{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Record(); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if _, err := s.Move(s.Legal().List()[0]); err != nil {
			t.Fatal(err)
		}
	}
	f, err := replay.New(s, replay.Meta{Program: "test"})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "game.replay")
	if err := f.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"replay", "--check", path}, &out, &errOut); code != 0 {
		t.Fatalf("the recorded failsafe stop: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	out.Reset()
	errOut.Reset()
	code := run([]string{"replay", "--check", "--mod", writeMod(t, "hog", looper("2")), path}, &out, &errOut)
	if code != 1 || !strings.Contains(errOut.String(), "2048 replay: "+costModelFailed) || strings.Contains(errOut.String(), "does not reproduce") {
		t.Errorf("exit %d, want 1 and the cost-model error:\n%s%s", code, out.String(), errOut.String())
	}
}
