package web_test

import (
	"fmt"
	"sort"
	"testing"

	"github.com/mod2048/mod2048/cmd/internal/web"
	"github.com/mod2048/mod2048/cmd/internal/web/bridge"
	"github.com/mod2048/mod2048/cmd/internal/web/webtest"
)

// TestBudgets measures, and reports with t.Logf (go test -v -run
// Budgets), the browser game's budgets: the size of main.wasm raw and on
// the wire (brotli), the time from page load to the first playable frame,
// and the time of a move in the browser (the engine's call through the
// bridge, the drawing, the save). The sizes fail above their budgets; it
// asserts nothing of the times: they are the machine's.
func TestBudgets(t *testing.T) {
	raw, br := wasmSizes(t)
	t.Logf("main.wasm: %.2f MB raw (budget %.1f), %.2f MB on the wire with brotli (budget %.1f)", float64(raw)/1e6, rawBudget/1e6, float64(br)/1e6, wireBudget/1e6)
	if raw > rawBudget || br > wireBudget {
		t.Errorf("main.wasm is over its budget: %d bytes raw (budget %d), %d with brotli (budget %d)", raw, rawBudget, br, wireBudget)
	}
	b := browser(t)
	o := bridge.Options{Ruleset: "classic", Seed: "31"}
	// Five first visits, each to a new server (a new origin: nothing of
	// it in the browser's caches, storage or service workers), each
	// followed by a reload once the service worker has the site.
	const loads = 5
	var first, again []timing
	var p *webtest.Page
	for i := 0; i < loads; i++ {
		p = b.Open(t, webtest.Serve(t, &web.Defaults{Options: o}), webtest.PageOptions{Motion: true})
		first = append(first, pageTiming(p))
		awaitWorker(p)
		p.Reload()
		again = append(again, pageTiming(p))
	}
	fr, fw := medianTiming(first)
	rr, rw := medianTiming(again)
	t.Logf("first visit (median of %d): engine ready %.0f ms, first playable frame %.0f ms (target ≤ 1500) after navigation; all: %v", loads, fw, fr, first)
	t.Logf("reload (median of %d): engine ready %.0f ms, first playable frame %.0f ms (target ≤ 600); all: %v", loads, rw, rr, again)
	keys := []string{"ArrowLeft", "ArrowDown", "ArrowRight", "ArrowDown"}
	for i := 0; i < 60; i++ {
		p.Press(keys[i%4])
		p.Idle()
	}
	var moves []struct{ Engine, Draw, Save float64 }
	p.Eval(`window.mod2048Timings.moves`, &moves)
	if len(moves) == 0 {
		t.Fatal("no move was timed")
	}
	med := func(f func(i int) float64) (float64, float64) {
		xs := make([]float64, len(moves))
		for i := range moves {
			xs[i] = f(i)
		}
		sort.Float64s(xs)
		return xs[len(xs)/2], xs[len(xs)*9/10]
	}
	e50, e90 := med(func(i int) float64 { return moves[i].Engine })
	d50, d90 := med(func(i int) float64 { return moves[i].Draw })
	s50, s90 := med(func(i int) float64 { return moves[i].Save })
	a50, a90 := med(func(i int) float64 { return moves[i].Engine + moves[i].Draw })
	t.Logf("a move in the browser on a 4×4 board over %d moves, median (p90): engine call %.2f ms (%.2f), DOM update %.2f ms (%.2f), engine + DOM %.2f ms (p90 %.2f; target p90 < 4), save to localStorage %.2f ms (%.2f)", len(moves), e50, e90, d50, d90, a50, a90, s50, s90)
	var loop float64
	p.Eval(`(() => { const t0 = performance.now(); const dirs = ["left", "up", "right", "down"]; for (let i = 0; i < 400; i++) window.mod2048.move(dirs[i % 4]); return (performance.now() - t0) / 400; })()`, &loop)
	t.Logf("the bridge's move alone, 400 calls in a loop: %.3f ms a call", loop)
}

// timing is a page load's times, in ms after navigation.
type timing struct{ WasmReady, FirstFrame float64 }

func (t timing) String() string { return fmt.Sprintf("%.0f/%.0f", t.WasmReady, t.FirstFrame) }

// pageTiming waits for the page's first playable frame and returns its
// load's times.
func pageTiming(p *webtest.Page) timing {
	var tm timing
	p.Await(`new Promise((resolve) => { const f = () => window.mod2048Timings.firstFrame ? resolve({WasmReady: window.mod2048Timings.wasmReady, FirstFrame: window.mod2048Timings.firstFrame}) : setTimeout(f, 10); f(); })`, &tm)
	return tm
}

// medianTiming returns the median first frame and engine ready of ts.
func medianTiming(ts []timing) (frame, ready float64) {
	var fs, rs []float64
	for _, t := range ts {
		fs, rs = append(fs, t.FirstFrame), append(rs, t.WasmReady)
	}
	sort.Float64s(fs)
	sort.Float64s(rs)
	return fs[len(fs)/2], rs[len(rs)/2]
}
