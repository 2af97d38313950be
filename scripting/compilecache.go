package scripting

import (
	"sync"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"
)

// The process compiles each Lua file once. gopher-lua's FunctionProto is
// read-only once compiled, so every host of every game shares it: a new
// game binds the prototype to its own state and meters (bindChunk) and
// parses nothing. The cache is keyed by the file's name and whole text, so
// an edited file (a --watch reload) compiles anew; it holds only files that
// compiled, and is emptied when it grows past its bounds, so a long-running
// process that reloads a mod many times keeps a bounded amount.
var compiled = struct {
	sync.Mutex
	protos map[compileKey]compiledFile
	bytes  int
}{protos: map[compileKey]compiledFile{}}

// compileKey is a file's name and whole text.
type compileKey struct{ name, src string }

// compiledFile is one cached compilation.
type compiledFile struct {
	proto   *lua.FunctionProto // compileMetered's wrapper
	touches bool               // mentionsStorage of the file's chunk
}

// The cache's bounds: files and bytes of source.
const (
	compiledMaxFiles = 512
	compiledMaxBytes = 32 << 20
)

// cachedCompile returns the cached compilation of the file name with the
// text src, if the process has compiled it.
func cachedCompile(src, name string) (compiledFile, bool) {
	compiled.Lock()
	defer compiled.Unlock()
	c, ok := compiled.protos[compileKey{name, src}]
	return c, ok
}

// compileCached compiles src with compileMetered and caches the result,
// which cachedCompile then returns. The caller checks the source first
// (checkSource).
func compileCached(src, name string) (compiledFile, error) {
	key := compileKey{name, src}
	proto, err := compileMetered(src, name)
	if err != nil {
		return compiledFile{}, err
	}
	c := compiledFile{proto: proto, touches: len(proto.FunctionPrototypes) > 0 && mentionsStorage(proto.FunctionPrototypes[0])}
	compiled.Lock()
	defer compiled.Unlock()
	size := len(name) + len(src)
	if len(compiled.protos) >= compiledMaxFiles || compiled.bytes+size > compiledMaxBytes {
		compiled.protos, compiled.bytes = map[compileKey]compiledFile{}, 0
	}
	if _, ok := compiled.protos[key]; !ok {
		compiled.protos[key] = c
		compiled.bytes += size
	}
	return c, nil
}
