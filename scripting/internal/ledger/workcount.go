package ledger

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// WorkPath is the package whose Step every counted loop calls first: the
// deterministic work count (scripting/internal/workcount).
const WorkPath = Module + "/scripting/internal/workcount"

// Counted says whether a body opens with workcount.Step(), or with
// workcount.Save() (the loops of a mod's storage, counted apart).
func Counted(body *ast.BlockStmt) bool {
	if body == nil || len(body.List) == 0 {
		return false
	}
	e, ok := body.List[0].(*ast.ExprStmt)
	if !ok {
		return false
	}
	c, ok := e.X.(*ast.CallExpr)
	if !ok || len(c.Args) != 0 {
		return false
	}
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok || (sel.Sel.Name != "Step" && sel.Sel.Name != "Save") {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Name == "workcount"
}

// Exempt says whether a loop of the ledger needs no count: one no mod
// reaches (classified "bounded: never…"), one that runs on a goroutine of
// its own beside the mods' calls ("bounded: another goroutine…": its
// count would depend on timing), and a goto's, which the parser's
// generated code alone has, at load time.
func Exempt(l Loop, class string) bool {
	return strings.HasPrefix(l.Desc, "goto ") || strings.HasPrefix(class, Bounded+": never") ||
		strings.HasPrefix(class, Bounded+": another goroutine")
}

// Uncounted lists the loops that must count their iterations and do not
// (TestLoopLedger fails on them; make loops puts the call in), each with
// its places.
func Uncounted(entries []Entry, loops []Loop) []string {
	class := Classes(entries)
	var out []string
	for _, l := range loops {
		if len(l.Uncounted) == 0 || Exempt(l, class[l.Key()]) {
			continue
		}
		var at []string
		for _, s := range l.Uncounted {
			at = append(at, fmt.Sprintf("%s:%d", filepath.Base(s.Path), s.Line))
		}
		out = append(out, l.Key()+" ("+strings.Join(at, ", ")+")")
	}
	return out
}

// Instrument opens the body of every loop that Uncounted lists with
// workcount.Step(), importing the package where a file lacks it, and writes
// the files back formatted. The lua copy's _state.go and _vm.go, which
// go-inline makes state.go and vm.go from, get the call in the same
// loops. root is the module's root. It returns the files it changed.
func Instrument(root string, entries []Entry, loops []Loop) ([]string, error) {
	class := Classes(entries)
	spots := map[string][]int{}
	counted := map[string]bool{} // file and header of the loops that count, for _state.go and _vm.go
	for _, l := range loops {
		if Exempt(l, class[l.Key()]) {
			continue
		}
		counted[l.Key()] = true
		for _, s := range l.Uncounted {
			spots[s.Path] = append(spots[s.Path], s.Offset)
		}
	}
	var changed []string
	for path, offs := range spots {
		if err := insertSteps(path, offs); err != nil {
			return changed, err
		}
		changed = append(changed, path)
	}
	// go-inline's sources: the loops whose twins in state.go and vm.go count.
	dir := filepath.Join(root, "scripting", "internal", "lua")
	for _, src := range []string{"_state.go", "_vm.go"} {
		path := filepath.Join(dir, src)
		offs, err := twinSpots(path, strings.TrimPrefix(src, "_"), counted)
		if err != nil {
			return changed, err
		}
		if len(offs) > 0 {
			if err := insertSteps(path, offs); err != nil {
				return changed, err
			}
			changed = append(changed, path)
		}
	}
	slices.Sort(changed)
	return changed, nil
}

// twinSpots returns the bodies in go-inline's source path whose loop, as
// if it stood in the file named as, counts, and lacks the call.
func twinSpots(path, as string, counted map[string]bool) ([]int, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var offs []int
	for _, d := range f.Decls {
		name := declName(d)
		ast.Inspect(d, func(n ast.Node) bool {
			var header string
			var body *ast.BlockStmt
			switch n := n.(type) {
			case *ast.ForStmt:
				header, body = forHeader(fset, n), n.Body
			case *ast.RangeStmt:
				header, body = rangeHeader(fset, n), n.Body
			default:
				return true
			}
			if counted["lua "+as+" "+name+": "+header] && !Counted(body) {
				offs = append(offs, fset.PositionFor(body.Lbrace, false).Offset+1)
			}
			return true
		})
	}
	return offs, nil
}

// insertSteps puts workcount.Step() at each offset of the file (just after a
// body's brace), imports package workcount if the file does not, and formats
// it.
func insertSteps(path string, offs []int) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	// A comment on the brace's line stays there: the call goes on the
	// next line.
	for i, o := range offs {
		rest, _, _ := bytes.Cut(src[o:], []byte("\n"))
		if t := bytes.TrimSpace(rest); bytes.HasPrefix(t, []byte("//")) {
			offs[i] = o + len(rest)
		}
	}
	slices.Sort(offs)
	offs = slices.Compact(offs)
	var b bytes.Buffer
	last := 0
	for _, o := range offs {
		b.Write(src[last:o])
		if o < len(src) && src[o] == '\n' {
			b.WriteString("\nworkcount.Step()")
		} else {
			b.WriteString("\nworkcount.Step()\n") // a body on the brace's line
		}
		last = o
	}
	b.Write(src[last:])
	out := b.Bytes()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, out, parser.ImportsOnly|parser.ParseComments)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if !slices.ContainsFunc(f.Imports, func(s *ast.ImportSpec) bool { return s.Path.Value == `"`+WorkPath+`"` }) {
		mark := ""
		if strings.Contains(filepath.ToSlash(path), "/internal/lua/") {
			mark = " // [mod2048] the work count (PATCHES.md, 19)"
		}
		line := `"` + WorkPath + `"` + mark
		switch {
		case len(f.Imports) == 0:
			at := fset.PositionFor(f.Name.End(), false).Offset
			out = slices.Concat(out[:at], []byte("\n\nimport "+line+"\n"), out[at:])
		default:
			g := f.Imports[len(f.Imports)-1]
			at := fset.PositionFor(g.End(), false).Offset
			if g.Comment != nil {
				at = fset.PositionFor(g.Comment.End(), false).Offset
			}
			var decl *ast.GenDecl // the import declaration that holds g
			for _, d := range f.Decls {
				if d, ok := d.(*ast.GenDecl); ok && d.Pos() <= g.Pos() && g.End() <= d.End() {
					decl = d
				}
			}
			if decl.Lparen.IsValid() {
				out = slices.Concat(out[:at], []byte("\n"+line), out[at:])
			} else {
				// A lone import: made a group.
				start := fset.PositionFor(decl.Pos(), false).Offset
				spec := string(out[fset.PositionFor(g.Pos(), false).Offset:at])
				out = slices.Concat(out[:start], []byte("import (\n"+spec+"\n"+line+"\n)"), out[at:])
			}
		}
	}
	formatted, err := format.Source(out)
	if err != nil {
		return fmt.Errorf("%s: formatting: %w", path, err)
	}
	return os.WriteFile(path, formatted, 0o644)
}
