package sandbox

import (
	"fmt"
	"strings"
	"testing"
)

// TestCompileCacheBounded: the process-wide cache of compiled files holds
// at most compiledMaxFiles files and compiledMaxBytes of source, however
// many files mods bring (a --watch session that reloads a mod again and
// again, a browser page that takes uploads): it keeps nothing of a mod's
// beyond that fixed size.
func TestCompileCacheBounded(t *testing.T) {
	big := "-- " + strings.Repeat("x", 200<<10) + "\n"
	for i := range 3 * compiledMaxFiles {
		src := fmt.Sprintf("local n = %d\n", i)
		if i%4 == 0 {
			src += big
		}
		if _, err := CompileCached(src, "main.lua", nil); err != nil {
			t.Fatal(err)
		}
		compiled.Lock()
		files, bytes := len(compiled.protos), compiled.bytes
		compiled.Unlock()
		if files > compiledMaxFiles || bytes > compiledMaxBytes {
			t.Fatalf("after %d files the cache holds %d files, %d bytes of source", i+1, files, bytes)
		}
	}
	if _, ok := CachedCompile(fmt.Sprintf("local n = %d\n", 3*compiledMaxFiles-1), "main.lua"); !ok {
		t.Error("the last file compiled is not cached")
	}
}
