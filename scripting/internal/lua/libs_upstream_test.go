package lua

import "slices"

// [mod2048] The io and os libraries, compiled out of the copy (linit.go),
// are upstream's tests' own: they open them in upstream's order, after
// table.
func init() {
	i := slices.IndexFunc(luaLibs, func(l luaLib) bool { return l.libName == TabLibName }) + 1
	luaLibs = slices.Insert(luaLibs, i, luaLib{IoLibName, OpenIo}, luaLib{OsLibName, OpenOs})
}
