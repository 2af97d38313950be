package lua

// [mod2048] Tests of this copy's changes to gopher-lua (PATCHES.md).

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"pgregory.net/rapid"

	"github.com/mod2048/mod2048/scripting/internal/lua/ast"
	"github.com/mod2048/mod2048/scripting/internal/lua/parse"
)

// pairsOf lists t's entries in the order pairs visits them.
func pairsOf(t *LTable) string {
	out := ""
	for k, v := t.Next(LNil); k != LNil; k, v = t.Next(k) {
		out += fmt.Sprintf("%v=%v ", k, v)
	}
	return out
}

// TestFarKey: a far integer key costs one hash entry, not an array of nils
// up to it, in an assignment, rawset and table.insert; it reads back, pairs
// visits it, and # ignores it.
func TestFarKey(t *testing.T) {
	for _, code := range []string{
		`t = {} t[67108863] = true`,
		`t = {} rawset(t, 67108863, true)`,
		`t = {} table.insert(t, 67108863, true)`,
		`t = {1, 2, 3} t[67108863] = true`,
	} {
		L := NewState()
		if err := L.DoString(code + `
			assert(t[67108863] == true)
			local n = 0
			for k, v in pairs(t) do n = n + 1 end
			assert(n == #t + 1, "pairs visited " .. n)
			assert(t[#t + 1] == nil)`); err != nil {
			t.Fatalf("%s: %v", code, err)
		}
		tb := L.GetGlobal("t").(*LTable)
		if cap(tb.array) > defaultArrayCap || len(tb.dict) != 1 {
			t.Errorf("%s: array of %d slots, %d hash entries", code, cap(tb.array), len(tb.dict))
		}
		if f := tb.Footprint(); f > 4096 {
			t.Errorf("%s: footprint %d", code, f)
		}
		L.Close()
	}
}

// TestFarKeyMigrates: once the array part reaches a key the hash part
// holds, the key moves into it, so that # and table.insert see it.
func TestFarKeyMigrates(t *testing.T) {
	L := NewState()
	defer L.Close()
	if err := L.DoString(`
		t = {}
		t[200] = "far"
		t[150] = "mid"
		for i = 1, 149 do t[i] = i end
		assert(#t == 150, "#t " .. #t)
		for i = 151, 199 do table.insert(t, i) end
		assert(#t == 200, "#t " .. #t)
		assert(t[200] == "far")
		table.insert(t, "next")
		assert(t[201] == "next" and t[200] == "far")
		local n = 0
		for k in pairs(t) do n = n + 1 end
		assert(n == 201, "pairs " .. n)
	`); err != nil {
		t.Fatal(err)
	}
	tb := L.GetGlobal("t").(*LTable)
	if len(tb.dict) != 0 || len(tb.array) != 201 {
		t.Fatalf("array %d, hash %d", len(tb.array), len(tb.dict))
	}
}

// TestKeysChurn: a table whose keys come and go keeps a bounded key list
// and bounded maps (upstream kept every key ever set).
func TestKeysChurn(t *testing.T) {
	L := NewState()
	defer L.Close()
	if err := L.DoString(`
		t = {keep = 1}
		for i = 1, 100000 do
			t["k" .. i] = i
			t[i * 1000] = i
			t["k" .. i] = nil
			t[i * 1000] = nil
		end
		assert(t.keep == 1)
	`); err != nil {
		t.Fatal(err)
	}
	tb := L.GetGlobal("t").(*LTable)
	if len(tb.keys) > 200 || len(tb.k2i) > 200 || tb.Footprint() > 16<<10 {
		t.Fatalf("%d keys, %d k2i, footprint %d", len(tb.keys), len(tb.k2i), tb.Footprint())
	}
}

// TestTableModel: any sequence of sets, deletes, inserts and removes
// leaves the table holding what a plain map would hold; pairs visits each
// entry once; # is a border; no key is in both parts; the hash part never
// holds the key after the array's end.
func TestTableModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tb := newLTable(0, 0)
		model := map[LValue]LValue{}
		key := func() LValue {
			if rapid.Bool().Draw(t, "strkey") {
				return LString(fmt.Sprint("s", rapid.IntRange(0, 9).Draw(t, "s")))
			}
			return LNumber(rapid.IntRange(-2, 300).Draw(t, "n"))
		}
		for range rapid.IntRange(0, 300).Draw(t, "steps") {
			switch rapid.IntRange(0, 9).Draw(t, "op") {
			case 0, 1, 2, 3, 4:
				k, v := key(), LNumber(rapid.IntRange(1, 5).Draw(t, "v"))
				tb.RawSet(k, v)
				model[k] = v
			case 5, 6:
				k := key()
				tb.RawSet(k, LNil)
				delete(model, k)
			case 7:
				v := LString("app")
				n := tb.Len()
				tb.Append(v)
				if m := tb.Len(); m != n+1 && tb.RawGetInt(n+1) != v {
					t.Fatalf("append at %d: now %d", n+1, m)
				}
				model = snapshot(tb)
			case 8:
				if n := tb.Len(); n > 0 {
					tb.Remove(rapid.IntRange(1, n).Draw(t, "pos"))
					model = snapshot(tb)
				}
			case 9:
				tb.Compact()
			}
			check(t, tb, model)
		}
	})
}

