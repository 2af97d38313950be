package main

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/scripting/mod/install"
)

// zipOf writes a zip of the given entries (name → content; a name ending
// in @ is written as a symbolic link).
func zipOf(t *testing.T, entries map[string]string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mod.zip")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := zip.NewWriter(f)
	for name, content := range entries {
		h := &zip.FileHeader{Name: strings.TrimSuffix(name, "@"), Method: zip.Deflate}
		if strings.HasSuffix(name, "@") {
			h.SetMode(os.ModeSymlink | 0o777)
		}
		fw, err := w.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write([]byte(content))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path
}

func TestModInstallListCheck(t *testing.T) {
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	dir := t.TempDir()
	repoMods, _ := filepath.Abs(filepath.Join("..", "..", "mods"))

	out, _, code := run2048(t, dir, "mod", "list")
	if code != 0 || !strings.Contains(out, "no mod installed in "+filepath.Join(data, "2048", "mods")) {
		t.Errorf("mod list with none installed: exit %d\n%s", code, out)
	}
	// A folder.
	out, errOut, code := run2048(t, dir, "mod", "install", filepath.Join(repoMods, "freeze"))
	if code != 0 || !strings.Contains(out, "installed freeze 1.1.0 in ") {
		t.Fatalf("mod install DIR: exit %d\n%s%s", code, out, errOut)
	}
	// A zip, its files in one folder.
	manifest, _ := os.ReadFile(filepath.Join(repoMods, "one_way", "mod.toml"))
	main, _ := os.ReadFile(filepath.Join(repoMods, "one_way", "main.lua"))
	good := zipOf(t, map[string]string{"one_way/mod.toml": string(manifest), "one_way/main.lua": string(main)})
	if out, errOut, code = run2048(t, dir, "mod", "install", good); code != 0 {
		t.Fatalf("mod install ZIP: exit %d\n%s%s", code, out, errOut)
	}
	out, _, code = run2048(t, dir, "mod", "list")
	for _, want := range []string{"freeze 1.1.0  Freeze", "one_way 1.0.0  One Way", `setting direction = "down" (string)`, "setting interval = 4 (int, 1 to 100)", "depends on: none; conflicts with: none"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("mod list lacks %q:\n%s", want, out)
		}
	}
	// test takes an installed mod's id, as check does; an id that names
	// nothing lists the installed mods.
	out, errOut, code = run2048(t, dir, "test", "freeze")
	if code != 0 || !strings.Contains(out, "2 passed, 0 failed") {
		t.Errorf("test freeze: exit %d\n%s%s", code, out, errOut)
	}
	_, errOut, code = run2048(t, dir, "test", "frieze")
	if code != 1 || !strings.Contains(errOut, "no installed mod frieze in ") || !strings.Contains(errOut, "installed: freeze, one_way;") {
		t.Errorf("test of an id not installed: exit %d\n%s", code, errOut)
	}
	// --mod takes an installed mod's id.
	o, _, _ := parsePlay([]string{"--mod", "one_way", "--mod-set", "one_way.direction=left"}, nil)
	o.stateDir = filepath.Join(dir, "state")
	p, err := newPlayer(o)
	if err != nil || len(p.setup.Mods) != 1 || p.setup.Mods[0].Values["direction"] != "left" {
		t.Fatalf("--mod one_way: %v", err)
	}

	// Zips that would write outside the mod's folder, or hold a link, are
	// refused, and install nothing.
	for name, entries := range map[string]map[string]string{
		"dot-dot":  {"mod.toml": string(manifest), "../evil.lua": "x"},
		"absolute": {"mod.toml": string(manifest), "/tmp/evil.lua": "x"},
		"link":     {"mod.toml": string(manifest), "main.lua@": "/etc/passwd"},
	} {
		_, errOut, code := run2048(t, dir, "mod", "install", zipOf(t, entries))
		if code != 1 || !(strings.Contains(errOut, "would write outside the mod's folder") || strings.Contains(errOut, "is a link")) {
			t.Errorf("%s: exit %d\n%s", name, code, errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "evil.lua")); err == nil {
		t.Error("a zip wrote outside its folder")
	}

	// check: a good mod passes; one that errors fails, saying so.
	out, _, code = run2048(t, dir, "mod", "check", "--games", "2", "--moves", "30", "freeze")
	for _, want := range []string{"manifest: ok (freeze 1.1.0)", "load: ok (classic)", "fixtures: ok (2 passed)", "soak classic: ok: 2 games"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("mod check freeze: exit %d, lacks %q:\n%s", code, want, out)
		}
	}
	bad := filepath.Join(dir, "bad")
	os.MkdirAll(bad, 0o755)
	os.WriteFile(filepath.Join(bad, "mod.toml"), []byte("id = \"bad\"\nname = \"Bad\"\nversion = \"0.1.0\"\napi_version = 1\nrulesets = [\"classic\"]\n"), 0o644)
	os.WriteFile(filepath.Join(bad, "main.lua"), []byte(`game.on("tick", function(e) if e.turn % 5 == 0 then error("boom") end end)`), 0o644)
	out, _, code = run2048(t, dir, "mod", "check", "--games", "2", "--moves", "30", "bad")
	if code != 1 || !strings.Contains(out, "soak classic: FAIL") || !strings.Contains(out, "boom") || !strings.Contains(out, "fixtures: none") {
		t.Errorf("mod check bad: exit %d\n%s", code, out)
	}
}

