package sandbox

import (
	"strings"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"
	"github.com/mod2048/mod2048/scripting/internal/lua/ast"
	"github.com/mod2048/mod2048/scripting/internal/lua/parse"
	"github.com/mod2048/mod2048/scripting/internal/workcount"
)

// Two instructions of the VM copy any number of bytes or values in one
// step. Its concatenation (`..`, CONCAT) copies its operands into a new
// string: a loop that doubles a string counts forty instructions while it
// builds a terabyte. Its vararg expression (`...`, VARARG) copies every
// value passed to the function: a function called with 30000 arguments
// (one unpack, charged once) builds a table of them at each {...}. So the
// host compiles neither as the VM's where it can copy more than a few:
// when a mod's file is compiled, each chain a .. b .. c becomes a call of
// the host's concatenation, which charges the Budget for the bytes it
// makes (one instruction for every BytesPerInstruction) before it makes
// them, and each ... that passes all its values on (the last argument of a
// call, the last field of a table constructor, the last value returned)
// becomes a call of the host's varargs, which charges one instruction for
// each value. A doubling string then ends in the instruction Budget's
// error, at the same doubling on every machine, natively and in the
// browser, long before the process runs short of memory.
//
// The host's functions reach the mod's code as locals of each file's chunk
// whose names no Lua source can spell (concatName, varargsName): a mod can
// neither call them by name nor replace them.

// The names of the locals that hold the host's concatenation and varargs.
const (
	concatName  = "(concat)"
	varargsName = "(varargs)"
)

// Meters are the host's functions that metered code calls.
type Meters struct {
	concat, varargs *lua.LFunction
}

// NewMeters makes the functions that charge b for what a mod's `..` and
// `...` copy.
func NewMeters(L *lua.LState, b *Budget) Meters {
	c := &concatenator{b: b}
	return Meters{
		concat: L.NewFunction(c.concat),
		varargs: L.NewFunction(func(L *lua.LState) int {
			n := L.GetTop()
			b.Spend(L, n)
			return n
		}),
	}
}

// compileMetered parses and compiles a Lua file with its concatenations
// and varargs metered, if it nests no deeper than MaxDepth. It returns the prototype of a chunk that takes the
// host's Meters as its arguments and returns the file's chunk (Bind).
func compileMetered(src, name string) (*lua.FunctionProto, error) {
	chunk, err := parse.Parse(strings.NewReader(src), name)
	if err != nil {
		return nil, &lua.ApiError{Type: lua.ApiErrorSyntax, Object: lua.LString(err.Error()), Cause: err}
	}
	if err := checkDepth(chunk, name); err != nil {
		return nil, &lua.ApiError{Type: lua.ApiErrorSyntax, Object: lua.LString(err.Error()), Cause: err}
	}
	stmts(chunk)
	wrapped := []ast.Stmt{
		&ast.LocalAssignStmt{Names: []string{concatName, varargsName}, Exprs: []ast.Expr{&ast.Comma3Expr{}}},
		&ast.ReturnStmt{Exprs: []ast.Expr{&ast.FunctionExpr{ParList: &ast.ParList{HasVargs: true}, Stmts: chunk}}},
	}
	proto, err := lua.Compile(wrapped, name)
	if err != nil {
		return nil, &lua.ApiError{Type: lua.ApiErrorSyntax, Object: lua.LString(err.Error()), Cause: err}
	}
	return proto, nil
}

// Bind runs a prototype of compileMetered with the host's Meters and
// returns the file's chunk.
func Bind(L *lua.LState, proto *lua.FunctionProto, m Meters) (*lua.LFunction, error) {
	if err := L.CallByParam(lua.P{Fn: L.NewFunctionFromProto(proto), NRet: 1, Protect: true}, m.concat, m.varargs); err != nil {
		return nil, err
	}
	fn := L.Get(-1).(*lua.LFunction)
	L.Pop(1)
	return fn, nil
}

