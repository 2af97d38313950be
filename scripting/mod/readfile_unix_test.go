//go:build unix

package mod_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mod2048/mod2048/scripting/mod"
)

// within runs f and fails the test if it does not return in 10 s: a mod's
// file must never hang the program that reads it.
func within(t *testing.T, what string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatalf("%s hangs", what)
		return nil
	}
}

// TestManifestNotRegular: a mod's mod.toml that is a named pipe, a device
// or a huge file is refused at once with an error naming it. Before, a
// pipe hung `play --mod` and a link to /dev/zero filled the memory. (The
// host's test TestModFilesNotRegular does the same for a Lua file.)
func TestManifestNotRegular(t *testing.T) {
	fifo := func(path string) {
		os.Remove(path)
		if err := syscall.Mkfifo(path, 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}
	zero := func(path string) {
		os.Remove(path)
		if err := os.Symlink("/dev/zero", path); err != nil {
			t.Fatal(err)
		}
	}
	huge := func(path string) {
		if err := os.WriteFile(path, []byte("-- "+strings.Repeat("x", mod.MaxManifest)+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		name string
		make func(string)
		want string
	}{
		{"fifo", fifo, "mod.toml: a named pipe, not a regular file"},
		{"zero", zero, "mod.toml: a character device, not a regular file"},
		{"huge", huge, "mod.toml: 65540 bytes, more than the limit of 64 KiB"},
	} {
		dir, path := writeManifest(t, "")
		tt.make(path)
		err := within(t, "Load with a "+tt.name+" manifest", func() error {
			_, err := mod.Load(dir)
			return err
		})
		if err == nil || err.Error() != filepath.Join(dir, tt.want) {
			t.Errorf("%s manifest: %v, want %q", tt.name, err, filepath.Join(dir, tt.want))
		}
	}
}

// TestManifestLimitDocumented: MODDING.md's limits table gives the
// manifest's limit.
func TestManifestLimitDocumented(t *testing.T) {
	guide, err := os.ReadFile("../../MODDING.md")
	if err != nil {
		t.Fatal(err)
	}
	row := "| `mod.toml` | 64 KiB |\n"
	if mod.MaxManifest != 64<<10 || !strings.Contains(string(guide), row) {
		t.Errorf("MODDING.md lacks the row %q for MaxManifest %d", row, mod.MaxManifest)
	}
}
