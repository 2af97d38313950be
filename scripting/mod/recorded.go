package mod

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"sort"
	"strings"
)

// HashSource is what a fixture case's "# Recorded for:" comment keeps of
// a mod file's text: the first 12 hex digits of its SHA-256, each CRLF
// read as LF.
func HashSource(text string) string {
	sum := sha256.Sum256([]byte(strings.ReplaceAll(text, "\r\n", "\n")))
	return hex.EncodeToString(sum[:6])
}

// RecordedComment returns the "# Recorded for:" comment line (with its
// line break) of a fixture case written for files: their texts, by their
// paths relative to the fixture file's folder (RecordedFiles), each as
// PATH@HASH (HashSource). It returns "" for no files. Package fixture
// reads the comment, and says when a failed case's mods differ from it.
func RecordedComment(files map[string]string) string {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var b strings.Builder
	for _, p := range paths {
		fmt.Fprintf(&b, " %s@%s", p, HashSource(files[p]))
	}
	if b.Len() == 0 {
		return ""
	}
	return "# Recorded for:" + b.String() + "\n"
}

// RecordedFiles adds to files what a "# Recorded for:" comment lists of a
// mod whose folder a case names as dir (its Mods: word): its sources (the
// manifest and Lua files, Mod.Sources), by path relative to the fixture
// file's folder, less those below a folder whose name starts with "." (a
// language server's copy of the API, say, which no game runs) and those
// whose path has white space or "@", which the comment cannot name.
func RecordedFiles(files map[string]string, dir string, sources map[string]string) {
	for rel, text := range sources {
		if strings.ContainsAny(rel, " \t\r\n@") || hiddenPath(rel) {
			continue
		}
		files[path.Join(dir, rel)] = text
	}
}

// hiddenPath reports whether a slash-separated path lies below a folder
// whose name starts with ".".
func hiddenPath(p string) bool {
	dir := path.Dir(p)
	for _, seg := range strings.Split(dir, "/") {
		if strings.HasPrefix(seg, ".") && seg != "." && seg != ".." {
			return true
		}
	}
	return false
}
