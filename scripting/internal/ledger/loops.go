package ledger

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// LoopPackages are the packages whose loops the loop ledger holds: the
// patched gopher-lua with its subpackages, the sandbox, and the host code
// a mod's call reaches (package scripting itself, not its subpackages).
var LoopPackages = []string{
	Module + "/scripting/internal/lua/...",
	Module + "/scripting/internal/sandbox",
	Module + "/scripting",
}

// LoopFile is the loop ledger, relative to the module's root.
const LoopFile = "scripting/internal/ledger/loops.txt"

// The classes of a loop ledger's entry (Bounded and Unclassified are the
// allocation ledger's words).
const (
	Charged   = "charged"   // every iteration is paid from the mod's budget: the entry names the meter call
	Uncharged = "uncharged" // neither charged nor bounded: the entry names what grows it; a lead to fix
)

// Loop is one kind of loop in one function: a for or range statement (its
// header), a goto that jumps back, or a recursion (the function calls
// itself, or a function of a cycle of the package's call graph), and how
// many of that kind the function has.
type Loop struct {
	Pkg   string // below scripting/internal (lua, lua/parse, sandbox), or scripting for the host
	File  string // the file's base name
	Func  string // the enclosing top-level declaration: F, (*T).M, T.M, var x
	Desc  string // for i := 0; i < n; i++ / for k, v := range t / goto L (back) / recursion: calls F, G
	Count int
	Where []string // file:line of each (not part of the key)
	// Uncounted are the places of those whose body does not open with
	// workcount.Step(): a loop's body, a recursive function's.
	Uncounted []Spot
}

// Spot is a body that does not open with workcount.Step(): its file, and the
// byte just after its opening brace, where the call goes.
type Spot struct {
	Path   string
	Offset int
	Line   int
}

// Key identifies a loop kind in the ledger: no line numbers.
func (l Loop) Key() string {
	return l.Pkg + " " + l.File + " " + l.Func + ": " + l.Desc
}

// loopHeader opens the loop ledger; WriteLoops puts it back.
const loopHeader = `# The loop ledger: every loop and every recursion in the patched
# gopher-lua (scripting/internal/lua and its ast and parse), in the
# sandbox (scripting/internal/sandbox) and in the host (package
# scripting), with why a mod cannot make it run long unpaid. Package
# ledger's doc says how to read and keep it: regenerate it with
# "make loops" and classify what it marks unclassified.
#
# A line: package file function: the loop (for or range and its header,
# goto L (back), or recursion: the functions of its cycle it calls)<TAB>how
# many such loops the function has<TAB>the classification, one of
#   charged: the meter call that pays for each iteration
#   bounded: the constant that bounds its trip count (or why no mod's
#            call runs it: load time, a library no sandbox opens...);
#            a reason that rests on an invariant names the test that
#            holds it (TestLoopLedger checks that the test exists)
#   uncharged: what grows it (neither charged nor bounded: a lead to fix)
#   unclassified: (new: a person must write one of the above)
`

// ParseLoops reads a loop ledger.
func ParseLoops(r io.Reader) ([]Entry, error) {
	return parseEntries(r, []string{Charged, Bounded, Uncharged, Unclassified})
}

// WriteLoops writes a loop ledger, sorted by key.
func WriteLoops(w io.Writer, entries []Entry) error {
	return writeEntries(w, loopHeader, entries)
}

// UpdateLoops returns the ledger for the loops, as Update does for sites.
func UpdateLoops(old []Entry, loops []Loop) []Entry {
	return update(old, tallies(loops, Loop.Key, func(l Loop) int { return l.Count }))
}

// CheckLoops compares the ledger with the loops; Report.Unmetered holds
// the uncharged entries.
func CheckLoops(entries []Entry, loops []Loop) Report {
	r := check(entries, tallies(loops, Loop.Key, func(l Loop) int { return l.Count }), Uncharged)
	r.thing, r.make, r.classes = "loops", "make loops", "charged:, bounded: or uncharged:"
	return r
}