// snapshot is what tb holds, read through RawGet of every key Next gives.
func snapshot(tb *LTable) map[LValue]LValue {
	m := map[LValue]LValue{}
	for k, v := tb.Next(LNil); k != LNil; k, v = tb.Next(k) {
		m[k] = v
	}
	return m
}

func check(t *rapid.T, tb *LTable, model map[LValue]LValue) {
	seen := map[LValue]bool{}
	for k, v := tb.Next(LNil); k != LNil; k, v = tb.Next(k) {
		if seen[k] {
			t.Fatalf("pairs visits %v twice", k)
		}
		seen[k] = true
		if model[k] != v {
			t.Fatalf("pairs: %v=%v, want %v", k, v, model[k])
		}
	}
	for k, v := range model {
		if got := tb.RawGet(k); got != v {
			t.Fatalf("t[%v] = %v, want %v", k, got, v)
		}
		if !seen[k] {
			t.Fatalf("pairs misses %v", k)
		}
	}
	if k := len(tb.array); k > 0 && tb.array[k-1] == LNil {
		t.Fatalf("the array part of %d slots ends with a nil", k)
	}
	n := tb.Len()
	if (n > 0 && tb.RawGetInt(n) == LNil) || tb.RawGetInt(n+1) != LNil {
		t.Fatalf("#t = %d is not a border", n)
	}
	for k := range tb.dict {
		if i, ok := k.(LNumber); ok && float64(i) == float64(int(i)) && int(i) >= 1 && int(i) <= len(tb.array)+1 {
			t.Fatalf("hash part holds %v with an array of %d", k, len(tb.array))
		}
	}
}

// TestClone: a copy made by Clone, or by Clone after Compact, is the table
// its entries would make if set one by one: pairs visits the same entries
// in the same order, before and after the same changes, and the copy's
// changes leave the template as it was.
func TestClone(t *testing.T) {
	build := func() *LTable {
		tb := newLTable(0, 0)
		for i, k := range []string{"zeta", "alpha", "mid", "beta"} {
			tb.RawSetString(k, LNumber(i))
		}
		tb.RawSetInt(1, LString("one"))
		tb.RawSetInt(2, LString("two"))
		tb.RawSet(LTrue, LString("yes"))
		tb.RawSet(LNumber(2.5), LString("half"))
		tb.RawSetString("gone", LTrue)
		tb.RawSetString("gone", LNil)
		return tb
	}
	change := func(tb *LTable) {
		tb.RawSetString("alpha", LString("changed"))
		tb.RawSetString("new", LTrue)
		tb.RawSetString("mid", LNil)
		tb.RawSetString("after", LFalse)
		tb.RawSetString("mid", LNumber(9))
		tb.RawSetInt(3, LString("three"))
		tb.RawSet(LFalse, LString("no"))
	}
	tpl := build()
	before := pairsOf(tpl)
	compacted := func(t *LTable) *LTable {
		c := t.Clone()
		c.Compact()
		return c.Clone()
	}
	for _, clone := range []func(*LTable) *LTable{(*LTable).Clone, compacted} {
		want, got := build(), clone(tpl)
		if g, w := pairsOf(got), pairsOf(want); g != w {
			t.Fatalf("copy: %s\nwant %s", g, w)
		}
		change(want)
		change(got)
		if g, w := pairsOf(got), pairsOf(want); g != w {
			t.Fatalf("copy after changes: %s\nwant %s", g, w)
		}
		if g := pairsOf(tpl); g != before {
			t.Fatalf("the template changed with its copy: %s\nwas %s", g, before)
		}
	}
}

