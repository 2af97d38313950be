package web_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"

	"github.com/mod2048/mod2048/cmd/internal/web"
)

// editorDir is the workshop editor's npm project, beside this package.
const editorDir = "editor"

// editorBudget is the most editor.js.br may weigh, compressed.
const editorBudget = 300_000

// editorStamp computes the stamp of the editor's sources as build.mjs
// does: sha256 over package.json, package-lock.json, build.mjs and every
// file under src/, each as PATH\0LEN\0BYTES in sorted path order, paths
// relative to the editor's folder and slash-separated. The two must stay
// in step: node is not needed here, so CI can check freshness without it.
func editorStamp(dir string) (string, error) {
	files := []string{"package.json", "package-lock.json", "build.mjs"}
	err := filepath.WalkDir(filepath.Join(dir, "src"), func(p string, e fs.DirEntry, err error) error {
		if err != nil || !e.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Strings(files)
	h := sha256.New()
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", f, len(data))
		h.Write(data)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// TestEditorIsFresh fails when the embedded editor bundle is older than
// its sources: a change to src/, build.mjs or the npm packages needs make
// editor.
func TestEditorIsFresh(t *testing.T) {
	now, err := editorStamp(editorDir)
	if err != nil {
		t.Fatal(err)
	}
	built, err := fs.ReadFile(web.Site(), "editor.stamp")
	if err != nil {
		t.Fatalf("%v: run make editor", err)
	}
	if strings.TrimSpace(string(built)) != now {
		t.Fatalf("site/editor.js.br is stale: run make editor, and commit cmd/internal/web/site (stamp %q, sources %q)", strings.TrimSpace(string(built)), now)
	}
}

// TestEditorBundle: the bundle decodes to the script that defines
// mod2048Editor, within its budget, and its licences are beside it.
func TestEditorBundle(t *testing.T) {
	br, err := fs.ReadFile(web.Site(), "editor.js.br")
	if err != nil {
		t.Fatalf("%v: run make editor", err)
	}
	js, err := io.ReadAll(brotli.NewReader(bytes.NewReader(br)))
	if err != nil {
		t.Fatalf("editor.js.br does not decode with brotli: %v", err)
	}
	if !bytes.Contains(js, []byte("mod2048Editor")) {
		t.Errorf("editor.js.br decodes to a script without mod2048Editor")
	}
	if _, err := fs.Stat(web.Site(), "editor.js"); err == nil {
		t.Errorf("site/editor.js is there: the repository keeps the editor compressed only (editor.js.br); delete it")
	}
	t.Logf("editor.js: %d bytes raw, %d with brotli (budget %d)", len(js), len(br), editorBudget)
	if len(br) > editorBudget {
		t.Errorf("editor.js.br is over its budget: %d bytes, budget %d", len(br), editorBudget)
	}
	licences, err := fs.ReadFile(web.Site(), "editor-licenses.txt")
	if err != nil {
		t.Fatalf("%v: run make editor", err)
	}
	for _, want := range []string{"@codemirror/view", "MIT License", "Permission is hereby granted, free of charge"} {
		if !bytes.Contains(licences, []byte(want)) {
			t.Errorf("editor-licenses.txt lacks %q", want)
		}
	}
}
