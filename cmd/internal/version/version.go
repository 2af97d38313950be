// Package version says which build of the program is running, from the
// module's build information (runtime/debug.ReadBuildInfo): the module's
// version when it has one, the commit it was built from, the commit's
// time, and whether the sources differed from the commit.
//
// The form, one line: VERSION (rev SHORT[+dirty], TIME), such as
//
//	v0.0.0-20261129100000-abc1234def56 (rev abc1234, 2026-11-29T10:00:00Z)
//
// VERSION is the module's version (a tag, or the pseudo-version the go
// command gives a commit), or devel for a build without one; the part in
// brackets is there only when the build knows its commit. `2048 version`
// prints it, and the browser game's footer shows it.
//
// A build without the go command's VCS information (make web builds the
// browser's WebAssembly with -buildvcs=false, so that a rebuild of the
// same sources is byte for byte the same whatever else in the clone
// changed) may be given it with -ldflags (LinkFlags), as make web does
// (cmd/internal/web/internal/build).
package version

import (
	"runtime/debug"
	"strings"
)

// The build's commit, set by the linker (LinkFlags) where the go command
// does not stamp it: the full hash, the commit's time (RFC 3339, UTC), and
// "true" when the sources differ from the commit. Build settings of the
// go command's own (vcs.revision, ...) take precedence.
var revision, commitTime, modified string

// String is the running program's version.
func String() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = &debug.BuildInfo{}
	}
	return Format(Stamped(bi, revision, commitTime, modified))
}

// LinkFlags are the go build -ldflags that give a build the commit it is
// made from (its full hash, its time in RFC 3339 and UTC, and whether the
// sources differ from it), for a build without the go command's VCS
// information. Neither value may hold a space or a quote.
func LinkFlags(rev, time string, dirty bool) string {
	const pkg = "github.com/mod2048/mod2048/cmd/internal/version."
	f := "-X " + pkg + "revision=" + rev + " -X " + pkg + "commitTime=" + time
	if dirty {
		f += " -X " + pkg + "modified=true"
	}
	return f
}

// Stamped returns bi with the commit given (revision, its time, whether the
// sources were modified: "true") as its VCS settings when bi has none; bi
// itself otherwise, or when revision is empty.
func Stamped(bi *debug.BuildInfo, revision, time, modified string) *debug.BuildInfo {
	if revision == "" || setting(bi, "vcs.revision") != "" {
		return bi
	}
	out := *bi
	out.Settings = append(append([]debug.BuildSetting(nil), bi.Settings...),
		debug.BuildSetting{Key: "vcs", Value: "git"},
		debug.BuildSetting{Key: "vcs.revision", Value: revision},
		debug.BuildSetting{Key: "vcs.time", Value: time},
		debug.BuildSetting{Key: "vcs.modified", Value: modified})
	return &out
}

// Format writes the version of the build bi (see the package's doc): the
// main module's version unless it is none or (devel), then the commit
// (vcs.revision cut to 7, +dirty when vcs.modified is true) and its time
// (vcs.time) when bi has them.
func Format(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	rev := setting(bi, "vcs.revision")
	if rev == "" {
		return v
	}
	if len(rev) > 7 {
		rev = rev[:7]
	}
	if setting(bi, "vcs.modified") == "true" {
		rev += "+dirty"
	}
	parts := []string{"rev " + rev}
	if t := setting(bi, "vcs.time"); t != "" {
		parts = append(parts, t)
	}
	return v + " (" + strings.Join(parts, ", ") + ")"
}

// setting is the value of bi's build setting key, or "".
func setting(bi *debug.BuildInfo, key string) string {
	for _, s := range bi.Settings {
		if s.Key == key {
			return s.Value
		}
	}
	return ""
}