// TestFootprintHeldByHeap: a table's footprint is within 1.5× either way
// of what the heap holds for it, over tables of many shapes, each measured
// as the growth of the live heap for many copies.
func TestFootprintHeldByHeap(t *testing.T) {
	shapes := []struct {
		name  string
		build func(i int) *LTable
	}{
		{"empty", func(int) *LTable { return newLTable(0, 0) }},
		{"one string key", func(int) *LTable {
			tb := newLTable(0, 0)
			tb.RawSetString("a", LTrue)
			return tb
		}},
		{"ten string keys", func(int) *LTable {
			tb := newLTable(0, 0)
			for _, k := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"} {
				tb.RawSetString(k, LTrue)
			}
			return tb
		}},
		{"array of 100", func(int) *LTable {
			tb := newLTable(0, 0)
			for i := 1; i <= 100; i++ {
				tb.RawSetInt(i, LTrue)
			}
			return tb
		}},
		{"sparse 100", func(int) *LTable {
			tb := newLTable(0, 0)
			for i := 1; i <= 100; i++ {
				tb.RawSetInt(i*1000, LTrue)
			}
			return tb
		}},
		{"churned 1000", func(int) *LTable {
			tb := newLTable(0, 0)
			for i := 1; i <= 1000; i++ {
				tb.RawSetInt(i*1000, LTrue)
				if i%2 == 0 {
					tb.RawSetInt(i*1000, LNil)
				}
			}
			return tb
		}},
	}
	const copies = 2000
	for _, s := range shapes {
		keep := make([]*LTable, copies)
		before := liveHeap()
		var weighed int64
		for i := range keep {
			keep[i] = s.build(i)
			weighed += keep[i].Footprint()
		}
		held := int64(liveHeap()) - int64(before)
		runtime.KeepAlive(keep)
		ratio := float64(weighed) / float64(held)
		t.Logf("%-16s weighed %7d B, held %7d B a table (%.2f)", s.name, weighed/copies, held/copies, ratio)
		if ratio < 1/1.5 || ratio > 1.5 {
			t.Errorf("%s: weighed %d, held %d a table", s.name, weighed/copies, held/copies)
		}
	}
}

// liveHeap is the heap's live bytes after a collection.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestLengthIsOneStep: the length of a list whose end was cleared reads one
// slot, not every nil back from the end: a million # on a list of a
// million cleared slots is instant, where upstream made each a million
// steps that no budget counted.
func TestLengthIsOneStep(t *testing.T) {
	L := NewState()
	defer L.Close()
	if err := L.DoString(`
		t = {}
		for i = 1, 1000000 do t[i] = i end
		for i = 1000000, 2, -1 do t[i] = nil end
		local n = 0
		for i = 1, 1000000 do n = n + #t end
		assert(n == 1000000, n)
		table.insert(t, "x")
		assert(t[2] == "x" and #t == 2)
		local u = {1, nil, 3}
		table.remove(u)
		assert(#u == 1, #u)
	`); err != nil {
		t.Fatal(err)
	}
	if tb := L.GetGlobal("t").(*LTable); len(tb.array) != 2 {
		t.Fatalf("array part of %d slots", len(tb.array))
	}
}

// TestWalkMarkSizes: the walk's mark (Visit) keeps each value in the
// size class it had: a table in 128 bytes, a function in 64 (the host's
// weighing counts them so), a userdata in 48; and a prototype and its
// debug records are no larger than FunctionProto.Footprint counts them.
func TestWalkMarkSizes(t *testing.T) {
	for _, c := range []struct {
		what      string
		size, max uintptr
	}{
		{"LTable", unsafe.Sizeof(LTable{}), tableStruct},
		{"LFunction", unsafe.Sizeof(LFunction{}), ClosureBytes},
		{"LUserData", unsafe.Sizeof(LUserData{}), 48},
		{"FunctionProto", unsafe.Sizeof(FunctionProto{}), protoStruct},
		{"DbgLocalInfo", unsafe.Sizeof(DbgLocalInfo{}), dbgLocalInfo},
		{"DbgCall", unsafe.Sizeof(DbgCall{}), dbgCallSlot},
	} {
		if c.size > c.max {
			t.Errorf("%s is %d bytes, more than %d", c.what, c.size, c.max)
		}
	}
}

