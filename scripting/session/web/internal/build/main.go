// Command build builds the browser game's assets into
// scripting/session/web/site, where package web embeds them: main.wasm
// (cmd/2048wasm for GOOS=js GOARCH=wasm, with -trimpath and -ldflags=-s
// -w), Go's wasm_exec.js, and main.wasm.stamp (package wasmstamp). make web
// runs it from the module's folder.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/mod2048/mod2048/scripting/session/web/internal/wasmstamp"
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
	site := filepath.Join(root, "scripting", "session", "web", "site")
	goBin := wasmstamp.Go()
	cmd := exec.Command(goBin, "build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(site, "main.wasm"), wasmstamp.Main)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build %s: %v", wasmstamp.Main, err)
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
	info, err := os.Stat(filepath.Join(site, "main.wasm"))
	if err != nil {
		return err
	}
	fmt.Printf("wrote %s (%d bytes), wasm_exec.js and %s\n", filepath.Join(site, "main.wasm"), info.Size(), wasmstamp.File)
	return nil
}
