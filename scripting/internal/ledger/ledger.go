package ledger

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

// Module is the module the ledger's packages belong to.
const Module = "github.com/mod2048/mod2048"

// Packages are the packages whose allocation sites the ledger holds, as the
// go command takes them: the patched gopher-lua with its subpackages (ast,
// parse; the go command leaves out _tools and the _-prefixed files),
// the sandbox, and the host a mod's calls reach: package scripting itself
// (not its subpackages).
var Packages = []string{
	Module + "/scripting/internal/lua/...",
	Module + "/scripting/internal/sandbox",
	Module + "/scripting",
}

// File is the ledger, relative to the module's root.
const File = "scripting/internal/ledger/allocs.txt"

// The classes of an entry: the word its classification starts with.
const (
	Metered      = "metered"      // charged to the mod's budget (instructions or the meter)
	Bounded      = "bounded"      // its size is bounded by a small constant, or it is not paid by a mod's call
	Unmetered    = "unmetered"    // neither: what grows it is named; a lead to fix
	Unclassified = "unclassified" // new: a person must write the reason
)

// Site is one kind of allocation site in one function: the compiler's
// description of the allocation and how many times it occurs there.
type Site struct {
	Pkg   string // the package: below scripting/internal (lua, lua/parse, sandbox), or scripting, the host
	File  string // the file's name (as the compiler names it: parser.go.y for the parser's rules; a generic instantiated from the standard library: its path below GOROOT/src)
	Func  string // the enclosing function: F, (*T).M, T.M; package-level: var x
	Desc  string // the compiler's words: make([]byte, n) escapes to heap
	Count int
	Where []string // the compiler's positions of the sites, file:line (not part of the key)
}

// Key is what identifies a site in the ledger: no line numbers, so that it
// survives unrelated edits.
func (s Site) Key() string {
	return s.Pkg + " " + s.File + " " + s.Func + ": " + s.Desc
}

// Entry is a line of the ledger: a site's key, how many such sites its
// function has, and their classification.
type Entry struct {
	Key   string
	Count int
	Class string // "metered: how", "bounded: why", "unmetered: what grows it", "unclassified: "
}

// Kind is the first word of the entry's classification.
func (e Entry) Kind() string {
	k, _, _ := strings.Cut(e.Class, ":")
	return strings.TrimSpace(k)
}

// GoTool returns the go command of the toolchain that runs this program.
func GoTool() (string, error) {
	name := "go"
	if runtime.GOOS == "windows" {
		name = "go.exe"
	}
	if p := filepath.Join(runtime.GOROOT(), "bin", name); fileExists(p) {
		return p, nil
	}
	return exec.LookPath("go")
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// Root returns the module's root directory, from the working directory.
func Root(gotool string) (string, error) {
	out, err := exec.Command(gotool, "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("not inside the module " + Module)
	}
	return filepath.Dir(mod), nil
}

// env is the environment the compiler runs in: the same target on every
// machine (escape analysis weighs sizes by the word), and no GOFLAGS.
func env() []string {
	return append(os.Environ(), "GOOS=linux", "GOARCH=amd64", "GOFLAGS=")
}

// Compile builds the packages with -gcflags=-m (the flags apply to the
// packages named only) in the module at root and returns their allocation
// sites, sorted by key, and the compiler's output.
func Compile(gotool, root string) ([]Site, []byte, error) {
	args := append([]string{"build", "-gcflags=-m"}, Packages...)
	cmd := exec.Command(gotool, args...)
	cmd.Dir, cmd.Env = root, env()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return nil, out.Bytes(), fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, out.Bytes())
	}
	funcs, err := newFuncIndex(gotool, root)
	if err != nil {
		return nil, out.Bytes(), err
	}
	sites, err := parseOutput(out.Bytes(), funcs)
	return sites, out.Bytes(), err
}

var diagLine = regexp.MustCompile(`^(.+?):(\d+)(?::\d+)?: (.*)$`)

// parseOutput reads the compiler's -m output: a "# path" line starts each
// package's diagnostics.
func parseOutput(out []byte, funcs *funcIndex) ([]Site, error) {
	type key struct{ pkg, file, fn, desc string }
	count := map[key]int{}
	where := map[key][]string{}
	pkg := ""
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if p, ok := strings.CutPrefix(line, "# "); ok {
			pkg = shortPkg(p)
			continue
		}
		m := diagLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		desc := m[3]
		if !onHeap(desc) {
			continue
		}
		if pkg == "" {
			return nil, fmt.Errorf("a diagnostic before any package: %s", line)
		}
		n, _ := strconv.Atoi(m[2])
		file, fn, err := funcs.lookup(pkg, m[1], n)
		if err != nil {
			return nil, err
		}
		k := key{pkg, file, fn, desc}
		count[k]++
		where[k] = append(where[k], m[1]+":"+m[2])
	}
	sites := make([]Site, 0, len(count))
	for k, n := range count {
		sites = append(sites, Site{Pkg: k.pkg, File: k.file, Func: k.fn, Desc: k.desc, Count: n, Where: where[k]})
	}
	slices.SortFunc(sites, func(a, b Site) int { return strings.Compare(a.Key(), b.Key()) })
	return sites, sc.Err()
}

