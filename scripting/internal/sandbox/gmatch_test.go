package sandbox

import "testing"

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
