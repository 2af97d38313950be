package bridge_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/mod2048/mod2048/cmd/internal/web/bridge"
	"github.com/mod2048/mod2048/scripting"
)

// liveHeap is the live heap after a collection.
func liveHeap() uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestNineHungryMods: nine of a player's mods, each appending {a = i}
// tables every turn, share the page: the game's memory ceiling stops them
// (each with a report that names a budget), the page plays on, and the
// live heap stays within the ceiling, weighed as the heap holds it (1.5×),
// plus a constant. Under WebAssembly (TestUnderWasm) the page lives in
// the browser's memory: before the ceiling, nine such mods reached 4 GiB
// and ended it at the fifth move.
func TestNineHungryMods(t *testing.T) {
	limits := scripting.DefaultLimits()
	before := liveHeap()
	b := bridge.New()
	var mods []bridge.ModSource
	for i := range 9 {
		id := fmt.Sprintf("hungry%d", i)
		manifest := fmt.Sprintf("id = %q\nname = %q\nversion = \"0.1.0\"\napi_version = 2\n", id, id)
		src := "t = {}\ngame.on(\"tick\", function()\n  for i = 1, 1000000 do t[#t + 1] = {a = i} end\nend)\n"
		mods = append(mods, bridge.ModSource{Name: id, Files: map[string]string{id + "/mod.toml": manifest, id + "/main.lua": src}})
	}
	v := ok(t, b.NewGame(bridge.Options{Mods: mods, Seed: "1"}, nil))
	stopped := map[string]bool{}
	var peak uint64
	for move := 1; move <= 8 && len(v.Legal) > 0; move++ {
		start := time.Now()
		v = ok(t, b.Move(v.Legal[0]))
		took := time.Since(start)
		for _, r := range v.Reports {
			if !strings.Contains(r.Message, "budget") {
				t.Errorf("move %d: report %+v names no budget", move, r)
			}
			stopped[r.Mod] = true
		}
		heap := liveHeap()
		peak = max(peak, heap)
		t.Logf("move %d: %v, %d reports, live heap %d MiB", move, took.Round(time.Millisecond), len(v.Reports), (heap-min(before, heap))>>20)
	}
	if len(stopped) != 9 {
		t.Errorf("%d of the nine mods were stopped: %v", len(stopped), stopped)
	}
	grown := int64(peak) - int64(before)
	if bound := limits.MaxGameMemory*3/2 + 64<<20; grown > bound {
		t.Errorf("the live heap grew by %d MiB, more than %d MiB", grown>>20, bound>>20)
	}
}

// saturatingMod spends nearly all it may in every move at the default
// limits, as one of n mods (which share the game's turn), building
// tables: its before_move nearly its eighth of the turn in each
// evaluation (the move's and the four dry runs that work out the legal
// moves), its three tick handlers nearly all the rest of the turn.
func saturatingMod(n int) string {
	return fmt.Sprintf(`
local function build(n) local t = {} for i = 1, n do t[i] = {a = i} end return #t end
game.on("before_move", function() build(%[1]d) end)
game.on("tick", function() build(%[2]d) end)
game.on("tick", function() build(%[2]d) end)
game.on("tick", function() build(%[2]d) end)
`, 3750/n, 4080/n)
}

// BenchmarkSaturatingMove: a move of the page with one mod that spends its
// whole turn, dry runs included, and with three and nine of them, each
// spending its share: MODDING.md's worst case of a move, run natively and
// (GOOS=js GOARCH=wasm, through go_js_wasm_exec) as the browser runs it.
// The mods stay within their budgets (reports/op is 0).
func BenchmarkSaturatingMove(b *testing.B) {
	for _, n := range []int{1, 3, 9} {
		b.Run(fmt.Sprintf("mods=%d", n), func(b *testing.B) { benchMoves(b, saturatingMod(n), n, 0) })
	}
}

// BenchmarkWorstKnownMove: a move of the page with the programs of the
// cost search's corpus that take the most time an instruction (each a
// mod), one and three of each: the worst case of a move that is known.
func BenchmarkWorstKnownMove(b *testing.B) {
	for _, name := range []string{"found-time-f88cd809", "found-time-1c0626e9"} {
		src, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "scripting", "costsearch", "testdata", "corpus", name+".lua"))
		if err != nil {
			b.Fatal(err)
		}
		for _, n := range []int{1, 3} {
			b.Run(fmt.Sprintf("%s/mods=%d", name, n), func(b *testing.B) { benchMoves(b, string(src), n, 0) })
		}
	}
}

// benchMoves times a move of the page with n copies of a mod of one file,
// warmed by warm moves of each game first, and reports how many reports
// (mods' failures) a move makes and the slowest move (worst-ms).
func benchMoves(b *testing.B, src string, n, warm int) {
	var mods []bridge.ModSource
	for i := range n {
		mods = append(mods, costMod(fmt.Sprintf("m%d", i+1), src))
	}
	br := bridge.New()
	start := func() *bridge.View {
		v := ok(b, br.NewGame(bridge.Options{Mods: mods, Seed: "1"}, nil))
		for range warm {
			v = ok(b, br.Move(v.Legal[0]))
		}
		return v
	}
	v := start()
	reports := 0
	var worst time.Duration
	b.ResetTimer()
	for range b.N {
		if len(v.Legal) == 0 {
			b.StopTimer()
			v = start()
			b.StartTimer()
		}
		began := time.Now()
		v = ok(b, br.Move(v.Legal[0]))
		worst = max(worst, time.Since(began))
		reports += len(v.Reports)
	}
	b.ReportMetric(float64(reports)/float64(b.N), "reports/op")
	b.ReportMetric(float64(worst)/1e6, "worst-ms")
}

// TestFarKeyMod: a player's mod that sets a far integer key in a tick
// handler, t[67108863] = true, made gopher-lua allocate 1 GiB in one
// instruction: the page died at the first move (fatal error: out of
// memory). Now the key costs one entry, the move plays, and the page's heap
// hardly grows, natively and under WebAssembly (TestUnderWasm).
func TestFarKeyMod(t *testing.T) {
	before := liveHeap()
	b := bridge.New()
	src := "kept = {}\ngame.on(\"tick\", function()\n  local t = {}\n  t[67108863] = true\n  kept[#kept + 1] = t\nend)\n"
	mod := bridge.ModSource{Name: "mine", Files: map[string]string{"mine/mod.toml": ownManifest, "mine/main.lua": src}}
	v := ok(t, b.NewGame(bridge.Options{Mods: []bridge.ModSource{mod}, Seed: "1"}, nil))
	for move := 1; move <= 3; move++ {
		v = ok(t, b.Move(v.Legal[0]))
		if len(v.Reports) != 0 || !v.Changed {
			t.Fatalf("move %d: reports %+v, changed %v", move, v.Reports, v.Changed)
		}
	}
	if grown := int64(liveHeap()) - int64(before); grown > 16<<20 {
		t.Errorf("the live heap grew by %d MiB", grown>>20)
	}
}
