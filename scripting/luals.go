package scripting

// LuaAnnotations returns the LuaLS annotation file of the mod API, as the
// API's description writes it (modapi's LuaLS; the repository's copy is
// luals/mod2048.lua), for tools that write it into a mod's folder.
func LuaAnnotations() []byte { return apiSpec.LuaLS() }
