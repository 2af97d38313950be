package sandbox

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"
)

// depthError returns the *DepthError compileMetered's error holds, if it
// holds one: a syntax error whose cause it is.
func depthError(err error) (*DepthError, bool) {
	var api *lua.ApiError
	if !errors.As(err, &api) || api.Type != lua.ApiErrorSyntax {
		return nil, false
	}
	var de *DepthError
	return de, errors.As(api.Cause, &de)
}

// refusedDeep reports whether compileMetered's err refuses a file for its
// depth at file:line: a *DepthError, or the parser's error past its stack
// (a right-associative chain), which says so and where.
func refusedDeep(err error, file string, line int) bool {
	if de, ok := depthError(err); ok {
		return de.File == file && de.Line == line &&
			strings.HasPrefix(err.Error(), fmt.Sprintf("%s:%d: expressions nested more than %d levels deep (an operator chain counts each operator)", file, line, MaxDepth))
	}
	var api *lua.ApiError
	return errors.As(err, &api) && api.Type == lua.ApiErrorSyntax &&
		strings.HasPrefix(err.Error(), fmt.Sprintf("%s line:%d(", file, line)) &&
		strings.Contains(err.Error(), "expressions nested too deep (an operator chain counts each operator)")
}

// maxSource is the most bytes a mod's Lua file may have (the host's
// MaxSource, which the host checks before it compiles).
const maxSource = 256 << 10

// fill repeats unit between head and tail, to a file of at most size bytes.
func fill(head, unit, tail string, size int) string {
	n := (size - len(head) - len(tail)) / len(unit)
	return head + strings.Repeat(unit, n) + tail
}

// fillf writes unit(i) for i = 0, 1, … between head and tail, to a file of
// at most size bytes.
func fillf(head string, unit func(i int) string, tail string, size int) string {
	var b strings.Builder
	b.WriteString(head)
	for i := 0; ; i++ {
		u := unit(i)
		if b.Len()+len(u)+len(tail) > size {
			break
		}
		b.WriteString(u)
	}
	b.WriteString(tail)
	return b.String()
}

// chains is a file of statements x = a op a op …, each chain of n
// operators.
func chains(n int, op string) string {
	return fill("local a, x = 1\n", "x = a"+strings.Repeat(op+"a", n)+"\n", "", maxSource)
}

// upvalues is a file of functions nested levels deep, each of locals
// locals, the innermost reading n of them (from every level), as many
// times as the file has room for.
func upvalues(levels, locals, n int) string {
	var b strings.Builder
	for l := range levels {
		names := make([]string, locals)
		for i := range names {
			names[i] = fmt.Sprintf("v%d_%d", l, i)
		}
		fmt.Fprintf(&b, "local function f%d()\nlocal %s\n", l, strings.Join(names, ","))
	}
	end := strings.Repeat("end\n", levels)
	for i := 0; ; i++ {
		k := i % n
		read := fmt.Sprintf("x=v%d_%d\n", k%levels, k/levels%locals)
		if b.Len()+len(read)+len(end) > maxSource {
			break
		}
		b.WriteString(read)
	}
	b.WriteString(end)
	return b.String()
}

// globals is a file of functions nested levels deep, each of locals
// locals, the innermost reading as many distinct globals as the file has
// room for.
func globals(levels, locals int) string {
	var b strings.Builder
	for l := range levels {
		names := make([]string, locals)
		for i := range names {
			names[i] = fmt.Sprintf("v%d_%d", l, i)
		}
		fmt.Fprintf(&b, "local function f%d()\nlocal %s\n", l, strings.Join(names, ","))
	}
	end := strings.Repeat("end\n", levels)
	for i := 0; ; i++ {
		read := fmt.Sprintf("x=g%d\n", i)
		if b.Len()+len(read)+len(end) > maxSource {
			break
		}
		b.WriteString(read)
	}
	b.WriteString(end)
	return b.String()
}

// compileShape is a Lua file of maxSource bytes shaped to make the
// compiler work, and whether the host refuses it: for its depth (deep),
// or with another compile error (refused, what the error says).
type compileShape struct {
	name, src string
	deep      bool
	refused   string
}

