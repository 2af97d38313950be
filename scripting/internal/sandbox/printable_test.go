package sandbox

import (
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"
)

// printableThenCut is Printable's contract written the long way: the whole
// text made printable (each invalid byte a U+FFFD), then cut at the last
// rune boundary that leaves room for the ellipsis.
func printableThenCut(s string, n int) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if control(r) || (r == utf8.RuneError && size == 1) {
			r = utf8.RuneError
		}
		b.WriteRune(r)
		i += size
	}
	p := b.String()
	if len(p) <= n {
		return p
	}
	ell := Ellipsis
	if n < len(ell) {
		ell = ""
	}
	k := n - len(ell)
	for k > 0 && !utf8.RuneStart(p[k]) {
		k--
	}
	return p[:k] + ell
}

// TestPrintable: for any bytes and any limit, Printable is the printable
// text cut to the limit, valid UTF-8 with no control but tab and newline,
// and idempotent.
func TestPrintable(t *testing.T) {
	piece := rapid.OneOf(
		rapid.SliceOf(rapid.Byte()).AsAny(),
		rapid.String().AsAny(),
		rapid.SampledFrom([]string{"\x1b[31m", "\x00", "\x7f", "\u0085", "\u009b", "\xff\xfe", "\xe2\x82", "é", "€", "𝄞", "\uFFFD", "\t", "\n", "…", "a"}).AsAny(),
	)
	rapid.Check(t, func(t *rapid.T) {
		var b strings.Builder
		for range rapid.IntRange(0, 12).Draw(t, "pieces") {
			p := piece.Draw(t, "piece")
			rep := rapid.IntRange(1, 300).Draw(t, "rep")
			switch p := p.(type) {
			case []byte:
				b.WriteString(strings.Repeat(string(p), rep))
			case string:
				b.WriteString(strings.Repeat(p, rep))
			}
		}
		s := b.String()
		n := rapid.OneOf(rapid.IntRange(0, 8), rapid.IntRange(0, 2048), rapid.SampledFrom([]int{200, 512, 1024})).Draw(t, "n")
		got := Printable(s, n)
		if want := printableThenCut(s, n); got != want {
			t.Fatalf("Printable(%q, %d) = %q, want %q", s, n, got, want)
		}
		if len(got) > n || !utf8.ValidString(got) {
			t.Fatalf("Printable(%q, %d) = %q: %d bytes, valid UTF-8 %v", s, n, got, len(got), utf8.ValidString(got))
		}
		for _, r := range got {
			if control(r) {
				t.Fatalf("Printable(%q, %d) = %q keeps %U", s, n, got, r)
			}
		}
		if again := Printable(got, n); again != got {
			t.Fatalf("Printable twice: %q, then %q", got, again)
		}
	})
}

// TestPrintableCases: the cuts and replacements at their edges.
func TestPrintableCases(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"", 5, ""},
		{"hello", 5, "hello"},
		{"hello!", 5, "he…"},
		{"\x01", 3, "\uFFFD"},
		{"\x01\x01", 6, "\uFFFD\uFFFD"},
		{"\x01\x01\x01", 7, "\uFFFD…"},
		{"\xff\xfe", 6, "\uFFFD\uFFFD"}, // a U+FFFD a byte
		{"a\x1b[31mb", 64, "a\uFFFD[31mb"},
		{"tab\tline\n", 64, "tab\tline\n"},
		{"éééé", 6, "é…"}, // no half é before the ellipsis
		{"abcdef", 2, "ab"},
		{"abcdef", 0, ""},
		{"abc", -1, ""},
	} {
		if got := Printable(c.s, c.n); got != c.want {
			t.Errorf("Printable(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
	long := strings.Repeat("\x01", 600) // issue 50's message: 600 control bytes
	if got := Printable(long, 512); len(got) > 512 || !strings.HasSuffix(got, Ellipsis) {
		t.Errorf("Printable of 600 control bytes: %d bytes %q", len(got), got)
	}
}

// TestPrintableKeepsClean: a printable text within the limit is returned
// as it is, with no allocation.
func TestPrintableKeepsClean(t *testing.T) {
	s := strings.Repeat("a clean line, é and € and 𝄞\t", 10)
	if n := testing.AllocsPerRun(100, func() { _ = Printable(s, 1024) }); n != 0 {
		t.Errorf("Printable of a clean text: %v allocations, want 0", n)
	}
}

func BenchmarkPrintable(b *testing.B) {
	for _, c := range []struct {
		name string
		s    string
	}{
		{"clean", strings.Repeat("attempt to index a nil value ", 16)},
		{"control600", strings.Repeat("\x01", 600)},
		{"control1MiB", strings.Repeat("\x01", 1<<20)},
		{"invalid1MiB", strings.Repeat("\xff", 1<<20)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = Printable(c.s, 512)
			}
		})
	}
}
