package fuzz

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mod2048/mod2048/scripting/costsearch"
)

// Program is a decoded mod: its main.lua and its modules, Modules[i] being
// the file m<i+1>.lua, which main.lua and the later modules may require.
type Program struct {
	Main    string
	Modules []string
}

// Files returns the program's files, as costsearch.Runner.RunFiles takes
// them: the runner's manifest, main.lua and the modules.
func (p Program) Files() map[string]string {
	f := costsearch.Files(p.Main)
	for i, m := range p.Modules {
		f[moduleName(i)+".lua"] = m
	}
	return f
}

// String is the program's files as one text, for a failure's message.
func (p Program) String() string {
	var b strings.Builder
	b.WriteString("-- main.lua\n" + p.Main)
	for i, m := range p.Modules {
		fmt.Fprintf(&b, "-- %s.lua\n%s", moduleName(i), m)
	}
	return b.String()
}

func moduleName(i int) string { return "m" + strconv.Itoa(i+1) }

// Bounds of a program, so that every byte string decodes to a program of
// modest text (well under mod.MaxSource) that the compiler takes.
const (
	maxModules       = 3
	maxStatements    = 160 // in one file: main.lua has mainStatements, a module moduleStatements
	mainStatements   = 120
	moduleStatements = 40
	maxBlockDepth    = 4 // nested blocks and function bodies
	maxExprDepth     = 4
	maxBlockLen      = 6 // statements of one block (a module's top level: twice)
	maxHandlers      = 4
	maxTrips         = 1 << 12 // a loop's trip count
	maxLiteral       = 1 << 11 // bytes of a string literal, or of a class written out
	maxString        = 1 << 20 // a size given to a builtin: the default MaxString
	maxRecursion     = 1 << 9  // a recursive function's depth argument (past the CallStack of 200: an error)
)

// Decode decodes data, any bytes, into a program: the number of modules,
// main.lua (its top level, then its handlers), then the modules. Every choice the
// generator makes reads the next bytes of data (a choice among n reads one
// byte, taken modulo n, or three for n past 256); once data is spent every
// choice is 0, which is always the simplest (a literal, no more
// statements), so any prefix of a byte string decodes, and the fuzzer's
// mutations of a byte change one choice and the choices after it. The
// same bytes always decode to the same program.
func Decode(data []byte) Program {
	return generate(&byteSource{data: data})
}

// chooser makes the generator's choices: byteSource from a fuzzer's bytes,
// plan for the seeds written by hand. label names the choice (for plan).
type chooser interface {
	intn(n int, label string) int
}

// byteSource reads choices from bytes, 0 once they are spent.
type byteSource struct {
	data []byte
	pos  int
}

func (s *byteSource) next() int {
	if s.pos >= len(s.data) {
		return 0
	}
	s.pos++
	return int(s.data[s.pos-1])
}

func (s *byteSource) intn(n int, _ string) int {
	switch {
	case n <= 1:
		return 0
	case n <= 256:
		return s.next() % n
	}
	return (s.next() | s.next()<<8 | s.next()<<16) % n
}

// plan makes the choices a seed asks for, by label, in order, and 0 for
// every other, and records the bytes that decode to the same choices
// (bytes): the seeds of the known attacks are written as plans.
type plan struct {
	wants map[string][]int
	bytes []byte
}

func (p *plan) intn(n int, label string) int {
	v := 0
	if q := p.wants[label]; len(q) > 0 {
		v, p.wants[label] = q[0], q[1:]
	}
	v = max(0, min(v, n-1))
	switch {
	case n <= 1:
	case n <= 256:
		p.bytes = append(p.bytes, byte(v))
	default:
		p.bytes = append(p.bytes, byte(v), byte(v>>8), byte(v>>16))
	}
	return v
}

// Types of the generator's expressions: what a variable holds, so that
// most programs run past their first statements.
type typ int

const (
	tNum typ = iota
	tStr
	tBool
	tTab
	tFn
	nTypes
)

var typeNames = [nTypes]string{"num", "str", "bool", "tab", "fn"}

type variable struct {
	name string
	t    typ
}

// gen is the state of one program's generation.
type gen struct {
	src      chooser
	scopes   [][]variable
	names    int
	stmts    int  // statements written in the file, counted up to maxStatements
	depth    int  // blocks open
	vararg   bool // the function being written takes ...
	handler  bool // inside a function, where the API's calls work
	loop     int  // loops open in the current function (for break)
	modules  int  // modules that may be required from here
	required []bool
}

func generate(src chooser) Program {
	g := &gen{src: src}
	var p Program
	n := g.pick(maxModules+1, "modules")
	g.modules, g.stmts = n, maxStatements-mainStatements
	p.Main = g.main()
	for i := range n {
		g.modules, g.stmts = i, maxStatements-moduleStatements
		p.Modules = append(p.Modules, g.module())
	}
	return p
}

func (g *gen) pick(n int, label string) int { return g.src.intn(n, label) }

func (g *gen) chance(label string) bool { return g.pick(2, label) == 1 }

// size draws a size from 0 to limit, uniform in its logarithm.
func (g *gen) size(limit int, label string) int {
	bits := 0
	for 1<<bits < limit {
		bits++
	}
	e := g.pick(bits+2, label+".bits")
	if e == 0 {
		return 0
	}
	lo := 1 << (e - 1)
	return min(limit, lo+g.pick(lo, label))
}

