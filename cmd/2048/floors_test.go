package main

import (
	"encoding/json"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// A floor is a name and the package paths (within the module) on it.
type floor struct {
	name     string
	prefixes []string
}

// The floors of the house, lowest first (STYLE.md): a package may import
// packages of its own floor and below, never above. Its tests too: an
// engine test that builds a cellular game would tie the engine to the
// floor above it.
var floors = []floor{
	// The work count, which every loop of the Lua runtime and the host
	// calls: a leaf, importing nothing of the module.
	{"scripting/internal/workcount", []string{"scripting/internal/workcount"}},
	// Our gopher-lua, then the guarded Lua runtime: below the game, whose
	// packages they never import (STYLE.md: the sandbox imports none of
	// the game).
	{"scripting/internal/lua", []string{"scripting/internal/lua"}},
	{"scripting/internal/sandbox", []string{"scripting/internal/sandbox"}},
	{"engine", []string{"engine"}},
	{"cellular", []string{"cellular"}},
	{"config", []string{"config"}},
	// A mod as data (its manifest, files, sources): below the host, with
	// no Lua in it (rooms, below).
	{"scripting/mod", []string{"scripting/mod"}},
	{"scripting", []string{"scripting", "mods"}},
	{"scripting/session", []string{"scripting/session"}},
	// The balance lab, its tuner and plots: above the session its games
	// go through.
	{"scripting/sim", []string{"scripting/sim"}},
	{"cmd", []string{"cmd"}},
}

const module = "github.com/mod2048/mod2048"

// rooms are what the floors' order alone does not forbid: a package (by
// its floor) that keeps out of some floors below it too. The Lua runtime
// is below the game and imports none of it; a mod as data imports no Lua
// and no game, so that a tool that only reads a mod carries no VM
// (STYLE.md). TestFloors checks them on the imports of code and tests,
// TestModDeps on every package scripting/mod's code needs.
var rooms = []struct {
	floors []string // the floors of the packages the rule is about
	not    []string // the floors they may not import
	why    string
}{
	{[]string{"scripting/internal/lua", "scripting/internal/sandbox"},
		[]string{"engine", "cellular", "config", "scripting/mod", "scripting", "scripting/session", "scripting/sim", "cmd"},
		"the Lua runtime imports none of the game"},
	{[]string{"scripting/mod"},
		[]string{"scripting/internal/lua", "scripting/internal/sandbox", "engine", "cellular"},
		"a mod as data has no Lua in it and no game"},
}

// keptOut returns why the package of floor own may not import a package
// of floor f (a room's rule), or "". A package on no floor (-1) is
// reported by itself.
func keptOut(own, f int) string {
	if own < 0 || f < 0 {
		return ""
	}
	for _, r := range rooms {
		if slices.Contains(r.floors, floors[own].name) && slices.Contains(r.not, floors[f].name) {
			return r.why
		}
	}
	return ""
}

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
				f := floorOf(irel)
				if why := keptOut(own, f); why != "" {
					t.Errorf("%s (floor %s) imports %s (floor %s) in its %s: %s", rel, floors[own].name, irel, floors[f].name, kind, why)
				} else if f > own {
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
		"scripting": "scripting", "mods": "scripting", "scripting/mod": "scripting/mod", "config/tomlkeys": "config", "scripting/sim": "scripting/sim", "scripting/sim/simtune": "scripting/sim", "scripting/session/replay": "scripting/session",
		"cmd/internal/web/bridge": "cmd", "cmd/2048": "cmd",
	} {
		if f := floorOf(rel); f < 0 || floors[f].name != want {
			t.Errorf("floorOf(%q) = %d, want floor %s", rel, f, want)
		}
	}
	if f := floorOf("engineering"); f != -1 {
		t.Errorf("floorOf(engineering) = %d, want none", f)
	}
	if f := floorOf("scripting/modx"); f < 0 || floors[f].name != "scripting" {
		t.Errorf("floorOf(scripting/modx) = %d, want floor scripting", f)
	}
	for _, r := range rooms {
		for _, name := range append(slices.Clone(r.floors), r.not...) {
			if !slices.ContainsFunc(floors, func(f floor) bool { return f.name == name }) {
				t.Errorf("a room names %s, which is no floor", name)
			}
		}
	}
}

// TestModDeps: nothing package scripting/mod needs, however indirectly,
// is Lua, the sandbox or the game (go list -deps): a tool that reads mods
// builds without a VM.
func TestModDeps(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the packages with")
	}
	out, err := exec.Command(goBin, "list", "-deps", module+"/scripting/mod").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	own := floorOf("scripting/mod")
	if !slices.Contains(deps, module+"/scripting/mod") || own < 0 {
		t.Fatalf("go list -deps listed %v, without scripting/mod itself, or scripting/mod is on no floor", deps)
	}
	for _, dep := range deps {
		rel, ok := strings.CutPrefix(dep, module+"/")
		if !ok {
			continue
		}
		f := floorOf(rel)
		why := keptOut(own, f)
		if f > own {
			why = "it is above scripting/mod"
		}
		if why != "" {
			t.Errorf("scripting/mod depends on %s (floor %s), through its imports: %s", rel, floors[f].name, why)
		}
	}
}
