package scripting_test

import (
	"archive/zip"
	"bytes"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/mods"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
)

// manifestHead is the smallest valid manifest (as in package mod's tests).
const manifestHead = `id = "m"
name = "M"
version = "1.0.0"
api_version = 1
`

// TestLoadModFSShipped loads every shipped mod from the embedded files and
// from disk: the same manifest and settings, and the same game when played.
func TestLoadModFSShipped(t *testing.T) {
	ids := mods.IDs()
	if len(ids) < 4 {
		t.Fatalf("mods.IDs() = %v, want the four shipped mods at least", ids)
	}
	for _, id := range ids {
		t.Run(id, func(t *testing.T) {
			sub, err := fs.Sub(mods.FS(), id)
			if err != nil {
				t.Fatal(err)
			}
			fromFS, err := mod.LoadFS(sub, "mods/"+id)
			if err != nil {
				t.Fatal(err)
			}
			fromDisk, err := mod.Load(filepath.Join("..", "mods", id))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(fromFS.Manifest, fromDisk.Manifest) || !reflect.DeepEqual(fromFS.Values, fromDisk.Values) {
				t.Fatalf("embedded %+v differs from disk %+v", fromFS.Manifest, fromDisk.Manifest)
			}
			if fromFS.Dir != "mods/"+id {
				t.Errorf("Dir = %q, want mods/%s", fromFS.Dir, id)
			}
			ruleset := "classic"
			if rs := fromFS.Manifest.Rulesets; len(rs) > 0 {
				ruleset = rs[0]
			}
			if ruleset != "classic" {
				return
			}
			a, b := seededGame(t, 7), seededGame(t, 7)
			ha, hb := attach(t, a, fromFS), attach(t, b, fromDisk)
			for i := 0; i < 30; i++ {
				d := engine.Directions[i%4]
				ha.Move(a, d)
				hb.Move(b, d)
			}
			if !bytes.Equal(marshal(t, a), marshal(t, b)) {
				t.Fatal("the embedded mod plays another game than the mod on disk")
			}
		})
	}
}

// TestLoadModFSZip loads a mod from a zip, as a player's upload comes,
// with a module it requires.
func TestLoadModFSZip(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, src := range map[string]string{
		"mod.toml":     manifestHead,
		"main.lua":     `local lib = require("lib/util") game.on("tick", function() game.log(lib.word) end)`,
		"lib/util.lua": `return {word = "hello"}`,
	} {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(src))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	m, err := mod.LoadFS(zr, "upload.zip")
	if err != nil {
		t.Fatal(err)
	}
	g := seededGame(t, 1)
	h := attach(t, g, m)
	move(t, h, g, legal(t, g, 0))
	noReports(t, h)
	wantLog(t, h, "m", "hello")
}

// TestLoadModFSErrors: what a folder of files refuses, named as for a mod
// on disk.
func TestLoadModFSErrors(t *testing.T) {
	big := strings.Repeat("-- x\n", mod.MaxSource/5+1)
	for _, tc := range []struct {
		name  string
		files fstest.MapFS
		want  string // in the error of mod.LoadFS, else of the game's start
	}{
		{"no manifest", fstest.MapFS{"main.lua": {}}, "up: not a mod: it has no mod.toml"},
		{"no entry", fstest.MapFS{"mod.toml": {Data: []byte(manifestHead)}}, "entry: main.lua: no such file"},
		{"bad key", fstest.MapFS{"mod.toml": {Data: []byte(manifestHead + "colour = 1\n")}, "main.lua": {}}, "up/mod.toml:5:1: colour: unknown key"},
		{"manifest a folder", fstest.MapFS{"mod.toml/x": {}}, "a folder, not a regular file"},
		{"huge manifest", fstest.MapFS{"mod.toml": {Data: []byte(manifestHead + strings.Repeat("#", mod.MaxManifest))}, "main.lua": {}}, "more than the limit"},
		{"huge source", fstest.MapFS{"mod.toml": {Data: []byte(manifestHead)}, "main.lua": {Data: []byte(big)}}, "main.lua: "},
		{"escape", fstest.MapFS{"mod.toml": {Data: []byte(manifestHead)}, "main.lua": {Data: []byte(`require("../x")`)}}, "require"},
		{"lua error", fstest.MapFS{"mod.toml": {Data: []byte(manifestHead)}, "main.lua": {Data: []byte(`error("boom")`)}}, "boom"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := mod.LoadFS(tc.files, "up")
			if err == nil {
				g := seededGame(t, 1)
				var h *scripting.Host
				h, err = scripting.NewHost([]*mod.Mod{m}, g.Rules(), g.Options(), scripting.DefaultLimits())
				if err == nil {
					h.Close()
				}
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	if _, err := mod.LoadFS(nil, "x"); err == nil {
		t.Fatal("mod.LoadFS(nil) succeeded")
	}
}
