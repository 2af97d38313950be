package web_test

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/mod2048/mod2048/cmd/internal/web"
	"github.com/mod2048/mod2048/cmd/internal/web/bridge"
	"github.com/mod2048/mod2048/cmd/internal/web/webtest"
)

// TestWorkshopLimits: the workshop's limits on a shared mod are the
// engine's on a player's mod.
func TestWorkshopLimits(t *testing.T) {
	js, err := fs.ReadFile(web.Site(), "workshop.js")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]int{"MAX_MOD_BYTES": bridge.MaxModBytes, "MAX_MOD_FILES": bridge.MaxModFiles} {
		m := regexp.MustCompile(`(?m)^\s*const ` + name + ` = (\d+);`).FindSubmatch(js)
		if m == nil {
			t.Errorf("workshop.js has no const %s = N;", name)
			continue
		}
		if n, _ := strconv.Atoi(string(m[1])); n != want {
			t.Errorf("workshop.js: %s = %d, and the engine's limit is %d", name, n, want)
		}
	}
}

// bombSpaces is what the bombs below inflate to: a main.lua of 200 MB
// of spaces, twelve times what a mod may have.
const bombSpaces = 200_000_000

// deflate writes the text parts, and n spaces after the first, deflated
// raw: never the whole text in memory. It returns the bytes and the CRC-32
// of what they inflate to.
func deflate(t *testing.T, before string, n int, after string) ([]byte, uint32) {
	t.Helper()
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, flate.BestSpeed)
	if err != nil {
		t.Fatal(err)
	}
	crc := crc32.NewIEEE()
	write := func(p []byte) {
		w.Write(p)
		crc.Write(p)
	}
	write([]byte(before))
	chunk := bytes.Repeat([]byte{' '}, 1<<20)
	for done := 0; done < n; done += len(chunk) {
		write(chunk[:min(len(chunk), n-done)])
	}
	write([]byte(after))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), crc.Sum32()
}

const bombManifest = "id = \"bomb\"\nname = \"Bomb\"\nversion = \"0.1.0\"\napi_version = 2\n"

