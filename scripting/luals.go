package scripting

import _ "embed"

//go:embed luals/mod2048.lua
var luaAnnotations []byte

// LuaAnnotations returns the LuaLS annotation file of the mod API
// (luals/mod2048.lua), for tools that write it into a mod's folder.
func LuaAnnotations() []byte { return append([]byte(nil), luaAnnotations...) }
