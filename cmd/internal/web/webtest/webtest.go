// Package webtest drives the browser game in a headless Chromium for
// end-to-end tests (chromedp): it serves the site on a loopback port,
// opens the page, presses keys, swipes, waits for the page to be idle and
// reads the board back from the page's DOM.
//
// Start skips the test when Chromium is missing, unless CI=true, when
// the test fails instead.
package webtest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/mod2048/mod2048/cmd/internal/web"
)

// Chromium returns the path of a Chromium to drive, or "".
func Chromium() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Browser is a headless Chromium with a fresh profile.
type Browser struct {
	ctx    context.Context
	cancel func()
	once   sync.Once
}

// Start starts a headless Chromium for t, ended when t ends.
func Start(t testing.TB) *Browser {
	t.Helper()
	path := Chromium()
	if path == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("chromium is missing: the browser game's end-to-end tests need it (apt-get install chromium)")
		}
		t.Skip("chromium is missing")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("font-render-hinting", "none"),
		chromedp.Flag("disable-breakpad", true),
		chromedp.Flag("disable-crash-reporter", true),
		// A tab Chromium takes for a background one gets no animation
		// frames and slowed timers: on a loaded machine a test's page once
		// had no frame for a minute (Click's first look never came back).
		// These are chromedp's and Puppeteer's defaults.
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.WindowSize(600, 900),
	}
	// The profile is a folder of our own, not t.TempDir: Chromium and its
	// helper processes may still be writing to it for a moment after the
	// browser has gone, and t.TempDir's removal then fails the test
	// ("directory not empty"). stop closes the browser, waits for its
	// process, and removes the folder as well as it can; a folder that
	// cannot be removed yet is left in the system's temporary folder.
	profile, err := os.MkdirTemp("", "mod2048-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts = append(opts, chromedp.UserDataDir(profile))
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	b := &Browser{ctx: ctx}
	b.cancel = func() { stop(ctx, cancel, acancel, profile) }
	if err := chromedp.Run(ctx); err != nil {
		b.Close()
		t.Fatalf("starting %s: %v", path, err)
	}
	t.Cleanup(b.Close)
	return b
}

// stop closes the browser of ctx gracefully (killing it if it does not
// close within a few seconds), waits for its process to end, and then
// removes its profile folder, trying again for a while as the last
// helper processes finish their writes. It never fails a test.
func stop(ctx context.Context, cancel, acancel context.CancelFunc, profile string) {
	cctx, ccancel := context.WithTimeout(ctx, 5*time.Second)
	chromedp.Cancel(cctx)
	ccancel()
	cancel()
	acancel()
	if c := chromedp.FromContext(ctx); c != nil && c.Allocator != nil {
		if w, ok := c.Allocator.(interface{ Wait() }); ok {
			w.Wait()
		}
	}
	for i := 0; i < 50; i++ {
		if os.RemoveAll(profile) == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Close stops the browser and removes its profile. Start arranges it for
// the test's end; a browser shared by several tests is closed by hand.
func (b *Browser) Close() { b.once.Do(b.cancel) }

// Serve serves the site with defaults d on a loopback port for t and
// returns its address.
func Serve(t testing.TB, d *web.Defaults) string {
	t.Helper()
	h, err := web.Handler(d)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// Server serves a site on a loopback port, by a handler a test may
// replace (a new version of the site) or stop (no network).
type Server struct {
	URL string
	srv *httptest.Server
	h   atomic.Pointer[http.Handler]
}

// NewServer serves h on a loopback port until t ends.
func NewServer(t testing.TB, h http.Handler) *Server {
	t.Helper()
	s := &Server{}
	s.h.Store(&h)
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { (*s.h.Load()).ServeHTTP(w, r) }))
	s.URL = s.srv.URL
	t.Cleanup(s.srv.Close)
	return s
}

// Set serves h from now on, at the same address.
func (s *Server) Set(h http.Handler) { s.h.Store(&h) }

// Stop stops the server: the address refuses connections, as with no
// network.
func (s *Server) Stop() {
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// Page is a tab with the game.
type Page struct {
	t      testing.TB
	ctx    context.Context
	cancel context.CancelFunc
	URL    string

	mu   sync.Mutex
	logs []string
}

func (p *Page) logf(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.logs = append(p.logs, fmt.Sprintf(format, args...))
}

// Logs returns the page's errors and exceptions so far.
func (p *Page) Logs() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.logs...)
}

// PageOptions say how a page is opened.
type PageOptions struct {
	// Motion keeps the animations; without it the tab asks for reduced
	// motion, and the page draws each move at once.
	Motion bool
	// Width and Height are the viewport's size (default 600 × 900).
	Width, Height int64
}

