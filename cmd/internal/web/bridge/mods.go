package bridge

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/mod2048/mod2048/mods"
	"github.com/mod2048/mod2048/scripting/mod"
)

// ModSource is a mod as the page gives it: one of the shipped mods by its
// id, a player's own mod file by file (a folder the player picked), or a
// zip of it (base64).
type ModSource struct {
	// Builtin is the id of a shipped mod (mods.IDs).
	Builtin string `json:"builtin,omitempty"`
	// Name names a player's mod in messages: its folder's or zip's name.
	Name string `json:"name,omitempty"`
	// Files are a player's mod's files by their path in its folder
	// (slash-separated); a folder holding the manifest a level down (the
	// picked folder itself) is the mod's folder.
	Files map[string]string `json:"files,omitempty"`
	// Zip is a zip of a player's mod, in base64.
	Zip string `json:"zip,omitempty"`
}

// Limits on a player's mod, beside the host's limits on each file: a
// mod's (mod.MaxFiles, mod.MaxBytes), as `2048 mod install` holds it.
const (
	MaxModFiles = mod.MaxFiles // files in a mod
	MaxModBytes = mod.MaxBytes // bytes of all its files, or of its zip
)

// load reads and checks the mod.
func (m ModSource) load() (*mod.Mod, error) {
	if m.Builtin != "" && m.Files == nil && m.Zip == "" {
		found := false
		for _, id := range mods.IDs() {
			found = found || id == m.Builtin
		}
		if !found {
			return nil, fmt.Errorf("no shipped mod %q (shipped: %s)", m.Builtin, strings.Join(mods.IDs(), ", "))
		}
		sub, err := fs.Sub(mods.FS(), m.Builtin)
		if err != nil {
			return nil, err
		}
		return mod.LoadFS(sub, "mods/"+m.Builtin)
	}
	files, err := m.files()
	if err != nil {
		return nil, err
	}
	return files.Load()
}

// name names the mod in messages.
func (m ModSource) name() string {
	if m.Name == "" {
		return "mod"
	}
	return m.Name
}

// files reads a player's mod (given file by file, or as a zip) into
// memory, within a mod's limits (mod.ReadZip, mod.FolderFiles): the files
// of the folder that holds its manifest, named by Name in messages.
func (m ModSource) files() (*mod.Files, error) {
	name := m.name()
	switch {
	case m.Builtin != "" || (m.Files != nil) == (m.Zip != ""):
		return nil, errors.New("a mod is one of builtin, files or zip")
	case m.Files != nil:
		files := make(map[string][]byte, len(m.Files))
		for p, src := range m.Files {
			files[p] = []byte(src)
		}
		return mod.FolderFiles(files, name)
	}
	if len(m.Zip) > MaxModBytes*4/3+4 {
		return nil, mod.TooLargeZip(name)
	}
	data, err := base64.StdEncoding.DecodeString(m.Zip)
	if err != nil {
		return nil, fmt.Errorf("%s: not base64: %v", name, err)
	}
	return mod.ReadZip(data, name)
}
