package sandbox

import (
	"sync"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"
)

// The process compiles each Lua file once. gopher-lua's FunctionProto is
// read-only once compiled (nothing writes to one after Compile: the VM
// reads it, Bind makes closures of it, and the host's weighing marks
// none), so every host of every game shares it: a new game binds the
// prototype to its own state and Meters (Bind) and parses nothing. The
// cache is keyed by the file's name and whole text, so an edited file (a
// --watch reload) compiles anew; it holds only files that compiled, and is
// emptied when it grows past its bounds, so a long-running process that
// reloads a mod many times keeps a bounded amount: at most
// compiledMaxFiles files and compiledMaxBytes bytes, counting each file's
// name and text and its prototypes' footprint (ProtoFootprint, what the
// memory budget weighs of the file's code).
//
// Compiling is charged to the mod whether the file was cached or not
// (CompileCost, by the host's compile): what a mod pays never depends on
// what the process compiled before.
var compiled = struct {
	sync.Mutex
	protos map[compileKey]Compiled
	bytes  int64
}{protos: map[compileKey]Compiled{}}

// compileKey is a file's name and whole text.
type compileKey struct{ name, src string }

// Compiled is one cached compilation.
type Compiled struct {
	Proto *lua.FunctionProto // compileMetered's wrapper
	Note  any                // what the host's note said of it, once
	Held  int64              // what its prototypes hold (ProtoFootprint)
}

// The cache's bounds: files, and bytes of their names, sources and
// prototypes. A file of MaxSource compiles to at most MaxSource ×
// CompileInstructionsPerByte × BytesPerInstruction bytes of prototypes
// (TestCompiledIsCharged: in fact at most some 50 bytes for each byte of
// source, 13 MiB), so the cache always holds a few of the largest.
const (
	compiledMaxFiles = 64
	compiledMaxBytes = 64 << 20
)

// CompileInstructionsPerByte is what compiling a file costs the mod: four
// instructions for each byte of its source, charged before it is compiled
// (CompileCost), at load and at each require, cached or not. The costliest
// sources the host lets through (chains of operators just below the depth
// limit, BenchmarkCompileShapes) compile in at most some 700 ns a byte
// natively: 175 ns an instruction charged, about the VM's slowest
// instructions, so a call's budget spent compiling takes no longer than one
// spent running (a million instructions, a tenth of the failsafe), and a
// load's four million, a megabyte of source, about 0.7 s. A file of
// MaxSource costs 1048576: more than a handler's call may spend, so a mod
// compiles its largest files when it loads. And a file's prototypes hold
// at most some 50 bytes for each of its bytes (a table of empty
// functions), less than the 4 × BytesPerInstruction charged for it: the
// memory budget, which weighs a mod once its instructions could have built
// more than its room left (at BytesPerInstruction each), weighs it in
// time.
const CompileInstructionsPerByte = 4

// CompileCost is what compiling a file of n bytes is charged, in
// instructions.
func CompileCost(n int) int64 { return int64(n) * CompileInstructionsPerByte }

// CachedCompile returns the cached compilation of the file name with the
// text src, if the process has compiled it.
func CachedCompile(src, name string) (Compiled, bool) {
	compiled.Lock()
	defer compiled.Unlock()
	c, ok := compiled.protos[compileKey{name, src}]
	return c, ok
}

// CompileCached compiles src with compileMetered and caches the result,
// with what note (if set) says of it, which CachedCompile then returns.
// The caller checks the source first.
func CompileCached(src, name string, note func(*lua.FunctionProto) any) (Compiled, error) {
	key := compileKey{name, src}
	proto, err := compileMetered(src, name)
	if err != nil {
		return Compiled{}, err
	}
	c := Compiled{Proto: proto, Held: ProtoFootprint(proto)}
	if note != nil {
		c.Note = note(proto)
	}
	size := int64(len(name)+len(src)) + c.Held
	compiled.Lock()
	defer compiled.Unlock()
	if len(compiled.protos) >= compiledMaxFiles || compiled.bytes+size > compiledMaxBytes {
		compiled.protos, compiled.bytes = map[compileKey]Compiled{}, 0
	}
	if _, ok := compiled.protos[key]; !ok {
		compiled.protos[key] = c
		compiled.bytes += size
	}
	return c, nil
}