// TestCompileChains: what the compiler's linear paths compile (PATCHES.md,
// compiling in linear time) runs as upstream's did: long operator chains
// with constants folded, an elseif chain with a closure over each branch's
// local, an `else if` whose else block holds more than the if, a function
// of many distinct constants, many labels and gotos.
func TestCompileChains(t *testing.T) {
	const n = 3000
	var b strings.Builder
	b.WriteString("local a = 1\n")
	b.WriteString("local plus = a" + strings.Repeat(" + a", n) + "\n")
	b.WriteString("local folded = 1 + 2 * 3 - -4 ^ 2 + a + 1 + 2\n")
	b.WriteString("local neg = " + strings.Repeat("- ", n) + "a\n")
	b.WriteString("assert(plus == n + 1, tostring(plus))\n")
	b.WriteString("assert(folded == 27, tostring(folded))\n")
	b.WriteString("assert(neg == 1, tostring(neg))\n")
	b.WriteString("local function pick(x)\n  if x == 0 then local y = 0 return function() return y end\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "  elseif x == %d then local y = %d return function() return y end\n", i, i)
	}
	b.WriteString("  else if x < 0 then return nil end local z = -1 return function() return z end end\nend\n")
	b.WriteString("for i = 0, n - 1 do assert(pick(i)() == i) end\n")
	b.WriteString("assert(pick(-1) == nil and pick(n)() == -1)\n")
	b.WriteString("local t = {")
	for i := range n {
		fmt.Fprintf(&b, "%d.5, 's%d', ", i, i)
	}
	b.WriteString("}\nfor i = 0, n - 1 do assert(t[2 * i + 1] == i + 0.5 and t[2 * i + 2] == 's' .. i) end\n")
	b.WriteString("local hops = 0\n")
	for i := range n {
		fmt.Fprintf(&b, "goto l%d ::l%d:: hops = hops + 1\n", i, i)
	}
	b.WriteString("do goto z hops = -1 ::z:: end do goto z hops = -1 ::z:: end\n")
	b.WriteString("assert(hops == n, tostring(hops))\n")
	// Names: more locals than a pool scans for, shadowed in blocks and in
	// nested functions, the same name twice in one local statement, a
	// name free in a function before the function declares it.
	b.WriteString(`
local v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12 = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
local d, d, d, d, d, d, d, d, d, d = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
assert(d == 10, tostring(d))
g = "global"
local function f()
  local before = g
  local s = v12
  local v12, g = "inner", "local g"
  local function h() return v12, v1, g end
  do local v1 = "block" assert(v1 == "block") end
  local x1, x2, x3, x4, x5, x6, x7, x8, x9 = v1, v2, v3, v4, v5, v6, v7, v8, v9
  local function k() return function() return x9, v11, g, v12 end end
  return before, s, v1, x9, h, k()()
end
local before, s, one, nine, h, k9, k11, kg, k12 = f()
local h12, h1, hg = h()
assert(before == "global" and s == 12 and one == 1 and nine == 9)
assert(h12 == "inner" and h1 == 1 and hg == "local g")
assert(k9 == 9 and k11 == 11 and kg == "local g" and k12 == "inner")
`)
	L := NewState()
	defer L.Close()
	L.SetGlobal("n", LNumber(n))
	if err := L.DoString(b.String()); err != nil {
		t.Fatal(err)
	}
}

// TestCompileKeepsLittle: a function's prototype keeps no room made ahead
// (PATCHES.md): an empty function's code, constants and debug lists hold a
// few entries, not the hundreds upstream made room for.
func TestCompileKeepsLittle(t *testing.T) {
	L := NewState()
	defer L.Close()
	fn, err := L.LoadString("local f = function() end")
	if err != nil {
		t.Fatal(err)
	}
	p := fn.Proto.FunctionPrototypes[0]
	if cap(p.Code) > 16 || cap(p.DbgSourcePositions) > 16 || cap(p.Constants) > 16 || cap(p.DbgCalls) > 16 {
		t.Errorf("an empty function keeps room for %d instructions, %d positions, %d constants, %d calls",
			cap(p.Code), cap(p.DbgSourcePositions), cap(p.Constants), cap(p.DbgCalls))
	}
}

// TestCompileUpvalueCount: a function of more upvalues than a prototype
// counts (255) is a compile error that says so, not code that fails when
// it runs (PATCHES.md).
func TestCompileUpvalueCount(t *testing.T) {
	for _, n := range []int{255, 256} {
		var b strings.Builder
		var names []string
		for l := 0; l < 2; l++ {
			var ns []string
			for i := range 128 {
				ns = append(ns, fmt.Sprintf("v%d_%d", l, i))
			}
			names = append(names, ns...)
			fmt.Fprintf(&b, "local %s = 1%s\nlocal function f%d()\n", strings.Join(ns, ","), strings.Repeat(", 1", len(ns)-1), l)
		}
		b.WriteString("local s = 0\n")
		for _, name := range names[:n] {
			fmt.Fprintf(&b, "s = s + %s\n", name)
		}
		b.WriteString("return s\nend return f1() end return f0()\n")
		L := NewState()
		err := L.DoString(b.String())
		switch {
		case n <= 255 && (err != nil || L.Get(-1) != LNumber(n)):
			t.Errorf("%d upvalues: %v, %v", n, err, L.Get(-1))
		case n > 255 && (err == nil || !strings.Contains(err.Error(), "has more than 255 upvalues")):
			t.Errorf("%d upvalues: %v, want a compile error", n, err)
		}
		L.Close()
	}
}

