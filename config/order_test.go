package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestErrorsInLineOrder: Build says a file's errors from its top to its
// bottom, though the checks find them in another order (the keys' types
// while the file is applied, the values' ranges after: here line 4 before
// line 1), and each --set error after the file's, in the order given.
func TestErrorsInLineOrder(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.toml")
	src := "size = 20\n" + // 1: out of range (Validate)
		"win_value = 4\n" + // 2: out of range (Validate)
		"# a comment\n" +
		"colour = \"red\"\n" + // 4: unknown key (apply)
		"undo_limit = \"x\"\n" // 5: wrong type (apply)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Build(BuildOptions{File: path, Sets: []string{"zz=1", "aa=1"}})
	if err == nil {
		t.Fatal("Build: no error")
	}
	want := []string{
		path + ":1: size: ",
		path + ":2: win_value: ",
		path + ":4: colour: unknown key",
		path + ":5: undo_limit: ",
		"--set: zz: unknown key",
		"--set: aa: unknown key",
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d errors, want %d:\n%s", len(lines), len(want), err)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("error %d: %q, want it to start %q\nall:\n%s", i+1, lines[i], w, err)
		}
	}
}

// TestJoinOrder: join takes joined errors apart and orders them by file
// (as the files first come up), line and key on a line, stably.
func TestJoinOrder(t *testing.T) {
	e := func(file string, line int, key string) error {
		return &Error{Origin: Origin{File: file, Line: line}, Key: key, Err: errFoo}
	}
	err := join(
		e("b.toml", 3, "x"),
		join(e("--set", 0, "z"), e("b.toml", 1, "y")),
		nil,
		join(e("b.toml", 3, "a"), e("--set", 0, "c"), e("b.toml", 2, "w")),
	)
	want := "b.toml:1: y: foo\nb.toml:2: w: foo\nb.toml:3: a: foo\nb.toml:3: x: foo\n--set: z: foo\n--set: c: foo"
	if err == nil || err.Error() != want {
		t.Errorf("join:\n%v\nwant:\n%s", err, want)
	}
}

var errFoo = errors.New("foo")
