// Command loops keeps the loop ledger (package ledger): it finds the loops
// and recursions of the Lua VM, the sandbox and the host with go/ast and
// compares them with the ledger, scripting/internal/ledger/loops.txt.
//
// Usage:
//
//	go run ./scripting/internal/ledger/cmd/loops [-write | -where]
//
// Without a flag it lists what differs and exits 1 if anything does. With
// -where it lists every loop with its positions and its classification,
// for the person who classifies them. With -write it rewrites the ledger
// from the loops found, keeping every classification it has and marking
// new loops unclassified (make loops), and opens the body of every loop
// a mod reaches with workcount.Step() where it lacks it (the work count).
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
	write := flag.Bool("write", false, "rewrite the ledger from the loops found, keeping its classifications")
	where := flag.Bool("where", false, "list every loop with its positions and its classification")
	flag.Parse()
	if err := run(*write, *where); err != nil {
		fmt.Fprintln(os.Stderr, "loops:", err)
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
	loops, err := ledger.FindLoops(gotool, root)
	if err != nil {
		return err
	}
	path := filepath.Join(root, ledger.LoopFile)
	old, err := ledger.ReadFile(path, ledger.ParseLoops)
	if err != nil {
		return err
	}
	if where {
		class := ledger.Classes(old)
		for _, l := range loops {
			fmt.Printf("%s\t%s\t%s\n", l.Key(), strings.Join(l.Where, " "), class[l.Key()])
		}
		return nil
	}
	if !write {
		r := ledger.CheckLoops(old, loops)
		if !r.OK() {
			fmt.Print(r)
			return fmt.Errorf("the ledger differs from the loops found")
		}
		if u := ledger.Uncounted(old, loops); len(u) > 0 {
			fmt.Printf("loops that do not open with workcount.Step() (make loops puts it in) (%d):\n\t%s\n", len(u), strings.Join(u, "\n\t"))
			return fmt.Errorf("loops are not counted")
		}
		fmt.Printf("the ledger holds all %d loops (%d kinds); %d uncharged kinds\n", count(loops), len(loops), len(r.Unmetered))
		return nil
	}
	entries := ledger.UpdateLoops(old, loops)
	var b bytes.Buffer
	if err := ledger.WriteLoops(&b, entries); err != nil {
		return err
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return err
	}
	kinds := map[string]int{}
	for _, e := range entries {
		kinds[e.Kind()] += e.Count
	}
	fmt.Printf("%s: %d loops: %d charged, %d bounded, %d uncharged, %d unclassified\n", ledger.LoopFile, count(loops),
		kinds[ledger.Charged], kinds[ledger.Bounded], kinds[ledger.Uncharged], kinds[ledger.Unclassified])
	// Every loop a mod reaches counts its iterations (package workcount).
	changed, err := ledger.Instrument(root, entries, loops)
	for _, f := range changed {
		fmt.Printf("workcount.Step() put in %s\n", f)
	}
	return err
}

func count(loops []ledger.Loop) int {
	n := 0
	for _, l := range loops {
		n += l.Count
	}
	return n
}
