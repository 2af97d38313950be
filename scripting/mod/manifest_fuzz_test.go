package mod_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/scripting/mod"
)

// FuzzManifest: any mod.toml loads or is refused with every error of it,
// each a *FileError of the manifest at its line and column within the
// file (or none), its message free of the place, in the order of their
// places; it never panics. The corpus starts from every shipped and guide
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
	// Several errors at once; a key twice; a typo's suggestion.
	f.Add("id = \"Bad\"\nversoin = 1\nrulesets = [\"hex\",\n \"go\"]\n[settings.B]\ntype = \"int\"\ndefault = \"ten\"\n[extra.x]\n")
	f.Add(manifestHead + "# a comment\nname = \"again\"\n")
	f.Add(manifestHead + "settings.x = {type = \"choice\", choices = [\"a\", \"a\"], default = 1}\n")
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
		if !errors.As(err, &fe) {
			t.Fatalf("%q: %v (%T) is no *FileError", manifest, err, err)
		}
		// Every error of the manifest, each a *FileError of it at a place
		// within it (or none), in the order of their places; the text is
		// theirs, a line each.
		list := []error{err}
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			list = j.Unwrap()
		}
		lines := strings.Split(manifest, "\n")
		var texts []string
		last := 0
		for _, e := range list {
			fe, ok := e.(*mod.FileError)
			if !ok || fe.File != mod.ManifestName {
				t.Fatalf("%q: %v (%T) is no *FileError of the manifest", manifest, e, e)
			}
			if fe.Line < 0 || fe.Line > len(lines) || fe.Column < 0 || fe.Line == 0 && fe.Column != 0 ||
				fe.Column > 0 && fe.Column > len(lines[fe.Line-1])+1 {
				t.Fatalf("%q: %v: line %d, column %d", manifest, e, fe.Line, fe.Column)
			}
			if fe.Line < last {
				t.Fatalf("%q: %v: line %d after line %d", manifest, err, fe.Line, last)
			}
			last = fe.Line
			if fe.Message == "" || !strings.HasSuffix(fe.Error(), fe.Message) || strings.Contains(fe.Message, "\n") {
				t.Fatalf("%q: %v: message %q", manifest, e, fe.Message)
			}
			texts = append(texts, fe.Error())
		}
		if err.Error() != strings.Join(texts, "\n") {
			t.Fatalf("%q: %q is not its errors' lines", manifest, err)
		}
	})
}
