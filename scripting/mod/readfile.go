package mod

import (
	"errors"
	"io/fs"

	"github.com/mod2048/mod2048/config/infile"
)

// MaxManifest is the most bytes a mod's mod.toml may have: some thirty
// times a manifest with a dozen settings. A Lua file may have MaxSource.
const MaxManifest = 64 << 10

// readModFile reads a file of a mod's folder, which is hostile input: only
// a regular file of at most limit bytes is read, so that a named pipe, a
// device or a huge file is refused at once instead of hanging the game or
// filling its memory. The error says what is wrong without the path, for
// the caller to name the file as the mod's author knows it.
func readModFile(path string, limit int64) ([]byte, error) {
	src, err := infile.Read(path, limit)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return src, err
}
