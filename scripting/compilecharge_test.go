package scripting_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/internal/sandbox"
	"github.com/mod2048/mod2048/scripting/mod"
)

// functionsModule is module number i of mod id, size bytes that keep
// their code: a global table of empty functions, which compile to some 35
// bytes of prototypes for each byte of source. The text names the mod, so
// that no two mods' files are one file to the process's compile cache.
func functionsModule(id string, i, size int) string {
	head := fmt.Sprintf("%s%d = {", id, i)
	return head + strings.Repeat("function() end,", (size-len(head)-2)/15) + "}\n"
}

// modulesMod writes a mod whose main.lua is main and whose modules m1.lua
// … mN.lua are functionsModule(i, size).
func modulesMod(t *testing.T, id, main string, n, size int) *mod.Mod {
	t.Helper()
	files := map[string]string{"main.lua": main}
	for i := 1; i <= n; i++ {
		files[fmt.Sprintf("m%d.lua", i)] = functionsModule(id, i, size)
	}
	return loadMod(t, writeMod(t, id, "", files))
}

// TestRequireAtLoadIsDeterministic: a mod that requires four modules of
// the largest size a file may have when it loads is refused by the load's
// instruction budget, at the fourth require and before compiling it, with
// the same error on every run: the first compiles the files, the later
// ones find them compiled, and each pays the same (compiling is charged by
// the bytes, cached or not). The failsafe is the default's (the race
// detector's slowdown aside): the three files compiled take a small part of
// it, so it never decides. A mod of three such modules loads, every time.
func TestRequireAtLoadIsDeterministic(t *testing.T) {
	limits := scripting.DefaultLimits()
	limits.FailsafeTime *= raceSlowdown
	limits.GameTurnInstructions = 0 // a mod's own budgets
	g := seededGame(t, 1)
	four := modulesMod(t, "four", "require('m1')\nrequire('m2')\nrequire('m3')\nrequire('m4')\n", 4, mod.MaxSource)
	three := modulesMod(t, "three", "require('m1')\nrequire('m2')\nrequire('m3')\n", 3, mod.MaxSource)
	if c := sandbox.CompileCost(mod.MaxSource); 3*c > limits.LoadInstructions || 4*c <= limits.LoadInstructions {
		t.Fatalf("a file of %d bytes costs %d to compile: the test wants three within the load's %d and four past it", mod.MaxSource, c, limits.LoadInstructions)
	}
	var first *scripting.ModError
	for run := range 3 {
		h, err := scripting.NewHost([]*mod.Mod{four}, g.Rules(), g.Options(), limits, scripting.Deterministic())
		if err == nil {
			h.Close()
			t.Fatalf("run %d: four modules loaded", run)
		}
		var me *scripting.ModError
		if !errors.As(err, &me) {
			t.Fatalf("run %d: %v (%T), want a *ModError of the load's budget", run, err, err)
		}
		if me.Message != fmt.Sprintf("exceeded its instruction budget (%d to load)", limits.LoadInstructions) || me.File != "main.lua" || me.Line != 4 || me.Failsafe {
			t.Fatalf("run %d: %+v, want the load's budget at main.lua:4", run, me.Report)
		}
		if _, ok := sandbox.CachedCompile(functionsModule("four", 4, mod.MaxSource), "m4.lua"); ok {
			t.Fatalf("run %d: m4.lua was compiled, though its compile was more than the budget had left", run)
		}
		if first == nil {
			first = me
		} else if !reflect.DeepEqual(me.Report, first.Report) {
			t.Fatalf("run %d: %+v, run 0: %+v", run, me.Report, first.Report)
		}
		h, err = scripting.NewHost([]*mod.Mod{three}, g.Rules(), g.Options(), limits, scripting.Deterministic())
		if err != nil {
			t.Fatalf("run %d: three modules: %v", run, err)
		}
		h.Close()
	}
}