// FindLoops reads the packages' non-test files in the module at root and
// returns their loops, sorted by key. It type-checks them against the
// export data of their imports (go list -export), to resolve the calls of
// the call graph whose cycles are the recursions.
func FindLoops(gotool, root string) ([]Loop, error) {
	cmd := exec.Command(gotool, append([]string{"list", "-export", "-deps", "-f",
		"{{.ImportPath}}\t{{.Export}}\t{{.Dir}}\t{{join .GoFiles \"\\t\"}}"}, LoopPackages...)...)
	cmd.Dir, cmd.Env = root, env()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -export: %w\n%s", err, stderr.Bytes())
	}
	exports := map[string]string{}
	type pkgFiles struct {
		path, dir string
		files     []string
	}
	var ours []pkgFiles
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(l, "\t")
		if len(f) < 3 {
			continue
		}
		exports[f[0]] = f[1]
		if loopPackage(f[0]) {
			ours = append(ours, pkgFiles{f[0], f[2], f[3:]})
		}
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		p, ok := exports[path]
		if !ok || p == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(p)
	})
	var loops []Loop
	for _, p := range ours {
		l, err := packageLoops(fset, imp, p.path, p.dir, p.files)
		if err != nil {
			return nil, err
		}
		loops = append(loops, l...)
	}
	slices.SortFunc(loops, func(a, b Loop) int { return strings.Compare(a.Key(), b.Key()) })
	return loops, nil
}

func loopPackage(path string) bool {
	for _, p := range LoopPackages {
		if base, ok := strings.CutSuffix(p, "/..."); ok {
			if path == base || strings.HasPrefix(path, base+"/") {
				return true
			}
		} else if path == p {
			return true
		}
	}
	return false
}

// loopPkg is a package's name in the loop ledger.
func loopPkg(path string) string {
	return shortPkg(path)
}

// packageLoops finds the loops of one package.
func packageLoops(fset *token.FileSet, imp types.Importer, path, dir string, names []string) ([]Loop, error) {
	var files []*ast.File
	for _, name := range names {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: imp, Error: func(error) {}}
	if _, err := conf.Check(path, fset, files, info); err != nil {
		return nil, fmt.Errorf("type-checking %s: %w", path, err)
	}
	pkg := loopPkg(path)
	type key struct{ file, fn, desc string }
	count := map[key]int{}
	where := map[key][]string{}
	uncounted := map[key][]Spot{}
	add := func(file, fn, desc string, pos token.Pos, body *ast.BlockStmt) {
		k := key{file, fn, desc}
		count[k]++
		p := fset.PositionFor(pos, false)
		where[k] = append(where[k], filepath.Base(p.Filename)+":"+fmt.Sprint(p.Line))
		if body != nil && !Counted(body) {
			b := fset.PositionFor(body.Lbrace, false)
			uncounted[k] = append(uncounted[k], Spot{Path: b.Filename, Offset: b.Offset + 1, Line: b.Line})
		}
	}

	// The call graph: a declared function's node, and the package's
	// functions its body calls or refers to.
	type node struct {
		name, file string
		pos        token.Pos
		body       *ast.BlockStmt
		calls      []*types.Func
	}
	nodes := map[*types.Func]*node{}
	var order []*types.Func
	for _, f := range files {
		file := filepath.Base(fset.PositionFor(f.Pos(), false).Filename)
		for _, d := range f.Decls {
			name := declName(d)
			ast.Inspect(d, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.ForStmt:
					add(file, name, forHeader(fset, n), n.Pos(), n.Body)
				case *ast.RangeStmt:
					add(file, name, rangeHeader(fset, n), n.Pos(), n.Body)
				}
				return true
			})
			backGotos(d, func(label string, pos token.Pos) { add(file, name, "goto "+label+" (back)", pos, nil) })
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, _ := info.Defs[fd.Name].(*types.Func)
			if fn == nil {
				continue
			}
			nd := &node{name: name, file: file, pos: fd.Pos(), body: fd.Body}
			seen := map[*types.Func]bool{}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				id, ok := n.(*ast.Ident)
				if !ok {
					return true
				}
				callee, ok := info.Uses[id].(*types.Func)
				if !ok || callee.Pkg() == nil || callee.Pkg().Path() != path {
					return true
				}
				callee = callee.Origin()
				if sig, ok := callee.Type().(*types.Signature); ok && sig.Recv() != nil && types.IsInterface(sig.Recv().Type()) {
					return true // an interface's method: a dynamic call
				}
				if !seen[callee] {
					seen[callee] = true
					nd.calls = append(nd.calls, callee)
				}
				return true
			})
			nodes[fn] = nd
			order = append(order, fn)
		}
	}
	// Tarjan's strongly connected components: a function is recursive
	// when it calls itself or belongs to a component of more than one.
	index, low := map[*types.Func]int{}, map[*types.Func]int{}
	onStack := map[*types.Func]bool{}
	var stack []*types.Func
	comp := map[*types.Func]int{}
	ncomp := 0
	var visit func(v *types.Func)
	visit = func(v *types.Func) {
		index[v], low[v] = len(index), len(index)
		stack = append(stack, v)
		onStack[v] = true
		for _, w := range nodes[v].calls {
			if nodes[w] == nil {
				continue
			}
			if _, ok := index[w]; !ok {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp[w] = ncomp
				if w == v {
					break
				}
			}
			ncomp++
		}
	}
	for _, v := range order {
		if _, ok := index[v]; !ok {
			visit(v)
		}
	}
	for _, v := range order {
		nd := nodes[v]
		var in []string
		for _, w := range nd.calls {
			if nodes[w] != nil && comp[w] == comp[v] {
				if w == v {
					in = append(in, "itself")
				} else {
					in = append(in, nodes[w].name)
				}
			}
		}
		if len(in) > 0 {
			slices.Sort(in)
			add(nd.file, nd.name, "recursion: calls "+strings.Join(in, ", "), nd.pos, nd.body)
		}
	}

	loops := make([]Loop, 0, len(count))
	for k, n := range count {
		loops = append(loops, Loop{Pkg: pkg, File: k.file, Func: k.fn, Desc: k.desc, Count: n, Where: where[k], Uncounted: uncounted[k]})
	}
	return loops, nil
}

