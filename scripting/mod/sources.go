package mod

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/mod2048/mod2048/config/infile"
)

// MaxSourcesFiles and MaxSourcesBytes bound the files Sources gathers and
// LoadSources takes (a mod's manifest and Lua files): a mod's limits,
// MaxFiles and MaxBytes.
const (
	MaxSourcesFiles = MaxFiles
	MaxSourcesBytes = MaxBytes
)

// Sources returns the mod's own files, the ones that make its behaviour
// (its manifest and every Lua file of its folder), by slash-separated path,
// as they are now: what a replay carries so that it plays back anywhere
// (LoadSources loads them). A Lua file over MaxSource bytes, which no
// host would load, is left out.
func (m *Mod) Sources() (map[string]string, error) {
	out := map[string]string{}
	total := 0
	add := func(rel string) error {
		limit := int64(MaxSource)
		if rel == ManifestName {
			limit = MaxManifest
		}
		data, err := m.ReadFile(rel, limit)
		if err != nil {
			if rel != ManifestName && isTooLarge(err) {
				return nil
			}
			return fmt.Errorf("mod %s: %s: %v", m.ID(), rel, err)
		}
		total += len(data)
		if len(out) >= MaxSourcesFiles || total > MaxSourcesBytes {
			return fmt.Errorf("mod %s: more than %d files or %d bytes of manifest and Lua", m.ID(), MaxSourcesFiles, MaxSourcesBytes)
		}
		out[rel] = string(data)
		return nil
	}
	var rels []string
	walk := func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && strings.HasSuffix(p, ".lua") {
			rels = append(rels, p)
		}
		return nil
	}
	var err error
	if m.files != nil {
		err = fs.WalkDir(m.files, ".", walk)
	} else {
		err = filepath.WalkDir(m.Dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, rerr := filepath.Rel(m.Dir, p)
			if rerr != nil {
				return rerr
			}
			return walk(filepath.ToSlash(rel), d, nil)
		})
	}
	if err != nil {
		return nil, fmt.Errorf("mod %s: %v", m.ID(), err)
	}
	sort.Strings(rels)
	if err := add(ManifestName); err != nil {
		return nil, err
	}
	for _, rel := range rels {
		if err := add(rel); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func isTooLarge(err error) bool {
	var tl *infile.TooLargeError
	return errors.As(err, &tl)
}

// FromFiles reports whether the mod was loaded from files in memory
// (LoadFS, LoadSources) rather than a folder on disk.
func (m *Mod) FromFiles() bool { return m.files != nil }

// LoadSources loads a mod from its files (Sources), by slash-separated
// path; name names it in messages (the folder it was recorded from).
func LoadSources(files map[string]string, name string) (*Mod, error) {
	if len(files) > MaxSourcesFiles {
		return nil, fmt.Errorf("%s: %d files, more than %d", name, len(files), MaxSourcesFiles)
	}
	data := make(map[string][]byte, len(files))
	total := 0
	for p, text := range files {
		if !fs.ValidPath(p) || path.Clean(p) != p || p == "." {
			return nil, fmt.Errorf("%s: %q is not a path in a mod's folder", name, p)
		}
		total += len(text)
		data[p] = []byte(text)
	}
	if total > MaxSourcesBytes {
		return nil, fmt.Errorf("%s: more than %d bytes", name, MaxSourcesBytes)
	}
	fsys, err := MemFS(data)
	if err != nil {
		return nil, err
	}
	m, err := LoadFS(fsys, ".")
	if err != nil {
		return nil, err
	}
	m.Dir = name
	return m, nil
}

// MemFS returns files (by slash-separated path) as a file system in
// memory, with the folders their paths imply: a zip of them, stored
// uncompressed, whose reader is the fs.FS.
func MemFS(files map[string][]byte) (fs.FS, error) {
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	names := make([]string, 0, len(files))
	for p := range files {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		f, err := w.CreateHeader(&zip.FileHeader{Name: p, Method: zip.Store, Modified: time.Unix(0, 0)})
		if err != nil {
			return nil, err
		}
		if _, err := f.Write(files[p]); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
}