// stepContext is a context whose Done counts its calls, as the host's
// budget does, and is done after max of them.
type stepContext struct {
	context.Context
	calls, max int
	done       chan struct{}
}

func (c *stepContext) Done() <-chan struct{} {
	if c.calls++; c.calls == c.max {
		close(c.done)
	}
	if c.calls >= c.max {
		return c.done
	}
	return nil
}

func (c *stepContext) Err() error { return errors.New("out of steps") }

// TestPatternSteps: each step of a matching is counted on the state's
// context, as an instruction is, and a done context stops a matching that
// backtracks without end inside its Go call (17); LState.Patterns bounds
// the subject and gsub's result.
func TestPatternSteps(t *testing.T) {
	L := NewState()
	defer L.Close()
	ctx := &stepContext{Context: context.Background(), max: 1 << 30, done: make(chan struct{})}
	L.SetContext(ctx)
	if err := L.DoString(`assert(string.find("xxab", "a(b)") == 3)`); err != nil {
		t.Fatal(err)
	}
	small := ctx.calls
	ctx.calls, ctx.max = 0, 100000
	err := L.DoString(`string.find(string.rep("a", 3000), ".-.-.-x")`)
	if err == nil || !strings.Contains(err.Error(), "out of steps") || ctx.calls != ctx.max {
		t.Errorf("a backtracking find: %v after %d calls of Done, want out of steps at %d", err, ctx.calls, ctx.max)
	}
	if small > 20 {
		t.Errorf("a short find counted %d, want a few", small)
	}
	L.RemoveContext()
	L.Patterns = PatternLimits{Subject: 8, Result: 16}
	for code, want := range map[string]string{
		`string.match("123456789", "%d")`:         "string.match: a subject of 9 bytes exceeds the mod limit of 8",
		`string.gsub("12345678", "%d", "%0%0%0")`: "string.gsub: the result exceeds the mod limit of 16 bytes",
	} {
		if err := L.DoString(code); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", code, err, want)
		}
	}
}

// upstreamStackTrace is upstream's stackTrace, which looked each frame up
// from the top: the reference the linear one must match line for line.
func upstreamStackTrace(ls *LState, level int) string {
	buf := []string{}
	if ls.currentFrame != nil {
		i := 0
		for dbg, ok := ls.GetStack(i); ok; dbg, ok = ls.GetStack(i) {
			cf := dbg.frame
			buf = append(buf, fmt.Sprintf("\t%v in %v", ls.Where(i), ls.formattedFrameFuncName(cf)))
			if !cf.Fn.IsG && cf.TailCall > 0 {
				for tc := cf.TailCall; tc > 0; tc-- {
					buf = append(buf, "\t(tailcall): ?")
					i++
				}
			}
			i++
		}
	}
	buf = append(buf, fmt.Sprintf("\t%v: %v", "[G]", "?"))
	buf = buf[max(0, min(level, len(buf))):]
	if len(buf) > 20 {
		buf = append(append(append([]string{}, buf[0:7]...), "\t..."), buf[len(buf)-7:]...)
	}
	return "stack traceback:\n" + strings.Join(buf, "\n")
}

