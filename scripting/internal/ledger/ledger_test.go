package ledger

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// failOnUnmetered makes unmetered entries fail TestAllocationLedger; while
// false, the test only logs them. It is on: issue 38 metered or bounded
// every site the ledger first found unmetered (24 kinds), and a new one is
// a lead to fix before it lands.
const failOnUnmetered = true

// TestAllocationLedger holds the ledger exact: every allocation site the
// compiler reports in the Lua VM, the sandbox and the host (package
// scripting) is in it, classified, and
// nothing else is, as Go's own compiler tests pin what inlines.
func TestAllocationLedger(t *testing.T) {
	gotool, err := GoTool()
	if err != nil {
		t.Skipf("no go command to run the compiler with: %v", err)
	}
	root, err := Root(gotool)
	if err != nil {
		t.Fatal(err)
	}
	sites, _, err := Compile(gotool, root)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(root, File))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	entries, err := Parse(f)
	if err != nil {
		t.Fatalf("%s: %v", File, err)
	}
	r := Check(entries, sites)
	if !r.OK() {
		t.Errorf("the ledger %s does not match the compiler:\n%s", File, r)
	}
	if len(r.Unmetered) > 0 {
		msg := "%d allocation site kinds are neither metered nor bounded:\n%s"
		if failOnUnmetered {
			t.Errorf(msg, len(r.Unmetered), r.UnmeteredString())
		} else {
			t.Logf(msg, len(r.Unmetered), r.UnmeteredString())
		}
	}
}

func TestCheck(t *testing.T) {
	site := func(fn, desc string, n int) Site {
		return Site{Pkg: "sandbox", File: "stdlib.go", Func: fn, Desc: desc, Count: n}
	}
	ledger := `# a comment
sandbox stdlib.go f: make([]byte, n) escapes to heap	2	metered: charged by Spend
sandbox stdlib.go g: &x{...} escapes to heap	1	bounded: a struct of 16 bytes
sandbox stdlib.go h: string(b) escapes to heap	1	unmetered: the subject's length
sandbox stdlib.go k: new(int) escapes to heap	1	unclassified: 
`
	entries, err := Parse(strings.NewReader(ledger))
	if err != nil {
		t.Fatal(err)
	}
	sites := []Site{
		site("f", "make([]byte, n) escapes to heap", 3), // one more than the ledger holds
		site("h", "string(b) escapes to heap", 1),       // as the ledger has it
		site("k", "new(int) escapes to heap", 1),        // unclassified
		site("m", "func literal escapes to heap", 1),    // new
	}
	r := Check(entries, sites)
	if len(r.New) != 2 || !strings.Contains(r.New[0], "3 sites, the ledger has 2") || !strings.HasPrefix(r.New[1], "sandbox stdlib.go m:") {
		t.Errorf("new: %q", r.New)
	}
	if len(r.Stale) != 1 || !strings.HasPrefix(r.Stale[0], "sandbox stdlib.go g:") {
		t.Errorf("stale: %q", r.Stale)
	}
	if len(r.Unclassified) != 1 || len(r.Unmetered) != 1 || r.OK() {
		t.Errorf("report: %+v", r)
	}
	up := Update(entries, sites)
	var b strings.Builder
	if err := Write(&b, up); err != nil {
		t.Fatal(err)
	}
	again, err := Parse(strings.NewReader(b.String()))
	if err != nil {
		t.Fatalf("the written ledger does not parse: %v\n%s", err, b.String())
	}
	r = Check(again, sites)
	if len(r.New) != 0 || len(r.Stale) != 0 || len(r.Unclassified) != 3 || len(again) != len(sites) {
		t.Errorf("after Update: %+v\n%s", r, b.String())
	}
	if !strings.Contains(b.String(), "unclassified: 3 sites, was 2, classified: metered: charged by Spend") {
		t.Errorf("a grown site kind keeps its old reason for the person who classifies it:\n%s", b.String())
	}
}

func TestParseErrors(t *testing.T) {
	for _, bad := range []string{
		"sandbox a.go f: x escapes to heap\t1",
		"sandbox a.go f: x escapes to heap\tmany\tbounded: why",
		"sandbox a.go f: x escapes to heap\t1\tcheap: why",
		"sandbox a.go f: x escapes to heap\t1\tbounded:  ",
		"sandbox a.go f: x escapes to heap\t1\tbounded: a\nsandbox a.go f: x escapes to heap\t1\tbounded: b",
	} {
		if _, err := Parse(strings.NewReader(bad)); err == nil {
			t.Errorf("Parse(%q): no error", bad)
		}
	}
}
