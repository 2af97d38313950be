package fuzz

import (
	"math/rand/v2"
	"strings"
	"testing"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"
	"github.com/mod2048/mod2048/scripting/internal/lua/parse"
	"github.com/mod2048/mod2048/scripting/mod"
)

// compiles returns why src, a file of a program, is not one the host
// compiles (mod.CheckSource: its size and nesting; the parser; the
// compiler), or nil.
func compiles(src, name string) error {
	if err := mod.CheckSource(src); err != nil {
		return err
	}
	chunk, err := parse.Parse(strings.NewReader(src), name)
	if err == nil {
		_, err = lua.Compile(chunk, name)
	}
	return err
}

// TestDecodedProgramsParse: every byte string decodes to a program whose
// files parse and compile, within the sizes a mod may have; the same
// bytes decode to the same program, and the decoder reaches the whole
// grammar (every statement kind, modules, handlers).
func TestDecodedProgramsParse(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	seen := map[string]int{}
	marks := []string{"require(", "while ", "repeat", " in pairs(", "string.gmatch(", "setmetatable(", "pcall(", "xpcall(", "error(",
		"string.format(", "string.rep(", "string.find(", "string.gsub(", "table.concat(", "table.sort", "table.insert(", "table.remove(",
		"unpack(", "select(", "tostring(", "tonumber(", "rawequal(", "rawget(", "rawset(", "next(", "game.cell(", "game.cells{",
		"game.set(", "game.mark(", "game.unmark(", "game.marks(", "game.log(", "game.notify(", "game.random(", "storage.", "%f[",
		"__index", "__concat", "__eq", "__lt", "__le", "__call", "__tostring", " .. ", "#", "not ", " and ", " or ", "...", "break"}
	for i := range 1000 {
		data := make([]byte, rng.IntN(4096))
		for j := range data {
			data[j] = byte(rng.Uint32())
		}
		p := Decode(data)
		if q := Decode(data); q.String() != p.String() {
			t.Fatalf("input %d decoded to two programs", i)
		}
		if len(p.Modules) > maxModules {
			t.Fatalf("input %d: %d modules", i, len(p.Modules))
		}
		total := 0
		for name, src := range p.Files() {
			if name == mod.ManifestName {
				continue
			}
			total += len(src)
			if len(src) > mod.MaxSource {
				t.Fatalf("input %d: %s is %d bytes, past %d", i, name, len(src), mod.MaxSource)
			}
			if err := compiles(src, name); err != nil {
				t.Fatalf("input %d: %s does not compile: %v\n%s", i, name, err, p)
			}
		}
		if total > mod.MaxSourcesBytes {
			t.Fatalf("input %d: %d bytes of source", i, total)
		}
		all := p.String()
		for _, m := range marks {
			if strings.Contains(all, m) {
				seen[m]++
			}
		}
	}
	for _, m := range marks {
		if seen[m] == 0 {
			t.Errorf("no program of 1000 has %q", m)
		}
	}
	if p := Decode(nil); compiles(p.Main, "main.lua") != nil || !strings.Contains(p.Main, "game.on(") {
		t.Errorf("the empty input decoded to\n%s", p)
	}
}
