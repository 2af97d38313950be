package config

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// fuzzBases are the bases FuzzParse parses over, chosen by its second
// argument.
var fuzzBases = []string{"", "classic", "cellular", "late"}

// FuzzParse checks that no TOML text makes Parse or Validate panic, and that
// every text that makes a valid configuration shows as TOML that parses
// back to exactly the same configuration.
func FuzzParse(f *testing.F) {
	for _, name := range Presets() {
		src, err := PresetSource(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src, uint8(0))
		f.Add(src, uint8(2))
	}
	files, _ := filepath.Glob("testdata/*.toml")
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src, uint8(1))
		f.Add(src, uint8(3))
	}
	f.Fuzz(func(t *testing.T, src []byte, base uint8) {
		c, err := Parse(src, "fuzz.toml", fuzzBases[int(base)%len(fuzzBases)])
		if err != nil {
			if !allErrors(err) {
				t.Fatalf("Parse's error is a %T, not an *Error or a join of them: %v", err, err)
			}
			return
		}
		if err := c.Validate(); err != nil {
			if !allErrors(err) {
				t.Fatalf("Validate's error is a %T, not an *Error or a join of them: %v", err, err)
			}
			return
		}
		out := c.TOML()
		back, err := Parse(out, "show.toml", "")
		if err != nil {
			t.Fatalf("show does not parse back: %v\n%s", err, out)
		}
		if !sameConfig(c, back) {
			t.Fatalf("show parses back as\n%+v\nnot\n%+v\n%s", back, c, out)
		}
		if err := back.Validate(); err != nil {
			t.Fatalf("show parses back invalid: %v\n%s", err, out)
		}
		if again := back.TOML(); !bytes.Equal(withoutHeader(again), withoutHeader(out)) {
			t.Fatalf("show is not a fixed point:\n%s\n---\n%s", out, again)
		}
		if _, _, err := c.Game(1, true); err != nil {
			t.Fatalf("Game of a valid configuration: %v", err)
		}
	})
}

// allErrors reports whether err is an *Error, or a join of them (every
// error of a file at once).
func allErrors(err error) bool {
	if _, ok := err.(*Error); ok {
		return true
	}
	j, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return false
	}
	for _, e := range j.Unwrap() {
		if !allErrors(e) {
			return false
		}
	}
	return len(j.Unwrap()) > 1
}