// Open opens url in a new tab and waits for the game to be ready.
func (b *Browser) Open(t testing.TB, url string, o PageOptions) *Page {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx)
	t.Cleanup(cancel)
	// The tab belongs to the context of the first Run: one without a
	// deadline, so that the deadlines of later steps do not close it.
	if err := chromedp.Run(ctx); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	if o.Width == 0 {
		o.Width, o.Height = 600, 900
	}
	p := &Page{t: t, ctx: ctx, cancel: cancel, URL: url}
	chromedp.ListenTarget(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			p.logf("page exception: %s", ev.ExceptionDetails.Error())
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.APITypeError || ev.Type == runtime.APITypeWarning {
				var parts []string
				for _, a := range ev.Args {
					parts = append(parts, string(a.Value)+a.Description)
				}
				p.logf("page console %s: %s", ev.Type, strings.Join(parts, " "))
			}
		}
	})
	motion := "reduce"
	if o.Motion {
		motion = "no-preference"
	}
	p.run(
		emulation.SetDeviceMetricsOverride(o.Width, o.Height, 1, false),
		emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: motion}}),
		emulation.SetTouchEmulationEnabled(true).WithMaxTouchPoints(2),
		// The tab in front, as the one a person looks at: a tab behind
		// another may get no animation frames.
		page.BringToFront(),
		chromedp.Navigate(url),
	)
	p.WaitReady()
	return p
}

func (p *Page) run(actions ...chromedp.Action) {
	p.t.Helper()
	// A bound for a stuck browser, not a measure: a loaded machine may
	// take seconds for a page's load.
	ctx, cancel := context.WithTimeout(p.ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Run(ctx, actions...); err != nil {
		p.t.Fatalf("browser: %v\npage: %s\nlogs:\n%s", err, p.state(), strings.Join(p.Logs(), "\n"))
	}
}

// state is what a failed step's message shows of the page: whether its
// game is ready and idle, what it is loading, its notice, whether the
// workshop's code has loaded, its fragment, whether it is shown, and its
// load's timings (ms since the page's start).
func (p *Page) state() string {
	var state string
	ctx, cancel := context.WithTimeout(p.ctx, 2*time.Second)
	defer cancel()
	if err := chromedp.Run(ctx, chromedp.Evaluate(`JSON.stringify({ready: document.body.dataset.ready, busy: document.body.dataset.busy, loading: (document.getElementById("loading") || {}).textContent, notice: (document.getElementById("notice-text") || {}).textContent, workshop: !!window.mod2048Workshop, hash: location.hash, visibility: document.visibilityState, timings: (({moves, saves, ...t}) => t)(window.mod2048Timings || {moves: [], saves: []})})`, &state)); err != nil {
		return "unreadable: " + err.Error()
	}
	return state
}

// WaitReady waits for the page's game to be ready and idle.
func (p *Page) WaitReady() {
	p.t.Helper()
	p.run(chromedp.WaitVisible(`body[data-ready="1"]`, chromedp.ByQuery))
	p.Idle()
}

// WaitFor waits until the JavaScript expression cond is true on the page,
// asking again every 50 ms for up to timeout; an evaluation that fails
// (the page is between two documents) is asked again.
func (p *Page) WaitFor(cond string, timeout time.Duration) {
	p.t.Helper()
	deadline := time.Now().Add(timeout)
	var last error
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(p.ctx, 2*time.Second)
		var ok bool
		last = chromedp.Run(ctx, chromedp.Evaluate(cond, &ok))
		cancel()
		if last == nil && ok {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.t.Fatalf("waited %v for %s (last error: %v)\npage: %s\nlogs:\n%s", timeout, cond, last, p.state(), strings.Join(p.Logs(), "\n"))
}

// Reload reloads the page and waits for the game.
func (p *Page) Reload() {
	p.t.Helper()
	p.run(chromedp.Reload())
	p.WaitReady()
}

// Idle waits until the page has played every input and drawn the board.
func (p *Page) Idle() {
	p.t.Helper()
	p.run(chromedp.WaitVisible(`body[data-busy="0"]`, chromedp.ByQuery))
}

// Keys maps key names to what chromedp types.
var Keys = map[string]string{
	"ArrowLeft": kb.ArrowLeft, "ArrowRight": kb.ArrowRight, "ArrowUp": kb.ArrowUp, "ArrowDown": kb.ArrowDown,
	"Enter": kb.Enter,
}

// Press presses keys (names of Keys, or characters) on the page, without
// waiting for the page to play them.
func (p *Page) Press(keys ...string) {
	p.t.Helper()
	var actions []chromedp.Action
	for _, k := range keys {
		if s, ok := Keys[k]; ok {
			k = s
		}
		actions = append(actions, chromedp.KeyEvent(k))
	}
	p.run(actions...)
}

// Swipe swipes one finger over the board from its centre by dx, dy CSS
// pixels.
func (p *Page) Swipe(dx, dy float64) {
	p.t.Helper()
	var box []float64
	p.Eval(`(() => { const r = document.getElementById("game").getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`, &box)
	x, y := box[0], box[1]
	p.run(
		input.DispatchTouchEvent(input.TouchStart, []*input.TouchPoint{{X: x, Y: y}}),
		input.DispatchTouchEvent(input.TouchMove, []*input.TouchPoint{{X: x + dx/2, Y: y + dy/2}}),
		input.DispatchTouchEvent(input.TouchMove, []*input.TouchPoint{{X: x + dx, Y: y + dy}}),
		input.DispatchTouchEvent(input.TouchEnd, []*input.TouchPoint{}),
	)
}

// Click clicks the element sel (a CSS selector) where a person would, as
// the action Click does.
func (p *Page) Click(sel string) {
	p.t.Helper()
	p.run(Click(sel))
}

// Click is an action that clicks the element sel (a CSS selector) where a
// person would: it waits until the element is shown, scrolls it into view
// if it is not, waits until it has kept its place for a frame and is what
// a click at its centre hits (Playwright's checks before a click), then
// clicks there.
//
// chromedp.Click reads the point once, straight after asking for the
// scroll, and clicks there whatever is there. On a loaded machine that
// scroll came before the page's next frame, and Chromium 156 then left the
// settings that the test had opened from a script at their closed height
// for good: the click landed below the end of the page, on nothing, and
// the test waited a minute for a game that never started. Click lets a
// whole frame pass first, and fails saying what is in the way.
func Click(sel string) chromedp.Action { return TryClick(sel, 0) }

// TryClick is Click that gives up after looks looks (0: none, Click) found
// no point to click, with an error that says why the last one did not
// (ErrNotClickable): a test that expects an element to stay unclickable
// counts looks, not seconds, so that a slow machine, which looks fewer
// times a second, fails it no sooner and says the same.
func TryClick(sel string, looks int) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		why := "not yet looked at"
		for n := 1; ; n++ {
			x, y, whyNot, err := clickablePoint(ctx, sel)
			if err != nil {
				return fmt.Errorf("clicking %s: %s: %w", sel, why, err)
			}
			if whyNot == "" {
				return chromedp.MouseClickXY(x, y).Do(ctx)
			}
			why = whyNot
			if n == looks {
				return fmt.Errorf("clicking %s: %d looks: %s: %w", sel, n, why, ErrNotClickable)
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("clicking %s: %s: %w", sel, why, ctx.Err())
			case <-time.After(50 * time.Millisecond):
			}
		}
	})
}

