package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeMakeRun: make run, the README's first command, says that it
// is building before the build, whose first run takes a minute and says
// nothing: its recipe's first line prints it. Run with GO set to a
// command that echoes its arguments, the recipe prints that line, then
// runs the go command on ./cmd/2048.
func TestReadmeMakeRun(t *testing.T) {
	makeBin, err := exec.LookPath("make")
	if err != nil {
		t.Skip("no make")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "make run ") {
		t.Fatal("the README does not name make run")
	}
	fakeGo := filepath.Join(t.TempDir(), "go")
	if err := os.WriteFile(fakeGo, []byte("#!/bin/sh\necho \"go $*\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(makeBin, "--no-print-directory", "-s", "run", "GO="+fakeGo)
	cmd.Dir = "../.."
	out, err := cmd.CombinedOutput()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err != nil || len(lines) != 2 || !strings.HasPrefix(lines[0], "building 2048") || lines[1] != "go run ./cmd/2048" {
		t.Errorf("make run: %v\n%s\nwant a line saying it builds 2048, then go run ./cmd/2048", err, out)
	}
}
