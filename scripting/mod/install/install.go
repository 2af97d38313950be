// Package install is the user's mod folder: where `2048 mod install`
// puts a mod (a folder or a zip, read by mod.ReadZip and mod.ReadFolder
// with the limits every frontend keeps) and where a mod's id finds it.
package install

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mod2048/mod2048/scripting/mod"
)

// Dir is the user's mod folder, where `2048 mod install` puts mods and
// where `--mod ID` finds them: $XDG_DATA_HOME/2048/mods, else
// ~/.local/share/2048/mods (micro keeps its plugins in its config folder
// the same way).
func Dir() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "2048", "mods"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no folder for installed mods: %v (set XDG_DATA_HOME)", err)
	}
	return filepath.Join(home, ".local", "share", "2048", "mods"), nil
}

// Load loads the mod that ref names: a folder, or the id of an
// installed mod.
func Load(ref string) (*mod.Mod, error) {
	dir, err := Resolve(ref)
	if err != nil {
		return nil, err
	}
	return mod.Load(dir)
}

// Resolve returns the folder ref names: ref itself when it is a file or
// a folder, or when it cannot be a mod's id (loading it names what is
// missing), else the installed mod's folder of that id. An id that names
// no installed mod is an error that lists the installed ones.
func Resolve(ref string) (string, error) {
	if _, err := os.Stat(ref); err == nil || !mod.ValidID(ref) {
		return ref, nil
	}
	dir, err := Dir()
	if err != nil {
		return "", err
	}
	installed := filepath.Join(dir, ref)
	if info, err := os.Stat(installed); err == nil && info.IsDir() {
		return installed, nil
	}
	have := "none"
	if ids := IDs(dir); len(ids) > 0 {
		have = strings.Join(ids, ", ")
	}
	return "", fmt.Errorf("mod %s: no folder %s, and no installed mod %s in %s (installed: %s; install one with 2048 mod install DIR|ZIP)", ref, ref, ref, dir, have)
}

// IDs returns the ids of the mods installed in dir, sorted.
func IDs(dir string) []string {
	var ids []string
	for _, m := range ModsIn(dir) {
		if m != dir {
			ids = append(ids, filepath.Base(m))
		}
	}
	return ids
}

// ModsIn returns ref itself, or, when ref is a folder that is no mod (it
// has no mod.toml) and holds mods, the folders of the mods in it, in name
// order (hidden folders left out, as an install's staging folders).
func ModsIn(ref string) []string {
	info, err := os.Stat(ref)
	if err != nil || !info.IsDir() {
		return []string{ref}
	}
	if _, err := os.Stat(filepath.Join(ref, mod.ManifestName)); err == nil {
		return []string{ref}
	}
	entries, err := os.ReadDir(ref)
	if err != nil {
		return []string{ref}
	}
	var out []string
	for _, e := range entries {
		dir := filepath.Join(ref, e.Name())
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, mod.ManifestName)); err == nil {
			out = append(out, dir)
		}
	}
	if len(out) == 0 {
		return []string{ref} // loading it says it is not a mod
	}
	return out
}

// StagePrefix starts the name of an install's staging folder in the
// user's mod folder; mod list skips them.
const StagePrefix = ".install-"

// staleStage is the age after which a staging folder is an earlier
// install's leftover, which the next install removes.
const staleStage = time.Hour

// Install checks the mod of src (a folder or a zip) and copies it into
// the user's mod folder, replacing an installed version only once the new
// one is in place. trial loads the copy before it replaces anything (into
// a game, so that a Lua error shows now). A lower version over a higher
// one needs force.
func Install(src string, force bool, trial func(*mod.Mod) error) (*mod.Mod, error) {
	root, err := Dir()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, err
	}
	removeStaleStages(root)
	info, statErr := os.Stat(src)
	isDir := statErr == nil && info.IsDir()
	if isDir {
		if err := refuseEnclosing(src, root); err != nil {
			return nil, err
		}
	}
	stage, err := os.MkdirTemp(root, StagePrefix)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(stage)
	files := filepath.Join(stage, "mod")
	// Errors about the staged copy name src, the folder or zip the user
	// gave, not the staging folder.
	named := func(err error) error {
		if err == nil {
			return nil
		}
		return errors.New(strings.ReplaceAll(err.Error(), files, src))
	}
	read := mod.ReadZipFile
	if isDir {
		read = mod.ReadFolder
	}
	got, err := read(src)
	if err != nil {
		return nil, err
	}
	if err := writeFiles(got, files); err != nil {
		return nil, err
	}
	m, err := mod.Load(files)
	if err != nil {
		return nil, named(err)
	}
	if err := trial(m); err != nil {
		return nil, named(err)
	}
	dest := filepath.Join(root, m.ID())
	if old, err := mod.Load(dest); err == nil && !force && mod.CompareVersions(m.Manifest.Version, old.Manifest.Version) < 0 {
		return nil, fmt.Errorf("%s is version %s of mod %s, lower than the installed %s: install it with --force to go back", src, m.Manifest.Version, m.ID(), old.Manifest.Version)
	}
	old := filepath.Join(stage, "old")
	if err := os.Rename(dest, old); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err := os.Rename(files, dest); err != nil {
		os.Rename(old, dest) // put the installed version back
		return nil, err
	}
	return mod.Load(dest)
}

// removeStaleStages removes the staging folders earlier installs left in
// root (a killed install), once they are older than staleStage: a younger
// one may be another install's, under way.
func removeStaleStages(root string) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), StagePrefix) {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > staleStage {
			os.RemoveAll(filepath.Join(root, e.Name()))
		}
	}
}

// refuseEnclosing refuses to install the folder src when it is root, the
// user's mod folder, or holds it: copying it would copy into itself.
func refuseEnclosing(src, root string) error {
	real := func(p string) string {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		if r, err := filepath.EvalSymlinks(p); err == nil {
			p = r
		}
		return p
	}
	s, r := real(src), real(root)
	rel, err := filepath.Rel(s, r)
	if err == nil && (rel == "." || rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))) {
		return fmt.Errorf("%s holds the mod folder %s: a mod's folder cannot be installed into itself; install the mod's own folder", src, root)
	}
	return nil
}

// CopyDir copies the regular files and folders of a mod's folder,
// held to a mod's limits (mod.ReadFolder).
func CopyDir(src, dest string) error {
	files, err := mod.ReadFolder(src)
	if err != nil {
		return err
	}
	return writeFiles(files, dest)
}

// writeFiles writes a mod's files, read and checked, into the folder
// dest.
func writeFiles(files *mod.Files, dest string) error {
	if err := os.MkdirAll(dest, 0o755); err != nil {
		return err
	}
	for _, rel := range slices.Sorted(maps.Keys(files.Files)) {
		to := filepath.Join(dest, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(to, files.Files[rel], 0o644); err != nil {
			return err
		}
	}
	return nil
}
