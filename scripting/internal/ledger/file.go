package ledger

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// header opens the ledger file; Write puts it back.
const header = `# The allocation ledger: every heap allocation the compiler reports in
# the patched gopher-lua (scripting/internal/lua and its ast and
# parse) and in the sandbox (scripting/internal/sandbox), with why a mod
# cannot grow it unpaid: go build -gcflags=-m's "escapes to heap" and
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
		switch e.Kind() {
		case Metered, Bounded, Unmetered, Unclassified:
		default:
			return nil, fmt.Errorf("ledger line %d: the classification %q does not start with metered:, bounded:, unmetered: or unclassified:", n, class)
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
	byKey := map[string]Entry{}
	for _, e := range old {
		byKey[e.Key] = e
	}
	out := make([]Entry, 0, len(sites))
	for _, s := range sites {
		e, ok := byKey[s.Key()]
		switch {
		case !ok:
			e = Entry{Class: Unclassified + ": "}
		case s.Count > e.Count && e.Kind() != Unclassified:
			e.Class = fmt.Sprintf("%s: %d sites, was %d, classified: %s", Unclassified, s.Count, e.Count, e.Class)
		}
		e.Key, e.Count = s.Key(), s.Count
		out = append(out, e)
	}
	return out
}

// Report is how the ledger and the compiler's sites differ.
type Report struct {
	New          []string // sites the ledger does not hold (or more of a kind than it holds)
	Stale        []string // entries whose sites are gone (or fewer of a kind than it holds)
	Unclassified []Entry
	Unmetered    []Entry
}

// OK says whether the ledger is exact and classified (unmetered entries
// aside: the caller decides what they mean).
func (r Report) OK() bool {
	return len(r.New) == 0 && len(r.Stale) == 0 && len(r.Unclassified) == 0
}

// Check compares the ledger with the sites.
func Check(entries []Entry, sites []Site) Report {
	var r Report
	byKey := map[string]Entry{}
	for _, e := range entries {
		byKey[e.Key] = e
		switch e.Kind() {
		case Unclassified:
			r.Unclassified = append(r.Unclassified, e)
		case Unmetered:
			r.Unmetered = append(r.Unmetered, e)
		}
	}
	have := map[string]int{}
	for _, s := range sites {
		have[s.Key()] = s.Count
		e, ok := byKey[s.Key()]
		switch {
		case !ok:
			r.New = append(r.New, fmt.Sprintf("%s (%d)", s.Key(), s.Count))
		case s.Count > e.Count:
			r.New = append(r.New, fmt.Sprintf("%s (%d sites, the ledger has %d)", s.Key(), s.Count, e.Count))
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
	list("allocation sites not in the ledger (run make ledger, then classify them)", r.New)
	list("ledger entries whose sites are gone (run make ledger)", r.Stale)
	list("ledger entries still unclassified (write metered:, bounded: or unmetered: and the reason)", keys(r.Unclassified))
	return b.String()
}

// UnmeteredString lists the unmetered entries.
func (r Report) UnmeteredString() string {
	var b strings.Builder
	for _, e := range r.Unmetered {
		fmt.Fprintf(&b, "\t%s\t%s\n", e.Key, strings.TrimSpace(strings.TrimPrefix(e.Class, Unmetered+":")))
	}
	return b.String()
}
