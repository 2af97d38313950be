// Package wasmstamp says what the browser game's WebAssembly is built
// from: a stamp holding the Go version and a SHA-256 of the sources
// (every Go file and embedded file of the module's packages that
// cmd/2048wasm builds from for GOOS=js GOARCH=wasm, go.mod and go.sum). make web writes the stamp beside main.wasm; a test compares
// it with the sources' stamp, so that a stale main.wasm fails the tests
// instead of shipping.
package wasmstamp

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/andybalholm/brotli"
)

// Main is the package of the WebAssembly program.
const Main = "./cmd/2048wasm"

// File is the stamp's file name, beside main.wasm.
const File = "main.wasm.stamp"

// Compressed is the name of main.wasm compressed with brotli: the only
// form of it in the site's folder and in the repository.
const Compressed = "main.wasm.br"

// Compress compresses a wasm binary with brotli at its highest quality
// (11) and largest window (24 bits), as make web writes it.
func Compress(wasm []byte) ([]byte, error) {
	var buf bytes.Buffer
	w := brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: brotli.BestCompression, LGWin: 24})
	if _, err := w.Write(wasm); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// pkg is what go list -json says of a package, the fields used here.
type pkg struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	EmbedFiles []string
	Module     *struct {
		Main bool
	}
}

// Go returns the go command to run: $GOROOT/bin/go of the running
// toolchain when it exists, else go from PATH.
func Go() string {
	if root := os.Getenv("GOROOT"); root != "" {
		if p := filepath.Join(root, "bin", "go"); exists(p) {
			return p
		}
	}
	return "go"
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// WasmExec returns the path of the running Go's wasm_exec.js.
func WasmExec(goBin string) (string, error) {
	out, err := exec.Command(goBin, "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOROOT: %v", err)
	}
	root := strings.TrimSpace(string(out))
	for _, p := range []string{filepath.Join(root, "lib", "wasm", "wasm_exec.js"), filepath.Join(root, "misc", "wasm", "wasm_exec.js")} {
		if exists(p) {
			return p, nil
		}
	}
	return "", errors.New("wasm_exec.js is not in " + root + "/lib/wasm or misc/wasm")
}

// Compute returns the stamp of the module at root (its folder).
func Compute(goBin, root string) (string, error) {
	files, err := Sources(goBin, root)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", f, len(data))
		h.Write(data)
	}
	version, err := exec.Command(goBin, "env", "GOVERSION").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOVERSION: %v", err)
	}
	return fmt.Sprintf("go %s\nfiles %d\nsha256 %x\n", strings.TrimSpace(string(version)), len(files), h.Sum(nil)), nil
}

// Sources lists the files main.wasm is built from, by their
// slash-separated paths in the module at root, sorted: every Go file and
// embedded file of the module's packages that Main builds from for
// GOOS=js GOARCH=wasm, go.mod and go.sum.
func Sources(goBin, root string) ([]string, error) {
	cmd := exec.Command(goBin, "list", "-deps", "-json", Main)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v: %s", err, stderr.String())
	}
	var files []string
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list: %v", err)
		}
		if p.Module == nil || !p.Module.Main {
			continue
		}
		for _, f := range append(append([]string(nil), p.GoFiles...), p.EmbedFiles...) {
			rel, err := filepath.Rel(root, filepath.Join(p.Dir, f))
			if err != nil {
				return nil, err
			}
			files = append(files, filepath.ToSlash(rel))
		}
	}
	files = append(files, "go.mod", "go.sum")
	sort.Strings(files)
	return files, nil
}

// Commit returns the commit that main.wasm's sources are of: the last
// commit of the git clone at root that changed one of files (Sources),
// its time (RFC 3339, UTC), and whether the clone's files differ from it
// (changed, staged or new). It depends on nothing else of the clone:
// make web run twice on the same sources gives the same answer, though
// the first run changed main.wasm.br, and so does a run after the commit
// of main.wasm.br. An error when root is no git clone, or git is missing.
func Commit(root string, files []string) (rev, when string, dirty bool, err error) {
	git := func(args ...string) (string, error) {
		cmd := exec.Command("git", append([]string{"-C", root}, args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("git %s: %v: %s", args[0], err, strings.TrimSpace(stderr.String()))
		}
		return string(out), nil
	}
	paths := append([]string{"--"}, files...)
	log, err := git(append([]string{"log", "-1", "--format=%H %ct"}, paths...)...)
	if err != nil {
		return "", "", false, err
	}
	hash, secs, ok := strings.Cut(strings.TrimSpace(log), " ")
	n, perr := strconv.ParseInt(secs, 10, 64)
	if !ok || perr != nil || len(hash) < 7 {
		return "", "", false, fmt.Errorf("git log: no commit of the sources (%q)", log)
	}
	status, err := git(append([]string{"status", "--porcelain", "--untracked-files=all"}, paths...)...)
	if err != nil {
		return "", "", false, err
	}
	return hash, time.Unix(n, 0).UTC().Format(time.RFC3339), status != "", nil
}

// Stamp is a stamp read back: the Go version that built main.wasm (and
// whose wasm_exec.js is beside it), and the digest of the module's
// sources.
type Stamp struct {
	Go      string
	Sources string // "files N\nsha256 HEX"
}

// Parse reads a stamp as Compute writes it.
func Parse(text string) (Stamp, error) {
	goLine, rest, ok := strings.Cut(text, "\n")
	v, isGo := strings.CutPrefix(goLine, "go ")
	if !ok || !isGo || !strings.HasPrefix(rest, "files ") || !strings.Contains(rest, "\nsha256 ") {
		return Stamp{}, errors.New("not a stamp of make web")
	}
	return Stamp{Go: v, Sources: strings.TrimSpace(rest)}, nil
}

// Root returns the module's folder: the nearest folder at or above dir
// holding go.mod.
func Root(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if exists(filepath.Join(d, "go.mod")) {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", errors.New("no go.mod at or above " + dir)
		}
	}
}
