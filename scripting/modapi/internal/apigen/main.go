// Command apigen writes what is generated from the mod API's description
// (package modapi): the LuaLS annotation file, scripting/luals/mod2048.lua,
// and the reference of the game table in MODDING.md, between its markers.
// Run it from the module's root, as `make api` does.
package main

import (
	"fmt"
	"os"

	"github.com/mod2048/mod2048/scripting/modapi"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "apigen:", err)
		os.Exit(1)
	}
}

func run() error {
	a := modapi.Spec()
	if err := os.WriteFile(modapi.LuaLSFile, a.LuaLS(), 0o644); err != nil {
		return err
	}
	guide, err := os.ReadFile(modapi.GuideFile)
	if err != nil {
		return err
	}
	out, err := modapi.ReplaceReference(guide, a.Reference())
	if err != nil {
		return fmt.Errorf("%s: %w", modapi.GuideFile, err)
	}
	return os.WriteFile(modapi.GuideFile, out, 0o644)
}
