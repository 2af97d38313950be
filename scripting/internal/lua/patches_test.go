package lua

// [mod2048] The test that keeps PATCHES.md exact (PATCHES.md, "Files").

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The kinds of difference PATCHES.md's Files section lists, each under a
// heading of its own ("### Changed" and so on).
const (
	fileChanged = "Changed"
	fileAdded   = "Added"
	fileRemoved = "Removed"
)

// TestPatchesNameEveryFile hashes every file of this copy and compares
// each with upstream's, as UPSTREAM.sha256 records them: a file whose hash
// differs must be listed under "### Changed" in the "## Files" section of
// PATCHES.md, a file upstream lacks under "### Added", an upstream file
// the copy lacks under "### Removed", each with its reason; and nothing
// else may be listed there. A changed or added Go or goyacc file must hold
// the mark [mod2048]. PATCHES.md's "## Hashes" records each changed and
// added file's own hash beside upstream's, so that an edit to a file
// already listed, which the mark and the list would let pass, fails until
// its entry is written anew. It needs no network: UPSTREAM.sha256 is
// committed, and PATCHES.md says how to write it anew.
func TestPatchesNameEveryFile(t *testing.T) {
	module, version, upstream := readUpstreamHashes(t, "UPSTREAM.sha256")
	listed := readPatchesFiles(t, "PATCHES.md")
	recorded := readPatchesHashes(t, "PATCHES.md")

	patches, err := os.ReadFile("PATCHES.md")
	if err != nil {
		t.Fatal(err)
	}
	// The first paragraph, below the title, names the module and its tag.
	_, text, _ := strings.Cut(string(patches), "\n\n")
	first, _, _ := strings.Cut(text, "\n\n")
	if !strings.Contains(first, module) || !strings.Contains(first, " "+version+" ") {
		t.Errorf("PATCHES.md's first paragraph does not name %s %s, which UPSTREAM.sha256 was made from: name the module and the tag this is a copy of", module, version)
	}

	copyHashes := map[string]string{}
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		copyHashes[filepath.ToSlash(path)] = hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	// What each file is: changed, added or removed (upstream's are absent).
	actual := map[string]string{}
	for path, sum := range copyHashes {
		switch up, ok := upstream[path]; {
		case !ok:
			actual[path] = fileAdded
		case up != sum:
			actual[path] = fileChanged
		}
	}
	for path := range upstream {
		if _, ok := copyHashes[path]; !ok {
			actual[path] = fileRemoved
		}
	}

	const where = `PATCHES.md's "## Files" section`
	for _, path := range slices.Sorted(maps.Keys(actual)) {
		kind := actual[path]
		got, ok := listed[path]
		switch {
		case !ok:
			t.Errorf("%s: %s, but %s does not name it: add the line \"- `%s`: why\" under \"### %s\"%s",
				path, describe(kind), where, path, kind, otherwise(kind))
		case got != kind:
			t.Errorf("%s: %s, but %s lists it under \"### %s\": move it under \"### %s\"",
				path, describe(kind), where, got, kind)
		}
		if kind != fileRemoved && (strings.HasSuffix(path, ".go") || strings.HasSuffix(path, ".y")) {
			if b, err := os.ReadFile(path); err == nil && !strings.Contains(string(b), "[mod2048]") {
				t.Errorf("%s: %s, but holds no [mod2048] mark: mark each change in it with a [mod2048] comment", path, describe(kind))
			}
		}
	}
	for _, path := range slices.Sorted(maps.Keys(listed)) {
		if _, ok := actual[path]; !ok {
			t.Errorf("%s: %s lists it under \"### %s\", but it is upstream's as UPSTREAM.sha256 records it (or no such file exists): remove its line",
				path, where, listed[path])
		}
	}

	// Each changed or added file's own hash, beside upstream's.
	const hashes = `PATCHES.md's "## Hashes" section`
	for _, path := range slices.Sorted(maps.Keys(actual)) {
		if actual[path] == fileRemoved || path == patchesFile {
			continue
		}
		up := upstream[path]
		if up == "" {
			up = noUpstream
		}
		line := up + "  " + copyHashes[path] + "  " + path
		switch r, ok := recorded[path]; {
		case !ok:
			t.Errorf("%s: %s, but %s records no hash for it: write the line %q there", path, describe(actual[path]), hashes, line)
		case r.upstream != up:
			t.Errorf("%s: %s records upstream's hash as %s, but UPSTREAM.sha256 has %s: write the line %q", path, hashes, r.upstream, up, line)
		case r.ours != copyHashes[path]:
			t.Errorf("%s: its sha256 is %s, but %s records %s: the file was edited since its entry was written. Describe the edit under \"## The changes\" and its file's line under \"## Files\", mark it [mod2048] in the source, and write the line %q",
				path, copyHashes[path], hashes, r.ours, line)
		}
	}
	for _, path := range slices.Sorted(maps.Keys(recorded)) {
		if kind, ok := actual[path]; !ok || kind == fileRemoved || path == patchesFile {
			t.Errorf("%s: %s records a hash for it, but it is no changed or added file of the copy: remove its line", path, hashes)
		}
	}
}

// patchesFile is PATCHES.md, which cannot record its own hash, and
// noUpstream stands for upstream's hash in "## Hashes" for a file upstream
// lacks.
const (
	patchesFile = "PATCHES.md"
	noUpstream  = "-"
)

