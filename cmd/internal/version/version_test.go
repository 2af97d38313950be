package version

import (
	"runtime/debug"
	"testing"
)

// TestFormat: the version from a build's information: the module's
// version or devel, the commit cut to 7 with +dirty, its time.
func TestFormat(t *testing.T) {
	vcs := func(rev, time, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "-trimpath", Value: "true"}, {Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: rev}, {Key: "vcs.time", Value: time}, {Key: "vcs.modified", Value: modified}}
	}
	const rev = "abc1234def5678901234567890abcdef12345678"
	for _, tt := range []struct {
		name string
		bi   debug.BuildInfo
		want string
	}{
		{"a clone's build", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "2026-11-29T10:00:00Z", "false")},
			"devel (rev abc1234, 2026-11-29T10:00:00Z)"},
		{"with changes", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "2026-11-29T10:00:00Z", "true")},
			"devel (rev abc1234+dirty, 2026-11-29T10:00:00Z)"},
		{"the go command's version of a commit", debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261129100000-abc1234def56+dirty"}, Settings: vcs(rev, "2026-11-29T10:00:00Z", "true")},
			"v0.0.0-20261129100000-abc1234def56+dirty (rev abc1234+dirty, 2026-11-29T10:00:00Z)"},
		{"a tag", debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}, Settings: vcs(rev, "2026-11-29T10:00:00Z", "false")},
			"v1.2.0 (rev abc1234, 2026-11-29T10:00:00Z)"},
		{"go install module@version", debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}}, "v1.2.0"},
		{"no VCS information", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{{Key: "-trimpath", Value: "true"}}}, "devel"},
		{"no module", debug.BuildInfo{}, "devel"},
		{"a short revision, no time", debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}}}, "devel (rev abc)"},
	} {
		if got := Format(&tt.bi); got != tt.want {
			t.Errorf("%s: Format = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestStamped: the linker's commit fills in a build without VCS
// information, and never overrides the go command's.
func TestStamped(t *testing.T) {
	plain := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{{Key: "GOOS", Value: "js"}}}
	const rev = "0123456789abcdef0123456789abcdef01234567"
	if got := Format(Stamped(plain, rev, "2026-11-29T10:00:00Z", "true")); got != "devel (rev 0123456+dirty, 2026-11-29T10:00:00Z)" {
		t.Errorf("stamped: %q", got)
	}
	if got := Format(Stamped(plain, rev, "2026-11-29T10:00:00Z", "")); got != "devel (rev 0123456, 2026-11-29T10:00:00Z)" {
		t.Errorf("stamped, clean: %q", got)
	}
	if len(plain.Settings) != 1 {
		t.Errorf("Stamped changed its argument: %v", plain.Settings)
	}
	if got := Stamped(plain, "", "", ""); got != plain {
		t.Error("no revision: a new BuildInfo")
	}
	own := &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "fedcba9876"}, {Key: "vcs.time", Value: "2026-01-01T00:00:00Z"}}}
	if got := Format(Stamped(own, rev, "2026-11-29T10:00:00Z", "true")); got != "devel (rev fedcba9, 2026-01-01T00:00:00Z)" {
		t.Errorf("the go command's own VCS information overridden: %q", got)
	}
}
