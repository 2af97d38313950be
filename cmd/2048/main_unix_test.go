//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
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

// TestSimTuneTerminatedInScreen: SIGTERM stops a tune that names no lever
// while its screen is under way (a cellular tune's first minutes) and it
// still leaves its best answer: the file --write names holds the best
// point the screen measured, marked partial, with the rates measured
// there, and the report says the same, as a study stopped prints its
// partial table. The signal is sent once a point's line has come.
func TestSimTuneTerminatedInScreen(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(binary, "sim", "tune", "--ruleset", "cellular", "--difficulty", "early", "--tune", "greedy=0.5",
		"--tune-screen", "300", "--jobs", "1", "--write", "tuned.toml")
	cmd.Dir = dir
	var stdout bytes.Buffer
	var stderr syncBuffer
	cmd.Stdout = &stdout
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The lines of stderr, as they come: the first point's says the
	// screen has measured a candidate.
	measured, copied := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(copied)
		lines := bufio.NewScanner(pipe)
		seen := false
		for lines.Scan() {
			stderr.Write(append(lines.Bytes(), '\n'))
			if !seen && strings.Contains(lines.Text(), "screening the levers, 1 of ") {
				seen = true
				close(measured)
			}
		}
	}()
	select {
	case <-measured:
	case <-copied:
		cmd.Wait()
		t.Fatalf("the tune ended with no screen's line:\n%s", stderr.String())
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-copied
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(stderr.String(), "stopped: the report and the file hold the best candidate measured so far") {
		t.Fatalf("exit %v\n%s", err, stderr.String())
	}
	if strings.Contains(stderr.String(), "the levers chosen") {
		t.Fatalf("the screen ended before the signal:\n%s", stderr.String())
	}
	file, err := os.ReadFile(filepath.Join(dir, "tuned.toml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# partial: the tune was stopped; the best candidate measured, not checked\n", "# measured on 300 games at each skill: greedy ", "(targets greedy 50%)\n"} {
		if !strings.Contains(string(file), want) {
			t.Errorf("the file lacks %q:\n%s", want, file)
		}
	}
	if check, e, code := run2048(t, dir, "config", "check", "tuned.toml"); code != 0 {
		t.Errorf("config check: exit %d\n%s%s", code, check, e)
	}
	for _, want := range []string{"partial: the tune was stopped", "measured on 300 games at each skill: greedy ", "the screen was stopped: the best point it measured"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, stdout.String())
		}
	}
}