// TestStackTraceLinear: the traceback, now one walk of the frames, says
// what upstream's said, for stacks of any depth with tail calls, Go
// frames (pcall) and named and unnamed calls between them, at any level.
func TestStackTraceLinear(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		depth := rapid.IntRange(0, 60).Draw(t, "depth")
		tails := rapid.IntRange(0, 30).Draw(t, "tails")
		viaPcall := rapid.IntRange(0, 4).Draw(t, "every")
		L := NewState()
		defer L.Close()
		var mismatch string
		L.SetGlobal("probe", L.NewFunction(func(L *LState) int {
			n := 0
			for cf := L.currentFrame; cf != nil; cf = cf.Parent {
				n += 1 + cf.TailCall
			}
			for _, level := range []int{0, 1, 2, 6, 7, 8, n / 2, n - 14, n - 7, n, n + 1, n + 2} {
				if got, want := L.stackTrace(level), upstreamStackTrace(L, level); got != want && mismatch == "" {
					mismatch = fmt.Sprintf("level %d:\n%s\nwant\n%s", level, got, want)
				}
			}
			return 0
		}))
		src := fmt.Sprintf(`
local every = %d
local function tail(n) if n > 0 then return tail(n - 1) end probe() return 0 end
local t = {}
function t.down(n)
  if n == 0 then return tail(%d) end
  if every > 0 and n %% every == 0 then
    local ok, err = pcall(t.down, n - 1)
    assert(ok, err)
    return 0
  end
  local r = (n %% 2 == 0) and t.down(n - 1) or (function() return t.down(n - 1) end)()
  return r
end
t.down(%d)`, viaPcall, tails, depth)
		if err := L.DoString(src); err != nil {
			t.Fatal(err)
		}
		if mismatch != "" {
			t.Fatal(mismatch)
		}
	})
}

// TestStackTraceTailCallsCost: a frame of a million tail calls writes the
// lines the trace keeps, not a line for each.
func TestStackTraceTailCallsCost(t *testing.T) {
	L := NewState()
	defer L.Close()
	var trace string
	var allocs uint64
	L.SetGlobal("probe", L.NewFunction(func(L *LState) int {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		before := ms.Mallocs
		trace = L.stackTrace(0)
		runtime.ReadMemStats(&ms)
		allocs = ms.Mallocs - before
		return 0
	}))
	if err := L.DoString(`local function tail(n) if n > 0 then return tail(n - 1) end probe() end tail(1000000)`); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(trace, "\n"); lines != 15 || !strings.Contains(trace, "(tailcall): ?") {
		t.Errorf("the trace has %d lines:\n%s", lines, trace)
	}
	if allocs > 200 {
		t.Errorf("the trace made %d allocations", allocs)
	}
}

// TestOpenUpvaluesFromTheTop: the open upvalues are kept from the highest
// register down, so that a return closes only its own frame's and a new
// closure's capture passes only its own frame's: with thousands of
// upvalues open below, a frame's return touches its own.
func TestOpenUpvaluesFromTheTop(t *testing.T) {
	L := NewState()
	defer L.Close()
	var walked, open int
	L.SetGlobal("probe", L.NewFunction(func(L *LState) int {
		prev := 1 << 30
		open = 0
		for uv := L.uvcache; uv != nil; uv = uv.next {
			if uv.index >= prev {
				t.Fatalf("open upvalue at %d after %d: not from the top down", uv.index, prev)
			}
			prev = uv.index
			open++
		}
		// What a capture of the current frame's lowest register passes.
		walked = 0
		idx := L.currentFrame.LocalBase
		for uv := L.uvcache; uv != nil && uv.index > idx; uv = uv.next {
			walked++
		}
		return 0
	}))
	err := L.DoString(`
local function down(n)
  local a, b, c, d, e, f, g, h = n, n, n, n, n, n, n, n
  local keep = function() return a + b + c + d + e + f + g + h end
  if n > 0 then return down(n - 1) + keep() - keep() end
  local x, y = 1, 2
  local last = function() return x + y end
  probe()
  return last()
end
assert(down(150) == 3)`)
	if err != nil {
		t.Fatal(err)
	}
	if open < 150*8 {
		t.Fatalf("%d upvalues open at the bottom, want the 1200 of the frames above", open)
	}
	if walked > 2 {
		t.Errorf("a capture in the bottom frame passes %d open upvalues", walked)
	}
}

// TestSetSpFullSegment: setting the call stack's depth to the one it has,
// at the end of a full segment, keeps its frames. A pcall that began with
// the stack's last segment full, whose call then overflowed it, set it
// back so: upstream's SetSp counted the full segment as empty, and the
// next frame read was out of range (FuzzSandbox found it, through a
// recursion of pcall in an __index metamethod).
func TestSetSpFullSegment(t *testing.T) {
	cs := newAutoGrowingCallFrameStack(4 * FramesPerSegment)
	for range 2 * FramesPerSegment {
		cs.Push(callFrame{})
	}
	sp := cs.Sp()
	cs.SetSp(sp)
	if cs.Sp() != sp {
		t.Fatalf("SetSp(%d) left the depth %d", sp, cs.Sp())
	}
	cs.Push(callFrame{})
	if cs.Sp() != sp+1 || cs.At(sp).Idx != sp {
		t.Fatalf("after a push, the depth is %d and the top frame's index %d, want %d and %d", cs.Sp(), cs.At(sp).Idx, sp+1, sp)
	}
	for cs.Sp() > 0 {
		cs.Pop()
	}
}

