package mod

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/mod2048/mod2048/config/infile"
)

// The limits of a mod's files as a frontend takes them (a zip, a folder to
// install, files a page gives): the same for `2048 mod install`, `2048
// serve` and the browser game, so that a mod one of them takes, the others
// take too. 256 files is what the browser game and the workshop have
// always held (a replay carries as many: MaxSourcesFiles); a zip may add a
// folder entry for each file.
const (
	MaxFiles     = 256          // regular files
	MaxEntries   = 2 * MaxFiles // a zip's entries, or a folder's files and folders
	MaxBytes     = 16 << 20     // bytes of all the files, and of a zip itself
	MaxFileBytes = MaxBytes     // bytes of one file: a fixture may have 16 MiB
)

// Files are a mod's files read into memory, checked against the limits:
// by slash-separated path in the mod's folder.
type Files struct {
	// Name names the zip, folder or upload in messages.
	Name string
	// Root is the folder that holds the manifest, by its path in what was
	// read: "." when the manifest is at the top.
	Root  string
	Files map[string][]byte
}

// FS returns the files as a file system in memory (MemFS).
func (f *Files) FS() (fs.FS, error) { return MemFS(f.Files) }

// Load loads the mod from its files (LoadFS), named by f.Name.
func (f *Files) Load() (*Mod, error) {
	fsys, err := f.FS()
	if err != nil {
		return nil, err
	}
	return LoadFS(fsys, f.Name)
}

// ReadZipFile reads the zip at path (ReadZip), named by path in messages.
// Only a regular file of at most MaxBytes is read.
func ReadZipFile(p string) (*Files, error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a folder or a zip", p)
	}
	if info.Size() > MaxBytes {
		return nil, tooLargeZip(p)
	}
	data, err := infile.Read(p, MaxBytes)
	if errors.Is(err, infile.ErrTooLarge) {
		return nil, tooLargeZip(p)
	}
	if err != nil {
		return nil, err
	}
	return ReadZip(data, p)
}

// tooLargeZip is the error of a zip over MaxBytes.
func tooLargeZip(name string) error {
	return fmt.Errorf("%s: the zip is larger than the %s a mod may have", name, infile.Size(MaxBytes))
}

// TooLargeZip is the error of a zip over MaxBytes named name, for a
// frontend that refuses one before it has its bytes (the page's base64).
func TooLargeZip(name string) error { return tooLargeZip(name) }

