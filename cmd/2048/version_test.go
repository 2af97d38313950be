package main

import (
	"debug/buildinfo"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/mod2048/mod2048/cmd/internal/version"
)

// versionLine is the form of 2048 version's line (package version).
var versionLine = regexp.MustCompile(`^2048 (devel|v\S+)( \(rev [0-9a-f]{1,7}(\+dirty)?(, \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)?\))?\n$`)

// TestVersion: 2048 version, --version and -version print the version
// that the binary's own build information gives (read from the file by
// debug/buildinfo), and a binary given its commit by the linker, as make
// web gives the browser's, names it.
func TestVersion(t *testing.T) {
	bi, err := buildinfo.ReadFile(binary)
	if err != nil {
		t.Fatal(err)
	}
	want := "2048 " + version.Format(bi) + "\n"
	for _, arg := range []string{"version", "--version", "-version"} {
		out, errOut, code := run2048(t, t.TempDir(), arg)
		if code != 0 || out != want || errOut != "" || !versionLine.MatchString(out) {
			t.Errorf("2048 %s: exit %d, %q, want %q\n%s", arg, code, out, want, errOut)
		}
	}

	stamped := filepath.Join(t.TempDir(), "2048")
	const rev = "0123456789abcdef0123456789abcdef01234567"
	build := exec.Command("go", "build", "-buildvcs=false", "-ldflags", version.LinkFlags(rev, "2026-11-29T10:00:00Z", true), "-o", stamped, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(stamped, "--version").Output()
	if w := "2048 devel (rev 0123456+dirty, 2026-11-29T10:00:00Z)\n"; err != nil || string(out) != w || !versionLine.Match(out) {
		t.Errorf("a stamped build: %q, %v; want %q", out, err, w)
	}
}
