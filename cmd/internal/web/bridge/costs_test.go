package bridge_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/cmd/internal/web/bridge"
	"github.com/mod2048/mod2048/scripting"
)

// The attacks of issue 38 that ended the process, played in the page
// natively and under WebAssembly (TestUnderWasm): each mod is stopped by
// a budget (or holds nothing), the page plays on, and its live heap stays
// far from what ended it.

// costMod is a player's mod of one file.
func costMod(id, src string) bridge.ModSource {
	manifest := fmt.Sprintf("id = %q\nname = %q\nversion = \"0.1.0\"\napi_version = 2\n", id, id)
	return bridge.ModSource{Name: id, Files: map[string]string{id + "/mod.toml": manifest, id + "/main.lua": src}}
}

// playCosts plays moves moves of a game with mods, and returns the
// reports and the most the live heap grew by.
func playCosts(t *testing.T, moves int, mods ...bridge.ModSource) (reports []string, grown int64) {
	t.Helper()
	before := liveHeap()
	b := bridge.New()
	v := ok(t, b.NewGame(bridge.Options{Mods: mods, Seed: "1"}, nil))
	var peak uint64
	for move := 1; move <= moves && len(v.Legal) > 0; move++ {
		v = ok(t, b.Move(v.Legal[0]))
		for _, r := range v.Reports {
			reports = append(reports, r.Mod+": "+r.Message)
		}
		peak = max(peak, liveHeap())
	}
	return reports, int64(peak) - int64(before)
}

// TestSubstringPinMod: a mod that kept one byte of each 16 MiB string it
// made, seven times a turn, held 808 MB after four turns (the weighing
// counted 17 bytes for each byte kept, which shared its parent's 16 MiB)
// and ended the process out of memory at the twelfth. Now a piece is a
// copy: the mod holds what it kept.
func TestSubstringPinMod(t *testing.T) {
	src := `kept = {}
local function keep()
  local s = string.rep("x", 2^20) .. #kept
  for i = 1, 4 do s = s .. s end
  kept[#kept + 1] = s:sub(1, 1)
end
for h = 1, 7 do game.on("tick", keep) end`
	reports, grown := playCosts(t, 12, costMod("pin", src))
	for _, r := range reports {
		if !strings.Contains(r, "budget") {
			t.Errorf("report %q names no budget", r)
		}
	}
	if grown > 128<<20 {
		t.Errorf("the live heap grew by %d MiB, more than 128 MiB", grown>>20)
	}
}

// TestSharedStorageMod: a mod that stored a table holding 99,990
// references to one 1 MB string: the heap holds the string once, but the
// storage encoder wrote every reference out before its limit applied, and
// asked for a block of 528 MB (out of memory natively, and at 3.5 GB in the
// browser build). Now the encoder stops at the limit as it writes.
func TestSharedStorageMod(t *testing.T) {
	src := `game.on("tick", function()
  local s = string.rep("s", 2^20)
  local t = {}
  for i = 1, 99990 do t[i] = s end
  storage.t = t
end)`
	reports, grown := playCosts(t, 3, costMod("shared", src))
	if len(reports) == 0 {
		t.Fatal("no report: the storage was kept")
	}
	for _, r := range reports {
		if !strings.Contains(r, fmt.Sprintf("storage: more than %d bytes", scripting.MaxStorage)) {
			t.Errorf("report %q, want the storage's limit", r)
		}
	}
	if grown > 64<<20 {
		t.Errorf("the live heap grew by %d MiB, more than 64 MiB", grown>>20)
	}
}

// TestNamedValuesMods: two mods that name (tostring) every closure they
// keep: the names, kept by the sandbox while the closures live, were
// weighed by no budget, and two such mods took the process to 1.54 GB
// resident (285 MiB live in the browser build). Now each name weighs as
// the mod's, and the two share the game's turn: each mod is stopped by a
// budget (its share of the turn, at the default limits, before its memory
// budget: scripting's TestCostNamesWeighed has the memory budget stop it),
// and the page holds at most the game's ceiling.
func TestNamedValuesMods(t *testing.T) {
	src := `kept = {}
local function hoard()
  for i = 1, 20000 do local f = function() return i end kept[#kept + 1] = f tostring(f) end
end
game.on("tick", hoard)
game.on("tick", hoard)`
	reports, grown := playCosts(t, 9, costMod("named1", src), costMod("named2", src))
	stopped := map[string]bool{}
	for _, r := range reports {
		if !strings.Contains(r, "budget") {
			t.Errorf("report %q names no budget", r)
		}
		stopped[strings.SplitN(r, ":", 2)[0]] = true
	}
	if len(stopped) != 2 {
		t.Errorf("%d of the two mods were stopped: %v", len(stopped), reports)
	}
	limits := scripting.DefaultLimits()
	if bound := limits.MaxGameMemory*3/2 + 64<<20; grown > bound {
		t.Errorf("the live heap grew by %d MiB, more than %d MiB", grown>>20, bound>>20)
	}
}

// closureHoard keeps 400,000 closures (some 50 MiB, within its memory
// budget) and replaces a tenth of them in each of its three tick
// handlers, so that the host weighs it after nearly every call. Before
// the walks were charged (and marked what they visited rather than
// keeping a map of it), such a mod made moves of 1.4 s natively and 5.9 s
// in the browser build.
const closureHoard = `kept = {}
local n = 0
local function build()
  for i = 1, 40000 do
    n = n % 400000 + 1
    kept[n] = function() return i end
  end
end
for h = 1, 3 do game.on("tick", build) end`

// BenchmarkClosureHoardMove: a move of the page with the closure hoard,
// once it holds all its closures: its calls and its weighings, which its
// turn pays for (MODDING's worst case of a move, with
// BenchmarkSaturatingMove).
func BenchmarkClosureHoardMove(b *testing.B) {
	for _, n := range []int{1, 3, 9} {
		b.Run(fmt.Sprintf("mods=%d", n), func(b *testing.B) { benchMoves(b, closureHoard, n, 4) })
	}
}
