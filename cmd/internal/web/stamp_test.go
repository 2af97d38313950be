package web_test

import (
	"bytes"
	"io/fs"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/cmd/internal/web"
	"github.com/mod2048/mod2048/cmd/internal/web/internal/wasmstamp"
)

// TestWasmIsFresh fails when the embedded main.wasm is older than its
// sources: a change to a package the browser game builds from (engine,
// scripting, config, the bridge, ...) needs make web.
func TestWasmIsFresh(t *testing.T) {
	goBin := wasmstamp.Go()
	if _, err := exec.LookPath(goBin); err != nil {
		t.Skip("no go command to list the sources with")
	}
	root, err := wasmstamp.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	now, err := wasmstamp.Compute(goBin, root)
	if err != nil {
		t.Fatal(err)
	}
	text, err := fs.ReadFile(web.Site(), wasmstamp.File)
	if err != nil {
		t.Fatalf("%v: run make web", err)
	}
	built, err := wasmstamp.Parse(string(text))
	if err != nil {
		t.Fatalf("site/%s: %v: run make web", wasmstamp.File, err)
	}
	sources, err := wasmstamp.Parse(now)
	if err != nil {
		t.Fatal(err)
	}
	if built.Sources != sources.Sources {
		t.Fatalf("site/main.wasm is stale: its sources changed since it was built (stamp %q, sources %q): run make web, and commit cmd/internal/web/site", built.Sources, sources.Sources)
	}
	if built.Go != sources.Go {
		t.Logf("site/main.wasm was built with %s, and this is %s: make web rebuilds it with this one", built.Go, sources.Go)
	}
}

// TestSiteFiles: the site has every file the page loads, main.wasm only
// compressed, and the compressed file decodes to a WebAssembly module.
func TestSiteFiles(t *testing.T) {
	for _, f := range []string{"index.html", "style.css", "game.js", "wasm_exec.js", web.Compressed, wasmstamp.File, web.ServiceWorker, "manifest.webmanifest", "icon-192.png", "icon-512.png"} {
		data, err := fs.ReadFile(web.Site(), f)
		if err != nil || len(data) == 0 {
			t.Errorf("the site lacks %s: run make web", f)
		}
	}
	if _, err := fs.Stat(web.Site(), "main.wasm"); err == nil {
		t.Errorf("site/main.wasm is there: the repository keeps main.wasm compressed only (%s); delete it and run make web", web.Compressed)
	}
	wasm, err := web.Wasm()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(wasm, []byte("\x00asm")) {
		t.Fatalf("%s does not decode to a WebAssembly module", web.Compressed)
	}
}

// The size budgets of main.wasm: on the wire (brotli, as served) and raw.
const (
	wireBudget = 2_000_000
	rawBudget  = 10_500_000 // 9.5 MB until the workshop's fixture runner (issue 32)
)

// wasmSizes returns main.wasm's size, raw and brotli-compressed.
func wasmSizes(t *testing.T) (raw, br int) {
	t.Helper()
	wasm, err := web.Wasm()
	if err != nil {
		t.Fatal(err)
	}
	data, err := fs.ReadFile(web.Site(), web.Compressed)
	if err != nil {
		t.Fatal(err)
	}
	return len(wasm), len(data)
}

// TestWasmLeavesOutTheExpert: the browser's WebAssembly does not carry the
// expert player (engine/ai and its packed board's tables, 2.3 MB built at
// every start): the page asks no tip of it.
func TestWasmLeavesOutTheExpert(t *testing.T) {
	goBin := wasmstamp.Go()
	if _, err := exec.LookPath(goBin); err != nil {
		t.Skip("no go command to list the packages with")
	}
	root, err := wasmstamp.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goBin, "list", "-deps", wasmstamp.Main)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasSuffix(pkg, "/engine/ai") || strings.HasSuffix(pkg, "/engine/bitboard") {
			t.Errorf("the WebAssembly builds from %s", pkg)
		}
	}
}

// workshopBudget is the most the workshop's code may weigh on the wire:
// its script, style and editor as served to a browser that accepts
// brotli (the editor compressed, the rest as they are).
const workshopBudget = 400_000

// workshopFiles are the files the page loads when the workshop opens.
var workshopFiles = []string{"workshop.js", "workshop.css", "editor.js"}

// workshopWire returns the bytes each workshop file takes on the wire,
// by its name, fetched from the site's handler as a browser does.
func workshopWire(t *testing.T) map[string]int {
	t.Helper()
	h, err := web.Handler(nil)
	if err != nil {
		t.Fatal(err)
	}
	sizes := map[string]int{}
	for _, f := range workshopFiles {
		req := httptest.NewRequest("GET", "/"+f, nil)
		req.Header.Set("Accept-Encoding", "gzip, deflate, br")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 {
			t.Fatalf("GET /%s: %d", f, rec.Code)
		}
		sizes[f] = rec.Body.Len()
	}
	return sizes
}

// TestWorkshopSize: the workshop's code is within its budget on the wire.
func TestWorkshopSize(t *testing.T) {
	sizes := workshopWire(t)
	total := 0
	for _, n := range sizes {
		total += n
	}
	t.Logf("the workshop on the wire: %d bytes (budget %d): %v", total, workshopBudget, sizes)
	if total > workshopBudget {
		t.Errorf("the workshop takes %d bytes on the wire, over its budget of %d: %v", total, workshopBudget, sizes)
	}
}
