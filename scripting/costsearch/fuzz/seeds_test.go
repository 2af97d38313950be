package fuzz

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

var update = flag.Bool("update", false, "write the seeds of the known attacks into testdata/fuzz/FuzzSandbox")

// seedDir is where go test finds FuzzSandbox's seed corpus.
const seedDir = "testdata/fuzz/FuzzSandbox"

// A seed is a known attack, written as the choices that decode to it (a
// plan: each label's choices, in the order the generator asks), and a
// pattern its program must match.
type seed struct {
	name  string
	wants map[string][]int
	shows string
	// pending: a hole not yet mended, kept in foundDir (its README says
	// what it is) rather than in the seed corpus, which must pass.
	pending bool
}

// foundDir holds what the fuzzer found past the bounds, for the sandbox
// to mend: the inputs, in the seed corpus's format, and a README.
const foundDir = "testdata/fuzz-found"

// seeds are the known attacks the seed corpus starts from.
var seeds = []seed{
	{
		// string.find of a 64 KiB subject with a class of 16 bytes that
		// none of its bytes is in; a byte's mutation (set.n.bits) makes
		// it long-class-find.
		name: "class-find",
		wants: map[string][]int{
			"statements": {0, 1}, "stmt": {sLocal}, "local.type": {int(tNum)}, "num": {9},
			"subject": {1}, "subject.unit": {1}, "subject.n.bits": {17},
			"pat.items": {1}, "pat.item": {4}, "set.unit": {1}, "set.n.bits": {5},
			"num.lit": {1},
		},
		shows: `string\.find\(string\.rep\("a", 65536\), \("\[" \.\. string\.rep\("b", 16\) \.\. "\]"\), 1\)`,
	},
	{
		// string.find of a 64 KiB subject with a class of 4096 bytes that
		// none of its bytes is in: the class was scanned at every position
		// (issue 50), until each class was compiled once a call and charged
		// by its length.
		name: "long-class-find",
		wants: map[string][]int{
			"statements": {0, 1}, "stmt": {sLocal}, "local.type": {int(tNum)}, "num": {9},
			"subject": {1}, "subject.unit": {1}, "subject.n.bits": {17},
			"pat.items": {1}, "pat.item": {4}, "set.unit": {1}, "set.n.bits": {13},
			"num.lit": {1},
		},
		shows: `string\.find\(string\.rep\("a", 65536\), \("\[" \.\. string\.rep\("b", 4096\) \.\. "\]"\), 1\)`,
	},
	{
		// 512 times a recursion 150 deep that raises an error of 2 KiB at
		// its bottom, under pcall: a traceback of 150 frames each time.
		name: "deep-error-under-pcall",
		wants: map[string][]int{
			"statements": {0, 1, 1}, "stmt": {sFor, sRecursion}, "for.from": {1}, "for.trips.bits": {10},
			"rec.depth.bits": {8}, "rec.depth": {22}, "rec.error": {1}, "rec.errortype": {int(tStr)},
			"lit": {4}, "lit.as.bits": {12}, "rec.level": {1}, "rec.pcall": {1},
		},
		shows: `(?s)for i\d+ = 1, 512 do.*error\("a{1000}a{1000}a{48}b", 1\).*pcall\(rec\d+, 150\)`,
	},
	{
		// A module required inside a handler, whose top level builds a
		// string of 1 MiB and keeps it.
		name: "require-in-handler",
		wants: map[string][]int{
			"modules": {1}, "statements": {0, 1, 2, 0}, "stmt": {sRequire, sString, sKeep},
			"require.call": {1}, "strop": {1}, "lit.short": {1}, "rep.n.bits": {21},
			"keep.type": {int(tStr)}, "leaf.var": {0, 1}, "module.functions": {1},
		},
		shows: `(?s)game\.on\("tick", function\(ev, \.\.\.\)\nlocal r\d+ = require\("m1"\).*-- m1\.lua\n.*string\.rep\("a", 1048576\)\nK\[#K \+ 1\] = s\d+`,
	},
	{
		// 4096 comparisons of two strings of 1 MiB that differ in none of
		// their bytes.
		name: "long-string-compare",
		wants: map[string][]int{
			"statements": {0, 3, 1}, "stmt": {sString, sString, sFor, sLocal}, "strop": {1, 1},
			"lit.short": {1, 1}, "rep.n.bits": {21, 21}, "for.from": {1}, "for.trips.bits": {13},
			"local.type": {int(tBool)}, "bool": {2}, "leaf.var": {0, 0, 1, 1}, "var": {0, 1},
		},
		shows: `(?s)local (s\d+) = string\.rep\("a", 1048576\)\nlocal (s\d+) = string\.rep\("a", 1048576\)\nfor i\d+ = 1, 4096 do\nlocal v\d+ = \(s\d+ < s\d+\)`,
	},
	{
		// Strings of 1 MiB kept, sixteen a turn: the heap oracle's.
		name: "kept-strings",
		wants: map[string][]int{
			"statements": {0, 1, 1}, "stmt": {sFor, sKeep}, "for.from": {1}, "for.trips.bits": {5},
			"keep.type": {int(tStr)}, "str.op": {1}, "strop": {1}, "lit.short": {1}, "rep.n.bits": {21},
		},
		shows: `(?s)for i\d+ = 1, 16 do\nK\[#K \+ 1\] = string\.rep\("a", 1048576\)`,
	},
	{
		// string.format with a run of 2048 flags, 4096 times.
		name: "long-format-flags",
		wants: map[string][]int{
			"statements": {0, 1, 1}, "stmt": {sFor, sString}, "for.from": {1}, "for.trips.bits": {13},
			"strop": {3}, "format.flags.bits": {12}, "format.verb": {1},
		},
		shows: `string\.format\("%[-+ #0]{1000}[-+ #0]{1000}[-+ #0]{48}d", 0\)`,
	},
}

// bytesOf returns the bytes that decode to s's plan.
func (s seed) bytesOf() []byte {
	wants := map[string][]int{}
	for k, v := range s.wants {
		wants[k] = append([]int(nil), v...)
	}
	p := &plan{wants: wants}
	generate(p)
	return p.bytes
}

// corpusFile is data in the format of go test's corpus files.
func corpusFile(data []byte) string {
	return fmt.Sprintf("go test fuzz v1\n[]byte(%s)\n", strconv.Quote(string(data)))
}

// TestSeeds: each seed of the known attacks decodes to the program it is
// meant to be, and the seed corpus holds its bytes as they are planned
// (go test -run TestSeeds -update writes them).
func TestSeeds(t *testing.T) {
	for _, s := range seeds {
		data := s.bytesOf()
		p := Decode(data)
		if !regexp.MustCompile(s.shows).MatchString(p.String()) {
			t.Errorf("%s decodes to a program that does not match %s:\n%s", s.name, s.shows, p)
			continue
		}
		dir := seedDir
		if s.pending {
			dir = foundDir
		}
		path := filepath.Join(dir, s.name)
		if *update {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(corpusFile(data)), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v (go test -run TestSeeds -update writes it)", s.name, err)
		} else if string(b) != corpusFile(data) {
			t.Errorf("%s: the seed corpus holds other bytes than it is planned (go test -run TestSeeds -update writes them)", s.name)
		}
	}
}