// ErrNotClickable is the error of a TryClick that gave up.
var ErrNotClickable = errors.New("no person could click it")

// WhyNotClickable looks once, as Click does before it clicks, whether a
// person could click the element sel, and says why not ("" if they
// could): a test that expects an element to stay covered waits for the
// reason.
func (p *Page) WhyNotClickable(sel string) string {
	p.t.Helper()
	var why string
	p.run(chromedp.ActionFunc(func(ctx context.Context) error {
		var err error
		_, _, why, err = clickablePoint(ctx, sel)
		return err
	}))
	return why
}

// clickablePoint looks once where a person would click the element sel:
// the point, or why there is none yet. ctx is an action's.
func clickablePoint(ctx context.Context, sel string) (x, y float64, whyNot string, err error) {
	var at struct {
		OK   bool
		X, Y float64
		Why  string
	}
	err = chromedp.Evaluate(fmt.Sprintf(clickable, sel), &at, func(e *runtime.EvaluateParams) *runtime.EvaluateParams {
		return e.WithAwaitPromise(true)
	}).Do(ctx)
	if err == nil && !at.OK && at.Why == "" {
		at.Why = "the page said nothing"
	}
	return at.X, at.Y, at.Why, err
}

// clickable is the page's side of Click: the point to click the element
// of the selector (a %q), or why there is none yet.
const clickable = `(async (sel) => {
	// A frame, or five seconds without one (a loaded machine's frames take
	// a fraction of that): a page Chromium has stopped drawing (a tab it
	// takes for a background one) still answers, and says so, and the
	// layout read below is forced either way.
	let starved = false;
	const frame = () => new Promise((done) => {
		const t = setTimeout(() => { starved = true; done(); }, 5000);
		requestAnimationFrame(() => { clearTimeout(t); done(); });
	});
	// A whole frame (the second's callbacks run after the first's layout):
	// what the test has just changed is laid out before Click reads it.
	await frame();
	await frame();
	if (starved) return {why: "the page draws no frames (visibility " + document.visibilityState + ")"};
	const el = document.querySelector(sel);
	if (!el) return {why: "nothing matches it"};
	// checkVisibility, not a box alone: an element in a closed <details>
	// (content-visibility: hidden, in Chromium 156) has a box, below the
	// end of the page, where no scroll brings it.
	if (!el.checkVisibility({visibilityProperty: true}) || el.getClientRects().length === 0) return {why: "it is not shown"};
	const r = el.getBoundingClientRect();
	if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) el.scrollIntoView({block: "center", inline: "nearest"});
	await frame();
	const a = el.getBoundingClientRect();
	await frame();
	const b = el.getBoundingClientRect();
	if (a.x !== b.x || a.y !== b.y || a.width !== b.width || a.height !== b.height) return {why: "it is moving"};
	const x = b.x + b.width / 2, y = b.y + b.height / 2;
	const hit = document.elementFromPoint(x, y);
	if (!hit) return {why: "its centre (" + Math.round(x) + ", " + Math.round(y) + ") is outside the window (" + innerWidth + " × " + innerHeight + ", scrolled to " + Math.round(scrollY) + " of " + document.documentElement.scrollHeight + ")"};
	if (hit !== el && !el.contains(hit)) return {why: "a click at its centre (" + Math.round(x) + ", " + Math.round(y) + ") hits " + hit.tagName.toLowerCase() + (hit.id ? "#" + hit.id : "")};
	return {ok: true, x, y};
})(%q)`

