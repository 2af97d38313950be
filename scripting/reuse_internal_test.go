package scripting

import (
	"strings"
	"testing"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"
)

// handlerProto compiles the Lua function expression src.
func handlerProto(t *testing.T, src string) *lua.FunctionProto {
	t.Helper()
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	fn, err := L.Load(strings.NewReader("return "+src), "handler.lua")
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return fn.Proto.FunctionPrototypes[0]
}

// TestPayloadReuse: what each handler's code lets the host reuse of its
// payload. Any use of the payload but reading a field gives a fresh table.
func TestPayloadReuse(t *testing.T) {
	cases := []struct {
		ev   event
		src  string
		want reuse
	}{
		{evBeforeMove, `function(e) end`, reuseNested},
		{evBeforeMove, `function() end`, reuseNested},
		{evBeforeMove, `function() local x = 1; return x end`, reuseNested},
		{evBeforeMove, `function(...) end`, reuseNone},
		{evBeforeMove, `function(...) kept = ... end`, reuseNone},
		{evBeforeMove, `function(e) local d, n = e.dir, e.turn + 1; game.log(d, n) end`, reuseNested},
		{evBeforeMove, `function(e) if e.turn > 3 then return {refuse = "late " .. e.dir} end end`, reuseNested},
		{evBeforeMove, `function(e) kept = e end`, reuseNone},
		{evBeforeMove, `function(e) local t = {}; t.e = e end`, reuseNone},
		{evBeforeMove, `function(e) local t = {e} end`, reuseNone},
		{evBeforeMove, `function(e) return e end`, reuseNone},
		{evBeforeMove, `function(e) return function() return e.turn end end`, reuseNone},
		{evBeforeMove, `function(e) e.turn = 1 end`, reuseNone},
		{evBeforeMove, `function(e) e[1] = 1 end`, reuseNone},
		{evBeforeMove, `function(e) print(e) end`, reuseNone},
		{evBeforeMove, `function(e) local x = e end`, reuseNone},
		{evBeforeMove, `function(e) if e then end end`, reuseNone},
		{evBeforeMove, `function(e) local x = e == nil end`, reuseNone},
		{evBeforeMove, `function(e) local x = #e end`, reuseNone},
		{evBeforeMove, `function(e) local x = e .. "" end`, reuseNone},
		{evBeforeMove, `function(e) local t = {}; local x = t[e] end`, reuseNone},
		{evBeforeMove, `function(e) for k, v in pairs(e) do end end`, reuseNone},
		{evBeforeMove, `function(e) e:foo() end`, reuseNone},
		{evBeforeMove, `function(e) local k = "dir"; return e[k] end`, reuseTop}, // no nested tables: the same as reuseNested
		{evAfterMerge, `function(e) return {result = e.result * 2} end`, reuseNested},
		{evAfterMerge, `function(e) game.log(e.row, e.col) end`, reuseNested},
		{evAfterMerge, `function(e) game.log(e.from[1].row) end`, reuseTop},
		{evAfterMerge, `function(e) kept = e.sources end`, reuseTop},
		{evAfterMerge, `function(e) local k = "from"; kept = e[k] end`, reuseTop},
		{evAfterMerge, `function(e) kept = e end`, reuseNone},
	}
	for _, c := range cases {
		if got := payloadReuse(handlerProto(t, c.src), payloadScalars[c.ev]); got != c.want {
			t.Errorf("%s %s: reuse %d, want %d", eventNames[c.ev], c.src, got, c.want)
		}
	}
}

// TestMentionsStorage: code that names storage or _G, at any depth, can
// reach the storage table; other code cannot.
func TestMentionsStorage(t *testing.T) {
	cases := []struct {
		src  string
		want bool
	}{
		{`function() end`, false},
		{`function(e) game.log(e.turn); local t = {n = 1}; t.n = t.n + 1 end`, false},
		{`function() storage.n = 1 end`, true},
		{`function() local s = storage end`, true},
		{`function() return function() return function() storage.x = 1 end end end`, true},
		{`function() _G["stor" .. "age"].n = 1 end`, true},
		{`function() local g = _G end`, true},
	}
	for _, c := range cases {
		if got := mentionsStorage(handlerProto(t, c.src)); got != c.want {
			t.Errorf("%s: %v, want %v", c.src, got, c.want)
		}
	}
}
