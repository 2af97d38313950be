package wasmstamp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommit: main.wasm's commit is the last commit that changed its
// sources, at that commit's time, dirty when a source differs from it (a
// change, or a new file): a commit or a change of any other file (such
// as main.wasm.br, which make web writes) changes nothing of it, so that
// make web at the same sources builds the same bytes.
func TestCommit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := t.TempDir()
	git := func(env []string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	at := func(date string) []string { return []string{"GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date} }
	sources := []string{"a.go", "b.go", "new.go"}

	if _, _, _, err := Commit(root, sources); err == nil {
		t.Error("a folder that is no clone: no error")
	}
	git(nil, "init", "-q")
	write("a.go", "package a\n")
	write("b.go", "package a\n")
	write("main.wasm.br", "old")
	git(nil, "add", ".")
	git(at("2026-11-29T10:00:00+01:00"), "commit", "-q", "-m", "sources")
	want := git(nil, "rev-parse", "HEAD")
	write("main.wasm.br", "new")
	git(nil, "add", ".")
	git(at("2026-11-29T12:00:00Z"), "commit", "-q", "-m", "web: rebuilt")

	check := func(step string, dirty bool) {
		t.Helper()
		rev, when, d, err := Commit(root, sources)
		if err != nil || rev != want || when != "2026-11-29T09:00:00Z" || d != dirty {
			t.Errorf("%s: Commit = %s, %s, dirty %v, %v; want %s, 2026-11-29T09:00:00Z, dirty %v", step, rev, when, d, err, want, dirty)
		}
	}
	check("after a commit of another file", false)
	write("main.wasm.br", "newer")
	write("notes.txt", "x")
	check("another file changed, another added", false)
	write("a.go", "package a // changed\n")
	check("a source changed", true)
	git(nil, "checkout", "-q", "a.go")
	check("the change undone", false)
	write("new.go", "package a\n")
	check("a source added", true)
}
