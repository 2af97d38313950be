//go:build unix

package infile

import (
	"os"
	"syscall"
)

// open opens path for reading without blocking: a pipe put in place of
// the file after it was checked opens at once (and is then refused) instead
// of waiting for a writer. O_NONBLOCK changes nothing for a regular file.
func open(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
