//go:build !unix

package infile

import "os"

// open opens path for reading. Where there are no Unix named pipes to block
// on (Windows, js/wasm, WASI), a plain open is what there is; Read's checks
// before and after it still refuse what is not a regular file.
func open(path string) (*os.File, error) {
	return os.Open(path)
}
