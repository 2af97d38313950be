package mod_test

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/mod/modtest"
)

// TestReadZipHostile: every hostile zip (modtest.Hostile) is refused with
// an error that names the zip, and the entry at fault, before more than a
// mod's size is inflated: refusing a bomb takes little memory.
func TestReadZipHostile(t *testing.T) {
	for _, a := range modtest.Hostile() {
		var err error
		n := modtest.Allocated(func() { _, err = mod.ReadZip(a.Zip, "x.zip") })
		if want := "x.zip: " + a.Want; err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", a.Name, err, want)
		}
		if limit := uint64(len(a.Zip)) + 2*mod.MaxBytes; n > limit {
			t.Errorf("%s: refusing it allocated %d bytes, more than the zip and twice a mod's size", a.Name, n)
		}
	}
}

// TestReadZipRoot: a zip's mod is the folder that holds its manifest, at
// the top or one folder down; the folders beside it are left out, and
// the mod loads, named by the zip.
func TestReadZipRoot(t *testing.T) {
	for _, tt := range []struct {
		name  string
		files map[string]string
		root  string
		want  []string
	}{
		{"at the top", map[string]string{"mod.toml": modtest.Manifest, "main.lua": "", "lib/a.lua": ""}, ".", []string{"lib/a.lua", "main.lua", "mod.toml"}},
		{"a folder down", map[string]string{"m/": "", "m/mod.toml": modtest.Manifest, "m/main.lua": "", "__MACOSX/m/._main.lua": "junk", "notes.txt": ""}, "m", []string{"main.lua", "mod.toml"}},
	} {
		f, err := mod.ReadZip(modtest.Zip(tt.files), "x.zip")
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := slices.Sorted(maps.Keys(f.Files)); f.Root != tt.root || !slices.Equal(got, tt.want) {
			t.Errorf("%s: root %q, files %v; want %q, %v", tt.name, f.Root, got, tt.root, tt.want)
		}
		m, err := f.Load()
		if err != nil || m.ID() != "m" || m.Dir != "x.zip" {
			t.Errorf("%s: loaded %v, %v", tt.name, m, err)
		}
	}
}

