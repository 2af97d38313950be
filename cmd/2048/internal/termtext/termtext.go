// Package termtext makes the text of files (replays, manifests, fixtures,
// saves) safe to print on a terminal.
package termtext

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Printable returns s, text a file holds (a path, a version, a message), fit
// to print on a terminal: its control characters (C0, DEL and C1, such as
// ESC, which starts the sequences that clear the screen or set the window
// title), the format characters that reorder text (bidirectional overrides
// and isolates) and bytes that are not UTF-8 are written as Go escapes
// (\x1b, \u202e). Printable text is returned as it is.
func Printable(s string) string {
	i := strings.IndexFunc(s, unsafeRune)
	if i < 0 && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case unsafeRune(r) && r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// unsafeRune says whether r must not reach a terminal as it is.
func unsafeRune(r rune) bool {
	switch {
	case unicode.IsControl(r):
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	}
	return false
}

// Lines is Printable for text of several lines: each line is made
// printable, and the line breaks are kept.
func Lines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Printable(l)
	}
	return strings.Join(lines, "\n")
}

// Writer writes what is written to it through Lines: a printer of a
// package that knows nothing of terminals (the fixture runner's report)
// writes to it as to any io.Writer. Each Write is taken as whole lines, as
// fmt.Fprintf writes them.
type Writer struct{ W io.Writer }

func (w Writer) Write(p []byte) (int, error) {
	if _, err := io.WriteString(w.W, Lines(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
