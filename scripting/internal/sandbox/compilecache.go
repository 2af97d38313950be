package sandbox

import (
	"sync"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"
)

// The process compiles each Lua file once. gopher-lua's FunctionProto is
// read-only once compiled, so every host of every game shares it: a new
// game binds the prototype to its own state and Meters (Bind) and
// parses nothing. The cache is keyed by the file's name and whole text, so
// an edited file (a --watch reload) compiles anew; it holds only files that
// compiled, and is emptied when it grows past its bounds, so a long-running
// process that reloads a mod many times keeps a bounded amount.
var compiled = struct {
	sync.Mutex
	protos map[compileKey]Compiled
	bytes  int
}{protos: map[compileKey]Compiled{}}

// compileKey is a file's name and whole text.
type compileKey struct{ name, src string }

// Compiled is one cached compilation.
type Compiled struct {
	Proto *lua.FunctionProto // compileMetered's wrapper
	Note  any                // what the host's note said of it, once
}

// The cache's bounds: files and bytes of source.
const (
	compiledMaxFiles = 64
	compiledMaxBytes = 4 << 20
)

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
	c := Compiled{Proto: proto}
	if note != nil {
		c.Note = note(proto)
	}
	compiled.Lock()
	defer compiled.Unlock()
	size := len(name) + len(src)
	if len(compiled.protos) >= compiledMaxFiles || compiled.bytes+size > compiledMaxBytes {
		compiled.protos, compiled.bytes = map[compileKey]Compiled{}, 0
	}
	if _, ok := compiled.protos[key]; !ok {
		compiled.protos[key] = c
		compiled.bytes += size
	}
	return c, nil
}
