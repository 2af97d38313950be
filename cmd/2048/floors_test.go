package main

import (
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

// The floors of the house, lowest first (STYLE.md): a package may import
// packages of its own floor and below, never above. Its tests too: an
// engine test that builds a cellular game would tie the engine to the
// floor above it.
var floors = []struct {
	name     string
	prefixes []string
}{
	// Our gopher-lua, then the guarded Lua runtime: below the game, whose
	// packages they never import (STYLE.md: the sandbox imports none of
	// the game).
	{"scripting/internal/lua", []string{"scripting/internal/lua"}},
	{"scripting/internal/sandbox", []string{"scripting/internal/sandbox"}},
	{"engine", []string{"engine"}},
	{"cellular", []string{"cellular"}},
	{"config", []string{"config"}},
	{"scripting", []string{"scripting", "mods"}},
	{"scripting/session", []string{"scripting/session"}},
	{"cmd", []string{"cmd"}},
}

const module = "github.com/mod2048/mod2048"

// floorOf returns the floor of a package of this module (its path
// within the module), or -1: the longest prefix decides, so that
// scripting/session is above scripting.
func floorOf(rel string) int {
	best, bestLen := -1, -1
	for i, f := range floors {
		for _, p := range f.prefixes {
			if (rel == p || strings.HasPrefix(rel, p+"/")) && len(p) > bestLen {
				best, bestLen = i, len(p)
			}
		}
	}
	return best
}

// TestFloors: no package of the module, nor its tests, imports a package
// of a floor above its own (go list's imports of every package).
func TestFloors(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the packages with")
	}
	cmd := exec.Command(goBin, "list", "-json", module+"/...")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	n := 0
	for {
		var p struct {
			ImportPath                         string
			Imports, TestImports, XTestImports []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		n++
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		own := floorOf(rel)
		if own < 0 {
			t.Errorf("%s is on no floor: add it to floors (and to STYLE.md's shape of the house)", rel)
			continue
		}
		check := func(kind string, imports []string) {
			for _, imp := range imports {
				irel, ok := strings.CutPrefix(imp, module+"/")
				if !ok {
					continue
				}
				if f := floorOf(irel); f > own {
					t.Errorf("%s (floor %s) imports %s (floor %s) in its %s: a floor imports only its own and those below", rel, floors[own].name, irel, floors[f].name, kind)
				}
			}
		}
		check("code", p.Imports)
		check("tests", p.TestImports)
		check("external tests", p.XTestImports)
	}
	if n < 10 {
		t.Fatalf("go list listed %d packages: the check saw too few", n)
	}
}

// TestFloorOf: the floor check itself.
func TestFloorOf(t *testing.T) {
	for rel, want := range map[string]string{
		"engine": "engine", "engine/ai": "engine", "cellular": "cellular", "config/infile": "config",
		"scripting": "scripting", "mods": "scripting", "scripting/session/sim": "scripting/session",
		"cmd/internal/web/bridge": "cmd", "cmd/2048": "cmd",
	} {
		if f := floorOf(rel); f < 0 || floors[f].name != want {
			t.Errorf("floorOf(%q) = %d, want floor %s", rel, f, want)
		}
	}
	if f := floorOf("engineering"); f != -1 {
		t.Errorf("floorOf(engineering) = %d, want none", f)
	}
}
