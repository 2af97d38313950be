package sim

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/scripting/mod"
)

// heavyMod is a memory-heavy mod: it keeps 1.5 MiB more of strings every
// turn, until its memory budget stops it (and it is disabled), and every
// fifth turn it runs away, building 16 KiB strings until the instruction
// budget stops it. Before the bytes a concatenation makes were charged to
// the budget, the runaway was stopped by the memory failsafe, which reads
// the whole process's heap: `2048 sim` counted 4 stops with --jobs 1 and
// 15 with --jobs 2.
const heavyMod = `local kept = {}
game.on("tick", function(ev)
  local s = string.rep("x", 16384)
  if ev.turn % 5 == 0 then
    local t = {}
    for i = 1, 1e6 do t[i] = s .. i end
  end
  for i = 1, 96 do kept[#kept + 1] = s .. i end
end)
`

// TestJobsMemoryHeavyMod: a memory-heavy mod's games give the same results
// with one worker or two, its error counts and first errors included, and
// every stop is a budget's, none a failsafe's (which would end the run
// with a *scripting.CostModelError).
func TestJobsMemoryHeavyMod(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "heavy")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := "id = \"heavy\"\nname = \"Heavy\"\nversion = \"1.0.0\"\napi_version = 1\n"
	for name, src := range map[string]string{"mod.toml": manifest, "main.lua": heavyMod} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, err := mod.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	o := options(t, "random", 4)
	o.Setup.Mods = []*mod.Mod{m}
	o.MaxTurns = 150
	o.Jobs = 1
	one, err := Run(o)
	if err != nil {
		t.Fatal(err)
	}
	o.Jobs = 2
	two, err := Run(o)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := NewReport(header(o), one).JSON()
	b, _ := NewReport(header(o), two).JSON()
	if !bytes.Equal(a, b) {
		t.Fatalf("--jobs 1 and 2 give different reports:\n%s\n%s", a, b)
	}
	var errs, disables int
	memory := false
	for i, r := range one {
		if len(r.Mods) != 1 || len(two[i].Mods) != 1 || r.Mods[0] != two[i].Mods[0] {
			t.Fatalf("game %d: mods %+v with one worker, %+v with two", i, r.Mods, two[i].Mods)
		}
		st := r.Mods[0]
		if st.Errors > 0 && !strings.Contains(st.FirstError, "exceeded its instruction budget") {
			t.Errorf("game %d: first error %q, want the instruction budget", i, st.FirstError)
		}
		errs += st.Errors
		disables += st.Disables
		memory = memory || r.Turns > 45 && st.Disables > 0
	}
	if errs == 0 || !memory {
		t.Fatalf("%d errors, disabled by its memory budget %v: the mod did not test the budgets (%s)", errs, memory, a)
	}
	t.Logf("%d errors, %d disables in %d games", errs, disables, len(one))
}
