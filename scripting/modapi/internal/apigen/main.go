// Command apigen writes what is generated from the mod API's description
// (package modapi): the LuaLS annotation file, scripting/luals/mod2048.lua.
// Run it from the module's root, as `make api` does.
package main

import (
	"fmt"
	"os"

	"github.com/mod2048/mod2048/scripting/modapi"
)

func main() {
	if err := os.WriteFile(modapi.LuaLSFile, modapi.Spec().LuaLS(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "apigen:", err)
		os.Exit(1)
	}
}
