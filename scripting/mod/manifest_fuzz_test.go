package mod_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/scripting/mod"
)

// FuzzManifest: any mod.toml loads or is refused with a *FileError of the
// manifest, its line within the file (or 0), its message free of the
// place; it never panics. The corpus starts from every shipped and guide
// mod's manifest.
func FuzzManifest(f *testing.F) {
	for _, glob := range []string{"../../mods/*/mod.toml", "../testdata/guide/*/mod.toml"} {
		paths, _ := filepath.Glob(glob)
		if len(paths) == 0 {
			f.Fatalf("no manifest matches %s to start the corpus from", glob)
		}
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(string(data))
		}
	}
	f.Add(manifestHead + "[settings.x]\ntype = \"choice\"\nchoices = [\"a\", 1]\ndefault = \"a\"\n")
	f.Add(manifestHead + "rulesets = [\"classic\"")
	f.Fuzz(func(t *testing.T, manifest string) {
		fsys, err := mod.MemFS(map[string][]byte{"mod.toml": []byte(manifest), "main.lua": nil})
		if err != nil {
			t.Fatal(err)
		}
		m, err := mod.LoadFS(fsys, "m")
		if err == nil {
			if m.ID() == "" || m.Manifest.Entry == "" {
				t.Fatalf("a mod without an id or an entry: %+v", m.Manifest)
			}
			return
		}
		var fe *mod.FileError
		if !errors.As(err, &fe) || fe.File != mod.ManifestName {
			t.Fatalf("%q: %v (%T) is no *FileError of the manifest", manifest, err, err)
		}
		if fe.Line < 0 || fe.Line > strings.Count(manifest, "\n")+1 || fe.Column < 0 {
			t.Fatalf("%q: %v: line %d, column %d", manifest, err, fe.Line, fe.Column)
		}
		if fe.Message == "" || !strings.HasSuffix(err.Error(), fe.Message) {
			t.Fatalf("%q: %v: message %q", manifest, err, fe.Message)
		}
	})
}