// TestModCheckWarnsMissingReadme: mod check warns about a mod folder
// without a README.md (MODDING.md lists it as part of a mod), and the
// warning leaves the exit status of a mod that is otherwise fine at 0.
func TestModCheckWarnsMissingReadme(t *testing.T) {
	repoMods, _ := filepath.Abs(filepath.Join("..", "..", "mods"))
	dir := t.TempDir()
	mod := filepath.Join(dir, "freeze")
	if err := install.CopyDir(filepath.Join(repoMods, "freeze"), mod); err != nil {
		t.Fatal(err)
	}
	const warning = "readme: warning: no README.md in "
	out, errOut, code := run2048(t, dir, "mod", "check", "--games", "1", "--moves", "10", mod)
	if code != 0 || strings.Contains(out, "readme:") {
		t.Errorf("mod check with a README.md: exit %d, want 0 and no warning\n%s%s", code, out, errOut)
	}
	if err := os.Remove(filepath.Join(mod, "README.md")); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = run2048(t, dir, "mod", "check", "--games", "1", "--moves", "10", mod)
	if code != 0 || !strings.Contains(out, warning+mod) || !strings.Contains(out, "fixtures: ok") {
		t.Errorf("mod check without a README.md: exit %d, want 0 and %q\n%s%s", code, warning+mod, out, errOut)
	}
}

// TestModCheckEveryManifestError: mod check says every error of a
// manifest at once, each at its own line and column, an unknown key with
// the key it likely means, a setting's value at the value; a key defined
// twice at its own line and column, not the line before's end.
func TestModCheckEveryManifestError(t *testing.T) {
	dir := t.TempDir()
	write := func(name, manifest string) {
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, name, "mod.toml"), []byte(manifest), 0o644)
		os.WriteFile(filepath.Join(dir, name, "main.lua"), nil, 0o644)
	}
	write("typos", "id = \"typos\"\nname = \"T\"\nversoin = \"1.0.0\"\nversion = \"1\"\napi_version = 1\n\n[settings.every]\ntype = \"int\"\ndefault = \"ten\"\n")
	write("dup", "id = \"dup\"\nname = \"Dup\"\nversion = \"1.0.0\"\napi_version = 1\n\n# "+strings.Repeat("x", 65)+"\nname = \"Duplicate name\"\n")
	for _, tt := range []struct{ mod, want string }{
		{"typos", "manifest: FAIL: 2 errors\n" +
			"  typos/mod.toml:3:1: versoin: unknown key (did you mean \"version\"?)\n" +
			"  typos/mod.toml:9:11: settings.every.default: want an integer, got the string \"ten\"\n"},
		{"dup", "manifest: FAIL: dup/mod.toml:7:1: name: defined twice (first on line 2)\n"},
	} {
		out, errOut, code := run2048(t, dir, "mod", "check", tt.mod)
		if code != 1 || out != tt.want || errOut != "" {
			t.Errorf("mod check %s: exit %d\n%s\nwant\n%s%s", tt.mod, code, out, tt.want, errOut)
		}
	}
}
