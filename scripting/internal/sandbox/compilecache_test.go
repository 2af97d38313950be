package sandbox

import (
	"fmt"
	"strings"
	"testing"
)

// TestCompileCacheBounded: the process-wide cache of compiled files holds
// at most compiledMaxFiles files and compiledMaxBytes of names, sources
// and prototypes (as the memory budget weighs them, ProtoFootprint),
// however many files mods bring (a --watch session that reloads a mod
// again and again, a browser page that takes uploads, a mod that requires
// a new file each turn): it keeps nothing of a mod's beyond that fixed
// size. The figure it keeps is what its files hold, counted anew.
func TestCompileCacheBounded(t *testing.T) {
	big := "-- " + strings.Repeat("x", 200<<10) + "\n"
	code := strings.Repeat("function()end,", 100<<10/14)
	for i := range 3 * compiledMaxFiles {
		src := fmt.Sprintf("local n = %d\n", i)
		switch i % 4 {
		case 0:
			src += big
		case 1:
			src += "local t = {" + code + "}\n" // some 3.5 MiB of prototypes
		}
		if _, err := CompileCached(src, "main.lua", nil); err != nil {
			t.Fatal(err)
		}
		compiled.Lock()
		files, bytes := len(compiled.protos), compiled.bytes
		var counted int64
		for k, c := range compiled.protos {
			counted += int64(len(k.name)+len(k.src)) + ProtoFootprint(c.Proto)
		}
		compiled.Unlock()
		if files > compiledMaxFiles || bytes > compiledMaxBytes || counted != bytes {
			t.Fatalf("after %d files the cache holds %d files, %d bytes of sources and prototypes (counted anew: %d)", i+1, files, bytes, counted)
		}
	}
	if _, ok := CachedCompile(fmt.Sprintf("local n = %d\n", 3*compiledMaxFiles-1), "main.lua"); !ok {
		t.Error("the last file compiled is not cached")
	}
}