func (g *gen) name(prefix string) string {
	g.names++
	return prefix + strconv.Itoa(g.names)
}

func (g *gen) push() { g.scopes = append(g.scopes, nil) }
func (g *gen) pop()  { g.scopes = g.scopes[:len(g.scopes)-1] }
func (g *gen) declare(n string, t typ) {
	top := &g.scopes[len(g.scopes)-1]
	*top = append(*top, variable{n, t})
}

// variable picks a variable of type t in scope, or "" if there is none.
func (g *gen) variable(t typ) string {
	var vs []string
	for _, s := range g.scopes {
		for _, v := range s {
			if v.t == t {
				vs = append(vs, v.name)
			}
		}
	}
	if len(vs) == 0 {
		return ""
	}
	return vs[g.pick(len(vs), "var")]
}

// main writes main.lua: the kept table K, a hazard for the marks, the
// modules it requires at the top, statements of the top level (run at
// load), and the handlers.
func (g *gen) main() string {
	var b strings.Builder
	b.WriteString("-- fuzz\nK = {}\ngame.hazard{name = \"h\", glyph = \"h\"}\n")
	g.push()
	for i := range g.modules {
		if g.chance("require.top") {
			v := "r" + moduleName(i)
			fmt.Fprintf(&b, "local %s = require(%q)\n", v, moduleName(i))
			g.declare(v, tTab)
		}
	}
	b.WriteString(g.statements(maxBlockLen))
	events := []string{"tick", "before_move", "after_merge", "spawn", "start", "expire"}
	for range 1 + g.pick(maxHandlers, "handlers") {
		ev := events[g.pick(len(events), "event")]
		fmt.Fprintf(&b, "game.on(%q, %s)\n", ev, g.function([]string{"ev"}, []typ{tTab}, true, true))
	}
	g.pop()
	return b.String()
}

// module writes a module: a table M of functions and values, returned.
func (g *gen) module() string {
	var b strings.Builder
	g.push()
	b.WriteString("local M = {}\n")
	g.declare("M", tTab)
	b.WriteString(g.statements(2 * maxBlockLen))
	for range g.pick(3, "module.functions") {
		fmt.Fprintf(&b, "M.%s = %s\n", g.name("f"), g.function([]string{"a", "b"}, []typ{tNum, tStr}, g.chance("module.vararg"), true))
	}
	b.WriteString("return M\n")
	g.pop()
	return b.String()
}

// function writes a function literal with params of types, and ... if
// vararg; handler says its body may call the API.
func (g *gen) function(params []string, types []typ, vararg, handler bool) string {
	saved := [...]any{g.vararg, g.handler, g.loop}
	g.vararg, g.handler, g.loop = vararg, handler || g.handler, 0
	g.push()
	for i, p := range params {
		g.declare(p, types[i])
	}
	ps := strings.Join(params, ", ")
	if vararg {
		if ps != "" {
			ps += ", "
		}
		ps += "..."
	}
	g.depth++
	most := maxBlockLen
	if g.depth > maxBlockDepth+1 {
		most = 0 // a function in a function in ...: its body is a return at most
	}
	body := g.statements(most)
	if g.chance("function.return") {
		body += "return " + g.exprList(0) + "\n"
	}
	g.depth--
	g.pop()
	g.vararg, g.handler, g.loop = saved[0].(bool), saved[1].(bool), saved[2].(int)
	return "function(" + ps + ")\n" + body + "end"
}

// statements writes a block of up to most statements.
func (g *gen) statements(most int) string {
	var b strings.Builder
	for range g.pick(most+1, "statements") {
		if g.stmts >= maxStatements {
			break
		}
		g.stmts++
		b.WriteString(g.statement())
		b.WriteString("\n")
	}
	return b.String()
}

// block writes a nested block, in its own scope.
func (g *gen) block() string {
	if g.depth >= maxBlockDepth {
		return ""
	}
	g.depth++
	g.push()
	s := g.statements(maxBlockLen)
	g.pop()
	g.depth--
	return s
}

// Statement kinds, in the order of the choice (0, the simplest, first).
const (
	sLocal = iota
	sAssign
	sKeep
	sIf
	sFor
	sWhile
	sRepeat
	sForIn
	sFunction
	sRecursion
	sCall
	sPcall
	sMetatable
	sTable
	sString
	sAPI
	sStorage
	sRequire
	sDo
	sBreak
	nStatements
)