// Eval evaluates a JavaScript expression into out.
func (p *Page) Eval(expr string, out any) {
	p.t.Helper()
	p.run(chromedp.Evaluate(expr, out))
}

// Await evaluates a JavaScript expression whose value is a promise, into
// the value it resolves to.
func (p *Page) Await(expr string, out any) {
	p.t.Helper()
	p.run(chromedp.Evaluate(expr, out, func(e *runtime.EvaluateParams) *runtime.EvaluateParams { return e.WithAwaitPromise(true) }))
}

// Close closes the page's tab (else closed when the test ends).
func (p *Page) Close() { p.cancel() }

// Ctx is the page's chromedp context, to listen to its events.
func (p *Page) Ctx() context.Context { return p.ctx }

// Run runs chromedp actions on the page.
func (p *Page) Run(actions ...chromedp.Action) { p.t.Helper(); p.run(actions...) }

// Board reads the board from the page's tiles: rows of cells in the
// ruleset's notation, empty written as empty ("0" for classic, "." for
// cellular), as a fixture writes them.
func (p *Page) Board(empty string) string {
	p.t.Helper()
	var b struct {
		W, H  int
		Cells map[string]string
	}
	p.Eval(`(() => {
		const cells = {};
		for (const el of document.querySelectorAll("#tiles .tile")) cells[el.dataset.row + "," + el.dataset.col] = el.dataset.cell;
		const n = document.querySelectorAll("#grid .grid-cell");
		const last = n[n.length - 1];
		return { W: Number(last.style.getPropertyValue("--c")) + 1, H: Number(last.style.getPropertyValue("--r")) + 1, Cells: cells };
	})()`, &b)
	var sb strings.Builder
	for r := 0; r < b.H; r++ {
		for c := 0; c < b.W; c++ {
			if c > 0 {
				sb.WriteByte(' ')
			}
			v, ok := b.Cells[fmt.Sprintf("%d,%d", r, c)]
			if !ok {
				v = empty
			}
			sb.WriteString(v)
		}
		if r < b.H-1 {
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}

// Text returns the text of the element sel.
func (p *Page) Text(sel string) string {
	p.t.Helper()
	var s string
	p.Eval(fmt.Sprintf(`(document.querySelector(%q) || {}).textContent || ""`, sel), &s)
	return s
}

// Visible reports whether the element sel is shown (not hidden).
func (p *Page) Visible(sel string) bool {
	p.t.Helper()
	var ok bool
	p.Eval(fmt.Sprintf(`(() => { const e = document.querySelector(%q); return !!e && !e.hidden && e.getClientRects().length > 0; })()`, sel), &ok)
	return ok
}

// Screenshot returns a PNG of the page's main column.
func (p *Page) Screenshot() []byte {
	p.t.Helper()
	return p.ScreenshotOf(".container")
}

// ScreenshotOf returns a PNG of the element sel (a CSS selector).
func (p *Page) ScreenshotOf(sel string) []byte {
	p.t.Helper()
	var png []byte
	p.run(chromedp.Screenshot(sel, &png, chromedp.ByQuery))
	return png
}

// ScreenshotView returns a PNG of the viewport: what the player sees,
// beside the main column too.
func (p *Page) ScreenshotView() []byte {
	p.t.Helper()
	var png []byte
	p.run(chromedp.CaptureScreenshot(&png))
	return png
}
