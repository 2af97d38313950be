package sandbox

import "testing"

// BenchmarkPatterns times the pattern functions as a mod calls them: each
// op runs 100 times in one call. longclass finds a class of 1000 bytes
// in a subject of 144 that holds none of them.
func BenchmarkPatterns(b *testing.B) {
	for _, c := range []struct{ name, body string }{
		{"find", `local i = string.find(s, "x(%d+)y")`},
		{"match", `local a, c = string.match("a3+C", "^a(%d+)/?%d*(.*)$")`},
		{"backtrack", `local i = string.find(t, ".-.-b")`},
		{"gsub", `local r = string.gsub(s, "%d", "<%0>")`},
		{"gmatch", `for w in string.gmatch(s, "%a+") do end`},
		{"class", `for w in string.gmatch(s, "[%w_]+") do end`},
		{"longclass", `local i = string.find(s, long)`},
	} {
		b.Run(c.name, func(b *testing.B) {
			bg := NewBudget()
			L := New(Limits{CallStack: 200, Registry: 65536, MaxString: 1 << 20, MaxPattern: 1 << 16, MaxItems: 1 << 16}, bg, &Log{})
			if err := L.DoString(`s = string.rep("ab12 cd", 20) .. "x42y" t = string.rep("a", 40) long = "[" .. string.rep("z", 1000) .. "]"
function f() for i = 1, 100 do ` + c.body + ` end end`); err != nil {
				b.Fatal(err)
			}
			fn := L.GetGlobal("f")
			b.ResetTimer()
			for range b.N {
				bg.Start(1e9, "over", 1e12)
				L.Push(fn)
				L.Call(0, 0)
				bg.End(1e9)
			}
		})
	}
}
