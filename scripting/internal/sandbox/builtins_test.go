package sandbox

import (
	"strings"
	"testing"
)

func TestGmatchSteps(t *testing.T) {
	b := NewBudget()
	L := New(Limits{CallStack: 200, Registry: 65536, MaxString: 1 << 20, MaxPattern: 1 << 16, MaxItems: 1 << 16}, b, &Log{})
	b.Start(1e6, "over", 1e12)
	defer b.End(1e6)
	if err := L.DoString(`out = "" for w in ("ab cd  e"):gmatch("%a+") do out = out .. "[" .. w .. "]" end
n = 0 for a, b in ("k=v, x=y"):gmatch("(%w+)=(%w+)") do out = out .. a .. b end
for e in ("abc"):gmatch("") do n = n + 1 end`); err != nil {
		t.Fatal(err)
	}
	if got := L.GetGlobal("out").String(); got != "[ab][cd][e]kvxy" {
		t.Errorf("gmatch gave %q", got)
	}
	if got := L.GetGlobal("n").String(); got != "4" {
		t.Errorf("empty matches: %s, want 4", got)
	}
}

// TestConcat: the sandbox's table.concat joins as gopher-lua's did
// (numbers as tostring writes them, gopher-lua's bounds), and joins
// 65,536 elements, where gopher-lua's overflowed the stack at 32,768.
func TestConcat(t *testing.T) {
	b := NewBudget()
	L := New(Limits{CallStack: 200, Registry: 65536, MaxString: 1 << 20, MaxPattern: 1 << 16, MaxItems: 1 << 16}, b, &Log{})
	b.Start(1e7, "over", 1e12)
	defer b.End(1e7)
	if err := L.DoString(`
local t = {"a", 2, 3.5, "d"}
out = table.concat(t) .. "|" .. table.concat(t, ", ") .. "|" .. table.concat(t, "-", 2) .. "|" ..
  table.concat(t, "-", 2, 3) .. "|" .. table.concat(t, "-", 3, 2) .. "|" .. table.concat({}, "x") .. "|" ..
  table.concat(t, "-", 9) .. "|" .. table.concat(t, "-", 1, 9)
local ok, err = pcall(table.concat, {1, {}, 3})
bad = err
local big = {}
for i = 1, 65536 do big[i] = "e" end
n = #table.concat(big, ",")`); err != nil {
		t.Fatal(err)
	}
	if got, want := L.GetGlobal("out").String(), "a23.5d|a, 2, 3.5, d|2-3.5-d|2-3.5||||a-2-3.5-d"; got != want {
		t.Errorf("table.concat gave %q, want %q", got, want)
	}
	if got := L.GetGlobal("bad").String(); !strings.HasSuffix(got, "invalid value (table) at index 2 in table for concat") {
		t.Errorf("error %q", got)
	}
	if got := L.GetGlobal("n").String(); got != "131071" {
		t.Errorf("65536 elements joined in %s bytes, want 131071", got)
	}
}

// TestLongClassCharged: issue 50's attack, a bracket class of 64000 bytes
// found in 8000, costs its matching's steps and one instruction for every
// 16 bytes of the class, once (it read the class at each step, 250 times
// the time an instruction may take), and a budget stops it at its last
// instruction with the budget's error.
func TestLongClassCharged(t *testing.T) {
	b := NewBudget()
	L := New(Limits{CallStack: 200, Registry: 65536, MaxString: 1 << 20, MaxPattern: 1 << 17, MaxItems: 1 << 16}, b, &Log{})
	run := func(n int64, code string) (int64, error) {
		b.Start(n, "over budget", 1e12)
		err := L.DoString(code)
		used, _ := b.End(n)
		return used, err
	}
	if _, err := run(1e7, `s = string.rep("a", 8000) long = "[" .. string.rep("b", 64000) .. "]" short = "[b]"`); err != nil {
		t.Fatal(err)
	}
	short, err := run(1e7, `return string.find(s, short)`)
	if err != nil {
		t.Fatal(err)
	}
	long, err := run(1e7, `return string.find(s, long)`)
	if err != nil {
		t.Fatal(err)
	}
	// Each call's chunk is metered too (some 480 bytes), whose remainder
	// below an instruction's 64 carries from call to call: one either way.
	if d := long - short; d < 64002/16 || d > 64002/16+1 {
		t.Errorf("the long class cost %d instructions, the short %d: want %d more", long, short, 64002/16)
	}
	if short < 8000 || short > 16100 {
		t.Errorf("a find over 8000 bytes cost %d instructions, want one or two a byte", short)
	}
	used, err := run(5000, `return string.find(s, long)`)
	if err == nil || !strings.Contains(err.Error(), "over budget") || used != 5000 {
		t.Errorf("under a budget of 5000: %v after %d instructions, want the budget's error at 5000", err, used)
	}
}