func (g *gen) statement() string {
	switch g.pick(nStatements, "stmt") {
	case sLocal:
		t := typ(g.pick(int(nTypes), "local.type"))
		v := g.name("v")
		s := "local " + v + " = " + g.expr(t, 0)
		g.declare(v, t)
		return s
	case sAssign:
		t := typ(g.pick(int(nTypes), "assign.type"))
		if v := g.variable(t); v != "" && v != "M" {
			return v + " = " + g.expr(t, 0)
		}
		if tab := g.variable(tTab); tab != "" {
			if g.chance("assign.field") {
				return tab + "." + g.name("k") + " = " + g.expr(t, 0)
			}
			return tab + "[ " + g.key(0) + " ] = " + g.expr(t, 0)
		}
		return g.global() + " = " + g.expr(t, 0)
	case sKeep:
		return "K[#K + 1] = " + g.expr(typ(g.pick(int(nTypes), "keep.type")), 0)
	case sIf:
		s := "if " + g.expr(tBool, 0) + " then\n" + g.block()
		for range g.pick(3, "if.elseif") {
			s += "elseif " + g.expr(tBool, 0) + " then\n" + g.block()
		}
		if g.chance("if.else") {
			s += "else\n" + g.block()
		}
		return s + "end"
	case sFor:
		i := g.name("i")
		from, to := g.pick(3, "for.from"), g.size(maxTrips, "for.trips")
		step := ""
		if g.chance("for.step") {
			step = ", " + []string{"2", "-1", "0.5", "3"}[g.pick(4, "for.stepv")]
			if step == ", -1" {
				from, to = to, from
			}
		}
		g.loop++
		g.push()
		g.declare(i, tNum)
		s := fmt.Sprintf("for %s = %d, %d%s do\n%send", i, from, to, step, g.block())
		g.pop()
		g.loop--
		return s
	case sWhile:
		c := g.name("c")
		g.loop++
		s := fmt.Sprintf("do local %s = 0 while %s < %d do %s = %s + 1\n%send end", c, c, g.size(maxTrips, "while.trips"), c, c, g.block())
		g.loop--
		return s
	case sRepeat:
		c := g.name("c")
		g.loop++
		s := fmt.Sprintf("do local %s = 0 repeat %s = %s + 1\n%suntil %s >= %d end", c, c, c, g.block(), c, g.size(maxTrips, "repeat.trips"))
		g.loop--
		return s
	case sForIn:
		k, v := g.name("k"), g.name("v")
		var iter string
		vt := typ(tNum)
		switch g.pick(5, "forin.kind") {
		case 0:
			iter = "pairs(" + g.expr(tTab, 1) + ")"
			vt = tStr // a guess: the loop's body may misuse it, an error of the mod
		case 1:
			iter = "ipairs(" + g.expr(tTab, 1) + ")"
		case 2:
			iter = "next, " + g.expr(tTab, 1)
		case 3:
			iter = "string.gmatch(" + g.subject() + ", " + g.pattern() + ")"
			k, v = g.name("w"), g.name("w")
			vt = tStr
		default:
			iter = "ipairs(game.marks())"
			vt = tTab
		}
		g.loop++
		g.push()
		g.declare(k, tStr)
		g.declare(v, vt)
		s := fmt.Sprintf("for %s, %s in %s do\n%send", k, v, iter, g.block())
		g.pop()
		g.loop--
		return s
	case sFunction:
		f := g.name("f")
		g.declare(f, tFn) // declared first: the body may call it
		return "local " + f + "\n" + f + " = " + g.function([]string{"a", "b"}, []typ{typ(g.pick(int(nTypes), "function.a")), tStr}, g.chance("function.vararg"), false)
	case sRecursion:
		return g.recursion()
	case sCall:
		return g.call()
	case sPcall:
		return g.protected()
	case sMetatable:
		return g.metatable()
	case sTable:
		return g.tableOp()
	case sString:
		v := g.name("s")
		s := "local " + v + " = " + g.stringOp(0)
		g.declare(v, tStr)
		return s
	case sAPI:
		if !g.handler {
			return "local " + g.name("x") + " = game.width * game.height"
		}
		return g.api()
	case sStorage:
		key := "storage." + []string{"a", "b", "c", "d"}[g.pick(4, "storage.key")]
		if g.chance("storage.read") {
			v := g.name("v")
			return "local " + v + " = " + key
		}
		t := []typ{tNum, tStr, tBool, tTab}[g.pick(4, "storage.type")]
		return key + " = " + g.expr(t, 1)
	case sRequire:
		if g.modules == 0 {
			return "local " + g.name("x") + " = nil"
		}
		m := moduleName(g.pick(g.modules, "require.which"))
		v := g.name("r")
		s := fmt.Sprintf("local %s = require(%q)", v, m)
		g.declare(v, tTab)
		if g.chance("require.call") {
			s += fmt.Sprintf("\nfor _, f in pairs(%s) do if type(f) == \"function\" then f(1, \"x\") end end", v)
		}
		return s
	case sDo:
		return "do\n" + g.block() + "end"
	default:
		if g.loop > 0 {
			return "if " + g.expr(tBool, 1) + " then break end"
		}
		return "local " + g.name("x") + " = " + g.expr(tBool, 1)
	}
}

// recursion writes a recursive function and calls it: deep (past the call
// stack, an error), under pcall or not, with a tail call or not, with
// varargs or not, and an error raised at the bottom or not.
func (g *gen) recursion() string {
	f := g.name("rec")
	n := g.size(maxRecursion, "rec.depth")
	var call string
	switch g.pick(4, "rec.kind") {
	case 0: // a plain call: the stack grows
		call = "return 1 + " + f + "(n - 1, ...)"
	case 1: // a tail call
		call = "return " + f + "(n - 1, ...)"
	case 2: // more values on each level
		call = "return " + f + "(n - 1, n, ...)"
	default: // a call under pcall at each level
		call = "return pcall(" + f + ", n - 1, ...)"
	}
	bottom := "return n"
	if g.chance("rec.error") {
		bottom = "error(" + g.expr(typ(g.pick(int(nTypes), "rec.errortype")), 1) + ", " + strconv.Itoa(g.pick(3, "rec.level")) + ")"
	}
	s := fmt.Sprintf("local %s\n%s = function(n, ...)\nif n <= 0 then %s end\n%s\nend\n", f, f, bottom, call)
	args := ""
	if g.chance("rec.args") {
		args = g.tail(0)
	}
	if g.chance("rec.pcall") {
		return s + fmt.Sprintf("local %s, %s = pcall(%s, %d%s)", g.name("ok"), g.name("e"), f, n, args)
	}
	return s + fmt.Sprintf("%s(%d%s)", f, n, args)
}

