package main

import (
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/cmd/internal/web/bridge"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/mod/install"
	"github.com/mod2048/mod2048/scripting/mod/modtest"
)

// TestHostileZipsBothFrontends: every hostile zip (modtest.Hostile: too
// many entries or files, a name twice, .., an absolute path, a link, zip
// bombs with true, lying and limit headers, a file over a file's limit,
// not a zip, ...) is refused by `2048 mod install` and by the browser
// game (a new game with the zipped mod, and the workshop's import) with
// the same error, mod.ReadZip's, naming the zip and the entry; and the
// install leaves nothing in the user's mod folder.
func TestHostileZipsBothFrontends(t *testing.T) {
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	dir := t.TempDir()
	for i, a := range modtest.Hostile() {
		path := filepath.Join(dir, strings.ReplaceAll(a.Name, " ", "-")+".zip")
		if err := os.WriteFile(path, a.Zip, 0o644); err != nil {
			t.Fatal(err)
		}
		want := path + ": " + a.Want

		_, err := install.Install(path, false, trialLoad)
		if err == nil || err.Error() != want {
			t.Errorf("%s: installMod: %v\nwant %s", a.Name, err, want)
		}
		if i%4 == 0 || strings.Contains(a.Name, "bomb") { // the binary too, for some
			_, errOut, code := run2048(t, dir, "mod", "install", path)
			if code != 1 || errOut != "2048 mod install: "+safe(errors.New(want))+"\n" {
				t.Errorf("%s: 2048 mod install: exit %d\n%s", a.Name, code, errOut)
			}
		}

		src := bridge.ModSource{Name: path, Zip: base64.StdEncoding.EncodeToString(a.Zip)}
		g := bridge.New().NewGame(bridge.Options{Mods: []bridge.ModSource{src}, Seed: "1"}, nil)
		if g.Error == nil || g.Error.Kind != bridge.KindMod || g.Error.Message != want {
			t.Errorf("%s: the browser's new game: %+v\nwant %s", a.Name, g.Error, want)
		}
		if u := bridge.UnpackMod(src); u.Error == nil || u.Error.Message != want || u.Files != nil {
			t.Errorf("%s: the workshop's import: %+v\nwant %s", a.Name, u.Error, want)
		}
	}
	entries, _ := os.ReadDir(filepath.Join(data, "2048", "mods"))
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), install.StagePrefix) {
			t.Errorf("a hostile zip installed %s", e.Name())
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "evil.lua")); err == nil {
		t.Error("a zip wrote outside its folder")
	}
}

// TestGoodZipBothFrontends: a zip of a mod in one folder, beside a
// __MACOSX folder, installs, and plays in the browser game, the same mod.
func TestGoodZipBothFrontends(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	z := zipOf(t, map[string]string{"m/mod.toml": modtest.Manifest, "m/main.lua": "", "m/lib/": "", "m/lib/a.lua": "return 1", "__MACOSX/m/._main.lua": "junk"})
	m, err := install.Install(z, false, trialLoad)
	if err != nil || m.ID() != "m" {
		t.Fatalf("installMod: %v, %v", m, err)
	}
	if _, err := os.Stat(filepath.Join(m.Dir, "lib", "a.lua")); err != nil {
		t.Errorf("lib/a.lua is not installed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(m.Dir), "__MACOSX")); err == nil {
		t.Error("__MACOSX was installed")
	}
	data, err := os.ReadFile(z)
	if err != nil {
		t.Fatal(err)
	}
	src := bridge.ModSource{Name: "m.zip", Zip: base64.StdEncoding.EncodeToString(data)}
	if g := bridge.New().NewGame(bridge.Options{Mods: []bridge.ModSource{src}, Seed: "1"}, nil); g.Error != nil {
		t.Errorf("the browser's new game: %+v", g.Error)
	}
	u := bridge.UnpackMod(src)
	if u.Error != nil || u.Name != "m" || len(u.Files) != 3 || u.Files["lib/a.lua"] != "return 1" {
		t.Errorf("the workshop's import: %+v", u)
	}
	if mod.MaxFiles != bridge.MaxModFiles || mod.MaxBytes != bridge.MaxModBytes {
		t.Error("the browser's limits are not a mod's")
	}
}

// TestModSetErrors: --mod-set's errors, now mod.ApplySettings's, read as
// they did, and so do the browser game's: a mod's refusal of a value is
// the same text in both.
func TestModSetErrors(t *testing.T) {
	freeze := filepath.Join("..", "..", "mods", "freeze")
	for _, tt := range []struct{ set, cli, page string }{
		{"freeze", `--mod-set "freeze": want MOD.KEY=VALUE`, `mod setting "freeze": want MOD.KEY=VALUE`},
		{"nope.turns=2", `--mod-set "nope.turns=2": no mod nope is loaded (load it with --mod DIR)`, `mod setting "nope.turns=2": no mod nope is loaded`},
		{"freeze.turns=0", `--mod-set "freeze.turns=0": mod freeze: setting turns: `, `mod freeze: setting turns: `},
	} {
		m, err := mod.Load(freeze)
		if err != nil {
			t.Fatal(err)
		}
		_, err = setMods([]*mod.Mod{m}, []string{tt.set})
		if err == nil || !strings.HasPrefix(err.Error(), tt.cli) {
			t.Errorf("--mod-set %s: %v, want %q", tt.set, err, tt.cli)
		}
		g := bridge.New().NewGame(bridge.Options{Mods: []bridge.ModSource{{Builtin: "freeze"}}, ModSets: []string{tt.set}, Seed: "1"}, nil)
		if g.Error == nil || g.Error.Kind != bridge.KindMod || g.Error.Key != tt.set || !strings.HasPrefix(g.Error.Message, tt.page) {
			t.Errorf("the page's %s: %+v, want %q", tt.set, g.Error, tt.page)
		}
		if want := strings.TrimPrefix(err.Error(), `--mod-set "`+tt.set+`": `); tt.page == tt.cli[len(`--mod-set "`+tt.set+`": `):] && (g.Error == nil || g.Error.Message != want) {
			t.Errorf("%s: the page says %q, the terminal %q", tt.set, g.Error.Message, err)
		}
	}
}
