package web_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
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
}
