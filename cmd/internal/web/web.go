// Package web is the browser game: a static site (HTML, CSS, JavaScript
// and the game's engine built to WebAssembly, cmd/2048wasm) embedded in
// the program, served by `2048 serve` (Handler) or written to a folder
// for any static host (Write).
//
// The site's files are in site/. main.wasm.br (main.wasm compressed with
// brotli), wasm_exec.js and main.wasm.stamp there are built by make web
// and committed, so that `go install ./cmd/2048` gives a working `2048
// serve` without a WebAssembly build step; a test fails when main.wasm is
// older than its sources (package wasmstamp). Only the compressed file is
// in the repository: Handler sends it as it is to browsers that accept
// brotli and decodes it for the others, and Write writes both forms. The
// workshop's code editor is the same: editor.js.br, built by make editor
// from the npm project in editor/ with its licences (editor-licenses.txt)
// and the stamp of its sources (editor.stamp); every NAME.br of the site
// is served as NAME. The workshop's own script and style
// (workshop.js, workshop.css) are loaded with the editor only when the
// workshop opens.
//
// The page plays through the mod2048 object of package bridge alone. A
// server may give the page its first game's options (Defaults): `2048
// serve --ruleset cellular --mod mods/freeze` serves them as
// defaults.json, which a static site does without.
package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/andybalholm/brotli"

	"github.com/mod2048/mod2048/cmd/internal/web/bridge"
)

//go:embed site
var embedded embed.FS

// Site returns the site's files as embedded: index.html, style.css,
// game.js, wasm_exec.js, main.wasm.br and main.wasm.stamp, and for
// offline play and installing to a home screen sw.js (the service
// worker), manifest.webmanifest and its icons (icon-192.png, icon-512.png,
// drawn by cmd/internal/web/internal/icons); and the workshop's
// workshop.js, workshop.css, editor.js.br, editor.stamp and
// editor-licenses.txt. Wasm gives main.wasm itself.
func Site() fs.FS {
	sub, err := fs.Sub(embedded, "site")
	if err != nil {
		panic(err) // the folder is embedded: it is there
	}
	return sub
}

// Defaults are the options of the page's first game, served as
// defaults.json. A game the page saved under the same options is resumed;
// otherwise a new game of these options starts.
type Defaults struct {
	Options bridge.Options `json:"options"`
}

// DefaultsFile is the name the page fetches the defaults by.
const DefaultsFile = "defaults.json"

// Check builds a game of d's options, as the page will: an error in them
// (a configuration or a mod that does not load) is found before the
// site is served.
func (d *Defaults) Check() error {
	b := bridge.New()
	defer b.Close()
	o := d.Options
	if o.Seed == "" {
		o.Seed = "1"
	}
	if r := b.NewGame(o, nil); r.Error != nil {
		return r.Error
	}
	return nil
}

// Compressed is main.wasm's name compressed with brotli, as embedded.
const Compressed = "main.wasm.br"

var wasmOnce struct {
	sync.Once
	data []byte
	err  error
}

// Wasm returns main.wasm, decoded from the embedded main.wasm.br once.
func Wasm() ([]byte, error) {
	wasmOnce.Do(func() {
		br, err := fs.ReadFile(Site(), Compressed)
		if err != nil {
			wasmOnce.err = fmt.Errorf("the site lacks %s: run make web", Compressed)
			return
		}
		wasmOnce.data, wasmOnce.err = decode("main.wasm", br)
	})
	return wasmOnce.data, wasmOnce.err
}

// Handler serves the embedded site, with defaults.json when d is not nil.
func Handler(d *Defaults) (http.Handler, error) { return SiteHandler(Site(), d) }

