package mod

import (
	"fmt"
	"path/filepath"
	"strings"
)

// FileError is an error about a place in a mod's files, with the place as
// values: a manifest that does not parse or check, a file that cannot be
// read, and (through scripting.ModError's As) a Lua file that does not
// compile or fails as the mod loads. errors.As finds it in every such
// error that Load, LoadFS, LoadSources and scripting.NewHost return, so
// that a frontend reads where an error is without reading its text:
//
//	var fe *mod.FileError
//	if errors.As(err, &fe) {
//		jumpTo(fe.File, fe.Line, fe.Column)
//	}
type FileError struct {
	Mod  string // the mod's id, when the manifest gave one
	Dir  string // the mod's folder, as it was named
	File string // the file, by its slash-separated path in the folder; "" for the folder itself
	// Line and Column are where the error is, from 1; 0 when not known.
	// An error at the end of a file has the file's last line.
	Line, Column int
	EOF          bool   // the error is at the end of the file (the file stops short)
	Key          string // the manifest's key the error is about, if any
	Message      string // what is wrong, without where
	// OpenLine is, for a Lua file that does not compile because a block or
	// bracket is left open, the line where it opens, which Message names;
	// 0 otherwise. An editor marks it beside the error's line.
	OpenLine int
	// Err is the error the FileError stands for, when there is one (a
	// *ModError's As), for errors.As and errors.Is.
	Err error
}

// Error names the place once, as compilers do (DIR/FILE:LINE:COLUMN: ...),
// then the key, then what is wrong; "(at the end of the file)" after the
// place, for an error there whose message does not say so.
func (e *FileError) Error() string {
	var b strings.Builder
	b.WriteString(e.Path())
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Column > 0 {
			fmt.Fprintf(&b, ":%d", e.Column)
		}
	}
	if e.EOF && !strings.HasSuffix(e.Message, "at the end of the file") {
		b.WriteString(" (at the end of the file)")
	}
	b.WriteString(": ")
	if e.Key != "" {
		b.WriteString(e.Key + ": ")
	}
	b.WriteString(e.Message)
	return b.String()
}

// Unwrap returns the error the FileError stands for, if any.
func (e *FileError) Unwrap() error { return e.Err }

// Path is the file's path: the folder and the file in it.
func (e *FileError) Path() string {
	switch {
	case e.File == "":
		return e.Dir
	case e.Dir == "" || e.Dir == ".":
		return e.File
	}
	return filepath.Join(e.Dir, filepath.FromSlash(e.File))
}

// lastLine is the number of the last line of text (a final newline ends
// the last line, and starts none).
func lastLine(text string) int {
	return strings.Count(strings.TrimSuffix(text, "\n"), "\n") + 1
}
