package scripting_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
)

// TestLibrariesInOrder: pairs visits the standard libraries' fields in the
// same order in every process, sorted by name (gopher-lua fills them from
// Go maps, in random order). The sandbox's own additions come after:
// math.random (the mod's seeded stream), string's __metatable (the
// protected metatable), and _G's print and the mod API.
func TestLibrariesInOrder(t *testing.T) {
	g := classicGame(t, []string{"2 2 0 0", "0 0 0 0", "0 0 0 0", "0 0 0 0"}, "3,3,2")
	h := attach(t, g, luaMod(t, "order", `
local function keys(t)
  local out = {}
  for k in pairs(t) do out[#out + 1] = k end
  return table.concat(out, " ")
end
game.on("tick", function()
  game.log(keys(math))
  game.log(keys(table))
  game.log(keys(string))
  game.log(keys(_G))
end)`))
	if _, err := h.Move(g, engine.Left); err != nil {
		t.Fatal(err)
	}
	logs := h.Log("order")
	if len(logs) != 4 {
		t.Fatalf("log: %q", logs)
	}
	after := []string{"random", "", "__metatable", "print"}
	for i, line := range logs {
		keys := strings.Fields(line)
		lib := keys
		if a := after[i]; a != "" {
			at := slices.Index(keys, a)
			if at < 0 {
				t.Fatalf("library %d: no %s in %q", i, a, line)
			}
			lib = keys[:at]
		}
		if !slices.IsSorted(lib) || len(lib) < 5 {
			t.Errorf("library %d: fields not in order: %q", i, line)
		}
		for _, gone := range []string{"randomseed", "dump", "loadstring", "collectgarbage", "setfenv"} {
			if slices.Contains(keys, gone) {
				t.Errorf("library %d has %s: %q", i, gone, line)
			}
		}
	}
}

// TestMatcherReused: find and match share one matcher between calls. A
// matching that fails with an error, and a match inside gsub's replacement
// function (while gsub's own matching is under way), leave the next
// matchings right.
func TestMatcherReused(t *testing.T) {
	g := classicGame(t, []string{"2 2 0 0", "0 0 0 0", "0 0 0 0", "0 0 0 0"}, "3,3,2")
	h := attach(t, g, luaMod(t, "pat", `
game.on("tick", function()
  local ok = pcall(string.match, "abc", "[a")
  game.log(tostring(ok), string.match("key=value", "(%w+)=(%w+)"))
  local out = string.gsub("a1 b22 c333", "(%a)(%d+)", function(l, d)
    return l .. (string.match(d, "^(%d)") or "?") .. #d
  end)
  game.log(out, string.find("hello world", "o w"), string.match("a3/2+C", "^a(%d+)/?%d*(.*)$"))
end)`))
	if _, err := h.Move(g, engine.Left); err != nil {
		t.Fatal(err)
	}
	want := []string{"false\tkey\tvalue", "a11 b22 c33\t5\t3\t+C"}
	if got := h.Log("pat"); !slices.Equal(got, want) {
		t.Errorf("log %q, want %q", got, want)
	}
}

// TestSandboxesShareNothing: the libraries and the game table of a
// sandbox are copies of templates, and the functions in them are shared
// by every sandbox; a mod that changes its own (a library's fields, the
// strings' methods, the game table, its features) changes nothing another
// game sees, even one that runs the same mod, after it or beside it.
func TestSandboxesShareNothing(t *testing.T) {
	const src = `
local function seen()
  return table.concat({tostring(string.custom), tostring(math.pi), tostring(table.insert ~= nil),
    tostring(("x").custom), tostring(game.extra), tostring(game.features.custom),
    tostring(rawget(_G, "custom")), tostring(game.cell ~= nil), tostring({})}, " ")
end
game.log(seen())
string.custom = 1
math.pi = 3
table.insert = nil
game.extra = true
game.features.custom = true
custom = true
game.cell = nil
game.log(seen())
`
	var hosts []*scripting.Host
	for range 3 {
		g := classicGame(t, []string{"2 2 0 0", "0 0 0 0", "0 0 0 0", "0 0 0 0"}, "3,3,2")
		hosts = append(hosts, attach(t, g, luaMod(t, "spoil", src)))
	}
	for i, h := range hosts {
		wantLog(t, h, "spoil",
			"nil 3.141592653589793 true nil nil nil nil true table: 1",
			"1 3 false 1 true true true false table: 2")
		if t.Failed() {
			t.Fatalf("host %d", i)
		}
	}
}
