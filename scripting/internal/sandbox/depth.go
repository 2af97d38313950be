package sandbox

import (
	"fmt"

	"github.com/mod2048/mod2048/scripting/internal/lua/ast"
	"github.com/mod2048/mod2048/scripting/internal/workcount"
)

// MaxDepth is how deep a file's code may nest, counted on its syntax tree:
// each block nested in a statement and each expression nested in another
// counts one level, so that an operator chain of n operators (a + a + … + a,
// a ^ a ^ … ^ a, - - … - a, not not … a), a chain of n fields or methods
// (a.b.c…, a:m():m()…) is n levels deep, as its tree is. An elseif counts
// none (it is an if statement's next branch, compiled in a loop).
//
// The parser, the rewrite and the compiler take time in proportion to the
// file's size and to how deep it nests; with the depth bounded, the
// largest file a mod may have (256 KiB) compiles in about a tenth of a
// second at most (BenchmarkCompileShapes), and no recursion of the rewrite
// or the compiler goes deeper than MaxDepth. Blocks, brackets and table
// constructors are bounded tighter, at 200 levels, before the file is
// parsed (the host's MaxNesting); an operator chain may have some 1000
// operators (999 as the value of an assignment).
const MaxDepth = 1000

// DepthError is the error of a file nested deeper than MaxDepth: the file
// and the line of the expression past the limit.
type DepthError struct {
	File string
	Line int
}

func (e *DepthError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.What()) }

// What is the error without its place.
func (e *DepthError) What() string {
	return fmt.Sprintf("expressions nested more than %d levels deep (an operator chain counts each operator)", MaxDepth)
}

// checkDepth returns a *DepthError if the chunk nests deeper than
// MaxDepth. It walks the tree once, and never deeper than MaxDepth+1.
func checkDepth(chunk []ast.Stmt, name string) error {
	d := depthWalk{}
	d.stmts(chunk, 0)
	if d.line != 0 {
		return &DepthError{File: name, Line: d.line}
	}
	return nil
}

// depthWalk walks a syntax tree until it finds a node deeper than
// MaxDepth, whose line it keeps.
type depthWalk struct{ line int }

// deep reports whether a node at depth d at line is past MaxDepth (and
// keeps its line), or the walk has found one already.
func (w *depthWalk) deep(d, line int) bool {
	if w.line != 0 {
		return true
	}
	if d > MaxDepth {
		w.line = max(line, 1)
		return true
	}
	return false
}

func (w *depthWalk) stmts(list []ast.Stmt, d int) {
	workcount.Step()
	for _, s := range list {
		workcount.Step()
		if w.deep(d, s.Line()) {
			return
		}
		w.stmt(s, d)
	}
}

func (w *depthWalk) stmt(s ast.Stmt, d int) {
	workcount.Step()
	switch s := s.(type) {
	case *ast.AssignStmt:
		w.exprs(s.Lhs, d+1)
		w.exprs(s.Rhs, d+1)
	case *ast.LocalAssignStmt:
		w.exprs(s.Exprs, d+1)
	case *ast.FuncCallStmt:
		w.expr(s.Expr, d+1)
	case *ast.DoBlockStmt:
		w.stmts(s.Stmts, d+1)
	case *ast.WhileStmt:
		w.expr(s.Condition, d+1)
		w.stmts(s.Stmts, d+1)
	case *ast.RepeatStmt:
		w.expr(s.Condition, d+1)
		w.stmts(s.Stmts, d+1)
	case *ast.IfStmt:
		for {
			workcount.Step()
			w.expr(s.Condition, d+1)
			w.stmts(s.Then, d+1)
			next, ok := elseif(s)
			if !ok {
				w.stmts(s.Else, d+1)
				return
			}
			s = next
		}
	case *ast.NumberForStmt:
		w.expr(s.Init, d+1)
		w.expr(s.Limit, d+1)
		if s.Step != nil {
			w.expr(s.Step, d+1)
		}
		w.stmts(s.Stmts, d+1)
	case *ast.GenericForStmt:
		w.exprs(s.Exprs, d+1)
		w.stmts(s.Stmts, d+1)
	case *ast.FuncDefStmt:
		if s.Name != nil {
			if s.Name.Func != nil {
				w.expr(s.Name.Func, d+1)
			}
			if s.Name.Receiver != nil {
				w.expr(s.Name.Receiver, d+1)
			}
		}
		w.expr(s.Func, d+1)
	case *ast.ReturnStmt:
		w.exprs(s.Exprs, d+1)
	}
}

// elseif returns the if statement of s's elseif, if s has one: its else
// block holds one if statement and nothing else (as the compiler reads it:
// `else if … end end` alike).
func elseif(s *ast.IfStmt) (*ast.IfStmt, bool) {
	if len(s.Else) != 1 {
		return nil, false
	}
	next, ok := s.Else[0].(*ast.IfStmt)
	return next, ok
}

func (w *depthWalk) exprs(list []ast.Expr, d int) {
	workcount.Step()
	for _, e := range list {
		workcount.Step()
		w.expr(e, d)
	}
}

func (w *depthWalk) expr(e ast.Expr, d int) {
	workcount.Step()
	if e == nil || w.deep(d, e.Line()) {
		return
	}
	switch e := e.(type) {
	case *ast.AttrGetExpr:
		w.expr(e.Object, d+1)
		w.expr(e.Key, d+1)
	case *ast.TableExpr:
		for _, f := range e.Fields {
			workcount.Step()
			if f.Key != nil {
				w.expr(f.Key, d+1)
			}
			w.expr(f.Value, d+1)
		}
	case *ast.FuncCallExpr:
		w.expr(e.Func, d+1)
		w.expr(e.Receiver, d+1)
		w.exprs(e.Args, d+1)
	case *ast.LogicalOpExpr:
		w.expr(e.Lhs, d+1)
		w.expr(e.Rhs, d+1)
	case *ast.RelationalOpExpr:
		w.expr(e.Lhs, d+1)
		w.expr(e.Rhs, d+1)
	case *ast.StringConcatOpExpr:
		w.expr(e.Lhs, d+1)
		w.expr(e.Rhs, d+1)
	case *ast.ArithmeticOpExpr:
		w.expr(e.Lhs, d+1)
		w.expr(e.Rhs, d+1)
	case *ast.UnaryMinusOpExpr:
		w.expr(e.Expr, d+1)
	case *ast.UnaryNotOpExpr:
		w.expr(e.Expr, d+1)
	case *ast.UnaryLenOpExpr:
		w.expr(e.Expr, d+1)
	case *ast.FunctionExpr:
		w.stmts(e.Stmts, d+1)
	}
}
