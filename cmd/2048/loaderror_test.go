package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/cmd/2048/internal/saves"
)

// brokenMain is a mod's entry file whose function of line 4 lacks its
// end: the parser meets the local of line 11, at column 3.
const brokenMain = `-- entropy: the board forgets a little each turn
local forgotten = 0

local function forget(ev)
  if ev.moved then
    forgotten = forgotten + 1
  end
  return forgotten

-- the end of forget is missing
  local after = forgotten
end

game.on("turn_end", forget)
`

// TestLoadErrorsAsTheUserGaveThem: every front end that loads a mod from
// a folder (play --mod DIR, mod check DIR, test DIR) names a file that
// does not compile by the folder as it was typed, at the line and column
// where the token the parser stopped at starts, with Lua 5.1's message
// for a block left open, in the same words.
func TestLoadErrorsAsTheUserGaveThem(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(saves.EnvDir, filepath.Join(dir, "state"))
	broken := filepath.Join(dir, "broken")
	files := map[string]string{
		"mod.toml": "id = \"entropy\"\nname = \"Entropy\"\nversion = \"1.0.0\"\napi_version = 2\n" +
			"description = \"Forgets.\"\nrulesets = [\"classic\"]\n",
		"main.lua":     brokenMain,
		"README.md":    "# Entropy\n",
		"broken.cases": "Case: B1 loads\nMods: .\nGiven:\n0 0 0 0\n0 0 0 0\n0 0 0 0\n2 0 0 2\nMove: Left\n",
	}
	if err := os.MkdirAll(broken, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(broken, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const want = "broken/main.lua:11:3: 'end' expected (to close 'function' at line 4) near 'local'"

	out, errOut, code := run2048(t, dir, "mod", "check", "broken")
	if code != 1 || !strings.Contains(out, "load: FAIL: "+want+"\n") {
		t.Errorf("2048 mod check broken: exit %d, want 1 and %q\n%s%s", code, want, out, errOut)
	}
	out, errOut, code = run2048(t, dir, "test", "broken")
	if code != 1 || !strings.Contains(out, "Mods: "+want+"\n") {
		t.Errorf("2048 test broken: exit %d, want 1 and %q\n%s%s", code, want, out, errOut)
	}
	out, errOut, code = run2048(t, dir, "play", "--mod", "broken")
	if code != 1 || errOut != "2048 play: "+want+"\n" {
		t.Errorf("2048 play --mod broken: exit %d, want 1 and %q\n%s%s", code, want, out, errOut)
	}

	// An end too many, in a folder named by its whole path.
	if err := os.WriteFile(filepath.Join(broken, "main.lua"), []byte("local function f()\n  return 1\nend\nend\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want2 := filepath.Join(dir, "broken", "main.lua") + ":4:1: '<eof>' expected near 'end'"
	out, errOut, code = run2048(t, dir, "mod", "check", filepath.Join(dir, "broken"))
	if code != 1 || !strings.Contains(out, "load: FAIL: "+want2+"\n") {
		t.Errorf("2048 mod check DIR: exit %d, want 1 and %q\n%s%s", code, want2, out, errOut)
	}
}
