package web_test

import (
	"bytes"
	"compress/gzip"
	"io/fs"
	"os/exec"
	"testing"

	"github.com/mod2048/mod2048/scripting/session/web"
	"github.com/mod2048/mod2048/scripting/session/web/internal/wasmstamp"
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
		t.Fatalf("site/main.wasm is stale: its sources changed since it was built (stamp %q, sources %q): run make web, and commit scripting/session/web/site", built.Sources, sources.Sources)
	}
	if built.Go != sources.Go {
		t.Logf("site/main.wasm was built with %s, and this is %s: make web rebuilds it with this one", built.Go, sources.Go)
	}
}

// TestSiteFiles: the site has every file the page loads.
func TestSiteFiles(t *testing.T) {
	for _, f := range []string{"index.html", "style.css", "game.js", "wasm_exec.js", "main.wasm", wasmstamp.File} {
		data, err := fs.ReadFile(web.Site(), f)
		if err != nil || len(data) == 0 {
			t.Errorf("the site lacks %s: run make web", f)
		}
	}
}

// wasmSizes returns main.wasm's size, raw and gzipped.
func wasmSizes(t *testing.T) (raw, gz int) {
	data, err := fs.ReadFile(web.Site(), "main.wasm")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(data)
	zw.Close()
	return len(data), buf.Len()
}