// TestWorkshopShareBomb opens a share link whose JSON inflates to 200 MB
// (from a link of a few hundred KB), and imports a zip whose main.lua
// inflates to as much: each is refused as it inflates, with a message
// that says why, nothing of it is loaded, the JavaScript heap stays
// modest, and the game goes on.
func TestWorkshopShareBomb(t *testing.T) {
	b := webtest.Start(t) // a fresh profile: no mod kept in the workshop
	url := webtest.Serve(t, nil)

	prefix := fmt.Sprintf(`{"name":"bomb","files":{"mod.toml":%q,"main.lua":"`, bombManifest)
	packed, _ := deflate(t, prefix, bombSpaces, `"}}`)
	link := url + "#share=" + base64.RawURLEncoding.EncodeToString(packed)
	t.Logf("the link: %d characters, inflating to %d bytes", len(link), len(prefix)+bombSpaces+3)
	p := b.Open(t, link, webtest.PageOptions{Width: 1400, Height: 900})

	// Wait for the workshop's answer, and see the heap on the way.
	heap := func() (used, backing float64) {
		ctx, cancel := context.WithTimeout(p.Ctx(), 5*time.Second)
		defer cancel()
		if err := chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
			var err error
			used, _, _, backing, err = runtime.GetHeapUsage().Do(ctx)
			return err
		})); err != nil {
			t.Fatalf("the heap's use: %v", err)
		}
		return used, backing
	}
	const answered = `!!document.getElementById("ws-status") && document.getElementById("ws-status").textContent !== "" || (!!document.getElementById("ws-confirm") && !document.getElementById("ws-confirm").hidden)`
	var peak, backing float64
	for deadline := time.Now().Add(60 * time.Second); ; {
		used, bs := heap()
		peak, backing = max(peak, used), max(backing, bs)
		var ok bool
		p.Eval(answered, &ok)
		if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the workshop did not answer the link in 60s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	used, _ := heap()
	t.Logf("JavaScript heap: %.1f MiB at most while the link was read, %.1f MiB after; array buffers (the game's WebAssembly memory among them) at most %.1f MiB", peak/(1<<20), used/(1<<20), backing/(1<<20))
	if peak > 256<<20 || used > 256<<20 {
		t.Errorf("the JavaScript heap took %.0f MiB while the link was read", max(peak, used)/(1<<20))
	}
	if backing > 256<<20 {
		t.Errorf("array buffers took %.0f MiB while the link was read", backing/(1<<20))
	}
	var kind string
	p.Eval(`document.getElementById("ws-status").dataset.kind || ""`, &kind)
	if got, want := p.Text("#ws-status"), "The shared mod is larger than a mod may be (16 MiB): not opened."; kind != "error" || got != want {
		t.Errorf("the workshop says %q (%s), want %q", got, kind, want)
	}
	if p.Visible("#ws-confirm") {
		t.Errorf("the workshop asks: %q", p.Text("#ws-confirm"))
	}
	var mods int
	p.Eval(`(window.mod2048.view().view.mods || []).length`, &mods)
	if mods != 0 || p.Text("#ws-name") != "" {
		t.Errorf("the bomb is loaded: %d mods, the workshop's %q", mods, p.Text("#ws-name"))
	}
	if loc := location(p); !strings.HasSuffix(loc, "#workshop") {
		t.Errorf("after the refusal the address is %s…: a reload reads the link again", loc[:min(len(loc), 80)])
	}
	// The game goes on.
	var before string
	p.Eval(`JSON.stringify(window.mod2048.view().view.cells)`, &before)
	p.Click("#game")
	if !playUntil(t, p, fmt.Sprintf(`JSON.stringify(window.mod2048.view().view.cells) !== %q`, before), 4) {
		t.Error("the game takes no move after the link")
	}

	// A zip whose main.lua inflates to 200 MB, as its header says: the
	// engine refuses it by its header, before it inflates.
	data, crc := deflate(t, "", bombSpaces, "")
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create("bomb/mod.toml")
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte(bombManifest))
	if w, err = zw.CreateRaw(&zip.FileHeader{Name: "bomb/main.lua", Method: zip.Deflate, CRC32: crc, CompressedSize64: uint64(len(data)), UncompressedSize64: bombSpaces}); err != nil {
		t.Fatal(err)
	}
	w.Write(data)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	zipPath := filepath.Join(t.TempDir(), "bomb.zip")
	if err := os.WriteFile(zipPath, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	p.Eval(`document.getElementById("ws-status").textContent = ""`, nil)
	p.Run(chromedp.SetUploadFiles("#ws-import-zip", []string{zipPath}, chromedp.ByQuery))
	p.WaitFor(answered, waitLong)
	p.Eval(`document.getElementById("ws-status").dataset.kind || ""`, &kind)
	if got, want := p.Text("#ws-status"), `bomb.zip: entry "bomb/main.lua" has more than the 16 MiB a file of a mod may have`; kind != "error" || got != want {
		t.Errorf("after the zip the workshop says %q (%s), want %q", got, kind, want)
	}
	if p.Visible("#ws-confirm") {
		t.Errorf("the workshop asks: %q", p.Text("#ws-confirm"))
	}
	p.Eval(`(window.mod2048.view().view.mods || []).length`, &mods)
	if mods != 0 {
		t.Errorf("the zip's mod is loaded")
	}
	if used, _ := heap(); used > 256<<20 {
		t.Errorf("after the zip the JavaScript heap takes %.0f MiB", used/(1<<20))
	}
	p.Eval(`JSON.stringify(window.mod2048.view().view.cells)`, &before)
	p.Click("#game")
	if !playUntil(t, p, fmt.Sprintf(`JSON.stringify(window.mod2048.view().view.cells) !== %q`, before), 4) {
		t.Error("the game takes no move after the zip")
	}

	// A link of a small mod of more files than a mod may have.
	files := map[string]string{"mod.toml": bombManifest}
	for i := range bridge.MaxModFiles {
		files[fmt.Sprintf("f%03d.lua", i)] = ""
	}
	text, err := json.Marshal(map[string]any{"name": "bomb", "files": files})
	if err != nil {
		t.Fatal(err)
	}
	packed, _ = deflate(t, string(text), 0, "")
	q := b.Open(t, url+"#share="+base64.RawURLEncoding.EncodeToString(packed), webtest.PageOptions{Width: 1400, Height: 900})
	q.WaitFor(answered, waitLong)
	q.Eval(`document.getElementById("ws-status").dataset.kind || ""`, &kind)
	if got, want := q.Text("#ws-status"), fmt.Sprintf("The shared mod has %d files, more than the %d a mod may have: not opened.", bridge.MaxModFiles+1, bridge.MaxModFiles); kind != "error" || got != want {
		t.Errorf("the workshop says %q (%s), want %q", got, kind, want)
	}
	if q.Visible("#ws-confirm") {
		t.Errorf("the workshop asks: %q", q.Text("#ws-confirm"))
	}
	if logs := append(p.Logs(), q.Logs()...); len(logs) > 0 {
		t.Errorf("the pages logged errors: %v", logs)
	}
}
