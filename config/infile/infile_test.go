package infile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// readSoon runs Read and fails the test if it does not return within a
// few seconds: what this package prevents is a read that never returns.
func readSoon(t *testing.T, path string, limit int64) ([]byte, error) {
	t.Helper()
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, err := Read(path, limit)
		done <- result{data, err}
	}()
	select {
	case r := <-done:
		return r.data, r.err
	case <-timeout():
		t.Fatalf("Read(%s) did not return in 10 s", path)
		return nil, nil
	}
}

// timeout is the guard of the tests that could hang.
func timeout() <-chan time.Time { return time.After(10 * time.Second) }

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		size, limit int64
		ok          bool
	}{
		{0, 0, true},
		{0, 10, true},
		{10, 10, true},
		{11, 10, false},
		{5000, 4096, false},
		{4096, 4096, true},
		{100000, 1 << 20, true},
	}
	for _, tt := range tests {
		path := filepath.Join(dir, "f")
		want := []byte(strings.Repeat("x", int(tt.size)))
		write(t, path, want)
		got, err := readSoon(t, path, tt.limit)
		switch {
		case tt.ok && (err != nil || string(got) != string(want)):
			t.Errorf("size %d, limit %d: %d bytes, %v", tt.size, tt.limit, len(got), err)
		case !tt.ok && !errors.Is(err, ErrTooLarge):
			t.Errorf("size %d, limit %d: %v, want too large", tt.size, tt.limit, err)
		case !tt.ok && !strings.Contains(err.Error(), path):
			t.Errorf("the error does not name the file: %v", err)
		}
	}
	// A link to a regular file is read through.
	link := filepath.Join(dir, "link")
	if err := os.Symlink(filepath.Join(dir, "f"), link); err == nil {
		if got, err := readSoon(t, link, 1<<20); err != nil || len(got) != 100000 {
			t.Errorf("through a link: %d bytes, %v", len(got), err)
		}
	}
}

// TestReadHuge reads a sparse file of 8 GiB with a limit of 1 MiB: refused
// at once, nothing read.
func TestReadHuge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.cases")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(8 << 30); err != nil {
		f.Close()
		t.Skipf("no sparse file here: %v", err)
	}
	f.Close()
	_, err = readSoon(t, path, 1<<20)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Size != 8<<30 || tl.Limit != 1<<20 {
		t.Fatalf("Read: %v", err)
	}
	want := path + ": 8589934592 bytes, more than the limit of 1 MiB"
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error %q lacks %q", err, want)
	}
}

func TestReadNotFound(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none.toml")
	_, err := Read(path, 100)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), path) {
		t.Errorf("Read of a missing file: %v", err)
	}
	// A path through a file (not a folder) fails too, for root as well.
	file := filepath.Join(t.TempDir(), "file")
	write(t, file, []byte("x"))
	if _, err := Read(filepath.Join(file, "save.json"), 100); err == nil {
		t.Error("a path through a file was read")
	}
}

func TestReadFolder(t *testing.T) {
	dir := t.TempDir()
	_, err := readSoon(t, dir, 100)
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), dir+": a folder, not a regular file") {
		t.Errorf("Read of a folder: %v", err)
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0 bytes", 100: "100 bytes", 1024: "1 KiB", 256 << 10: "256 KiB", 1 << 20: "1 MiB", 64 << 20: "64 MiB", 1500: "1500 bytes"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}

// BenchmarkRead reads a 64 KiB file (a fixture file's size) with Read, and
// with os.ReadFile for comparison: the checks cost two stats.
func BenchmarkRead(b *testing.B) {
	path := filepath.Join(b.TempDir(), "f.cases")
	if err := os.WriteFile(path, make([]byte, 64<<10), 0o644); err != nil {
		b.Fatal(err)
	}
	b.Run("infile.Read", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := Read(path, 16<<20); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("os.ReadFile", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := os.ReadFile(path); err != nil {
				b.Fatal(err)
			}
		}
	})
}
