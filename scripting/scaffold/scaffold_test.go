package scaffold

import (
	"bytes"
	"io/fs"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/scripting"
)

// TestRender: every template is used, both rulesets fill in completely,
// and the annotation file is the host's.
func TestRender(t *testing.T) {
	entries, err := fs.ReadDir(templates, "files")
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for _, rs := range []string{"classic", "cellular"} {
		files, err := Render(For("my_mod", rs, ""))
		if err != nil {
			t.Fatalf("%s: %v", rs, err)
		}
		for _, f := range Files("my_mod", rs) {
			used[f.Template] = true
			content, ok := files[f.Path]
			if !ok {
				t.Errorf("%s: no %s", rs, f.Path)
			}
			if bytes.Contains(content, []byte("{{")) {
				t.Errorf("%s: %s keeps template text", rs, f.Path)
			}
		}
		if !bytes.Equal(files[".luals/mod2048.lua"], scripting.LuaAnnotations()) {
			t.Errorf("%s: the annotation file is not the host's", rs)
		}
		toml := string(files["mod.toml"])
		if !strings.Contains(toml, `id = "my_mod"`) || !strings.Contains(toml, `name = "My Mod"`) || !strings.Contains(toml, `rulesets = ["`+rs+`"]`) {
			t.Errorf("%s: mod.toml does not fill in the id, name and ruleset:\n%s", rs, toml)
		}
		if !strings.Contains(string(files["my_mod.cases"]), "Case: MY_MOD-1") {
			t.Errorf("%s: the fixture's case is not named from the id", rs)
		}
	}
	for _, e := range entries {
		if n := e.Name(); !used[n] {
			t.Errorf("files/%s is not used", n)
		}
	}
	if _, err := Render(For("x", "hex", "")); err == nil {
		t.Error("an unknown ruleset renders")
	}
}

func TestDisplayName(t *testing.T) {
	for id, want := range map[string]string{"moss": "Moss", "one_way": "One Way", "a_b2_c": "A B2 C", "x__y_": "X Y"} {
		if got := DisplayName(id); got != want {
			t.Errorf("DisplayName(%q) = %q, want %q", id, got, want)
		}
	}
}