// call writes a call statement: a function of the program's, a method, a
// builtin, select and unpack.
func (g *gen) call() string {
	switch g.pick(6, "call.kind") {
	case 0:
		if f := g.variable(tFn); f != "" {
			return f + "(" + g.exprList(0) + ")"
		}
		return "local " + g.name("x") + " = select(\"#\"" + g.tail(0) + ")"
	case 1:
		if t := g.variable(tTab); t != "" {
			m := g.name("m")
			return fmt.Sprintf("%s.%s = %s\n%s:%s(%s)", t, m, g.function([]string{"self", "a"}, []typ{tTab, tNum}, false, false), t, m, g.exprList(0))
		}
		return "local " + g.name("x") + " = (" + g.subject() + "):len()"
	case 2:
		return "local " + g.name("x") + " = select(" + g.expr(tNum, 1) + g.tail(0) + ")"
	case 3:
		return "local " + g.name("x") + " = select(\"#\", unpack(" + g.expr(tTab, 1) + "))"
	case 4:
		return "print(" + g.exprList(0) + ")"
	default:
		return "local " + g.name("x") + " = rawequal(" + g.expr(typ(g.pick(int(nTypes), "rawequal")), 1) + ", " + g.expr(typ(g.pick(int(nTypes), "rawequal")), 1) + ")"
	}
}

// protected writes pcall, xpcall and error, with any value raised.
func (g *gen) protected() string {
	ok, e := g.name("ok"), g.name("e")
	raise := "error(" + g.expr(typ(g.pick(int(nTypes), "error.type")), 1)
	if g.chance("error.level") {
		raise += ", " + strconv.Itoa(g.pick(4, "error.levelv"))
	}
	raise += ")"
	body := g.function(nil, nil, true, false)
	switch g.pick(5, "pcall.kind") {
	case 0:
		return fmt.Sprintf("local %s, %s = pcall(error, %s)", ok, e, g.expr(typ(g.pick(int(nTypes), "pcall.value")), 1))
	case 1:
		return fmt.Sprintf("local %s, %s = pcall(function(...) %s end%s)", ok, e, raise, g.tail(0))
	case 2:
		return fmt.Sprintf("local %s, %s = pcall(%s%s)", ok, e, body, g.tail(0))
	case 3:
		return fmt.Sprintf("local %s, %s = xpcall(function(...) %s end, function(m, ...) return %s end)", ok, e, raise, g.expr(tStr, 2))
	default:
		return fmt.Sprintf("local %s, %s = xpcall(%s, function(m) return tostring(m) .. %s end)", ok, e, body, g.literal())
	}
}

// metatable writes a table with a metatable of metamethods, and uses it.
func (g *gen) metatable() string {
	v := g.name("o")
	events := []string{"__index", "__newindex", "__concat", "__eq", "__lt", "__le", "__call", "__tostring", "__len", "__add", "__unm", "__mod"}
	var fields []string
	for range 1 + g.pick(5, "mt.fields") {
		ev := events[g.pick(len(events), "mt.event")]
		var f string
		switch {
		case (ev == "__index" || ev == "__newindex") && g.chance("mt.table"):
			f = g.expr(tTab, 2)
		case ev == "__newindex":
			f = "function(t, k, x) rawset(t, k, x) end"
		default:
			f = g.function([]string{"a", "b"}, []typ{tTab, tStr}, true, false)
		}
		fields = append(fields, ev+" = "+f)
	}
	s := fmt.Sprintf("local %s = setmetatable({%s}, {%s})\n", v, g.exprList(0), strings.Join(fields, ", "))
	w := g.name("o")
	s += fmt.Sprintf("local %s = setmetatable({}, getmetatable(%s))\n", w, v)
	var uses []string
	for range 1 + g.pick(3, "mt.uses") {
		switch g.pick(11, "mt.use") {
		case 0:
			uses = append(uses, "local _ = "+v+"."+g.name("k"))
		case 1:
			uses = append(uses, v+"[ "+g.key(0)+" ] = "+g.expr(tNum, 2))
		case 2:
			uses = append(uses, "local _ = "+v+" .. "+g.expr(tStr, 2))
		case 3:
			uses = append(uses, "local _ = "+v+" == "+w)
		case 4:
			uses = append(uses, "local _ = "+v+" < "+w)
		case 5:
			uses = append(uses, "local _ = "+v+" <= "+w)
		case 6:
			uses = append(uses, "local _ = "+v+"("+g.exprList(0)+")")
		case 7:
			uses = append(uses, "local _ = tostring("+v+")")
		case 8:
			uses = append(uses, "local _ = #"+v+" + 1")
		case 9:
			uses = append(uses, "local _ = "+v+" + "+w)
		default:
			uses = append(uses, "local _ = rawget("+v+", 1), rawequal("+v+", "+w+")")
		}
	}
	g.declare(v, tTab)
	return s + "pcall(function(...)\n" + strings.Join(uses, "\n") + "\nend)"
}

