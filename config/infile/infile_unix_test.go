//go:build unix

package infile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadFIFO: a named pipe with no writer is refused at once, where
// os.ReadFile would wait for a writer forever.
func TestReadFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pipe.cases")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	_, err := readSoon(t, path, 1<<20)
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), path+": a named pipe, not a regular file") {
		t.Errorf("Read of a FIFO: %v", err)
	}
}

// TestReadDevZero: a link to /dev/zero is refused, where os.ReadFile grows
// memory without end.
func TestReadDevZero(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	path := filepath.Join(t.TempDir(), "zero.toml")
	if err := os.Symlink("/dev/zero", path); err != nil {
		t.Fatal(err)
	}
	_, err := readSoon(t, path, 1<<20)
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), path+": a character device, not a regular file") {
		t.Errorf("Read of /dev/zero: %v", err)
	}
}

// TestOpenFIFO: the open itself does not block on a pipe (the case of a
// file swapped for a pipe between the check and the open).
func TestOpenFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		f, err := open(path)
		if err == nil {
			info, serr := f.Stat()
			f.Close()
			if serr == nil {
				err = check(info, 100)
			}
		}
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("open and check of a FIFO: %v", err)
		}
	case <-timeout():
		t.Fatal("opening a FIFO blocked")
	}
}
