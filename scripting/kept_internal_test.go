package scripting

import (
	"fmt"
	"github.com/mod2048/mod2048/scripting/mod"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/internal/sandbox"
)

// keptHost loads a mod (API version 2) whose main.lua is src into a classic
// game with limits, and returns the host and the game.
func keptHost(t *testing.T, src string, limits Limits) (*Host, *engine.Game) {
	t.Helper()
	md := weighModV2(t, src)
	g, err := engine.New(engine.NewClassic(), engine.Options{Width: 4, Height: 4, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHost([]*mod.Mod{md}, g.Rules(), g.Options(), limits)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	g.SetHooks(h)
	return h, g
}

// playAll plays the four directions in turn, n moves, and returns the
// reports.
func playAll(h *Host, g *engine.Game, n int) []Report {
	var reports []Report
	dirs := []engine.Direction{engine.Left, engine.Up, engine.Right, engine.Down}
	for i := range n {
		h.Move(g, dirs[i%4])
		reports = append(reports, h.TakeReports()...)
	}
	return reports
}

// TestStashedFilterWeighed: a game.cells filter table the mod drops after
// the call, and the host keeps (it reads a filter again only when it
// changes), is weighed as the mod's: grown after its keys were checked,
// it runs the mod out of its memory budget, where it grew unweighed.
func TestStashedFilterWeighed(t *testing.T) {
	limits := defaultLimits
	limits.MaxMemory = 8 << 20
	limits.FailsafeTime = time.Minute
	h, g := keptHost(t, `
game.on("tick", function()
  local f = {cell = "^2$"}
  game.cells(f)
  for i = 1, 200000 do f[i] = i end
end)`, limits)
	reports := playAll(h, g, 8)
	found := false
	for _, r := range reports {
		found = found || strings.Contains(r.Message, "exceeded its memory budget")
	}
	if !found {
		t.Fatalf("no memory budget error; reports %v", reports)
	}
}

// TestAnswerCacheBounded: the process-wide cache of game.cells answers
// keeps no long pattern a mod made, whatever it asks.
func TestAnswerCacheBounded(t *testing.T) {
	h, g := keptHost(t, `
game.on("tick", function()
  local p = "^" .. string.rep("z", 2000) .. game.turn()
  game.cells{cell = p}
end)`, defaultLimits)
	if r := playAll(h, g, 4); len(r) > 0 {
		t.Fatalf("reports %v", r)
	}
	sharedAnswers.mu.RLock()
	defer sharedAnswers.mu.RUnlock()
	for k := range sharedAnswers.m {
		if len(k.pattern) > maxSharedPattern {
			t.Fatalf("the cache keeps a pattern of %d bytes", len(k.pattern))
		}
	}
}

// weighModV2 loads a mod of API version 2 whose main.lua is src.
func weighModV2(t *testing.T, src string) *mod.Mod { return weighModID(t, "weigh", src) }

// TestAppendTablesBounded: a mod that appends {a = i} tables, each of which
// holds about 700 bytes in four instructions, is charged what its tables
// allocate: a call builds at most the bytes its instruction budget allows,
// and the heap it ends up holding stays within 1.25× of its memory budget
// plus one call's build. Before, a call of 250000 instructions built some
// 60000 such tables, 60 MB, and the weight said a ninth of it.
func TestAppendTablesBounded(t *testing.T) {
	limits := defaultLimits
	limits.MaxMemory = 16 << 20
	limits.HandlerInstructions = 250_000
	limits.TurnInstructions = 250_000
	limits.FailsafeTime = time.Minute
	idleWatchdog(t)
	before := liveHeap()
	h, g := keptHost(t, `
t = {}
game.on("tick", function()
  for i = 1, 10000000 do t[#t + 1] = {a = i} end
end)`, limits)
	reports := playAll(h, g, 6)
	held := int64(liveHeap()) - int64(before)
	perCall := limits.HandlerInstructions * sandbox.BytesPerInstruction
	if bound := (limits.MaxMemory + perCall) * 5 / 4; held > bound {
		t.Errorf("the heap holds %d MiB, more than %d MiB", held>>20, bound>>20)
	}
	found := false
	for _, r := range reports {
		found = found || strings.Contains(r.Message, "exceeded its memory budget")
	}
	if !found {
		t.Errorf("reports %v, want the memory budget's", reports)
	}
	runtime.KeepAlive(h)
	t.Logf("held %d MiB, weighed %d MiB", held>>20, h.mods[0].measure()>>20)
}

// TestGameCeiling: mods each within their own memory budget share the
// game's: the one whose growth takes the game past its ceiling fails with
// the game's error, a call near the ceiling builds no more than the room
// left, and what they hold stays within the ceiling plus a megabyte a mod.
func TestGameCeiling(t *testing.T) {
	limits := defaultLimits
	limits.MaxMemory = 64 << 20
	limits.MaxGameMemory = 16 << 20
	limits.FailsafeTime = time.Minute
	src := `
t = {}
game.on("tick", function()
  for i = 1, 20000 do t[#t + 1] = {a = i} end
end)`
	var mods []*mod.Mod
	for i := range 3 {
		mods = append(mods, weighModID(t, fmt.Sprintf("hog%d", i), src))
	}
	g, err := engine.New(engine.NewClassic(), engine.Options{Width: 4, Height: 4, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHost(mods, g.Rules(), g.Options(), limits)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	g.SetHooks(h)
	reports := playAll(h, g, 8)
	blamed := map[string]bool{}
	for _, r := range reports {
		if strings.Contains(r.Message, "exceeded the game's memory budget (16 MiB of Lua values, all mods together)") {
			blamed[r.Mod] = true
		}
	}
	if len(blamed) == 0 {
		t.Fatalf("no mod blamed; reports %v", reports)
	}
	var total int64
	for _, m := range h.mods {
		total += m.measure()
	}
	if bound := limits.MaxGameMemory + 3*minCallBuild + 3<<20; total > bound {
		t.Errorf("the mods hold %d MiB, more than %d MiB", total>>20, bound>>20)
	}
	t.Logf("held %d MiB; blamed %v", total>>20, blamed)
}

// weighModID loads a mod of id whose main.lua is src (API version 2).
func weighModID(t *testing.T, id, src string) *mod.Mod {
	t.Helper()
	dir := filepath.Join(t.TempDir(), id)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := fmt.Sprintf("id = %q\nname = %q\nversion = \"1.0.0\"\napi_version = 2\n", id, id)
	for name, s := range map[string]string{mod.ManifestName: manifest, "main.lua": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, err := mod.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestEveryBuildCharged: whatever a handler builds and keeps, tables,
// closures, numbers or strings, it is charged for: a call of 200000
// instructions that keeps all it makes holds at most what the budget
// allows it to build (64 bytes an instruction), plus a little. Before
// tables, closures and numbers were metered, a table a slot cost one
// instruction whatever it held.
func TestEveryBuildCharged(t *testing.T) {
	limits := defaultLimits
	limits.HandlerInstructions = 200_000
	limits.TurnInstructions = 200_000
	limits.MaxMemory, limits.MaxGameMemory = 0, 0
	limits.FailsafeTime = time.Minute
	perCall := limits.HandlerInstructions * sandbox.BytesPerInstruction
	for _, build := range []string{
		"t[#t + 1] = {a = i}",
		"t[#t + 1] = {i, i, i}",
		"t[#t + 1] = function() return i end",
		"t[#t + 1] = i + 0.5",
		"t[#t + 1] = 'entry ' .. i",
		"t['k' .. i] = true",
		"t[{}] = i",
		"t[i * 100] = i",
	} {
		idleWatchdog(t)
		before := liveHeap()
		h, g := keptHost(t, "t = {}\ngame.on(\"tick\", function()\n  for i = 1, 100000000 do "+build+" end\nend)", limits)
		reports := playAll(h, g, 1)
		held := int64(liveHeap()) - int64(before)
		runtime.KeepAlive(h)
		if len(reports) != 1 || !strings.Contains(reports[0].Message, "exceeded its instruction budget") {
			t.Errorf("%s: reports %v", build, reports)
		}
		t.Logf("%-40s held %5d KiB after one call (the budget builds %d KiB)", build, held>>10, perCall>>10)
		if held > perCall*3/2+1<<20 {
			t.Errorf("%s: one call left %d KiB held, more than its budget's %d KiB", build, held>>10, perCall>>10)
		}
	}
}

// TestNoticesKeptBounded: a frontend that never takes the notices (the
// lab) leaves the host keeping the last 64, not every message of the game.
func TestNoticesKeptBounded(t *testing.T) {
	h, g := keptHost(t, `game.on("tick", function() for i = 1, 4 do game.notify("message " .. i) end end)`, defaultLimits)
	if r := playAll(h, g, 40); len(r) > 0 {
		t.Fatalf("reports %v", r)
	}
	if n := len(h.TakeNotices()); n != maxKeptNotices {
		t.Errorf("%d notices kept, want the last %d", n, maxKeptNotices)
	}
}