// tableOp writes an operation of the table library, or a constructor.
func (g *gen) tableOp() string {
	t := g.variable(tTab)
	if t == "" || t == "M" {
		t = g.name("t")
		s := "local " + t + " = " + g.constructor(1)
		g.declare(t, tTab)
		return s
	}
	switch g.pick(7, "table.op") {
	case 0:
		return "table.insert(" + t + ", " + g.expr(typ(g.pick(int(nTypes), "insert.type")), 1) + ")"
	case 1:
		return "table.insert(" + t + ", 1, " + g.expr(tNum, 1) + ")"
	case 2:
		return "table.remove(" + t + ", " + []string{"1", "#" + t, "nil"}[g.pick(3, "remove.at")] + ")"
	case 3:
		if g.chance("sort.fn") {
			return "pcall(table.sort, " + t + ", function(x, y) return tostring(x) < tostring(y) end)"
		}
		return "pcall(table.sort, " + t + ")"
	case 4:
		return "for j = 1, " + strconv.Itoa(g.size(maxTrips, "fill")) + " do " + t + "[j] = " + g.expr(typ(g.pick(int(nTypes), "fill.type")), 2) + " end"
	case 5:
		return "rawset(" + t + ", " + g.key(0) + ", " + g.expr(tStr, 1) + ")"
	default:
		return "local " + g.name("x") + " = rawget(" + t + ", " + g.key(0) + ")"
	}
}

// api writes a call of the mod API.
func (g *gen) api() string {
	row, col := g.coord(0), g.coord(0)
	switch g.pick(13, "api") {
	case 0:
		return "local " + g.name("x") + " = game.cell(" + row + ", " + col + ")"
	case 1:
		return "local " + g.name("x") + " = game.cells{cell = " + g.pattern() + "}"
	case 2:
		return "local " + g.name("x") + " = game.cells{marked = " + g.expr(tBool, 2) + ", hazard = \"h\"}"
	case 3:
		return "game.set(" + row + ", " + col + ", " + []string{"0", "2", "4", "1024", "3"}[g.pick(5, "set.cell")] + ")"
	case 4:
		return "game.mark(" + row + ", " + col + ", \"h\"" + []string{"", ", 2", ", 3, 1"}[g.pick(3, "mark.args")] + ")"
	case 5:
		return "game.unmark(" + row + ", " + col + ", \"h\")"
	case 6:
		return "local " + g.name("x") + " = game.marks()"
	case 7:
		return "local " + g.name("x") + " = game.marks(" + row + ", " + col + ")"
	case 8:
		return "game.log(" + g.exprList(0) + ")"
	case 9:
		return "game.notify(" + g.expr(tStr, 1) + ")"
	case 10:
		return "local " + g.name("x") + " = game.random(" + []string{"", "4", "1, 16", "0"}[g.pick(4, "random.args")] + ")"
	case 11:
		return "local " + g.name("x") + " = game.turn() + game.score() .. game.status()"
	default:
		return "local " + g.name("x") + " = game.marks{hazard = \"h\"}"
	}
}

// coord is a row or column: mostly on the 4×4 board.
func (g *gen) coord(d int) string {
	switch g.pick(4, "coord") {
	case 0, 1:
		return strconv.Itoa(g.pick(4, "coord.v"))
	case 2:
		return "game.random(4) - 1"
	default:
		return "math.floor(" + g.expr(tNum, max(d, 2)) + ") % 4"
	}
}

// global names one of a few globals.
func (g *gen) global() string { return "G" + strconv.Itoa(g.pick(4, "global")) }

// key is a table key: a number, a short string, a long string.
func (g *gen) key(d int) string {
	switch g.pick(4, "key") {
	case 0:
		return strconv.Itoa(g.pick(16, "key.n") + 1)
	case 1:
		return strconv.Quote(g.name("k"))
	case 2:
		return g.expr(tStr, max(d, 2))
	default:
		return g.expr(tNum, max(d, 2))
	}
}

// exprList is 0 to 3 expressions of any types, at depth d, and ... in
// a vararg function.
func (g *gen) exprList(d int) string {
	n := g.pick(4, "list.n")
	var es []string
	for range n {
		es = append(es, g.expr(typ(g.pick(int(nTypes), "list.type")), d+1))
	}
	if g.vararg && g.chance("list.vararg") {
		es = append(es, "...")
	}
	return strings.Join(es, ", ")
}

// tail is exprList after a comma: "" or ", " and the list.
func (g *gen) tail(d int) string {
	if l := g.exprList(d); l != "" {
		return ", " + l
	}
	return ""
}