// TestSyntaxErrors holds the parser's errors to Lua 5.1's texts (change
// 23): where a block or bracket is left open, the closer it expects and
// the line it opened at, or '<eof>' for an end too many; every error at
// the start of the token the parser reached.
func TestSyntaxErrors(t *testing.T) {
	const eof = parse.EOF
	for _, c := range []struct {
		name, src         string
		line, col         int    // where the error is (line eof: the end of the file)
		msg, near         string // the message and the token
		openLine, openCol int    // where the block opened (0: none)
	}{
		{"function, before local", "local function f(n)\n  if n then\n    x = 1\n  end\n  return n\n  local z\nend", 6, 3, "'end' expected (to close 'function' at line 1)", "local", 1, 7},
		{"function at the end", "function f()\n  x = 1\n", eof, 0, "'end' expected (to close 'function' at line 1)", "", 1, 1},
		{"function, its if closed", "x = 1\nfunction f()\n  if x then\n    y()\n  end\n", eof, 0, "'end' expected (to close 'function' at line 2)", "", 2, 1},
		{"if", "if x then\n  y()\nelse\n  z()\nuntil", 5, 1, "'end' expected (to close 'if' at line 1)", "until", 1, 1},
		{"elseif", "if x then\n  y()\nelseif z then\n  w()\n", eof, 0, "'end' expected (to close 'if' at line 1)", "", 1, 1},
		{"for", "for i = 1, 2 do\n  y()\n", eof, 0, "'end' expected (to close 'for' at line 1)", "", 1, 1},
		{"generic for", "\nfor k, v in pairs(t) do\n  y()\n", eof, 0, "'end' expected (to close 'for' at line 2)", "", 2, 1},
		{"while", "while x do\n  y()\n", eof, 0, "'end' expected (to close 'while' at line 1)", "", 1, 1},
		{"do", "do\n  y()\n", eof, 0, "'end' expected (to close 'do' at line 1)", "", 1, 1},
		{"do in a while's condition", "while f(function() do end end) do\n  y()\n", eof, 0, "'end' expected (to close 'while' at line 1)", "", 1, 1},
		{"repeat", "repeat\n  y()\nend", 3, 1, "'until' expected (to close 'repeat' at line 1)", "end", 1, 1},
		{"a function in a call", "f(\n  function()\n  x = 1\n)", 4, 1, "'end' expected (to close 'function' at line 2)", ")", 2, 3},
		{"nested, the inner closed", "function f()\n  while true do\n    g(function()\n      do\n        h()\n      end\n    end)\n\nend", eof, 0, "'end' expected (to close 'function' at line 1)", "", 1, 1},
		{"paren of a call", "f(a,\n  b\nlocal x", 3, 1, "')' expected (to close '(' at line 1)", "local", 1, 2},
		{"paren of an expression", "x = (1 +\n 2\nlocal y", 3, 1, "')' expected (to close '(' at line 1)", "local", 1, 5},
		{"brace", "t = {1,\n 2\nlocal x", 3, 1, "'}' expected (to close '{' at line 1)", "local", 1, 5},
		{"bracket", "x = t[1\nlocal y", 2, 1, "']' expected (to close '[' at line 1)", "local", 1, 6},
		{"on the line it opened", "f(a b)", 1, 5, "')' expected", "b", 1, 2},
		{"on the last line", "x = 1\ngame.on(\"tick\", function(", eof, 0, "')' expected", "", 2, 25},
		{"before the last line", "x = 1\ngame.on(\"tick\", function(\n", eof, 0, "')' expected (to close '(' at line 2)", "", 2, 25},
		{"closed twice", "function f()\nend\nend", 3, 1, "'<eof>' expected", "end", 0, 0},
		{"closed twice, one line", "function f() end end", 1, 18, "'<eof>' expected", "end", 0, 0},
		{"an if closed twice", "if x then\n y()\nelse\n z()\nend\nend", 6, 1, "'<eof>' expected", "end", 0, 0},
		{"after a return", "return 1\nlocal y", 2, 1, "'<eof>' expected", "local", 0, 0},
		{"then", "if x local y", 1, 6, "'then' expected", "local", 0, 0},
		{"do of a while", "while x y()", 1, 9, "'do' expected", "y", 0, 0},
		{"do of a for", "for i = 1, 2 y()", 1, 14, "'do' expected", "y", 0, 0},
		{"an expression cut short", "local x = 1\nlocal y = = 2\n", 2, 11, "syntax error", "=", 0, 0},
		{"at a word's start", "local x = 1 +\n  local", 2, 3, "syntax error", "local", 0, 0},
		{"an expression cut by the end", "x = 1 +", eof, 0, "syntax error", "", 0, 0},
	} {
		_, err := parse.Parse(strings.NewReader(c.src), "main.lua")
		var pe *parse.Error
		if !errors.As(err, &pe) {
			t.Errorf("%s: %v, want a *parse.Error", c.name, err)
			continue
		}
		if pe.Pos.Line != c.line || pe.Pos.Line != eof && pe.Pos.Column != c.col || pe.Message != c.msg || pe.Token != c.near ||
			pe.Opened.Line != c.openLine || pe.Opened.Column != c.openCol {
			t.Errorf("%s: %d:%d: %s near '%s' (opened at %d:%d), want %d:%d: %s near '%s' (opened at %d:%d)", c.name,
				pe.Pos.Line, pe.Pos.Column, pe.Message, pe.Token, pe.Opened.Line, pe.Opened.Column,
				c.line, c.col, c.msg, c.near, c.openLine, c.openCol)
		}
	}
}