// recordedHash is a line of PATCHES.md's "## Hashes": upstream's hash of a
// file (noUpstream for an added one) and the copy's.
type recordedHash struct{ upstream, ours string }

// readPatchesHashes reads the "## Hashes" section of PATCHES.md: in its
// fenced block of text ("```text"), lines "UPSTREAM  OURS  path", sha256
// sums in hex. It returns each path's two.
func readPatchesHashes(t *testing.T, name string) map[string]recordedHash {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	isSum := func(s string) bool {
		_, err := hex.DecodeString(s)
		return len(s) == 2*sha256.Size && err == nil
	}
	recorded := map[string]recordedHash{}
	// fence is the open fenced block's info string ("" outside one): the
	// hashes are the lines of the "text" block.
	in, open, fence := false, false, ""
	for i, line := range strings.Split(string(b), "\n") {
		n := i + 1
		switch {
		case strings.HasPrefix(line, "## "):
			in, open = line == "## Hashes", false
			continue
		case !in:
			continue
		case strings.HasPrefix(line, "```"):
			open, fence = !open, strings.TrimPrefix(line, "```")
			continue
		case !open || fence != "text":
			continue
		}
		f := strings.SplitN(line, "  ", 3)
		if len(f) != 3 || !(isSum(f[0]) || f[0] == noUpstream) || !isSum(f[1]) || f[2] == "" {
			t.Fatalf("%s:%d: want \"UPSTREAM  OURS  path\" (two sha256 sums, %q for upstream's of an added file), got %q", name, n, noUpstream, line)
		}
		if _, dup := recorded[f[2]]; dup {
			t.Errorf("%s:%d: %s has two hashes recorded: keep one line", name, n, f[2])
		}
		recorded[f[2]] = recordedHash{upstream: f[0], ours: f[1]}
	}
	if len(recorded) == 0 {
		t.Fatalf("%s has no ## Hashes section recording each changed and added file's sha256", name)
	}
	return recorded
}

// describe says what a kind of difference is, for a failure message.
func describe(kind string) string {
	switch kind {
	case fileChanged:
		return "differs from upstream's (UPSTREAM.sha256)"
	case fileAdded:
		return "is in the copy but not upstream (UPSTREAM.sha256)"
	default:
		return "is upstream's (UPSTREAM.sha256) but not in the copy"
	}
}

// otherwise says, for a failure message, what else mends a file of a kind
// that PATCHES.md does not name.
func otherwise(kind string) string {
	switch kind {
	case fileChanged:
		return " and list the change under \"## The changes\", or put back upstream's file"
	case fileAdded:
		return ", or delete the file if it is no part of the copy"
	default:
		return ", or put back upstream's file"
	}
}

// readUpstreamHashes reads a file in sha256sum's format whose first line
// is a comment naming the module, its version and the module's go.sum
// hash; it returns the module, the version and each path's hash.
func readUpstreamHashes(t *testing.T, name string) (module, version string, hashes map[string]string) {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if !sc.Scan() {
		t.Fatalf("%s is empty", name)
	}
	head := strings.Fields(strings.TrimPrefix(sc.Text(), "#"))
	if !strings.HasPrefix(sc.Text(), "#") || len(head) < 2 {
		t.Fatalf("%s:1: want a comment naming the module and its version (# github.com/yuin/gopher-lua v1.1.2 h1:…), got %q", name, sc.Text())
	}
	hashes = map[string]string{}
	for n := 2; sc.Scan(); n++ {
		sum, path, ok := strings.Cut(sc.Text(), "  ")
		if !ok || len(sum) != 2*sha256.Size || path == "" {
			t.Fatalf("%s:%d: want \"sha256  path\", got %q", name, n, sc.Text())
		}
		hashes[path] = sum
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return head[0], head[1], hashes
}

// readPatchesFiles reads the "## Files" section of PATCHES.md: under each
// of "### Changed", "### Added" and "### Removed", lines "- `path`: why".
// It returns each path's kind.
func readPatchesFiles(t *testing.T, name string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]string{}
	in, kind := false, ""
	for i, line := range strings.Split(string(b), "\n") {
		n := i + 1
		switch {
		case strings.HasPrefix(line, "## "):
			in, kind = line == "## Files", ""
			continue
		case !in:
			continue
		case strings.HasPrefix(line, "### "):
			kind = strings.TrimPrefix(line, "### ")
			if !slices.Contains([]string{fileChanged, fileAdded, fileRemoved}, kind) {
				t.Fatalf("%s:%d: want ### %s, ### %s or ### %s in ## Files, got %q", name, n, fileChanged, fileAdded, fileRemoved, line)
			}
			continue
		case !strings.HasPrefix(line, "- `"):
			continue
		}
		path, why, ok := strings.Cut(strings.TrimPrefix(line, "- `"), "`: ")
		if !ok || strings.TrimSpace(why) == "" {
			t.Fatalf("%s:%d: want \"- `path`: why\", got %q", name, n, line)
		}
		if kind == "" {
			t.Fatalf("%s:%d: %s is listed under no ### Changed, ### Added or ### Removed", name, n, path)
		}
		if old, dup := listed[path]; dup {
			t.Errorf("%s:%d: %s is listed twice (under ### %s before): keep one line", name, n, path, old)
		}
		listed[path] = kind
	}
	if len(listed) == 0 {
		t.Fatalf("%s has no ## Files section listing the files that differ from upstream", name)
	}
	return listed
}
