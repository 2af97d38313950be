package ledger

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

// header opens the ledger file; Write puts it back.
const header = `# The allocation ledger: every heap allocation the compiler reports in
# the patched gopher-lua (scripting/internal/lua and its ast and
# parse), in the sandbox (scripting/internal/sandbox) and in the host a
# mod's calls reach (package scripting itself, not its subpackages), with
# why a mod cannot grow it unpaid: go build -gcflags=-m's "escapes to heap" and
# "moved to heap", and what "does not escape" but takes the heap all the
# same past 32 bytes (a make of a variable size, a string built or
# converted). Package ledger's doc says how to read and keep it:
# regenerate it with "make ledger" and classify what it marks
# unclassified.
#
# A line: package file function: the compiler's description<TAB>how many
# such sites the function has<TAB>the classification, one of
#   metered: how it is charged to the mod's budget
#   bounded: why its size is bounded by a small constant (or why no mod's
#            call pays it: load time, the state's creation, an error path)
#   unmetered: what grows it (neither metered nor bounded: a lead to fix)
#   unclassified: (new: a person must write one of the above)
`

// Parse reads a ledger.
func Parse(r io.Reader) ([]Entry, error) {
	return parseEntries(r, []string{Metered, Bounded, Unmetered, Unclassified})
}

// parseEntries reads a ledger whose classifications start with one of kinds.
func parseEntries(r io.Reader, kinds []string) ([]Entry, error) {
	var entries []Entry
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 3 {
			return nil, fmt.Errorf("ledger line %d: want key<TAB>count<TAB>classification: %q", n, line)
		}
		key, count, class := strings.Join(f[:len(f)-2], "\t"), f[len(f)-2], f[len(f)-1]
		c, err := strconv.Atoi(count)
		if err != nil || c < 1 {
			return nil, fmt.Errorf("ledger line %d: the count %q is not a positive number", n, count)
		}
		e := Entry{Key: key, Count: c, Class: class}
		if !slices.Contains(kinds, e.Kind()) {
			return nil, fmt.Errorf("ledger line %d: the classification %q does not start with %s:", n, class, strings.Join(kinds, ":, "))
		}
		if e.Kind() != Unclassified && strings.TrimSpace(strings.TrimPrefix(class, e.Kind()+":")) == "" {
			return nil, fmt.Errorf("ledger line %d: %s without a reason", n, e.Kind())
		}
		if seen[key] {
			return nil, fmt.Errorf("ledger line %d: %s is in the ledger twice", n, key)
		}
		seen[key] = true
		entries = append(entries, e)
	}
	return entries, sc.Err()
}

// Write writes the ledger, sorted by key: one site kind a line.
func Write(w io.Writer, entries []Entry) error {
	return writeEntries(w, header, entries)
}

// writeEntries writes a ledger under its header, sorted by key.
func writeEntries(w io.Writer, header string, entries []Entry) error {
	entries = slices.Clone(entries)
	slices.SortFunc(entries, func(a, b Entry) int { return strings.Compare(a.Key, b.Key) })
	var b bytes.Buffer
	b.WriteString(header)
	last := ""
	for _, e := range entries {
		if fn := funcOf(e.Key); fn != last {
			b.WriteByte('\n')
			last = fn
		}
		fmt.Fprintf(&b, "%s\t%d\t%s\n", e.Key, e.Count, e.Class)
	}
	_, err := w.Write(b.Bytes())
	return err
}

// funcOf is the package, file and function of a key: the lines of one
// function are written as a paragraph.
func funcOf(key string) string {
	k, _, _ := strings.Cut(key, ": ")
	return k
}

// Update returns the ledger for the sites: the classification of every site
// the ledger knows is kept; a new site, or more sites of a kind than the
// ledger classified, is marked unclassified (with the old classification,
// for the person who writes the new one); gone sites are dropped.
func Update(old []Entry, sites []Site) []Entry {
	return update(old, tallies(sites, Site.Key, func(s Site) int { return s.Count }))
}

// tally is what the ledgers count: a key and how many things it has.
type tally struct {
	key string
	n   int
}

func tallies[T any](xs []T, key func(T) string, n func(T) int) []tally {
	out := make([]tally, len(xs))
	for i, x := range xs {
		out[i] = tally{key(x), n(x)}
	}
	return out
}