// compileShapes are the files that made the compiler slow (operator
// chains, elseif chains, many constants, functions, labels), each as large
// as a mod's file may be. The deep ones are refused; the others compile.
func compileShapes() []compileShape {
	return []compileShape{
		// One chain as long as the file: refused.
		{"a+a+…", fill("local a = 1\nlocal x = a", "+a", "\n", maxSource), true, ""},
		{"a^a^…", fill("local a = 1\nlocal x = a", "^a", "\n", maxSource), true, ""},
		{"a..a..…", fill("local a = 's'\nlocal x = a", "..a", "\n", maxSource), true, ""},
		{"a and a or …", fill("local a = 1\nlocal x = a", " and a or a", "\n", maxSource), true, ""},
		{"a==a==…", fill("local a = 1\nlocal x = a", "==a", "\n", maxSource), true, ""},
		{"- - - … a", fill("local a = 1\nlocal x = ", "- ", "a\n", maxSource), true, ""},
		{"not not … a", fill("local a = 1\nlocal x = ", "not ", "a\n", maxSource), true, ""},
		{"#-#-… a", fill("local a = 1\nlocal x = ", "#-", "a\n", maxSource), true, ""},
		{"a.b.c…", fill("local a = {}\nlocal x = a", ".b", "\n", maxSource), true, ""},
		{"a:m():m()…", fill("local a = {}\nlocal x = a", ":m()", "\n", maxSource), true, ""},
		{"f(a)(a)(a)…", fill("local f = print\nlocal x = f", "(a)", "\n", maxSource), true, ""},
		{"a[1][1]…", fill("local a = {}\nlocal x = a", "[1]", "\n", maxSource), true, ""},
		// Many chains a little shorter than the limit: compiled.
		{"chains of 990 +", chains(990, "+"), false, ""},
		{"chains of 990 ^", chains(990, "^"), false, ""},
		{"chains of 990 and", chains(990, " and "), false, ""},
		{"chains of 990 +1", fill("local a, x = 1\n", "x = a"+strings.Repeat("+1", 990)+"\n", "", maxSource), false, ""},
		{"chains of 990 -", fill("local a, x = 1\n", "x = "+strings.Repeat("- ", 990)+"a\n", "", maxSource), false, ""},
		{"chains of 190 ..", chains(190, ".."), false, ""},
		{"chains of 200 +", chains(200, "+"), false, ""},
		// Other shapes, all compiled.
		{"elseif chain", fill("local a\nif a then ", "elseif a == 1 then a = 2 ", "end\n", maxSource), false, ""},
		{"functions", fill("local f\n", "f = function() end\n", "", maxSource), false, ""},
		{"table of functions", fill("local t = {", "function()end,", "}\n", maxSource), false, ""},
		{"nested functions", fill("", strings.Repeat("local function f() ", 190)+strings.Repeat("end ", 190)+"\n", "", maxSource), false, ""},
		{"nested blocks", fill("local a = 1\n", strings.Repeat("do ", 190)+"a = a + a + a + a + a + a + a + a "+strings.Repeat("end ", 190)+"\n", "", maxSource), false, ""},
		{"table of ones", fill("local t = {", "1,", "}\n", maxSource), false, ""},
		{"table of distinct numbers", fillf("local t = {", func(i int) string { return fmt.Sprintf("%d,", i) }, "}\n", maxSource), false, ""},
		{"table of tables", fill("local t = {", "{a=1,b={}},", "}\n", maxSource), false, ""},
		{"distinct globals", fillf("", func(i int) string { return fmt.Sprintf("g%d=1\n", i) }, "", maxSource), false, ""},
		{"string of escapes", fill("local s = \"", `\65\066\n\t`, "\"\n", maxSource), false, ""},
		{"long string", fill("local s = [[", "a]=]\n", "]]\n", maxSource), false, ""},
		{"locals", fill("", "do "+strings.Repeat("local a ", 190)+"end\n", "", maxSource), false, ""},
		{"labels and gotos", fillf("", func(i int) string { return fmt.Sprintf("goto l%d ::l%d::\n", i, i) }, "", maxSource), false, ""},
		{"gotos to one label", fill("do ", "goto z ", "::z:: end\n", maxSource), false, ""},
		{"labels", fillf("do ", func(i int) string { return fmt.Sprintf("::l%d:: ", i) }, "end\n", maxSource), false, ""},
		{"calls", fill("local f = print\n", "f(1,2,3)\n", "", maxSource), false, ""},
		{"names through nested functions", upvalues(150, 60, 255), false, ""},
		{"too many upvalues", upvalues(150, 60, 9000), false, "has more than 255 upvalues"},
		{"globals through nested functions", globals(190, 9), false, ""},
	}
}

// TestCompileShapes: each shape of file that made compiling slow, as large
// as a mod's file may be, either compiles or is refused (for its depth,
// with an error that names the file and the line): no shape compiles
// without bound, nor blows the Go stack.
func TestCompileShapes(t *testing.T) {
	for _, s := range compileShapes() {
		t.Run(s.name, func(t *testing.T) {
			if len(s.src) > maxSource || len(s.src) < maxSource-8<<10 {
				t.Fatalf("the file has %d bytes, want about %d", len(s.src), maxSource)
			}
			_, err := compileMetered(s.src, "main.lua")
			switch {
			case s.deep && !refusedDeep(err, "main.lua", 2):
				t.Fatalf("compiled: %v, want it refused for its depth at main.lua:2", err)
			case s.refused != "" && (err == nil || !strings.Contains(err.Error(), s.refused)):
				t.Fatalf("compiled: %v, want it refused: %s", err, s.refused)
			case !s.deep && s.refused == "" && err != nil:
				t.Fatalf("refused: %v", err)
			}
		})
	}
}