// SiteHandler serves site, a folder of the site's files as Site gives
// them, with defaults.json when d is not nil. Tests serve altered sites
// with it (a new version over an old one).
//
// Every file goes with a strong ETag (a digest of what is sent) and
// Cache-Control: no-cache, so a browser keeps it in its HTTP cache and
// asks again on each load, answered by 304 Not Modified while the file
// is the same: a reload downloads nothing, and the browser's cache of
// compiled WebAssembly (kept beside the cached main.wasm, in the HTTP
// cache or the service worker's) stays valid. main.wasm goes as the site holds it, brotli-compressed, to
// a browser that accepts brotli (every browser of today does over HTTPS
// and on localhost), and decoded to any other client, each form with its
// own ETag. sw.js, the service worker, is sent with the site's version
// (Version) in it.
func SiteHandler(site fs.FS, d *Defaults) (http.Handler, error) {
	var defaults []byte
	if d != nil {
		var err error
		if defaults, err = json.Marshal(d); err != nil {
			return nil, err
		}
	}
	files, err := served(site)
	if err != nil {
		return nil, err
	}
	if _, ok := files[Compressed]; !ok {
		return nil, fmt.Errorf("the site lacks %s: run make web", Compressed)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /"+DefaultsFile, func(w http.ResponseWriter, r *http.Request) {
		if defaults == nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.Write(defaults)
	})
	for name, br := range files {
		if plain, ok := strings.CutSuffix(name, ".br"); ok {
			mux.HandleFunc("GET /"+plain, compressedHandler(plain, br.data))
		}
	}
	mux.HandleFunc("GET /", func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/")
		if name == "" {
			name = "index.html"
		}
		f, ok := files[name]
		if !ok {
			http.NotFound(w, r)
			return
		}
		serveFile(w, r, f)
	})
	return mux, nil
}

// compressedHandler serves the file name, which the site holds compressed
// with brotli (br): as it is, with Content-Encoding: br, to a browser that
// accepts brotli, and decoded (once) to any other client, each form with
// its own ETag.
func compressedHandler(name string, br []byte) http.HandlerFunc {
	ctype := contentType(name)
	sent := &file{data: br, etag: etagOf(br, "br"), ctype: ctype}
	var raw struct {
		sync.Once
		f   *file
		err error
	}
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Vary", "Accept-Encoding")
		if accepts(r, "br") {
			w.Header().Set("Content-Encoding", "br")
			serveFile(w, r, sent)
			return
		}
		raw.Do(func() {
			var data []byte
			if data, raw.err = decode(name, br); raw.err == nil {
				raw.f = &file{data: data, etag: etagOf(data, ""), ctype: ctype}
			}
		})
		if raw.err != nil {
			http.Error(w, raw.err.Error(), http.StatusInternalServerError)
			return
		}
		serveFile(w, r, raw.f)
	}
}

// HostGuard serves h only to requests that name the server in their Host
// header, as local development servers do, so that a page of another
// site whose name was made to point at this address (DNS rebinding) cannot
// read the game's files and defaults. host is the host the server was
// told to listen on (the HOST of --addr HOST:PORT: a name, an address, or
// "" for every interface), port the port it listens on. Accepted, with
// that port (or none for port 80):
//
//   - host itself;
//   - localhost, 127.0.0.1 and [::1], when host is a loopback address or
//     localhost;
//   - localhost and any IP address, when host is "", 0.0.0.0 or :: (every
//     interface): an address, unlike a name, cannot be rebound.
//
// Any other Host is answered 421 Misdirected Request with a short text.
func HostGuard(h http.Handler, host string, port int) http.Handler {
	host = strings.ToLower(strings.Trim(host, "[]"))
	ip := net.ParseIP(host)
	loopback := host == "localhost" || ip != nil && ip.IsLoopback()
	every := host == "" || ip != nil && ip.IsUnspecified()
	allowed := func(name string) bool {
		name = strings.ToLower(strings.Trim(name, "[]"))
		nip := net.ParseIP(name)
		switch {
		case name == host && !every:
			return true
		case nip != nil && ip != nil && nip.Equal(ip) && !every:
			return true
		case loopback && (name == "localhost" || nip != nil && nip.IsLoopback()):
			return true
		case every && (name == "localhost" || nip != nil):
			return true
		}
		return false
	}
	want := strconv.Itoa(port)
	shown := host
	if every {
		shown = "localhost"
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, p, err := net.SplitHostPort(r.Host)
		if err != nil {
			name, p = r.Host, "80"
		}
		if r.Host == "" || p != want || !allowed(name) {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.Header().Set("X-Content-Type-Options", "nosniff")
			w.WriteHeader(http.StatusMisdirectedRequest)
			fmt.Fprintf(w, "421 misdirected request: this server answers to %s only\n", net.JoinHostPort(shown, want))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// file is a file as served: its bytes, strong ETag and content type.
type file struct {
	data  []byte
	etag  string
	ctype string
}

// serveFile sends f, or 304 Not Modified to a request whose If-None-Match
// names f's ETag (http.ServeContent answers it, and ranges).
func serveFile(w http.ResponseWriter, r *http.Request, f *file) {
	h := w.Header()
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", f.etag)
	h.Set("Content-Type", f.ctype)
	h.Set("X-Content-Type-Options", "nosniff")
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(f.data))
}

// etagOf is a strong ETag of data, with the name of its coding if any.
func etagOf(data []byte, coding string) string {
	sum := sha256.Sum256(data)
	tag := hex.EncodeToString(sum[:12])
	if coding != "" {
		tag += "-" + coding
	}
	return `"` + tag + `"`
}

// contentTypes are the types of the site's files by extension.
var contentTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".png":         "image/png",
	".webmanifest": "application/manifest+json",
	".stamp":       "text/plain; charset=utf-8",
	".br":          "application/octet-stream",
	".wasm":        "application/wasm",
	".txt":         "text/plain; charset=utf-8",
}

// contentType is the type of the site's file name.
func contentType(name string) string {
	if t, ok := contentTypes[path.Ext(name)]; ok {
		return t
	}
	return "application/octet-stream"
}

// served reads the site's files as they are served and written: sw.js
// with the site's version in it.
func served(site fs.FS) (map[string]*file, error) {
	version, err := Version(site)
	if err != nil {
		return nil, err
	}
	files := map[string]*file{}
	err = fs.WalkDir(site, ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		data, err := fs.ReadFile(site, p)
		if err != nil {
			return err
		}
		if p == ServiceWorker {
			data = bytes.ReplaceAll(data, []byte(versionMark), []byte(version))
		}
		files[p] = &file{data: data, etag: etagOf(data, ""), ctype: contentType(p)}
		return nil
	})
	return files, err
}