// The rewrite: every StringConcatOpExpr, at any depth, becomes a call of
// concatName with the chain's operands, in order; every Comma3Expr that
// gives all its values, the argument of a call of varargsName.

func stmts(list []ast.Stmt) {
	workcount.Step()
	for _, s := range list {
		workcount.Step()
		stmt(s)
	}
}

func stmt(s ast.Stmt) {
	workcount.Step()
	switch s := s.(type) {
	case *ast.AssignStmt:
		exprs(s.Lhs)
		exprs(s.Rhs)
	case *ast.LocalAssignStmt:
		exprs(s.Exprs)
	case *ast.FuncCallStmt:
		s.Expr = expr(s.Expr)
	case *ast.DoBlockStmt:
		stmts(s.Stmts)
	case *ast.WhileStmt:
		s.Condition = expr(s.Condition)
		stmts(s.Stmts)
	case *ast.RepeatStmt:
		s.Condition = expr(s.Condition)
		stmts(s.Stmts)
	case *ast.IfStmt:
		for {
			workcount.Step()
			s.Condition = expr(s.Condition)
			stmts(s.Then)
			next, ok := elseif(s)
			if !ok {
				stmts(s.Else)
				break
			}
			s = next
		}
	case *ast.NumberForStmt:
		s.Init = expr(s.Init)
		s.Limit = expr(s.Limit)
		if s.Step != nil {
			s.Step = expr(s.Step)
		}
		stmts(s.Stmts)
	case *ast.GenericForStmt:
		exprs(s.Exprs)
		stmts(s.Stmts)
	case *ast.FuncDefStmt:
		if s.Name != nil {
			if s.Name.Func != nil {
				s.Name.Func = expr(s.Name.Func)
			}
			if s.Name.Receiver != nil {
				s.Name.Receiver = expr(s.Name.Receiver)
			}
		}
		expr(s.Func)
	case *ast.ReturnStmt:
		exprs(s.Exprs)
		spread(s.Exprs)
	}
}

// spread Meters a list's last expression if it is a ... that gives all its
// values.
func spread(list []ast.Expr) {
	if n := len(list); n > 0 {
		if v, ok := list[n-1].(*ast.Comma3Expr); ok && !v.AdjustRet {
			call := &ast.FuncCallExpr{Func: &ast.IdentExpr{Value: varargsName}, Args: []ast.Expr{v}}
			call.SetLine(v.Line())
			call.SetLastLine(v.LastLine())
			call.Func.SetLine(v.Line())
			call.Func.SetLastLine(v.LastLine())
			list[n-1] = call
		}
	}
}

func exprs(list []ast.Expr) {
	workcount.Step()
	for i, e := range list {
		workcount.Step()
		list[i] = expr(e)
	}
}

