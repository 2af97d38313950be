package web_test

import (
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"

	"github.com/mod2048/mod2048/cmd/internal/web"
)

// TestServeWasm: main.wasm goes brotli-compressed, as embedded, to a
// client that accepts brotli, within the wire budget, and decoded to one
// that does not; both are the same module.
func TestServeWasm(t *testing.T) {
	h, err := web.Handler(nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	want, err := web.Wasm()
	if err != nil {
		t.Fatal(err)
	}
	get := func(accept string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL+"/main.wasm", nil)
		if accept != "" {
			req.Header.Set("Accept-Encoding", accept)
		}
		// A transport of its own, so that Go's client neither asks for
		// gzip nor decodes anything.
		res, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/wasm" {
			t.Fatalf("Accept-Encoding %q: %s, Content-Type %q", accept, res.Status, res.Header.Get("Content-Type"))
		}
		return res, body
	}
	for _, accept := range []string{"br", "gzip, deflate, br, zstd", "BR;q=0.5"} {
		res, body := get(accept)
		if res.Header.Get("Content-Encoding") != "br" {
			t.Fatalf("Accept-Encoding %q: Content-Encoding %q, want br", accept, res.Header.Get("Content-Encoding"))
		}
		if len(body) > 2_000_000 {
			t.Errorf("Accept-Encoding %q: %d bytes on the wire, over the 2.0 MB budget", accept, len(body))
		}
		got, err := io.ReadAll(brotli.NewReader(bytes.NewReader(body)))
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("Accept-Encoding %q: the body does not decode to main.wasm (%v)", accept, err)
		}
	}
	for _, accept := range []string{"", "gzip", "br;q=0", "identity"} {
		res, body := get(accept)
		if ce := res.Header.Get("Content-Encoding"); ce != "" {
			t.Fatalf("Accept-Encoding %q: Content-Encoding %q, want none", accept, ce)
		}
		if !bytes.Equal(body, want) {
			t.Fatalf("Accept-Encoding %q: the body is not main.wasm (%d bytes, want %d)", accept, len(body), len(want))
		}
	}
}

// TestWriteBothForms: a written site has main.wasm raw and main.wasm.br
// beside it, for static hosts that serve precompressed files.
func TestWriteBothForms(t *testing.T) {
	dir := t.TempDir()
	if err := web.Write(dir, nil); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "main.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	br, err := os.ReadFile(filepath.Join(dir, web.Compressed))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(brotli.NewReader(bytes.NewReader(br)))
	if err != nil || !bytes.Equal(got, raw) || !bytes.HasPrefix(raw, []byte("\x00asm")) {
		t.Fatalf("the written main.wasm.br does not decode to the written main.wasm (%v)", err)
	}
	for _, f := range web.Files() {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("Files lists %s, which Write did not write", f)
		}
	}
	// The installable, offline site: manifest, icons, and the service
	// worker with the site's version in it.
	for _, f := range []string{"manifest.webmanifest", "icon-192.png", "icon-512.png"} {
		if !slices.Contains(web.Files(), f) {
			t.Errorf("Files lacks %s", f)
		}
	}
	version, err := web.Version(web.Site())
	if err != nil {
		t.Fatal(err)
	}
	sw, err := os.ReadFile(filepath.Join(dir, web.ServiceWorker))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(sw), `const VERSION = "`+version+`";`) {
		t.Errorf("the written %s does not carry the site's version %s", web.ServiceWorker, version)
	}
}

