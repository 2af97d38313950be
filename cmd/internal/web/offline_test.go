package web_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/andybalholm/brotli"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/mod2048/mod2048/cmd/internal/web"
	"github.com/mod2048/mod2048/cmd/internal/web/bridge"
	"github.com/mod2048/mod2048/cmd/internal/web/webtest"
	"github.com/mod2048/mod2048/engine"
)

// ownMod is a shipped mod given as a player's own (file by file, as a
// picked folder): it reaches the page through the game's options, which
// the page keeps in localStorage.
func ownMod(t *testing.T, id string) bridge.ModSource {
	t.Helper()
	src := bridge.ModSource{Name: id, Files: map[string]string{}}
	sub, err := fs.Sub(modsFS(), id)
	if err != nil {
		t.Fatal(err)
	}
	err = fs.WalkDir(sub, ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		data, err := fs.ReadFile(sub, p)
		src.Files[p] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestOffline: after a first visit the game loads and plays with no
// network, a shipped mod and a player's own mod included: the server
// stops, the page reloads, resumes its game, and plays on, checked
// against the engine move by move; then a new seeded game starts from
// the settings, offline too.
func TestOffline(t *testing.T) {
	b := browser(t)
	o := bridge.Options{Ruleset: "classic", Mods: []bridge.ModSource{{Builtin: "freeze"}, ownMod(t, "ghost")}, Seed: "17"}
	h, err := web.Handler(&web.Defaults{Options: o})
	if err != nil {
		t.Fatal(err)
	}
	srv := webtest.NewServer(t, h)
	p := b.Open(t, srv.URL, webtest.PageOptions{})
	m := newMirror(t, o, 17)
	same(t, p, m, "start")
	order := []engine.Direction{engine.Left, engine.Down, engine.Right, engine.Up}
	for i := 0; i < 4; i++ {
		p.Press(arrows[order[i%4]])
		m.move(order[i%4])
		same(t, p, m, fmt.Sprintf("online move %d", i+1))
	}
	awaitWorker(p)

	srv.Stop()
	p.Reload()
	var offline bool
	p.Await(`fetch("defaults.json", {cache: "no-store"}).then(() => false, () => true)`, &offline)
	if !offline {
		t.Fatal("the server still answers")
	}
	same(t, p, m, "offline reload")
	for i := 4; i < 16 && !m.s.Status().Over(); i++ {
		d := order[i*3%4]
		p.Press(arrows[d])
		m.move(d)
		same(t, p, m, fmt.Sprintf("offline move %d", i+1))
	}

	// A new seeded game from the settings, with the same mods.
	p.Run(
		webtest.Click("#settings summary"),
		chromedp.SetValue("#seed", "23", chromedp.ByQuery),
		webtest.Click("#start"),
	)
	p.Idle()
	var mods []string
	p.Eval(`window.mod2048.view().view.mods.map((m) => m.id)`, &mods)
	if fmt.Sprint(mods) != "[freeze ghost]" {
		t.Fatalf("offline new game: mods %v, want freeze and ghost", mods)
	}
	m = newMirror(t, o, 23)
	same(t, p, m, "offline new game")
	p.Click("#game")
	for i := 0; i < 8 && !m.s.Status().Over(); i++ {
		d := order[i%4]
		p.Press(arrows[d])
		m.move(d)
		same(t, p, m, fmt.Sprintf("offline new game move %d", i+1))
	}
	if logs := p.Logs(); len(logs) > 0 {
		t.Errorf("the page logged errors offline:\n%v", logs)
	}
}

// versioned is the embedded site as a version named name: a page with a
// visible marker of it, and a main.wasm naming it in a custom section
// (the page shows it as body[data-wasm-version]).
func versioned(t *testing.T, name string) fs.FS {
	t.Helper()
	site := fstest.MapFS{}
	err := fs.WalkDir(web.Site(), ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		data, err := fs.ReadFile(web.Site(), p)
		site[p] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	page := site["index.html"].Data
	marker := []byte(`<p id="version-marker">version ` + name + `</p>`)
	site["index.html"].Data = bytes.Replace(page, []byte(`<main class="container">`), append([]byte(`<main class="container">`), marker...), 1)
	wasm, err := web.Wasm()
	if err != nil {
		t.Fatal(err)
	}
	// A custom section (id 0): its size, its name's size, name, payload.
	payload := append([]byte{byte(len("mod2048.version"))}, "mod2048.version"...)
	payload = append(payload, name...)
	section := append([]byte{0, byte(len(payload))}, payload...)
	named := append(append([]byte(nil), wasm...), section...)
	var buf bytes.Buffer
	w := brotli.NewWriterLevel(&buf, 1)
	if _, err := io.Copy(w, bytes.NewReader(named)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	site[web.Compressed].Data = buf.Bytes()
	return site
}

// TestNewVersion: a new version of the site replaces the one the service
// worker keeps, whole, on the next visit: the page and main.wasm are of
// the new version together, and the old set is gone from the cache, also
// offline.
func TestNewVersion(t *testing.T) {
	b := browser(t)
	siteA, siteB := versioned(t, "A"), versioned(t, "B")
	hA, err := web.SiteHandler(siteA, nil)
	if err != nil {
		t.Fatal(err)
	}
	hB, err := web.SiteHandler(siteB, nil)
	if err != nil {
		t.Fatal(err)
	}
	vB, err := web.Version(siteB)
	if err != nil {
		t.Fatal(err)
	}
	const is = `(document.getElementById("version-marker") || {}).textContent === "version %[1]s" && document.body.dataset.wasmVersion === "%[1]s" && document.body.dataset.ready === "1"`
	srv := webtest.NewServer(t, hA)
	p := b.Open(t, srv.URL, webtest.PageOptions{})
	p.WaitFor(fmt.Sprintf(is, "A"), waitLong)
	awaitWorker(p)
	p.Press("ArrowLeft")
	p.Idle()
	// The workshop, opened once online under version A.
	p.Click("#open-workshop")
	p.WaitFor(`!!window.mod2048Workshop && !!document.getElementById("ws-new-form")`, waitLong)
	p.Eval(`location.hash = ""`, nil)

	srv.Set(hB)
	// A reload that waits for nothing: the page may reload itself.
	p.Run(chromedp.ActionFunc(func(ctx context.Context) error { return page.Reload().Do(ctx) }))
	// The page may come from version A's set first; once version B's
	// worker has its set it takes over and the page reloads.
	p.WaitFor(fmt.Sprintf(is, "B"), waitLong)
	p.WaitFor(`!!navigator.serviceWorker.controller && navigator.serviceWorker.controller.state === "activated"`, waitLong)
	var names []string
	p.Await(`caches.keys()`, &names)
	if fmt.Sprint(names) != "[mod2048-"+vB+"]" {
		t.Fatalf("the caches are %v, want version B's alone (mod2048-%s)", names, vB)
	}

	// Version B's set holds the workshop's files, of version B.
	var held []string
	p.Await(`caches.open("mod2048-`+vB+`").then((c) => Promise.all(["workshop.js", "workshop.css", "editor.js"].map((f) => c.match(f).then((r) => r ? f : ""))))`, &held)
	if fmt.Sprint(held) != "[workshop.js workshop.css editor.js]" {
		t.Errorf("version B's set holds %v of the workshop's files", held)
	}

	srv.Stop()
	p.Reload()
	p.WaitFor(fmt.Sprintf(is, "B"), waitLong)
	p.Press("ArrowRight")
	p.Idle()
	// Offline, the workshop opens.
	p.Click("#open-workshop")
	p.WaitFor(`!!window.mod2048Workshop && !!document.getElementById("ws-new-form")`, waitLong)
}
