// Package infile reads the files the program takes from outside (fixtures,
// TOML configurations, mod manifests and Lua files, saves, best scores)
// safely: only a regular file is read, and never more than a limit. A named
// pipe, a device (a link to /dev/zero, say), a folder or a file larger than
// the limit is refused with an error naming the file, so that no input can
// hang the program or make its memory grow without end.
//
// The file is checked before it is opened (a pipe is never opened, a device
// never touched), opened so that a file swapped for a pipe in between cannot
// block (O_NONBLOCK on Unix), checked again once open, and read with a cap of
// limit+1 bytes, so that a file that grows while it is read is refused too.
package infile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is the error (with errors.Is) for a path that names
// something other than a regular file: a folder, a pipe, a device, a
// socket.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is the error (with errors.Is) for a file larger than the
// limit it is read with.
var ErrTooLarge = errors.New("file too large")

// NotRegularError says what a path names instead of a regular file.
type NotRegularError struct {
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return kind(e.Mode) + ", not a regular file"
}

// Is makes errors.Is(err, ErrNotRegular) true.
func (e *NotRegularError) Is(target error) bool { return target == ErrNotRegular }

// TooLargeError says that a file is larger than the limit it is read with.
type TooLargeError struct {
	Size  int64 // the size the file had, or -1 when it grew while read
	Limit int64
}

func (e *TooLargeError) Error() string {
	if e.Size < 0 {
		return "larger than the limit of " + Size(e.Limit)
	}
	return fmt.Sprintf("%d bytes, more than the limit of %s", e.Size, Size(e.Limit))
}

// Is makes errors.Is(err, ErrTooLarge) true.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// kind names what a file mode is.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return "not a plain file"
}

// Size writes a byte count for people: 256 KiB, 16 MiB, 100 bytes.
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Read returns the contents of the regular file at path, which may have at
// most limit bytes. Links are followed. Its errors are *fs.PathError naming
// the path, with a *NotRegularError, a *TooLargeError or the system's error
// inside; a missing file gives an error that is fs.ErrNotExist, as
// os.ReadFile's does.
func Read(path string, limit int64) ([]byte, error) {
	if limit < 0 {
		limit = 0
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := check(info, limit); err != nil {
		return nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	f, err := open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The path may name another file by now: check the one that is open.
	if info, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := check(info, limit); err != nil {
		return nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	// Room for the whole file and one byte more, to see the end (or
	// growth past the limit) in one read.
	buf := make([]byte, 0, min(info.Size(), limit)+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			return nil, &fs.PathError{Op: "read", Path: path, Err: &TooLargeError{Size: -1, Limit: limit}}
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// check refuses what is not a regular file, or is one larger than limit.
func check(info fs.FileInfo, limit int64) error {
	if !info.Mode().IsRegular() {
		return &NotRegularError{Mode: info.Mode()}
	}
	if info.Size() > limit {
		return &TooLargeError{Size: info.Size(), Limit: limit}
	}
	return nil
}