// TestServeETag: every file goes with a strong ETag and Cache-Control:
// no-cache, and a request naming that ETag in If-None-Match is answered
// 304 with no body; main.wasm's two forms have ETags of their own.
func TestServeETag(t *testing.T) {
	h, err := web.Handler(nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	get := func(p, accept, inm string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL+p, nil)
		req.Header.Set("Accept-Encoding", accept)
		if inm != "" {
			req.Header.Set("If-None-Match", inm)
		}
		res, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		return res, body
	}
	tags := map[string]string{}
	for _, c := range []struct{ path, accept string }{
		{"/", "br"}, {"/game.js", "br"}, {"/style.css", ""}, {"/wasm_exec.js", ""}, {"/" + web.ServiceWorker, "br"},
		{"/manifest.webmanifest", ""}, {"/icon-192.png", ""}, {"/main.wasm", "gzip, br"}, {"/main.wasm", "gzip"},
	} {
		res, body := get(c.path, c.accept, "")
		tag := res.Header.Get("ETag")
		if res.StatusCode != 200 || len(body) == 0 {
			t.Fatalf("%s: %s, %d bytes", c.path, res.Status, len(body))
		}
		if !strings.HasPrefix(tag, `"`) || !strings.HasSuffix(tag, `"`) || len(tag) < 10 {
			t.Fatalf("%s: ETag %q, want a strong one", c.path, tag)
		}
		if cc := res.Header.Get("Cache-Control"); cc != "no-cache" {
			t.Errorf("%s: Cache-Control %q, want no-cache", c.path, cc)
		}
		if old, ok := tags[c.path]; ok && old == tag {
			t.Errorf("%s: the same ETag %s for its brotli and raw forms", c.path, tag)
		}
		tags[c.path] = tag
		res, body = get(c.path, c.accept, tag)
		if res.StatusCode != http.StatusNotModified || len(body) != 0 {
			t.Fatalf("%s with If-None-Match %s: %s, %d bytes; want 304 and no body", c.path, tag, res.Status, len(body))
		}
		res, _ = get(c.path, c.accept, `"other"`)
		if res.StatusCode != 200 {
			t.Fatalf("%s with another ETag: %s", c.path, res.Status)
		}
	}
	if res, _ := get("/nothing.js", "", ""); res.StatusCode != 404 {
		t.Errorf("/nothing.js: %s, want 404", res.Status)
	}
}

// TestServiceWorkerFiles: the service worker keeps every file the page
// loads (the site's files but the compressed wasm, its stamp and the
// worker itself, and main.wasm as the page asks for it), and the served
// sw.js carries the site's version.
func TestServiceWorkerFiles(t *testing.T) {
	src, err := fs.ReadFile(web.Site(), web.ServiceWorker)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, list := range []string{"FILES", "LAZY"} {
		m := regexp.MustCompile(`const ` + list + ` = \[([^\]]*)\];`).FindSubmatch(src)
		if m == nil {
			t.Fatalf("%s has no %s list", web.ServiceWorker, list)
		}
		var names []string
		if err := json.Unmarshal([]byte("["+string(m[1])+"]"), &names); err != nil {
			t.Fatal(err)
		}
		kept = append(kept, names...)
	}
	// The page's files: the site's, each compressed file by the name the
	// page asks for, without the stamps and the worker itself.
	want := []string{"./"}
	fs.WalkDir(web.Site(), ".", func(p string, e fs.DirEntry, err error) error {
		switch {
		case err != nil || e.IsDir() || p == "index.html" || p == web.ServiceWorker || strings.HasSuffix(p, ".stamp"):
		case strings.HasSuffix(p, ".br"):
			want = append(want, strings.TrimSuffix(p, ".br"))
		default:
			want = append(want, p)
		}
		return nil
	})
	slices.Sort(kept)
	slices.Sort(want)
	if !slices.Equal(kept, want) {
		t.Errorf("%s keeps %q, want the page's files %q", web.ServiceWorker, kept, want)
	}
	h, err := web.Handler(nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	res, err := http.Get(srv.URL + "/" + web.ServiceWorker)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	version, err := web.Version(web.Site())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(body, []byte(`const VERSION = "`+version+`";`)) || res.Header.Get("Content-Type") != "text/javascript; charset=utf-8" {
		t.Errorf("the served %s (%s) does not carry the version %s", web.ServiceWorker, res.Header.Get("Content-Type"), version)
	}
}