// expr writes an expression of type t, at expression depth d.
func (g *gen) expr(t typ, d int) string {
	if d >= maxExprDepth || d >= 2 && g.chance("expr.stop") {
		return g.leaf(t)
	}
	d++
	switch t {
	case tNum:
		switch g.pick(12, "num") {
		case 0:
			return g.leaf(t)
		case 1:
			return "(" + g.expr(tNum, d) + " " + []string{"+", "-", "*", "/", "%", "^"}[g.pick(6, "num.op")] + " " + g.expr(tNum, d) + ")"
		case 2:
			return "(- " + g.expr(tNum, d) + ")"
		case 3:
			return "#" + g.expr(tStr, d)
		case 4:
			return "#" + g.expr(tTab, d)
		case 5:
			base := ""
			if g.chance("tonumber.base") {
				base = ", " + strconv.Itoa(2+g.pick(35, "tonumber.basev"))
			}
			return "(tonumber(" + g.expr(tStr, d) + base + ") or 0)"
		case 6:
			return "(string.byte(" + g.expr(tStr, d) + ", " + g.expr(tNum, d) + ") or 0)"
		case 7:
			return "select(\"#\"" + g.tail(d) + ")"
		case 8:
			return "math." + []string{"floor", "abs", "sqrt", "ceil", "exp", "log"}[g.pick(6, "math.fn")] + "(" + g.expr(tNum, d) + ")"
		case 9:
			return "(string.find(" + g.subject() + ", " + g.pattern() + ", " + g.expr(tNum, d) + []string{"", ", true"}[g.pick(2, "find.plain")] + ") or 0)"
		case 10:
			return "math." + []string{"max", "min", "fmod"}[g.pick(3, "math.fn2")] + "(" + g.expr(tNum, d) + ", " + g.expr(tNum, d) + ")"
		default:
			if f := g.variable(tFn); f != "" {
				return "(tonumber((" + f + "(" + g.exprList(d) + "))) or 0)"
			}
			return "(" + g.expr(tStr, d) + "):len()"
		}
	case tStr:
		if g.pick(3, "str.op") == 0 {
			return g.leaf(t)
		}
		return g.stringOp(d)
	case tBool:
		switch g.pick(9, "bool") {
		case 0:
			return g.leaf(t)
		case 1:
			return "(" + g.expr(tNum, d) + " " + []string{"<", "<=", ">", ">=", "==", "~="}[g.pick(6, "cmp")] + " " + g.expr(tNum, d) + ")"
		case 2:
			return "(" + g.expr(tStr, d) + " " + []string{"<", "<=", ">", ">=", "==", "~="}[g.pick(6, "cmp")] + " " + g.expr(tStr, d) + ")"
		case 3:
			return "(not " + g.expr(typ(g.pick(int(nTypes), "not")), d) + ")"
		case 4:
			return "(" + g.expr(tBool, d) + " " + []string{"and", "or"}[g.pick(2, "logic")] + " " + g.expr(tBool, d) + ")"
		case 5:
			u := typ(g.pick(int(nTypes), "eq.type"))
			return "(" + g.expr(u, d) + " == " + g.expr(u, d) + ")"
		case 6:
			return "rawequal(" + g.expr(tStr, d) + ", " + g.expr(tStr, d) + ")"
		case 7:
			return "(next(" + g.expr(tTab, d) + ") ~= nil)"
		default:
			return "(string.match(" + g.subject() + ", " + g.pattern() + ") ~= nil)"
		}
	case tTab:
		switch g.pick(8, "tab") {
		case 0:
			return g.leaf(t)
		case 1:
			return g.constructor(d)
		case 2:
			return "{string.byte(" + g.subject() + ", " + g.expr(tNum, d) + ", " + g.expr(tNum, d) + ")}"
		case 3:
			return "{unpack(" + g.expr(tTab, d) + ")}"
		case 4:
			return "{string.match(" + g.subject() + ", " + g.pattern() + ")}"
		case 5:
			return "{pcall(" + g.expr(tFn, d) + g.tail(d) + ")}"
		case 6:
			if g.vararg {
				return "{...}"
			}
			return "{select(2" + g.tail(d) + ")}"
		default:
			return "setmetatable({}, {__index = " + g.expr(tTab, d) + "})"
		}
	case tFn:
		switch g.pick(4, "fn") {
		case 0:
			return g.leaf(t)
		case 1:
			if g.depth > maxBlockDepth+1 {
				// A function in a function in ...: a body's return may
				// hold a function too, and the chain would nest past the
				// parser's 200 levels (FuzzSandbox found it).
				return g.leaf(t)
			}
			return g.function([]string{"a", "b"}, []typ{tNum, tNum}, g.chance("fn.vararg"), false)
		case 2:
			return "string.gmatch(" + g.subject() + ", " + g.pattern() + ")"
		default:
			return []string{"tostring", "type", "string.upper", "select", "unpack", "next", "print"}[g.pick(7, "fn.builtin")]
		}
	}
	return "nil"
}