// TestSyntaxErrorsPlaced: the shipped mods' files, cut short, a line
// dropped or a line doubled at random, either parse or fail with a
// *parse.Error at the token it names (the source has the token's text at
// its line and column) and, for a block left open, at an opener: the
// source has the word or bracket the message says it closes at Opened.
func TestSyntaxErrorsPlaced(t *testing.T) {
	files, err := filepath.Glob("../../../mods/*/*.lua")
	if err != nil || len(files) == 0 {
		t.Fatalf("no mod files: %v", err)
	}
	var sources []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sources = append(sources, string(b))
	}
	// The scanner's own errors are where the scanner stopped, not at a token.
	scanner := []string{"invalid multiline comment", "illegal hexadecimal number", "unterminated string", "invalid multiline string", "unterminated multiline string", "Invalid '~' token", "Invalid token"}
	toClose := regexp.MustCompile(`^'[^']+' expected \(to close '([^']+)' at line ([0-9]+)\)$`)
	rapid.Check(t, func(rt *rapid.T) {
		src := rapid.SampledFrom(sources).Draw(rt, "file")
		lines := strings.SplitAfter(src, "\n")
		switch rapid.IntRange(0, 2).Draw(rt, "edit") {
		case 0:
			src = src[:rapid.IntRange(0, len(src)).Draw(rt, "cut")]
		case 1:
			i := rapid.IntRange(0, len(lines)-1).Draw(rt, "drop")
			src = strings.Join(slices.Delete(slices.Clone(lines), i, i+1), "")
		case 2:
			i := rapid.IntRange(0, len(lines)-1).Draw(rt, "double")
			src = strings.Join(slices.Insert(slices.Clone(lines), i, lines[i]), "")
		}
		_, err := parse.Parse(strings.NewReader(src), "main.lua")
		if err == nil {
			return
		}
		var pe *parse.Error
		if !errors.As(err, &pe) {
			rt.Fatalf("%v (%T), want a *parse.Error", err, err)
		}
		at := func(p ast.Position) string {
			ls := strings.Split(src, "\n")
			if p.Line < 1 || p.Line > len(ls) || p.Column < 1 || p.Column > len(ls[p.Line-1]) {
				rt.Fatalf("%v: %d:%d is not in the source", err, p.Line, p.Column)
			}
			return ls[p.Line-1][p.Column-1:]
		}
		if pe.Pos.Line != parse.EOF && !slices.Contains(scanner, pe.Message) {
			if text := at(pe.Pos); !strings.HasPrefix(text, pe.Token) && !strings.ContainsAny(text[:1], `"'[`) {
				rt.Fatalf("%v: the source at %d:%d is %q, not the token %q", err, pe.Pos.Line, pe.Pos.Column, text, pe.Token)
			}
		}
		if m := toClose.FindStringSubmatch(pe.Message); m != nil {
			if pe.Opened.Line == 0 || strconv.Itoa(pe.Opened.Line) != m[2] || !strings.HasPrefix(at(pe.Opened), m[1]) {
				rt.Fatalf("%v: opened at %d:%d (%q), want the %q of line %s", err, pe.Opened.Line, pe.Opened.Column, at(pe.Opened), m[1], m[2])
			}
		} else if pe.Opened.Line != 0 && !strings.HasSuffix(pe.Message, "' expected") {
			rt.Fatalf("%v: opened at line %d, for a message that names no block", err, pe.Opened.Line)
		}
	})
}