// forHeader is a for statement's header, as gofmt prints it, on one line.
func forHeader(fset *token.FileSet, n *ast.ForStmt) string {
	var parts []string
	if n.Init != nil || n.Post != nil {
		parts = []string{nodeText(fset, n.Init), nodeText(fset, n.Cond), nodeText(fset, n.Post)}
		return strings.TrimRight("for "+strings.Join(parts, "; "), " ")
	}
	if n.Cond != nil {
		return "for " + nodeText(fset, n.Cond)
	}
	return "for"
}

// rangeHeader is a range statement's header on one line.
func rangeHeader(fset *token.FileSet, n *ast.RangeStmt) string {
	h := "for "
	if n.Key != nil {
		h += nodeText(fset, n.Key)
		if n.Value != nil {
			h += ", " + nodeText(fset, n.Value)
		}
		h += " " + n.Tok.String() + " "
	}
	return h + "range " + nodeText(fset, n.X)
}

// nodeText prints a node as gofmt does, its white space one blank.
func nodeText(fset *token.FileSet, n ast.Node) string {
	if n == nil {
		return ""
	}
	var b bytes.Buffer
	if err := format.Node(&b, fset, n); err != nil {
		return fmt.Sprintf("%T", n)
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// backGotos calls back for every goto of d whose label comes before it in
// the function: a loop made with goto.
func backGotos(d ast.Decl, back func(label string, pos token.Pos)) {
	ast.Inspect(d, func(n ast.Node) bool {
		body := (*ast.BlockStmt)(nil)
		switch n := n.(type) {
		case *ast.FuncDecl:
			body = n.Body
		case *ast.FuncLit:
			body = n.Body
		default:
			return true
		}
		if body == nil {
			return false
		}
		labels := map[string]token.Pos{}
		ast.Inspect(body, func(m ast.Node) bool {
			if _, ok := m.(*ast.FuncLit); ok {
				return false
			}
			if l, ok := m.(*ast.LabeledStmt); ok {
				labels[l.Label.Name] = l.Pos()
			}
			return true
		})
		ast.Inspect(body, func(m ast.Node) bool {
			if _, ok := m.(*ast.FuncLit); ok {
				return false
			}
			if b, ok := m.(*ast.BranchStmt); ok && b.Tok == token.GOTO && b.Label != nil {
				if at, ok := labels[b.Label.Name]; ok && at < b.Pos() {
					back(b.Label.Name, b.Pos())
				}
			}
			return true
		})
		return true
	})
}

// testName is a test's name as a classification cites it.
var testName = regexp.MustCompile(`\bTest[A-Z0-9_]\w*`)

// testFunc is a test's declaration in a _test.go file.
var testFunc = regexp.MustCompile(`(?m)^func (Test\w*)\(`)

// CitedTests returns the names of the tests the entries' classifications
// cite, sorted, each once.
func CitedTests(entries []Entry) []string {
	var names []string
	for _, e := range entries {
		names = append(names, testName.FindAllString(e.Class, -1)...)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// TestNames returns the set of the test functions declared in the _test.go
// files of the module at root (not in testdata, nor in directories the go
// command ignores: those whose names start with . or _).
func TestNames(root string) (map[string]bool, error) {
	names := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") || n == "testdata" || n == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range testFunc.FindAllSubmatch(b, -1) {
			names[string(m[1])] = true
		}
		return nil
	})
	return names, err
}