// stringOp writes an expression of the string library's, or another
// that makes a string.
func (g *gen) stringOp(d int) string {
	d++
	switch g.pick(16, "strop") {
	case 0:
		return "(" + g.expr(tStr, d) + " .. " + g.expr(typ(g.pick(2, "concat.type")), d) + ")"
	case 1:
		sep := ""
		if g.chance("rep.sep") {
			sep = ", " + g.literal()
		}
		return "string.rep(" + g.expr(tStr, maxExprDepth) + ", " + strconv.Itoa(g.size(maxString, "rep.n")) + sep + ")"
	case 2:
		return "tostring(" + g.expr(typ(g.pick(int(nTypes), "tostring")), d) + ")"
	case 3:
		return g.format(d)
	case 4:
		return "string.sub(" + g.expr(tStr, d) + ", " + g.expr(tNum, d) + ", " + g.expr(tNum, d) + ")"
	case 5:
		return "string." + []string{"upper", "lower", "reverse", "len"}[g.pick(4, "case")] + "(" + g.expr(tStr, d) + ")"
	case 6:
		var bs []string
		for range g.pick(8, "char.n") {
			bs = append(bs, strconv.Itoa(g.pick(256, "char.b")))
		}
		if g.chance("char.unpack") {
			return "string.char(unpack({string.byte(" + g.subject() + ", 1, -1)}))"
		}
		return "string.char(" + strings.Join(bs, ", ") + ")"
	case 7:
		return "table.concat(" + g.expr(tTab, d) + ", " + g.expr(tStr, d) + ")"
	case 8:
		return "(string.gsub(" + g.subject() + ", " + g.pattern() + ", " + g.replacement(d) + "))"
	case 9:
		return "tostring((string.match(" + g.subject() + ", " + g.pattern() + ")))"
	case 10:
		return "(" + g.expr(tStr, d) + "):" + []string{"upper()", "rep(3)", "sub(2)", "lower()", "reverse()"}[g.pick(5, "method")]
	case 11:
		return "tostring(storage." + []string{"a", "b", "c", "d"}[g.pick(4, "storage.key")] + ")"
	case 12:
		return "tostring(game.cell(" + g.coord(d) + ", " + g.coord(d) + "))"
	case 13:
		if f := g.variable(tFn); f != "" {
			return "tostring((" + f + "(" + g.exprList(d) + ")))"
		}
		return "tostring(" + g.expr(tTab, d) + ")"
	case 14:
		return "tostring(" + g.expr(tNum, d) + " .. " + g.expr(tStr, d) + ")"
	default:
		if g.vararg {
			return "tostring((...))"
		}
		return g.leaf(tStr)
	}
}

// format writes string.format with a format of directives, flag runs of
// any length among them, and arguments.
func (g *gen) format(d int) string {
	var f strings.Builder
	var args []string
	for range 1 + g.pick(4, "format.n") {
		if g.chance("format.text") {
			f.WriteString("ab")
		}
		f.WriteString("%")
		flags := g.size(maxLiteral, "format.flags")
		for i := range flags {
			f.WriteByte("-+ #0"[(i+g.pick(5, "format.flag"))%5])
		}
		if g.chance("format.width") {
			f.WriteString(strconv.Itoa(g.pick(120, "format.widthv")))
		}
		if g.chance("format.prec") {
			f.WriteString("." + strconv.Itoa(g.pick(120, "format.precv")))
		}
		switch c := "sdqxXfgceEiou%"[g.pick(14, "format.verb")]; c {
		case 's', 'q':
			f.WriteByte(c)
			args = append(args, g.expr(tStr, d))
		case '%':
			f.WriteByte(c)
		default:
			f.WriteByte(c)
			args = append(args, g.expr(tNum, d))
		}
	}
	s := "string.format(" + quote(f.String())
	for _, a := range args {
		s += ", " + a
	}
	return s + ")"
}

// replacement is gsub's replacement: a string with captures' references,
// a table, or a function.
func (g *gen) replacement(d int) string {
	switch g.pick(4, "repl") {
	case 0:
		return quote([]string{"x", "%0", "%1", "%1%1", "%%", "%2-%1"}[g.pick(6, "repl.s")])
	case 1:
		return g.expr(tTab, d)
	case 2:
		return "function(c) return " + []string{"c", "nil", "false", "c .. c"}[g.pick(4, "repl.f")] + " end"
	default:
		return g.expr(tStr, d)
	}
}

// subject is a string to match: mostly long, of the letters the patterns
// name.
func (g *gen) subject() string {
	switch g.pick(4, "subject") {
	case 0:
		return g.expr(tStr, maxExprDepth)
	case 1:
		return "string.rep(" + quote([]string{"ab ", "a", "(x)", "aaab", "z9_"}[g.pick(5, "subject.unit")]) + ", " + strconv.Itoa(g.size(maxString, "subject.n")) + ")"
	default:
		return g.literal()
	}
}

// pattern writes a Lua pattern as an expression: anchors, single
// characters, classes, sets and long sets (written out, or made with
// string.rep at run time), quantifiers, %b, %f, captures, position
// captures and back-references. Some are malformed: an error of the mod.
func (g *gen) pattern() string {
	var parts []string
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, quote(lit.String()))
			lit.Reset()
		}
	}
	if g.chance("pat.anchor") {
		lit.WriteString("^")
	}
	captures, open := 0, 0
	for range g.pick(8, "pat.items") {
		single := true
		switch g.pick(12, "pat.item") {
		case 0:
			lit.WriteByte("ab x(_9"[g.pick(7, "pat.char")])
		case 1:
			lit.WriteString(".")
		case 2:
			lit.WriteString("%" + string("adswlupcxADSWLUPCX%."[g.pick(20, "pat.class")]))
		case 3:
			lit.WriteString([]string{"[ab]", "[^a-z]", "[%a_]", "[a-]", "[]]", "[^]"}[g.pick(6, "pat.set")])
		case 4:
			g.longSet(&lit, &parts, flush)
		case 5:
			lit.WriteString("%f")
			if g.chance("pat.frontier.long") {
				g.longSet(&lit, &parts, flush)
			} else {
				lit.WriteString([]string{"[%a]", "[%z]", "[^ ]", "[ab]"}[g.pick(4, "pat.frontier")])
			}
			single = false
		case 6:
			lit.WriteString([]string{"%b()", "%bab", "%b  "}[g.pick(3, "pat.balance")])
			single = false
		case 7:
			lit.WriteString("(")
			open++
			single = false
		case 8:
			if open > 0 {
				lit.WriteString(")")
				open--
				captures++
			} else {
				lit.WriteString("()")
			}
			single = false
		case 9:
			lit.WriteString("%" + strconv.Itoa(1+g.pick(max(captures, 1)+1, "pat.backref")))
			single = false
		case 10:
			lit.WriteString("a")
		default:
			if g.chance("pat.long.literal") {
				flush()
				parts = append(parts, "string.rep(\"a\", "+strconv.Itoa(g.size(maxString, "pat.literal.n"))+")")
			} else {
				lit.WriteString("ab")
			}
			single = false
		}
		if single && g.chance("pat.quant") {
			lit.WriteByte("*+-?"[g.pick(4, "pat.quantv")])
		}
	}
	for ; open > 0 && g.pick(4, "pat.close") != 0; open-- {
		lit.WriteString(")")
	}
	if g.chance("pat.end") {
		lit.WriteString("$")
	}
	flush()
	if len(parts) == 0 {
		return `""`
	}
	return "(" + strings.Join(parts, " .. ") + ")"
}