func expr(e ast.Expr) ast.Expr {
	workcount.Step()
	switch e := e.(type) {
	case *ast.StringConcatOpExpr:
		var args []ast.Expr
		for {
			workcount.Step()
			args = append(args, expr(e.Lhs))
			next, ok := e.Rhs.(*ast.StringConcatOpExpr)
			if !ok {
				break
			}
			e = next
		}
		last := expr(e.Rhs)
		// An operand is one value: as the last argument of a call, a call
		// or ... would pass all of theirs.
		switch x := last.(type) {
		case *ast.FuncCallExpr:
			x.AdjustRet = true
		case *ast.Comma3Expr:
			x.AdjustRet = true
		}
		call := &ast.FuncCallExpr{Func: &ast.IdentExpr{Value: concatName}, Args: append(args, last)}
		call.SetLine(e.Line())
		call.SetLastLine(e.LastLine())
		call.Func.SetLine(e.Line())
		call.Func.SetLastLine(e.LastLine())
		return call
	case *ast.AttrGetExpr:
		e.Object = expr(e.Object)
		e.Key = expr(e.Key)
	case *ast.TableExpr:
		for _, f := range e.Fields {
			workcount.Step()
			if f.Key != nil {
				f.Key = expr(f.Key)
			}
			f.Value = expr(f.Value)
		}
		if n := len(e.Fields); n > 0 && e.Fields[n-1].Key == nil {
			last := []ast.Expr{e.Fields[n-1].Value}
			spread(last)
			e.Fields[n-1].Value = last[0]
		}
	case *ast.FuncCallExpr:
		if e.Func != nil {
			e.Func = expr(e.Func)
		}
		if e.Receiver != nil {
			e.Receiver = expr(e.Receiver)
		}
		exprs(e.Args)
		if id, ok := e.Func.(*ast.IdentExpr); !ok || id.Value != varargsName {
			spread(e.Args)
		}
	case *ast.LogicalOpExpr:
		e.Lhs = expr(e.Lhs)
		e.Rhs = expr(e.Rhs)
	case *ast.RelationalOpExpr:
		e.Lhs = expr(e.Lhs)
		e.Rhs = expr(e.Rhs)
	case *ast.ArithmeticOpExpr:
		e.Lhs = expr(e.Lhs)
		e.Rhs = expr(e.Rhs)
	case *ast.UnaryMinusOpExpr:
		e.Expr = expr(e.Expr)
	case *ast.UnaryNotOpExpr:
		e.Expr = expr(e.Expr)
	case *ast.UnaryLenOpExpr:
		e.Expr = expr(e.Expr)
	case *ast.FunctionExpr:
		stmts(e.Stmts)
	}
	return e
}

// concatenator is a mod's `..`: Lua 5.1's concatenation, with the bytes it
// makes charged to the Budget before they are made.
type concatenator struct {
	b   *Budget
	buf []string
}

func (c *concatenator) concat(L *lua.LState) int {
	n := L.GetTop()
	c.buf = c.buf[:0]
	size := 0
	for i := 1; i <= n; i++ {
		workcount.Step()
		v := L.Get(i)
		if !lua.LVCanConvToString(v) {
			return c.slow(L, n)
		}
		s := lua.LVAsString(v)
		size += len(s)
		c.buf = append(c.buf, s)
	}
	if n := size / BytesPerInstruction; n > 0 {
		if c.b.left -= int64(n); c.b.left < 0 || c.b.tooBig(size) {
			clear(c.buf) // keep no operand alive after the Stop
			c.b.Spend(L, 0)
		}
	}
	s := strings.Join(c.buf, "")
	clear(c.buf)
	L.Push(lua.LString(s))
	return 1
}

// slow concatenates operands of which one at least is not a string nor a
// number, from the right as the VM does, calling __concat metamethods.
func (c *concatenator) slow(L *lua.LState, n int) int {
	clear(c.buf)
	rhs := L.Get(n)
	for i := n - 1; i >= 1; i-- {
		workcount.Step()
		lhs := L.Get(i)
		if lua.LVCanConvToString(lhs) && lua.LVCanConvToString(rhs) {
			l, r := lua.LVAsString(lhs), lua.LVAsString(rhs)
			c.b.Spend(L, (len(l)+len(r))/BytesPerInstruction)
			if c.b.tooBig(len(l) + len(r)) {
				c.b.Spend(L, 0)
			}
			rhs = lua.LString(l + r)
			continue
		}
		op := L.GetMetaField(lhs, "__concat")
		if op == lua.LNil {
			op = L.GetMetaField(rhs, "__concat")
		}
		if op.Type() != lua.LTFunction {
			L.RaiseError("cannot perform concat operation between %v and %v", lhs.Type().String(), rhs.Type().String())
		}
		L.Push(op)
		L.Push(lhs)
		L.Push(rhs)
		L.Call(2, 1)
		rhs = L.Get(-1)
		L.Pop(1)
	}
	L.Push(rhs)
	return 1
}
