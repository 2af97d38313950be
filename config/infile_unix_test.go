//go:build unix

package config

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLoadFileNotRegular checks that LoadFile and Build (--config) refuse a
// named pipe, a link to /dev/zero and a file over MaxFileSize with an error
// naming the file, and return at once instead of hanging or filling memory.
func TestLoadFileNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.toml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	zero := filepath.Join(dir, "zero.toml")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.toml")
	if err := os.WriteFile(huge, []byte("size = 4\n"+strings.Repeat("#", MaxFileSize)), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ path, want string }{
		{fifo, fifo + ": a named pipe, not a regular file"},
		{zero, zero + ": a character device, not a regular file"},
		{huge, huge + ": 1048585 bytes, more than the limit of 1 MiB"},
		{dir, dir + ": a folder, not a regular file"},
	}
	for _, tt := range tests {
		for _, how := range []string{"LoadFile", "Build"} {
			done := make(chan error, 1)
			go func() {
				var err error
				if how == "LoadFile" {
					_, err = LoadFile(tt.path, "classic")
				} else {
					_, err = Build(BuildOptions{File: tt.path})
				}
				done <- err
			}()
			select {
			case err := <-done:
				if err == nil || err.Error() != tt.want {
					t.Errorf("%s(%s) = %v, want %q", how, filepath.Base(tt.path), err, tt.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s(%s) hangs", how, filepath.Base(tt.path))
			}
		}
	}
}