// TestRequireOverCallBudget: a handler that requires a file whose compile
// costs more than a call has (a file of the largest size, one a turn) ends
// with the call's instruction budget's error on every turn, and compiles
// none of the files: the charge comes first.
func TestRequireOverCallBudget(t *testing.T) {
	limits := scripting.DefaultLimits()
	limits.FailsafeTime = time.Minute
	limits.GameTurnInstructions = 0 // a mod's own budgets
	g := seededGame(t, 1)
	md := modulesMod(t, "redteam", "local n = 0\ngame.on('tick', function() n = n + 1 require('m' .. n) end)\n", 20, mod.MaxSource)
	h, err := scripting.NewHost([]*mod.Mod{md}, g.Rules(), g.Options(), limits)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	g.SetHooks(h)
	failed := 0
	for turn := 0; turn < 20 && g.Status() != engine.Lost; turn++ {
		move(t, h, g, legal(t, g, turn))
		for _, r := range h.TakeReports() {
			if r.Disabled {
				continue
			}
			failed++
			if r.Message != fmt.Sprintf("exceeded its instruction budget (%d a call)", limits.HandlerInstructions) || r.Failsafe {
				t.Fatalf("turn %d: %+v, want the call's budget", turn, r)
			}
		}
	}
	if failed == 0 {
		t.Fatal("no require failed")
	}
	for i := 1; i <= 20; i++ {
		if _, ok := sandbox.CachedCompile(functionsModule("redteam", i, mod.MaxSource), fmt.Sprintf("m%d.lua", i)); ok {
			t.Errorf("m%d.lua was compiled", i)
		}
	}
}

// TestEntryCompileOverLoadBudget: the entry file's compile is the load's
// work, charged first: an entry file whose compile costs more than the
// load's budget fails the load with that budget's error, naming the file.
func TestEntryCompileOverLoadBudget(t *testing.T) {
	limits := testLimits
	g := seededGame(t, 1)
	src := "local x = 1\n" + strings.Repeat("-- a comment\n", 100)
	limits.LoadInstructions = sandbox.CompileCost(len(src)) - 1
	_, err := scripting.NewHost([]*mod.Mod{luaMod(t, "entry", src)}, g.Rules(), g.Options(), limits)
	var me *scripting.ModError
	if !errors.As(err, &me) || me.Message != fmt.Sprintf("exceeded its instruction budget (%d to load)", limits.LoadInstructions) || me.File != "main.lua" || me.Event != "load" {
		t.Fatalf("NewHost: %v, want the load's budget in main.lua", err)
	}
	limits.LoadInstructions += 100
	h, err := scripting.NewHost([]*mod.Mod{luaMod(t, "entry", src)}, g.Rules(), g.Options(), limits)
	if err != nil {
		t.Fatalf("with the compile's cost and 99 more: %v", err)
	}
	h.Close()
}

// TestRequirePastGameCeiling: the code a require compiles counts as what
// the call built, which the game's ceiling caps: a handler that requires
// a module whose prototypes are more than the room left stops with the
// ceiling's error, before the module runs.
func TestRequirePastGameCeiling(t *testing.T) {
	limits := testLimits
	limits.MaxMemory = 0
	limits.MaxGameMemory = 2 << 20
	dir := writeMod(t, "ceiling", "", map[string]string{
		"main.lua": "game.on('tick', function() require('m1') end)\n",
		"m1.lua":   "game.log('the module ran')\n" + functionsModule("ceiling", 1, 200<<10),
	})
	g := seededGame(t, 1)
	h, err := scripting.NewHost([]*mod.Mod{loadMod(t, dir)}, g.Rules(), g.Options(), limits)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	g.SetHooks(h)
	want := fmt.Sprintf("exceeded the game's memory budget (%d MiB of Lua values, all mods together)", limits.MaxGameMemory>>20)
	for turn := range 2 {
		move(t, h, g, legal(t, g, turn))
		r := h.TakeReports()
		if len(r) != 1 || r[0].Message != want {
			t.Fatalf("turn %d: %+v, want the game's ceiling", turn, r)
		}
	}
	wantLog(t, h, "ceiling")
}