// onHeap says whether a diagnostic of -m is an allocation on the heap: what
// escapes, a variable moved to the heap, and what does not escape but is
// made on the heap all the same when its size is not a constant: a make
// of a variable length, or a string built or converted (the compiler
// gives such a value a buffer of 32 bytes on the stack, and takes the
// heap for a longer one).
func onHeap(desc string) bool {
	if strings.HasSuffix(desc, " escapes to heap") || strings.HasPrefix(desc, "moved to heap: ") {
		return true
	}
	x, ok := strings.CutSuffix(desc, " does not escape")
	if !ok {
		return false
	}
	switch {
	case strings.HasPrefix(x, "make("):
		return !constantSize(x)
	case strings.HasPrefix(x, "string("), strings.HasPrefix(x, "[]byte("), strings.HasPrefix(x, "[]rune("):
		return true
	case strings.HasPrefix(x, "&"), strings.HasPrefix(x, "new("), strings.HasPrefix(x, "func literal"),
		strings.HasPrefix(x, "leaking"), strings.HasSuffix(x, "... argument"), strings.Contains(x, "{"):
		return false
	}
	return strings.Contains(x, " + ") // a concatenation of strings: nothing else is said not to escape
}

// constantSize says whether the arguments of make(T, args) are all integer
// constants (a make the compiler can put on the stack).
func constantSize(mk string) bool {
	depth := 0
	for i, c := range mk {
		switch c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 1 {
				args := strings.TrimSuffix(mk[i+1:], ")")
				return strings.Trim(args, "0123456789, ") == ""
			}
		}
	}
	return false
}

// shortPkg is a package's name in the ledgers: its path below
// scripting/internal, or scripting for the host.
func shortPkg(p string) string {
	if p == Module+"/scripting" {
		return "scripting"
	}
	return strings.TrimPrefix(p, Module+"/scripting/internal/")
}

// funcIndex finds the function a line of a file is in: the packages' own
// files (by the name the compiler gives, which for the parser is the
// grammar's, through its //line directives) and, for generics compiled
// into them, the standard library's.
type funcIndex struct {
	goroot string
	pkgs   map[string]map[fileLine]string // package -> its lines
	files  map[string]map[int]string      // an outside file's path -> line -> function
}

type fileLine struct {
	file string // base name, as a //line directive or the file itself names it
	line int
}

func newFuncIndex(gotool, root string) (*funcIndex, error) {
	cmd := exec.Command(gotool, append([]string{"list", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{join .GoFiles \"\\t\"}}"}, Packages...)...)
	cmd.Dir, cmd.Env = root, env()
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w", err)
	}
	gr, err := exec.Command(gotool, "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("go env GOROOT: %w", err)
	}
	x := &funcIndex{goroot: strings.TrimSpace(string(gr)), pkgs: map[string]map[fileLine]string{}, files: map[string]map[int]string{}}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(l, "\t")
		if len(f) < 3 {
			continue
		}
		lines := map[fileLine]string{}
		for _, name := range f[2:] {
			if err := indexFile(filepath.Join(f[1], name), func(file string, line int, fn string) {
				lines[fileLine{filepath.Base(file), line}] = fn
			}); err != nil {
				return nil, err
			}
		}
		x.pkgs[shortPkg(f[0])] = lines
	}
	return x, nil
}

// lookup returns the ledger's name of the file the compiler names and the
// function its line is in.
func (x *funcIndex) lookup(pkg, file string, line int) (string, string, error) {
	if file == "<autogenerated>" {
		return file, file, nil
	}
	if rel, ok := x.inGoroot(file); ok {
		lines, ok := x.files[file]
		if !ok {
			lines = map[int]string{}
			if err := indexFile(file, func(_ string, l int, fn string) { lines[l] = fn }); err != nil {
				return "", "", err
			}
			x.files[file] = lines
		}
		fn, ok := lines[line]
		if !ok {
			return "", "", fmt.Errorf("%s:%d: in no function", file, line)
		}
		return "GOROOT/" + rel, fn, nil
	}
	fn, ok := x.pkgs[pkg][fileLine{filepath.Base(file), line}]
	if !ok {
		return "", "", fmt.Errorf("%s:%d (package %s): in no function or declaration of the package", file, line, pkg)
	}
	return filepath.Base(file), fn, nil
}

func (x *funcIndex) inGoroot(file string) (string, bool) {
	src := filepath.Join(x.goroot, "src") + string(filepath.Separator)
	if rel, ok := strings.CutPrefix(filepath.Clean(file), src); ok {
		return filepath.ToSlash(rel), true
	}
	return "", false
}

// indexFile calls add for every line of every top-level declaration of the
// file with the declaration's name, the line as //line directives make it.
func indexFile(path string, add func(file string, line int, fn string)) error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return err
	}
	tf := fset.File(f.Pos())
	for _, d := range f.Decls {
		name := declName(d)
		first, last := tf.PositionFor(d.Pos(), false).Line, tf.PositionFor(d.End(), false).Line
		for l := first; l <= last; l++ {
			p := fset.PositionFor(tf.LineStart(l), true)
			add(p.Filename, p.Line, name)
		}
	}
	return nil
}

// declName names a declaration as the compiler names a function: F,
// (*T).M, T.M; a package-level declaration as var x (its first name).
func declName(d ast.Decl) string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil || len(d.Recv.List) == 0 {
			return d.Name.Name
		}
		t := d.Recv.List[0].Type
		star := ""
		if s, ok := t.(*ast.StarExpr); ok {
			star, t = "*", s.X
		}
		switch g := t.(type) {
		case *ast.IndexExpr:
			t = g.X
		case *ast.IndexListExpr:
			t = g.X
		}
		id, _ := t.(*ast.Ident)
		if id == nil {
			return d.Name.Name
		}
		if star != "" {
			return "(*" + id.Name + ")." + d.Name.Name
		}
		return id.Name + "." + d.Name.Name
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.ValueSpec:
				return d.Tok.String() + " " + s.Names[0].Name
			case *ast.TypeSpec:
				return "type " + s.Name.Name
			}
		}
		return d.Tok.String()
	}
	return "?"
}
