package termtext_test

import (
	"testing"

	"github.com/mod2048/mod2048/cmd/2048/internal/termtext"
)

func TestPrintable(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"mods/bomb", "mods/bomb"},
		{"été ½ 🙂", "été ½ 🙂"},
		{"\x1b[2J\x1b[H", `\x1b[2J\x1b[H`},
		{"\x1b]0;pwned\x07", `\x1b]0;pwned\x07`},
		{"a\x00b", `a\x00b`},
		{"tab\there\nline\r", `tab\there\nline\r`},
		{"del\x7f", `del\x7f`},
		{"c1 \u009b2J", `c1 \x9b2J`},
		{"rtl \u202egnp.exe", `rtl \u202egnp.exe`},
		{"bad \xff\xfe utf8", `bad \xff\xfe utf8`},
	}
	for _, tt := range tests {
		if got := termtext.Printable(tt.in); got != tt.want {
			t.Errorf("Printable(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestLines(t *testing.T) {
	in := "x.cases:3: case \x1b[31mA\n    expected | actual\n    2 0 \x07| 2 0"
	want := "x.cases:3: case \\x1b[31mA\n    expected | actual\n    2 0 \\x07| 2 0"
	if got := termtext.Lines(in); got != want {
		t.Errorf("Lines(%q) = %q, want %q", in, got, want)
	}
}
