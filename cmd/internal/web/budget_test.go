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
	fr, fw, fi := medianTiming(first)
	rr, rw, ri := medianTiming(again)
	t.Logf("first visit (median of %d): first playable frame %.0f ms after navigation (target ≤ 1500); engine ready %.0f ms, main.wasm fetched and compiled in %.0f ms; all (compiled/ready/frame): %v", loads, fr, fw, fi, first)
	t.Logf("reload (median of %d): first playable frame %.0f ms after navigation (target ≤ 600); engine ready %.0f ms, main.wasm from the service worker's cache and compiled (the compiled-code cache) in %.0f ms; all: %v", loads, rr, rw, ri, again)
	keys := []string{"ArrowLeft", "ArrowDown", "ArrowRight", "ArrowDown"}
	for i := 0; i < 120; i++ {
		p.Press(keys[i%4])
		p.Idle()
	}
	var moves []struct{ Engine, Draw float64 }
	var saves []float64
	p.Eval(`window.mod2048Timings.moves`, &moves)
	p.Eval(`window.mod2048Timings.saves`, &saves)
	if len(moves) == 0 || len(saves) == 0 {
		t.Fatal("no move was timed")
	}
	pct := func(n int, f func(i int) float64) (float64, float64) {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = f(i)
		}
		sort.Float64s(xs)
		return xs[n/2], xs[n*9/10]
	}
	e50, e90 := pct(len(moves), func(i int) float64 { return moves[i].Engine })
	d50, d90 := pct(len(moves), func(i int) float64 { return moves[i].Draw })
	a50, a90 := pct(len(moves), func(i int) float64 { return moves[i].Engine + moves[i].Draw })
	s50, s90 := pct(len(saves), func(i int) float64 { return saves[i] })
	t.Logf("a move in the browser on a 4×4 board over %d moves: engine + drawing p90 %.2f ms (target p90 < 4), median %.2f; engine call median %.2f ms (p90 %.2f), drawing (the animation's start and its last frame) %.2f ms (p90 %.2f); the save after the frame %.2f ms (p90 %.2f)", len(moves), a90, a50, e50, e90, d50, d90, s50, s90)
	var loop float64
	p.Eval(`(() => { const t0 = performance.now(); const dirs = ["left", "up", "right", "down"]; for (let i = 0; i < 400; i++) window.mod2048.move(dirs[i % 4]); return (performance.now() - t0) / 400; })()`, &loop)
	t.Logf("the bridge's move alone, 400 calls in a loop: %.3f ms a call", loop)
}

// timing is a page load's times, in ms after navigation.
type timing struct{ Instantiate, WasmReady, FirstFrame float64 }

func (t timing) String() string {
	return fmt.Sprintf("%.0f/%.0f/%.0f", t.Instantiate, t.WasmReady, t.FirstFrame)
}

// pageTiming waits for the page's first playable frame and returns its
// load's times.
func pageTiming(p *webtest.Page) timing {
	var tm timing
	p.Await(`new Promise((resolve) => { const f = () => window.mod2048Timings.firstFrame ? resolve({Instantiate: window.mod2048Timings.instantiate, WasmReady: window.mod2048Timings.wasmReady, FirstFrame: window.mod2048Timings.firstFrame}) : setTimeout(f, 10); f(); })`, &tm)
	return tm
}

// medianTiming returns the median first frame, engine ready and
// instantiation of ts.
func medianTiming(ts []timing) (frame, ready, inst float64) {
	var fs, rs, is []float64
	for _, t := range ts {
		fs, rs, is = append(fs, t.FirstFrame), append(rs, t.WasmReady), append(is, t.Instantiate)
	}
	sort.Float64s(fs)
	sort.Float64s(rs)
	sort.Float64s(is)
	return fs[len(fs)/2], rs[len(rs)/2], is[len(is)/2]
}
