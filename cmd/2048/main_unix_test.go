//go:build unix

package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFixtureNotRegular: `2048 test DIR` with a named pipe, a link to
// /dev/zero and a huge file among its .cases reports each as a failure,
// named, and ends: before, the pipe hung it forever and /dev/zero grew its
// memory by hundreds of MB a second. The good file's case still runs.
func TestFixtureNotRegular(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.cases"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.cases")); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "huge.cases"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	good := "Case: G\nGiven:\n2 2 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\nMove: Left\nSpawnScript: [{1,1,2}]\nScoreΔ: 4\n"
	if err := os.WriteFile(filepath.Join(dir, "good.cases"), []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "test", ".")
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("2048 test hangs on a pipe or a device:\n%s", out.String())
	}
	if cmd.ProcessState.ExitCode() != 1 {
		t.Errorf("exit %v, want 1", err)
	}
	for _, want := range []string{
		"FAIL pipe.cases: a named pipe, not a regular file\n",
		"FAIL zero.cases: a character device, not a regular file\n",
		"FAIL huge.cases: 1073741824 bytes, more than the limit of 16 MiB\n",
		"1 passed, 3 failed\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// TestPlaySaveFIFO: a named pipe in place of the save stops `2048 play`
// at once with an error naming it, instead of waiting for a writer.
func TestPlaySaveFIFO(t *testing.T) {
	dir := t.TempDir()
	o, _, _ := parsePlay(nil, io.Discard)
	o.stateDir = dir
	s, err := newPlayer(o)
	if err != nil {
		t.Fatal(err)
	}
	path := s.store.Path(s.key)
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := s.start(o)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "cannot read "+path+" (a named pipe, not a regular file)") {
			t.Errorf("start: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a pipe in place of the save hangs the game")
	}
	if info, err := os.Lstat(path); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the pipe was replaced: %v", err)
	}
}