func update(old []Entry, sites []tally) []Entry {
	byKey := map[string]Entry{}
	for _, e := range old {
		byKey[e.Key] = e
	}
	out := make([]Entry, 0, len(sites))
	for _, s := range sites {
		e, ok := byKey[s.key]
		switch {
		case !ok:
			e = Entry{Class: Unclassified + ": "}
		case s.n > e.Count && e.Kind() != Unclassified:
			e.Class = fmt.Sprintf("%s: %d sites, was %d, classified: %s", Unclassified, s.n, e.Count, e.Class)
		}
		e.Key, e.Count = s.key, s.n
		out = append(out, e)
	}
	return out
}

// Report is how the ledger and the compiler's sites differ.
type Report struct {
	New          []string // sites the ledger does not hold (or more of a kind than it holds)
	Stale        []string // entries whose sites are gone (or fewer of a kind than it holds)
	Unclassified []Entry
	Unmetered    []Entry // the allocation ledger's unmetered entries, the loop ledger's uncharged

	thing, make, classes string // the words of String: "allocation sites", "make ledger", "metered:, bounded: or unmetered:"
}

// OK says whether the ledger is exact and classified (unmetered entries
// aside: the caller decides what they mean).
func (r Report) OK() bool {
	return len(r.New) == 0 && len(r.Stale) == 0 && len(r.Unclassified) == 0
}

// Check compares the ledger with the sites.
func Check(entries []Entry, sites []Site) Report {
	return check(entries, tallies(sites, Site.Key, func(s Site) int { return s.Count }), Unmetered)
}

// check compares a ledger with what it counts; lead is the kind of the
// entries that are leads to fix (Report.Unmetered).
func check(entries []Entry, sites []tally, lead string) Report {
	var r Report
	byKey := map[string]Entry{}
	for _, e := range entries {
		byKey[e.Key] = e
		switch e.Kind() {
		case Unclassified:
			r.Unclassified = append(r.Unclassified, e)
		case lead:
			r.Unmetered = append(r.Unmetered, e)
		}
	}
	have := map[string]int{}
	for _, s := range sites {
		have[s.key] = s.n
		e, ok := byKey[s.key]
		switch {
		case !ok:
			r.New = append(r.New, fmt.Sprintf("%s (%d)", s.key, s.n))
		case s.n > e.Count:
			r.New = append(r.New, fmt.Sprintf("%s (%d sites, the ledger has %d)", s.key, s.n, e.Count))
		}
	}
	for _, e := range entries {
		n, ok := have[e.Key]
		switch {
		case !ok:
			r.Stale = append(r.Stale, e.Key)
		case n < e.Count:
			r.Stale = append(r.Stale, fmt.Sprintf("%s (%d sites, the ledger has %d)", e.Key, n, e.Count))
		}
	}
	return r
}

// String lists the differences, a heading and a site a line.
func (r Report) String() string {
	var b strings.Builder
	list := func(head string, lines []string) {
		if len(lines) == 0 {
			return
		}
		fmt.Fprintf(&b, "%s (%d):\n", head, len(lines))
		for _, l := range lines {
			fmt.Fprintf(&b, "\t%s\n", l)
		}
	}
	keys := func(es []Entry) []string {
		var out []string
		for _, e := range es {
			out = append(out, e.Key+"\t"+e.Class)
		}
		return out
	}
	thing, mk, classes := r.thing, r.make, r.classes
	if thing == "" {
		thing, mk, classes = "allocation sites", "make ledger", "metered:, bounded: or unmetered:"
	}
	list(thing+" not in the ledger (run "+mk+", then classify them)", r.New)
	list("ledger entries whose "+thing+" are gone (run "+mk+")", r.Stale)
	list("ledger entries still unclassified (write "+classes+" and the reason)", keys(r.Unclassified))
	return b.String()
}

// UnmeteredString lists the unmetered entries.
func (r Report) UnmeteredString() string {
	var b strings.Builder
	for _, e := range r.Unmetered {
		fmt.Fprintf(&b, "\t%s\t%s\n", e.Key, strings.TrimSpace(strings.TrimPrefix(e.Class, e.Kind()+":")))
	}
	return b.String()
}

// ReadFile reads the ledger at path with parse: none (nil) if there is no
// file yet.
func ReadFile(path string, parse func(io.Reader) ([]Entry, error)) ([]Entry, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return entries, nil
}

// Classes maps each entry's key to its classification.
func Classes(entries []Entry) map[string]string {
	class := make(map[string]string, len(entries))
	for _, e := range entries {
		class[e.Key] = e.Class
	}
	return class
}
