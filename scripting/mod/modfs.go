package mod

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/mod2048/mod2048/config/infile"
)

// LoadFS reads and checks the mod whose folder is fsys: a mod embedded
// in the program, read from a zip, or given file by file (the browser
// game's mods). name names the mod's folder in messages and becomes its
// Dir; nothing is read from disk, then or when the mod runs. Its files are
// read with the limits of a folder's (MaxManifest, MaxSource), and only a
// regular file is read.
func LoadFS(fsys fs.FS, name string) (*Mod, error) {
	if fsys == nil {
		return nil, errors.New("mod.LoadFS: no files")
	}
	if name == "" {
		name = "."
	}
	return load(name, fsys)
}

// readFile reads the file rel (slash-separated) of the mod's folder, with
// at most limit bytes: from its files (LoadFS), or from disk, where a
// file that lies (or links) outside the folder is refused. The error does
// not name the file.
//
// A file of Dir is read once and kept (up to maxKeptSource bytes a mod):
// every game of a lab run, and every host of a session, runs the code the
// first one read, even while the folder is edited; a reload (Load
// again) reads it anew.
func (m *Mod) ReadFile(rel string, limit int64) ([]byte, error) {
	if m.files != nil {
		return readFS(m.files, rel, limit)
	}
	if b, ok := m.read.get(rel); ok && int64(len(b)) <= limit {
		return b, nil
	}
	p, err := insideDir(m.Dir, rel)
	if err != nil {
		return nil, err
	}
	b, err := readModFile(p, limit)
	if err == nil {
		m.read.put(rel, b)
	}
	return b, err
}

// readFiles are the files of a mod's folder read so far.
type readFiles struct {
	mu    sync.Mutex
	files map[string][]byte
	bytes int
}

// maxKeptSource bounds what readFiles keeps of one mod.
const maxKeptSource = 16 << 20

func (r *readFiles) get(rel string) ([]byte, bool) {
	if r == nil {
		return nil, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	b, ok := r.files[rel]
	return b, ok
}

func (r *readFiles) put(rel string, b []byte) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.files[rel]; ok || r.bytes+len(b) > maxKeptSource {
		return
	}
	if r.files == nil {
		r.files = map[string][]byte{}
	}
	r.files[rel] = b
	r.bytes += len(b)
}

// readIn reads the file rel of a mod's folder: from fsys, or from the
// folder dir on disk when fsys is nil.
func readIn(fsys fs.FS, dir, rel string, limit int64) ([]byte, error) {
	if fsys == nil {
		return readModFile(filepath.Join(dir, rel), limit)
	}
	return readFS(fsys, rel, limit)
}

// statIn reports whether the file rel of a mod's folder exists: in fsys,
// or in the folder dir on disk when fsys is nil.
func statIn(fsys fs.FS, dir, rel string) error {
	if fsys == nil {
		_, err := os.Stat(filepath.Join(dir, rel))
		return err
	}
	if !fs.ValidPath(rel) {
		return fs.ErrNotExist
	}
	_, err := fs.Stat(fsys, rel)
	return err
}

// readFS reads the regular file rel of fsys, refusing one of more than
// limit bytes, with the errors of readModFile: without the path.
func readFS(fsys fs.FS, rel string, limit int64) ([]byte, error) {
	if !fs.ValidPath(rel) || path.Clean(rel) != rel {
		return nil, errors.New("no such file in the mod's folder")
	}
	f, err := fsys.Open(rel)
	if err != nil {
		return nil, unwrapPath(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, unwrapPath(err)
	}
	if !fi.Mode().IsRegular() {
		return nil, &infile.NotRegularError{Mode: fi.Mode()}
	}
	if fi.Size() > limit {
		return nil, &infile.TooLargeError{Size: fi.Size(), Limit: limit}
	}
	src, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, unwrapPath(err)
	}
	if int64(len(src)) > limit {
		return nil, &infile.TooLargeError{Size: -1, Limit: limit}
	}
	return src, nil
}

// unwrapPath drops the path of a *fs.PathError, as readModFile does.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// insideDir returns the path of rel inside dir, following links, or an
// error when it does not exist or resolves outside dir.
func insideDir(dir, rel string) (string, error) {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", errors.New("the mod's folder cannot be read")
	}
	path, err := filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return "", errors.New("no such file in the mod's folder")
	}
	if r, err := filepath.Rel(root, path); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", errors.New("it lies outside the mod's folder")
	}
	return path, nil
}
