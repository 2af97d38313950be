// Command ledger keeps the allocation ledger (package ledger): it builds
// the Lua VM, the sandbox and the host (package scripting) with
// -gcflags=-m and compares the sites the
// compiler reports with the ledger, scripting/internal/ledger/allocs.txt.
//
// Usage:
//
//	go run ./scripting/internal/ledger/cmd/ledger [-write | -where]
//
// Without a flag it lists what differs and exits 1 if anything does. With
// -where it lists every site with its positions and its classification,
// for the person who classifies them. With
// -write it rewrites the ledger from the compiler's sites, keeping every
// classification it has and marking new sites unclassified (make ledger).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mod2048/mod2048/scripting/internal/ledger"
)

func main() {
	write := flag.Bool("write", false, "rewrite the ledger from the compiler's sites, keeping its classifications")
	where := flag.Bool("where", false, "list every site with its positions and its classification")
	flag.Parse()
	if err := run(*write, *where); err != nil {
		fmt.Fprintln(os.Stderr, "ledger:", err)
		os.Exit(1)
	}
}

func run(write, where bool) error {
	gotool, err := ledger.GoTool()
	if err != nil {
		return err
	}
	root, err := ledger.Root(gotool)
	if err != nil {
		return err
	}
	sites, _, err := ledger.Compile(gotool, root)
	if err != nil {
		return err
	}
	path := filepath.Join(root, ledger.File)
	old, err := ledger.ReadFile(path, ledger.Parse)
	if err != nil {
		return err
	}
	if where {
		class := ledger.Classes(old)
		for _, s := range sites {
			fmt.Printf("%s\t%s\t%s\n", s.Key(), strings.Join(s.Where, " "), class[s.Key()])
		}
		return nil
	}
	if !write {
		r := ledger.Check(old, sites)
		if !r.OK() {
			fmt.Print(r)
			return fmt.Errorf("the ledger differs from the compiler's sites")
		}
		fmt.Printf("the ledger holds all %d sites (%d kinds); %d unmetered kinds\n", count(sites), len(sites), len(r.Unmetered))
		return nil
	}
	entries := ledger.Update(old, sites)
	var b bytes.Buffer
	if err := ledger.Write(&b, entries); err != nil {
		return err
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return err
	}
	kinds := map[string]int{}
	for _, e := range entries {
		kinds[e.Kind()] += e.Count
	}
	fmt.Printf("%s: %d sites: %d metered, %d bounded, %d unmetered, %d unclassified\n", ledger.File, count(sites),
		kinds[ledger.Metered], kinds[ledger.Bounded], kinds[ledger.Unmetered], kinds[ledger.Unclassified])
	return nil
}

func count(sites []ledger.Site) int {
	n := 0
	for _, s := range sites {
		n += s.Count
	}
	return n
}
