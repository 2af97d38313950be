package costsearch

import (
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// CorpusDir is the committed corpus, from the package's folder: the known
// attacks, written by hand, and the programs the search found, a mod's
// main.lua each (*.lua), each beginning with a comment that says what it
// is and, for a found one, its ratios when it was found.
const CorpusDir = "testdata/corpus"

// Program is a program of the corpus.
type Program struct {
	Name   string // its file's name
	Source string
	// Turns are the turns it was found at (its header's "at N turns"), 0
	// for one written by hand.
	Turns int
}

// foundAt reads the turns a found program's header says it was found at.
func foundAt(src string) int {
	header, _, _ := strings.Cut(src, "\n")
	_, after, ok := strings.Cut(header, ", at ")
	if !ok {
		return 0
	}
	var n int
	if _, err := fmt.Sscanf(after, "%d turns", &n); err != nil {
		return 0
	}
	return n
}

// ReadCorpus reads the programs of dir, by name.
func ReadCorpus(dir string) ([]Program, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.lua"))
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	var ps []Program
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		ps = append(ps, Program{Name: filepath.Base(n), Source: string(b), Turns: foundAt(string(b))})
	}
	return ps, nil
}

// WriteFound writes f into dir as found-OBJECTIVE-HASH.lua (the hash is
// its source's, so the same program is written once), under a header
// giving its ratios, and returns the file's path.
func WriteFound(dir string, f Found, o Objective, turns int) (string, error) {
	h := fnv.New32a()
	h.Write([]byte(f.Source))
	kind := "time"
	if o == ByHeap {
		kind = "heap"
	}
	path := filepath.Join(dir, fmt.Sprintf("found-%s-%08x.lua", kind, h.Sum32()))
	var b strings.Builder
	fmt.Fprintf(&b, "-- costsearch: found by the search for the most %s, at %d turns:\n", o, turns)
	fmt.Fprintf(&b, "-- %.0f ns per charged instruction (%d instructions in %v); held/weighed %.2f (held %d bytes, weighed %d)\n",
		f.NsPerInstruction, f.Result.Instructions, f.Result.Time.Round(1e5), f.HeapRatio, f.Result.Held, f.Result.Weighed)
	if f.Note != "" {
		fmt.Fprintf(&b, "-- %s\n", f.Note)
	}
	b.WriteString(f.Source)
	return path, os.WriteFile(path, []byte(b.String()), 0o644)
}
