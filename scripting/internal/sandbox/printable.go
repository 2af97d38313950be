package sandbox

import (
	"github.com/mod2048/mod2048/scripting/internal/workcount"
	"strings"
	"unicode/utf8"
)

// Ellipsis ends a text Printable cut.
const Ellipsis = "…"

// Printable makes text a mod wrote fit to show and to keep: printable,
// then cut to at most n bytes. Printable: each control character (C0 but
// tab and newline, DEL, C1; escape codes would reach the player's
// terminal) becomes U+FFFD, and each byte of invalid UTF-8 likewise (as
// a range loop over a string reads it; not a run as one, so that the work
// is bounded by n, however long s is). Cut: a text still longer than n bytes keeps as many whole runes
// as fit with Ellipsis in the n (n below len(Ellipsis) cuts without it).
// The result is valid UTF-8 of at most n bytes, whatever s is; it reads no
// further into s than the n bytes it keeps need, and returns s itself when
// s is already printable and short enough. Printable(Printable(s, n), n)
// is Printable(s, n).
func Printable(s string, n int) string {
	n = max(n, 0)
	if len(s) <= n && clean(s) {
		return s
	}
	ell := Ellipsis
	if n < len(ell) {
		ell = ""
	}
	var b strings.Builder
	b.Grow(min(len(s), n) + utf8.UTFMax)
	cut := -1 // where Ellipsis goes if the text turns out too long
	for _, r := range s {
		workcount.Step()
		if control(r) {
			r = utf8.RuneError
		}
		w := utf8.RuneLen(r)
		if cut < 0 && b.Len()+w > n-len(ell) {
			cut = b.Len()
		}
		if b.Len()+w > n {
			return b.String()[:cut] + ell
		}
		b.WriteRune(r)
	}
	return b.String()
}

// control reports whether Printable replaces r.
func control(r rune) bool {
	return (r < 0x20 && r != '\t' && r != '\n') || r == 0x7f || (r >= 0x80 && r < 0xa0)
}

// clean reports whether s is printable as it is: printable ASCII, tabs and
// newlines, and valid UTF-8 with no C1 control.
func clean(s string) bool {
	for i := 0; i < len(s); i++ {
		workcount.Step()
		if c := s[i]; c >= 0x80 {
			for _, r := range s[i:] {
				workcount.Step()
				if r == utf8.RuneError || control(r) {
					return false // a literal U+FFFD too: the slow path keeps it
				}
			}
			return true
		} else if control(rune(c)) {
			return false
		}
	}
	return true
}
