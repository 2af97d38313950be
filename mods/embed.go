// Package mods is the example mods, as data: each folder is a mod, with
// its manifest, Lua code, README and fixtures. The package embeds their
// manifests and code, for a program that ships them with itself (the
// browser game); mod.LoadFS loads one from FS.
package mods

import (
	"embed"
	"io/fs"
)

//go:embed */*.lua */*.toml
var files embed.FS

// FS returns the shipped mods' files: one folder per mod, named by its id
// (fs.Sub(FS(), "freeze") is the freeze mod's folder).
func FS() fs.FS { return files }

// IDs returns the folders of the shipped mods, in order.
func IDs() []string {
	entries, err := files.ReadDir(".")
	if err != nil {
		return nil
	}
	var ids []string
	for _, e := range entries {
		if e.IsDir() {
			ids = append(ids, e.Name())
		}
	}
	return ids
}
