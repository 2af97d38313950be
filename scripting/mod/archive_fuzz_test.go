package mod_test

import (
	"path"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/mod/modtest"
)

// FuzzReadZip: any bytes, as a player's zip, are read into a mod's files
// within every limit every frontend keeps (mod.MaxFiles, MaxFileBytes,
// MaxBytes; clean relative paths, none twice) or refused with an error
// that names the zip; reading never panics. The corpus starts from the
// hostile zips every frontend is tested with (modtest.Hostile) and a
// good one.
func FuzzReadZip(f *testing.F) {
	for _, a := range modtest.Hostile() {
		if len(a.Zip) <= 1<<20 { // the fuzzer's seeds are kept small
			f.Add(a.Zip)
		}
	}
	f.Add(modtest.Zip(map[string]string{"m/mod.toml": modtest.Manifest, "m/main.lua": "game.on('tick', function() end)\n"}))
	f.Fuzz(func(t *testing.T, data []byte) {
		files, err := mod.ReadZip(data, "x.zip")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "x.zip") {
				t.Fatalf("the error does not name the zip: %v", err)
			}
			return
		}
		if len(files.Files) > mod.MaxFiles {
			t.Fatalf("%d files, more than %d", len(files.Files), mod.MaxFiles)
		}
		total := 0
		for name, b := range files.Files {
			total += len(b)
			if len(b) > mod.MaxFileBytes {
				t.Fatalf("%s: %d bytes, more than %d", name, len(b), mod.MaxFileBytes)
			}
			if name == "" || path.IsAbs(name) || path.Clean(name) != name || name == ".." || strings.HasPrefix(name, "../") {
				t.Fatalf("a path that is not clean and relative: %q", name)
			}
		}
		if total > mod.MaxBytes {
			t.Fatalf("%d bytes in all, more than %d", total, mod.MaxBytes)
		}
	})
}