// ServiceWorker is the service worker's file: it keeps the site (page,
// style, scripts, main.wasm, manifest and icons) in the browser's cache
// as one set named by the site's version, so that the game loads and
// plays with no network after a first visit, and a new version replaces
// the whole set at once.
const ServiceWorker = "sw.js"

// versionMark is what the site's version replaces in sw.js.
const versionMark = "@VERSION@"

// Version returns the site's version: a digest of every file of site
// (sw.js as written, before its version is put in), so that any change to
// the page, its scripts or main.wasm gives a new version, and the service
// worker a new cache.
func Version(site fs.FS) (string, error) {
	h := sha256.New()
	err := fs.WalkDir(site, ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		data, err := fs.ReadFile(site, p)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", p, len(data))
		h.Write(data)
		return nil
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)[:8]), nil
}

// decode decodes the brotli-compressed file name.
func decode(name string, br []byte) ([]byte, error) {
	data, err := io.ReadAll(brotli.NewReader(bytes.NewReader(br)))
	if err != nil {
		return nil, fmt.Errorf("%s.br: %v", name, err)
	}
	return data, nil
}

// accepts reports whether r's Accept-Encoding takes coding (with a
// quality above 0).
func accepts(r *http.Request, coding string) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(part, ";")
		if !strings.EqualFold(strings.TrimSpace(name), coding) {
			continue
		}
		q, ok := strings.CutPrefix(strings.ReplaceAll(params, " ", ""), "q=")
		if !ok {
			return true
		}
		v, err := strconv.ParseFloat(q, 64)
		return err == nil && v > 0
	}
	return false
}

// Write writes the site to the folder dir, created if need be, with
// defaults.json when d is not nil: a static site for any host. main.wasm
// is written decoded, with main.wasm.br beside it for hosts that serve
// precompressed files (as nginx's brotli_static does). Files of the site
// already in dir are replaced; nothing else there is touched.
func Write(dir string, d *Defaults) error {
	if dir == "" {
		return errors.New("no folder to write the site to")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files, err := served(Site())
	if err != nil {
		return err
	}
	for p, f := range files {
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, f.data, 0o644); err != nil {
			return err
		}
	}
	for p, f := range files {
		plain, ok := strings.CutSuffix(p, ".br")
		if !ok {
			continue
		}
		data, err := decode(plain, f.data)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(plain)), data, 0o644); err != nil {
			return err
		}
	}
	if d == nil {
		return nil
	}
	data, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, path.Clean(DefaultsFile)), append(data, '\n'), 0o644)
}

// Files lists the files Write writes, for messages.
func Files() []string {
	var names []string
	fs.WalkDir(Site(), ".", func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			names = append(names, p)
			if plain, ok := strings.CutSuffix(p, ".br"); ok {
				names = append(names, plain)
			}
		}
		return nil
	})
	return names
}