// ReadZip reads the zip data of a mod, named name in messages: the files
// of the folder that holds its manifest (at the zip's top, or in one
// folder at its top; other folders beside it, as __MACOSX/, are left
// out). Before anything is inflated, it refuses a zip of more than
// MaxBytes, MaxEntries entries or MaxFiles files; an entry named twice, a
// link or any entry that is not a file or folder, an entry whose path
// would leave the mod's folder (.., an absolute path, a backslash) or
// holds a control character; a file that is a folder too; and entries
// that declare more than MaxFileBytes, or MaxBytes in all. As it inflates,
// it refuses an entry that inflates past what it declared (archive/zip)
// or past those limits, whatever it declared: a zip bomb never takes more
// memory than a mod may have. Errors name the zip and the entry.
func ReadZip(data []byte, name string) (*Files, error) {
	if len(data) > MaxBytes {
		return nil, tooLargeZip(name)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("%s: not a zip: %v", name, err)
	}
	if len(zr.File) > MaxEntries {
		return nil, fmt.Errorf("%s: %d entries, more than the %d a mod's zip may have", name, len(zr.File), MaxEntries)
	}
	var c checker
	c.name = name
	files := map[string]*zip.File{}
	for _, f := range zr.File {
		if strings.ContainsFunc(f.Name, unicode.IsControl) {
			return nil, fmt.Errorf("%s: entry %q has a control character in its name", name, f.Name)
		}
		if strings.Contains(f.Name, `\`) || strings.HasPrefix(f.Name, "/") {
			return nil, fmt.Errorf("%s: entry %q would write outside the mod's folder", name, f.Name)
		}
		clean := path.Clean(f.Name)
		if clean == ".." || strings.HasPrefix(clean, "../") {
			return nil, fmt.Errorf("%s: entry %q would write outside the mod's folder", name, f.Name)
		}
		mode := f.Mode()
		switch {
		case mode&fs.ModeSymlink != 0:
			return nil, fmt.Errorf("%s: entry %q is a link: a mod's zip may hold only files and folders", name, f.Name)
		case mode.IsDir():
			if err := c.folder(clean, f.Name); err != nil {
				return nil, err
			}
			continue
		case !mode.IsRegular():
			return nil, fmt.Errorf("%s: entry %q is not a regular file", name, f.Name)
		}
		if err := c.file(clean, f.Name, f.UncompressedSize64); err != nil {
			return nil, err
		}
		files[clean] = f
	}
	root, err := c.root()
	if err != nil {
		return nil, err
	}
	out := &Files{Name: name, Root: root, Files: map[string][]byte{}}
	var total int64
	for _, p := range slices.Sorted(maps.Keys(files)) {
		rel, ok := inRoot(root, p)
		if !ok {
			continue
		}
		f := files[p]
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("%s: entry %q: %v", name, f.Name, err)
		}
		limit := min(int64(MaxFileBytes), MaxBytes-total)
		b, err := io.ReadAll(io.LimitReader(rc, limit+1))
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: entry %q: %v", name, f.Name, err)
		}
		if int64(len(b)) > limit {
			if limit == MaxFileBytes {
				return nil, tooLargeFile(name, f.Name)
			}
			return nil, tooLargeFiles(name)
		}
		total += int64(len(b))
		out.Files[rel] = b
	}
	return out, nil
}

// ReadFolder reads the regular files of the mod's folder dir, held to a
// zip's limits: at most MaxEntries files and folders, MaxFiles files,
// MaxFileBytes a file and MaxBytes in all, each file's size checked before
// it is read (a sparse file of gigabytes is refused, never read); a link,
// a named pipe or a device is refused.
func ReadFolder(dir string) (*Files, error) {
	c := checker{name: dir}
	out := &Files{Name: dir, Root: ".", Files: map[string][]byte{}}
	var total int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		if rel == "." {
			return nil
		}
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir():
			return c.folder(rel, rel)
		case !d.Type().IsRegular():
			return fmt.Errorf("%s is not a regular file or folder: a mod holds only files", p)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if err := c.file(rel, rel, uint64(info.Size())); err != nil {
			return err
		}
		data, err := infile.Read(p, min(int64(MaxFileBytes), MaxBytes-total))
		if errors.Is(err, infile.ErrTooLarge) {
			return tooLargeFiles(dir) // it grew since it was checked
		}
		if err != nil {
			return err
		}
		total += int64(len(data))
		out.Files[rel] = data
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// FolderFiles checks a mod's files given by path (a folder the page
// picked), named name in messages, as ReadZip checks a zip's: at most
// MaxFiles files, MaxFileBytes a file and MaxBytes in all, each path one
// inside the folder; and finds the folder that holds the manifest (Root).
func FolderFiles(files map[string][]byte, name string) (*Files, error) {
	if len(files) > MaxFiles {
		return nil, tooManyFiles(name, len(files))
	}
	c := checker{name: name}
	for _, p := range slices.Sorted(maps.Keys(files)) {
		if !fs.ValidPath(p) || p == "." {
			return nil, fmt.Errorf("%s: %q is not a path inside the mod's folder", name, p)
		}
		if err := c.file(p, p, uint64(len(files[p]))); err != nil {
			return nil, err
		}
	}
	root, err := c.root()
	if err != nil {
		return nil, err
	}
	out := &Files{Name: name, Root: root, Files: map[string][]byte{}}
	for p, data := range files {
		if rel, ok := inRoot(root, p); ok {
			out.Files[rel] = data
		}
	}
	return out, nil
}

// checker holds the entries of a mod's files to their limits as they are
// listed.
type checker struct {
	name    string
	entries int
	files   int
	total   uint64
	kinds   map[string]bool // path → is a folder
}

// add records the entry clean (named entry in messages), a folder or a
// file, refusing one seen before, one past MaxEntries, and a file that is
// a folder too.
func (c *checker) add(clean, entry string, folder bool) error {
	if c.kinds == nil {
		c.kinds = map[string]bool{}
	}
	if _, seen := c.kinds[clean]; seen {
		return fmt.Errorf("%s: entry %q is in the zip twice: which one is the mod's is not clear", c.name, entry)
	}
	if c.entries++; c.entries > MaxEntries {
		return fmt.Errorf("%s: more than the %d files and folders a mod may have", c.name, MaxEntries)
	}
	c.kinds[clean] = folder
	for d := path.Dir(clean); d != "."; d = path.Dir(d) {
		if isFolder, seen := c.kinds[d]; seen && !isFolder {
			return fmt.Errorf("%s: entry %q lies in %q, which is a file", c.name, entry, d)
		}
	}
	if !folder {
		for p := range c.kinds {
			if strings.HasPrefix(p, clean+"/") {
				return fmt.Errorf("%s: entry %q is a file, and %q lies in it", c.name, entry, p)
			}
		}
	}
	return nil
}

func (c *checker) folder(clean, entry string) error { return c.add(clean, entry, true) }

// file records a file that declares size bytes.
func (c *checker) file(clean, entry string, size uint64) error {
	if err := c.add(clean, entry, false); err != nil {
		return err
	}
	if c.files++; c.files > MaxFiles {
		return tooManyFiles(c.name, c.files)
	}
	if size > MaxFileBytes {
		return tooLargeFile(c.name, entry)
	}
	if c.total += size; c.total > MaxBytes {
		return tooLargeFiles(c.name)
	}
	return nil
}

// root finds the folder that holds the manifest: "." when it is at the
// top, else the one folder at the top that holds one (a zip of a folder,
// or a picked folder).
func (c *checker) root() (string, error) {
	if folder, ok := c.kinds[ManifestName]; ok && !folder {
		return ".", nil
	}
	var dirs []string
	for p, folder := range c.kinds {
		if dir, file, ok := strings.Cut(p, "/"); ok && file == ManifestName && !folder {
			dirs = append(dirs, dir)
		}
	}
	slices.Sort(dirs)
	switch len(dirs) {
	case 0:
		return "", fmt.Errorf("%s: not a mod: it has no %s", c.name, ManifestName)
	case 1:
		return dirs[0], nil
	}
	return "", fmt.Errorf("%s: it holds several mods (%s): give one", c.name, strings.Join(dirs, ", "))
}

// inRoot returns the path of p in the folder root, and whether it lies in
// it.
func inRoot(root, p string) (string, bool) {
	if root == "." {
		return p, true
	}
	rel, ok := strings.CutPrefix(p, root+"/")
	return rel, ok
}

func tooManyFiles(name string, n int) error {
	return fmt.Errorf("%s: %d files, more than the %d a mod may have", name, n, MaxFiles)
}

func tooLargeFile(name, entry string) error {
	return fmt.Errorf("%s: entry %q has more than the %s a file of a mod may have", name, entry, infile.Size(MaxFileBytes))
}

func tooLargeFiles(name string) error {
	return fmt.Errorf("%s: its files have more than the %s a mod may have", name, infile.Size(MaxBytes))
}