// TestReadFolderLimits: a folder is held to a zip's limits, and a link
// in it is refused.
func TestReadFolderLimits(t *testing.T) {
	write := func(dir, name, content string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	good := t.TempDir()
	write(good, "mod.toml", modtest.Manifest)
	write(good, "lib/a.lua", "return 1")
	f, err := mod.ReadFolder(good)
	if err != nil || f.Root != "." || len(f.Files) != 2 || string(f.Files["lib/a.lua"]) != "return 1" {
		t.Fatalf("a good folder: %+v, %v", f, err)
	}

	many := t.TempDir()
	write(many, "mod.toml", modtest.Manifest)
	for i := range mod.MaxFiles {
		write(many, fmt.Sprintf("f%03d.lua", i), "")
	}
	if _, err := mod.ReadFolder(many); err == nil || err.Error() != fmt.Sprintf("%s: %d files, more than the %d a mod may have", many, mod.MaxFiles+1, mod.MaxFiles) {
		t.Errorf("too many files: %v", err)
	}

	folders := t.TempDir()
	for i := range mod.MaxEntries {
		if err := os.Mkdir(filepath.Join(folders, fmt.Sprintf("d%03d", i)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(folders, "zz/mod.toml", modtest.Manifest)
	if _, err := mod.ReadFolder(folders); err == nil || err.Error() != fmt.Sprintf("%s: more than the %d files and folders a mod may have", folders, mod.MaxEntries) {
		t.Errorf("too many folders: %v", err)
	}

	big := t.TempDir()
	write(big, "mod.toml", modtest.Manifest)
	if err := os.WriteFile(filepath.Join(big, "a.bin"), make([]byte, mod.MaxBytes/2), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(big, "b.bin"), make([]byte, mod.MaxBytes/2), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := mod.ReadFolder(big); err == nil || err.Error() != big+": its files have more than the 16 MiB a mod may have" {
		t.Errorf("too many bytes: %v", err)
	}

	linked := t.TempDir()
	write(linked, "mod.toml", modtest.Manifest)
	if err := os.Symlink("/etc/passwd", filepath.Join(linked, "main.lua")); err != nil {
		t.Skip("no links here:", err)
	}
	if _, err := mod.ReadFolder(linked); err == nil || !strings.Contains(err.Error(), "main.lua is not a regular file or folder") {
		t.Errorf("a link: %v", err)
	}
}

// TestFolderFiles: files given by path (a folder a page picked) are held
// to a zip's limits, and the mod is the folder that holds the manifest.
func TestFolderFiles(t *testing.T) {
	f, err := mod.FolderFiles(map[string][]byte{"pick/mod.toml": []byte(modtest.Manifest), "pick/main.lua": nil}, "pick")
	if err != nil || f.Root != "pick" || len(f.Files) != 2 || f.Files["mod.toml"] == nil {
		t.Fatalf("a picked folder: %+v, %v", f, err)
	}
	for _, tt := range []struct {
		files map[string][]byte
		want  string
	}{
		{map[string][]byte{"mod.toml": nil, "../x.lua": nil}, `up: "../x.lua" is not a path inside the mod's folder`},
		{map[string][]byte{"mod.toml": nil, "main.lua": make([]byte, mod.MaxFileBytes+1)}, `up: entry "main.lua" has more than the 16 MiB a file of a mod may have`},
		{map[string][]byte{"main.lua": nil}, "up: not a mod: it has no mod.toml"},
	} {
		if _, err := mod.FolderFiles(tt.files, "up"); err == nil || err.Error() != tt.want {
			t.Errorf("%v, want %q", err, tt.want)
		}
	}
}

// TestApplySettings: MOD.KEY=VALUE settings apply in order, and each
// that cannot is a *SettingError saying why.
func TestApplySettings(t *testing.T) {
	dir, _ := writeManifest(t, manifestHead+"\n[settings.count]\ntype = \"int\"\ndefault = 3\nmin = 1\nmax = 10\n")
	m, err := mod.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	changed, err := mod.ApplySettings([]*mod.Mod{m}, []string{"m.count=7", "m.count=5"})
	if err != nil || m.Values["count"] != int64(5) || !slices.Equal(changed["m"], []string{"count=5", "count=7"}) {
		t.Fatalf("applied: %v, %v, count %v", changed, err, m.Values["count"])
	}
	for _, tt := range []struct {
		set  string
		want func(*mod.SettingError) bool
		text string
	}{
		{"count=7", func(e *mod.SettingError) bool { return e.Shape }, `mod setting "count=7": want MOD.KEY=VALUE`},
		{"m.count", func(e *mod.SettingError) bool { return e.Shape }, `mod setting "m.count": want MOD.KEY=VALUE`},
		{".count=1", func(e *mod.SettingError) bool { return e.Shape }, `mod setting ".count=1": want MOD.KEY=VALUE`},
		{"n.count=1", func(e *mod.SettingError) bool { return e.NotLoaded && e.Mod == "n" }, `mod setting "n.count=1": no mod n is loaded`},
		{"m.count=11", func(e *mod.SettingError) bool { return e.Err != nil && e.Mod == "m" }, "mod m: setting count: 11 is above the maximum 10"},
	} {
		_, err := mod.ApplySettings([]*mod.Mod{m}, []string{tt.set})
		var se *mod.SettingError
		if !errors.As(err, &se) || !tt.want(se) || se.Setting != tt.set || err.Error() != tt.text {
			t.Errorf("%s: %#v, want %q", tt.set, err, tt.text)
		}
	}
}

// TestCompareVersions: parts compare as numbers when both are, else as
// text, and a version that runs out of parts first is the lower.
func TestCompareVersions(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"1.10.0", "1.9.0", 1},
		{"1.2.0", "1.10.0", -1},
		{"v1.2.3", "1.2.3", 0},
		{"1.2", "1.2.0", -1},
		{"1.0.0-beta", "1.0.0-alpha", 1},
		{"1.0.0+2", "1.0.0+10", -1},
	} {
		if got := mod.CompareVersions(tt.a, tt.b); got != tt.want {
			t.Errorf("CompareVersions(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := mod.CompareVersions(tt.b, tt.a); got != -tt.want {
			t.Errorf("CompareVersions(%q, %q) = %d, want %d", tt.b, tt.a, got, -tt.want)
		}
	}
}

// BenchmarkReadZip reads a small mod's zip, as an install or the browser
// game does.
func BenchmarkReadZip(b *testing.B) {
	files := map[string]string{"m/mod.toml": modtest.Manifest}
	for i := range 8 {
		files[fmt.Sprintf("m/f%d.lua", i)] = strings.Repeat("local x = 1\n", 400)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		w, _ := zw.Create(name)
		w.Write([]byte(files[name]))
	}
	zw.Close()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := mod.ReadZip(buf.Bytes(), "m.zip"); err != nil {
			b.Fatal(err)
		}
	}
}