// TestDepthLimit: MaxDepth counts each operator of a chain, each block and
// each expression nested in another; a chain reaches it at MaxDepth-1
// operators in an assignment, and one more is refused at the line where
// the deepest operand is. An elseif counts no level.
func TestDepthLimit(t *testing.T) {
	chain := func(n int) string { return "local a = 1\n\nlocal x =\n a" + strings.Repeat("\n+ a", n) + "\n" }
	if _, err := compileMetered(chain(MaxDepth-1), "lib/x.lua"); err != nil {
		t.Errorf("a chain of %d operators: %v", MaxDepth-1, err)
	}
	_, err := compileMetered(chain(MaxDepth), "lib/x.lua")
	if _, ok := depthError(err); !ok || !refusedDeep(err, "lib/x.lua", 4) {
		t.Errorf("a chain of %d operators: %v, want a *DepthError at lib/x.lua:4", MaxDepth, err)
	}
	// A function in a block in a table in a call: each counts.
	nested := "f({function() do return a" + strings.Repeat("+a", MaxDepth-6) + " end end})\n"
	if _, err := compileMetered(nested, "main.lua"); err != nil {
		t.Errorf("nested to the limit: %v", err)
	}
	nested = "f({function() do return a" + strings.Repeat("+a", MaxDepth-5) + " end end})\n"
	if _, err := compileMetered(nested, "main.lua"); !isDepthError(err) {
		t.Errorf("nested past the limit: %v, want a *DepthError", err)
	}
	// 199 blocks and a chain of ^ (which the parser keeps on its stack)
	// 800 operators long, 1000 levels in all: the parser's bound is far.
	blocks := "local a = 1\n" + strings.Repeat("while a do ", 199) + "a = a" + strings.Repeat(" ^ -a", 400) + strings.Repeat(" end", 199) + "\n"
	if _, err := compileMetered(blocks, "main.lua"); err != nil {
		t.Errorf("199 blocks and a chain of 800 operators: %v", err)
	}
	elseifs := "local a\nif a then " + strings.Repeat("elseif a then ", 5*MaxDepth) + "end\n"
	if _, err := compileMetered(elseifs, "main.lua"); err != nil {
		t.Errorf("%d elseifs: %v", 5*MaxDepth, err)
	}
}

func isDepthError(err error) bool {
	_, ok := depthError(err)
	return ok
}

// BenchmarkCompileShapes reports the time to compile (parse, check, rewrite
// and compile, or refuse) each shape of compileShapes, a file as large as
// a mod's may be: ns/byte, and ns/instr, the time for each instruction its
// compile is charged (CompileCost), which must stay within the VM's (at
// most some 150 ns natively; MODDING's bound is 500).
func BenchmarkCompileShapes(b *testing.B) {
	for _, s := range compileShapes() {
		b.Run(strings.ReplaceAll(s.name, " ", "_"), func(b *testing.B) {
			b.SetBytes(int64(len(s.src)))
			for b.Loop() {
				compileMetered(s.src, "main.lua")
			}
			ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			b.ReportMetric(ns/float64(len(s.src)), "ns/byte")
			b.ReportMetric(ns/float64(CompileCost(len(s.src))), "ns/instr")
		})
	}
}

// TestCompiledIsCharged: what a file's prototypes hold (ProtoFootprint,
// what the memory budget weighs of its code) is at most BytesPerInstruction
// for each instruction its compile is charged (CompileCost), for every
// shape of compileShapes that compiles: so the memory budget, which weighs
// a mod once its instructions could have built (at BytesPerInstruction
// each) more than the room it has left, sees what its requires keep.
func TestCompiledIsCharged(t *testing.T) {
	worst := 0.0
	for _, s := range compileShapes() {
		proto, err := compileMetered(s.src, "main.lua")
		if err != nil {
			continue
		}
		held, charged := ProtoFootprint(proto), CompileCost(len(s.src))
		worst = max(worst, float64(held)/float64(len(s.src)))
		if held > charged*BytesPerInstruction {
			t.Errorf("%s: %d bytes of source compile to %d bytes of prototypes, more than %d bytes for the %d instructions charged", s.name, len(s.src), held, BytesPerInstruction, charged)
		}
	}
	t.Logf("at most %.1f bytes of prototypes for each byte of source", worst)
}
