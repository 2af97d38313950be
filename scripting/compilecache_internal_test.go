package scripting

import (
	"github.com/mod2048/mod2048/scripting/mod"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/internal/sandbox"
)

// TestCompileOnce: the second host of a mod binds the prototype the first
// one compiled; an edited file compiles anew; a file that does not compile
// is never cached and fails every time, with its line.
func TestCompileOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "once")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(mod.ManifestName, "id = \"once\"\nname = \"Once\"\nversion = \"1.0.0\"\napi_version = 2\n")
	src := "-- once " + t.Name() + "\ngame.on(\"tick\", function() storage.n = (storage.n or 0) + 1 end)\n"
	write("main.lua", src)
	host := func() (*Host, error) {
		md, err := mod.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		return NewHost([]*mod.Mod{md}, engine.NewClassic(), engine.Options{Width: 4, Height: 4, Seed: 1}, DefaultLimits())
	}
	if _, ok := sandbox.CachedCompile(src, "main.lua"); ok {
		t.Fatal("cached before any host compiled it")
	}
	h1, err := host()
	if err != nil {
		t.Fatal(err)
	}
	defer h1.Close()
	first, ok := sandbox.CachedCompile(src, "main.lua")
	if !ok || first.Note != true {
		t.Fatalf("after the first host: cached %v, touches storage %v", ok, first.Note == true)
	}
	h2, err := host()
	if err != nil {
		t.Fatal(err)
	}
	defer h2.Close()
	if again, _ := sandbox.CachedCompile(src, "main.lua"); again.Proto != first.Proto {
		t.Error("the second host compiled the file again")
	}
	if h1.mods[0].handlers[evTick][0].Proto != h2.mods[0].handlers[evTick][0].Proto {
		t.Error("the two hosts' handlers do not share their prototype")
	}
	for i := range 2 {
		bad := src + "\nlocal x = = 1 -- " + t.Name() + "\n"
		write("main.lua", bad)
		_, err := host()
		if err == nil || !strings.Contains(err.Error(), "main.lua") || !strings.Contains(err.Error(), "4") {
			t.Errorf("load %d of a file that does not compile: %v", i, err)
		}
		if _, ok := sandbox.CachedCompile(bad, "main.lua"); ok {
			t.Error("a file that does not compile was cached")
		}
	}
}
