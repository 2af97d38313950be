// Command build builds the browser game's assets into
// cmd/internal/web/site, where package web embeds them: main.wasm.br
// (cmd/2048wasm for GOOS=js GOARCH=wasm, with -trimpath, -buildvcs=false
// and -ldflags=-s -w and the commit of its sources (wasmstamp.Commit,
// version.LinkFlags), compressed with brotli at its highest quality), Go's
// wasm_exec.js, and main.wasm.stamp (package wasmstamp). The raw main.wasm is built in
// a temporary folder and never written to the site: the repository holds
// the compressed file only. make web runs it from the module's folder.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/mod2048/mod2048/cmd/internal/version"
	"github.com/mod2048/mod2048/cmd/internal/web/internal/wasmstamp"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "build:", err)
		os.Exit(1)
	}
}

func run() error {
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	root, err := wasmstamp.Root(wd)
	if err != nil {
		return err
	}
	site := filepath.Join(root, "cmd", "internal", "web", "site")
	tmp, err := os.MkdirTemp("", "mod2048-wasm-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	raw := filepath.Join(tmp, "main.wasm")
	goBin := wasmstamp.Go()
	// The build knows the commit of its sources from the linker, not from
	// the go command's VCS information (-buildvcs=false), which would
	// change with any file of the clone (main.wasm.br itself): the same
	// sources at the same commit build the same bytes.
	ldflags := "-s -w"
	sources, err := wasmstamp.Sources(goBin, root)
	if err != nil {
		return err
	}
	if rev, when, dirty, err := wasmstamp.Commit(root, sources); err != nil {
		fmt.Fprintf(os.Stderr, "build: main.wasm will not know its commit: %v\n", err)
	} else {
		ldflags += " " + version.LinkFlags(rev, when, dirty)
	}
	cmd := exec.Command(goBin, "build", "-trimpath", "-buildvcs=false", "-ldflags="+ldflags, "-o", raw, wasmstamp.Main)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build %s: %v", wasmstamp.Main, err)
	}
	wasm, err := os.ReadFile(raw)
	if err != nil {
		return err
	}
	br, err := wasmstamp.Compress(wasm)
	if err != nil {
		return err
	}
	if err := writeAtomic(filepath.Join(site, wasmstamp.Compressed), br); err != nil {
		return err
	}
	// A raw main.wasm left by an older build would be embedded and
	// served stale.
	if err := os.Remove(filepath.Join(site, "main.wasm")); err != nil && !os.IsNotExist(err) {
		return err
	}
	execJS, err := wasmstamp.WasmExec(goBin)
	if err != nil {
		return err
	}
	js, err := os.ReadFile(execJS)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(site, "wasm_exec.js"), js, 0o644); err != nil {
		return err
	}
	stamp, err := wasmstamp.Compute(goBin, root)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(site, wasmstamp.File), []byte(stamp), 0o644); err != nil {
		return err
	}
	fmt.Printf("wrote %s (%d bytes; %d raw), wasm_exec.js and %s\n", filepath.Join(site, wasmstamp.Compressed), len(br), len(wasm), wasmstamp.File)
	return nil
}

// writeAtomic writes data to path through a temporary file in its folder.
func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".build-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
