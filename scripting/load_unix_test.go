//go:build unix

package scripting_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
)

// within runs f and fails the test if it does not return in 10 s: a mod's
// file must never hang the host.
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

// TestModFilesNotRegular: a mod's Lua file that is a named pipe, a device
// or a huge file is refused at once with an error naming it. Before, a
// pipe hung `play --mod` and a link to /dev/zero filled the memory. (Package
// mod's TestManifestNotRegular does the same for a mod.toml.)
func TestModFilesNotRegular(t *testing.T) {
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
	huge := func(size int) func(string) {
		return func(path string) {
			if err := os.WriteFile(path, []byte("-- "+strings.Repeat("x", size)+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	lua := []struct {
		name string
		make func(string)
		want string
	}{
		{"fifo", fifo, "main.lua: a named pipe, not a regular file"},
		{"huge", huge(mod.MaxSource), "main.lua: 262148 bytes, more than the limit of 256 KiB"},
		// A link to /dev/zero lies outside the mod's folder.
		{"zero", zero, "main.lua: it lies outside the mod's folder"},
	}
	for _, tt := range lua {
		dir := writeMod(t, "pipes", "", map[string]string{"main.lua": "-- nothing\n", "lib.lua": "return 1\n"})
		tt.make(filepath.Join(dir, "main.lua"))
		m, err := mod.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		err = within(t, "NewHost with a "+tt.name+" main.lua", func() error {
			h, err := scripting.NewHost([]*mod.Mod{m}, engine.NewClassic(), engine.Options{Width: 4, Height: 4, UndoLimit: 10}, scripting.DefaultLimits())
			if err == nil {
				h.Close()
			}
			return err
		})
		if err == nil || err.Error() != filepath.Join(dir, tt.want) {
			t.Errorf("%s main.lua: %v, want %q", tt.name, err, filepath.Join(dir, tt.want))
		}
	}

	// A module required at load time is read the same way.
	dir := writeMod(t, "pipes", "", map[string]string{"main.lua": "local lib = require(\"lib\")\n", "lib.lua": "return 1\n"})
	fifo(filepath.Join(dir, "lib.lua"))
	m, err := mod.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	err = within(t, "require of a FIFO", func() error {
		h, err := scripting.NewHost([]*mod.Mod{m}, engine.NewClassic(), engine.Options{Width: 4, Height: 4, UndoLimit: 10}, scripting.DefaultLimits())
		if err == nil {
			h.Close()
		}
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "lib.lua: a named pipe, not a regular file") {
		t.Errorf("require of a FIFO: %v", err)
	}
}
