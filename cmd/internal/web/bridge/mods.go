package bridge

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/mod2048/mod2048/config/infile"
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

// Limits on a player's mod, beside the host's limits on each file.
const (
	MaxModFiles = 256      // files in a mod
	MaxModBytes = 16 << 20 // bytes of all its files, or of its zip
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
	fsys, root, err := m.files()
	if err != nil {
		return nil, err
	}
	sub, err := fs.Sub(fsys, root)
	if err != nil {
		return nil, err
	}
	return mod.LoadFS(sub, m.name())
}

// name names the mod in messages.
func (m ModSource) name() string {
	if m.Name == "" {
		return "mod"
	}
	return m.Name
}

// files reads a player's mod (given file by file, or as a zip) into
// memory, within the limits, and returns its files and the folder in them
// that holds its manifest. Files given at the top of the mod's folder are
// put in a folder named by Name (its last element), so that the mod's
// folder has a name in messages and a fixture's "Mods: ." finds it.
func (m ModSource) files() (fs.FS, string, error) {
	name := m.name()
	var fsys fs.FS
	switch {
	case m.Builtin != "" || (m.Files != nil) == (m.Zip != ""):
		return nil, "", errors.New("a mod is one of builtin, files or zip")
	case m.Files != nil:
		if len(m.Files) > MaxModFiles {
			return nil, "", fmt.Errorf("%s: %d files, more than the %d a mod may have", name, len(m.Files), MaxModFiles)
		}
		files, total := map[string][]byte{}, 0
		for p, src := range m.Files {
			total += len(src)
			if !fs.ValidPath(p) || p == "." {
				return nil, "", fmt.Errorf("%s: %q is not a path inside the mod's folder", name, p)
			}
			files[p] = []byte(src)
		}
		if total > MaxModBytes {
			return nil, "", fmt.Errorf("%s: its files have %d bytes, more than the %s a mod may have", name, total, infile.Size(MaxModBytes))
		}
		if _, top := files[mod.ManifestName]; top {
			folder := path.Base(name)
			if folder == "." || folder == "/" || folder == ".." {
				folder = "mod"
			}
			in := make(map[string][]byte, len(files))
			for p, data := range files {
				in[path.Join(folder, p)] = data
			}
			files = in
		}
		var err error
		if fsys, err = memFS(files); err != nil {
			return nil, "", fmt.Errorf("%s: %v", name, err)
		}
	default:
		if len(m.Zip) > MaxModBytes*4/3+4 {
			return nil, "", fmt.Errorf("%s: the zip is larger than the %s a mod may have", name, infile.Size(MaxModBytes))
		}
		data, err := base64.StdEncoding.DecodeString(m.Zip)
		if err != nil {
			return nil, "", fmt.Errorf("%s: not base64: %v", name, err)
		}
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return nil, "", fmt.Errorf("%s: not a zip: %v", name, err)
		}
		if fsys, err = unzip(zr, name); err != nil {
			return nil, "", err
		}
	}
	root, err := modRoot(fsys)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %v", name, err)
	}
	return fsys, root, nil
}

// unzip reads a zip's regular files into memory, within the limits: an
// entry that is a link, or whose path would lie outside the mod's folder,
// is refused, as `2048 mod install` refuses it.
func unzip(zr *zip.Reader, name string) (fs.FS, error) {
	if len(zr.File) > MaxModFiles*2 {
		return nil, fmt.Errorf("%s: %d entries, more than a mod may have", name, len(zr.File))
	}
	out, total := map[string][]byte{}, int64(0)
	for _, f := range zr.File {
		p := strings.TrimSuffix(f.Name, "/")
		mode := f.Mode()
		switch {
		case f.FileInfo().IsDir():
			continue
		case mode&fs.ModeSymlink != 0:
			return nil, fmt.Errorf("%s: %s is a link: a mod's zip may hold only files", name, f.Name)
		case !mode.IsRegular():
			return nil, fmt.Errorf("%s: %s is not a regular file", name, f.Name)
		case !fs.ValidPath(p) || strings.Contains(f.Name, `\`):
			return nil, fmt.Errorf("%s: %s would lie outside the mod's folder", name, f.Name)
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %v", name, f.Name, err)
		}
		data, err := io.ReadAll(io.LimitReader(rc, MaxModBytes-total+1))
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %v", name, f.Name, err)
		}
		total += int64(len(data))
		if total > MaxModBytes {
			return nil, fmt.Errorf("%s: its files have more than the %s a mod may have", name, infile.Size(MaxModBytes))
		}
		out[p] = data
	}
	if len(out) > MaxModFiles {
		return nil, fmt.Errorf("%s: %d files, more than the %d a mod may have", name, len(out), MaxModFiles)
	}
	return memFS(out)
}

// memFS is mod.MemFS.
func memFS(files map[string][]byte) (fs.FS, error) { return mod.MemFS(files) }

// modRoot finds the mod's folder in fsys: "." when the manifest is at the
// top, else the one folder at the top that holds it (a picked folder, or
// a zip of one).
func modRoot(fsys fs.FS) (string, error) {
	if _, err := fs.Stat(fsys, mod.ManifestName); err == nil {
		return ".", nil
	}
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return "", err
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			if _, err := fs.Stat(fsys, path.Join(e.Name(), mod.ManifestName)); err == nil {
				dirs = append(dirs, e.Name())
			}
		}
	}
	sort.Strings(dirs)
	switch len(dirs) {
	case 0:
		return "", fmt.Errorf("not a mod: it has no %s", mod.ManifestName)
	case 1:
		return dirs[0], nil
	}
	return "", fmt.Errorf("it holds several mods (%s): give one", strings.Join(dirs, ", "))
}