// longSet writes a bracket class of up to thousands of bytes: ranges,
// letters, escapes, written out in the pattern's literal or made with
// string.rep.
func (g *gen) longSet(lit *strings.Builder, parts *[]string, flush func()) {
	unit := []string{"a-z", "b", "%a", "%%", "0-9x", "^"}[g.pick(6, "set.unit")]
	n := g.size(maxString/4, "set.n")
	neg := ""
	if g.chance("set.neg") {
		neg = "^"
	}
	if n*len(unit) <= maxLiteral && g.chance("set.written") {
		lit.WriteString("[" + neg + strings.Repeat(unit, n) + "]")
		return
	}
	lit.WriteString("[" + neg)
	flush()
	*parts = append(*parts, "string.rep("+quote(unit)+", "+strconv.Itoa(n)+")")
	lit.WriteString("]")
}

// constructor writes a table constructor: positional items, named and
// computed keys, a long run of numbers.
func (g *gen) constructor(d int) string {
	var items []string
	for range g.pick(6, "ctor.n") {
		switch g.pick(5, "ctor.item") {
		case 0:
			items = append(items, g.expr(typ(g.pick(int(nTypes), "ctor.type")), d+1))
		case 1:
			items = append(items, g.name("k")+" = "+g.expr(typ(g.pick(int(nTypes), "ctor.type")), d+1))
		case 2:
			items = append(items, "[ "+g.key(d+1)+" ] = "+g.expr(tNum, d+1))
		case 3:
			n := g.size(1<<10, "ctor.run")
			var run strings.Builder
			for i := range n {
				if i > 0 {
					run.WriteString(", ")
				}
				run.WriteString(strconv.Itoa(i))
			}
			if run.Len() > 0 {
				items = append(items, run.String())
			}
		default:
			if g.vararg {
				items = append(items, "...")
			} else {
				items = append(items, g.literal())
			}
		}
	}
	return "{" + strings.Join(items, ", ") + "}"
}

// leaf writes a variable of type t, or a literal.
func (g *gen) leaf(t typ) string {
	if g.chance("leaf.var") {
		if v := g.variable(t); v != "" {
			return v
		}
	}
	switch t {
	case tNum:
		return []string{"0", "1", "2", "-1", "3.5", "1e308", "2^53", "(0/0)", "math.huge", "16", "255", "-0.5", "1e-300", "100000"}[g.pick(14, "num.lit")]
	case tStr:
		return g.literal()
	case tBool:
		return []string{"true", "false", "(nil == nil)"}[g.pick(3, "bool.lit")]
	case tTab:
		return []string{"{}", "K", "{1, 2, 3}", "{x = 1}", "game.settings"}[g.pick(5, "tab.lit")]
	case tFn:
		return "function(...) return ... end"
	}
	return "nil"
}

// literal writes a string literal: short, escaped, of any bytes, or long
// in brackets.
func (g *gen) literal() string {
	switch g.pick(5, "lit") {
	case 0:
		return []string{`""`, `"a"`, `"ab"`, `"x1"`, `"10"`, `"0x1F"`, `"  3.5e2 "`, `"%d"`}[g.pick(8, "lit.short")]
	case 1:
		// Bytes of every value, from one choice (a byte a choice would
		// spend the fuzzer's input on little).
		n, x := g.size(maxLiteral, "lit.n"), uint32(g.pick(256, "lit.byte"))
		var b strings.Builder
		for range n {
			b.WriteByte(byte(x))
			x = x*1103515245 + 12345
		}
		return quote(b.String())
	case 2:
		n := g.size(maxLiteral, "lit.n")
		return "[==[" + strings.Repeat("q]", n) + "]==]"
	case 3:
		return quote(strings.Repeat("7", g.size(maxLiteral, "lit.digits")))
	default:
		return quote(strings.Repeat("a", g.size(maxLiteral, "lit.as")) + "b")
	}
}

// quote writes s as a Lua string literal: printable ASCII as it is, the
// rest as decimal escapes.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "\\%03d", c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// String names the type.
func (t typ) String() string { return typeNames[t] }
