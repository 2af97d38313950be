package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/scripting/session/replay"
)

// TestReplayCheckRefusesTampered: `replay --check` refuses a replay whose
// carried files its own hash disowns (exit 1, nothing run), and a replay
// that carries no files of a mod unless --mod names its folder, where a
// difference is the warning it was.
func TestReplayCheckRefusesTampered(t *testing.T) {
	dir := t.TempDir()
	mod := filepath.Join(dir, "bomb")
	if err := os.CopyFS(mod, os.DirFS(filepath.Join("..", "..", "mods", "bomb"))); err != nil {
		t.Fatal(err)
	}
	_, cfg := testSession(t, dir, "--seed", "3", "--mod", mod, "--record", filepath.Join(dir, "r.replay"))
	sc := openScreen(t, cfg, 80, 24)
	sc.press("Left", "Up", "Right", "Down")

	f, err := replay.Read(filepath.Join(dir, "r.replay"))
	if err != nil {
		t.Fatal(err)
	}
	f.Mods[0].Files["main.lua"] += "\n-- edited\n"
	if err := f.WriteFile(filepath.Join(dir, "tampered.replay")); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run2048(t, dir, "replay", "--check", "tampered.replay")
	if code != 1 || !strings.Contains(errOut, "the replay is damaged") || strings.Contains(out, "reproduces") {
		t.Errorf("a tampered replay: exit %d\n%s%s", code, out, errOut)
	}

	f.Mods[0].Files = nil
	if err := f.WriteFile(filepath.Join(dir, "sourceless.replay")); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = run2048(t, dir, "replay", "--check", "sourceless.replay")
	if code != 1 || !strings.Contains(errOut, "carries no files of mod bomb") {
		t.Errorf("a replay without files, no --mod: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = run2048(t, dir, "replay", "--check", "--mod", mod, "sourceless.replay")
	if code != 0 || !strings.Contains(out, "reproduces") || strings.Contains(errOut, "warning") {
		t.Errorf("a replay without files, --mod: exit %d\n%s%s", code, out, errOut)
	}
}
