// Command costsearch runs the genetic search of package costsearch for as
// long as asked and prints the worst programs it found, by wall time per
// charged instruction and by held heap per weighed byte; -write adds them
// to the committed corpus. `make costsearch` runs it (COSTTIME, COSTSEED,
// COSTFLAGS).
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/costsearch"
)

func main() {
	limits := scripting.DefaultLimits()
	d := flag.Duration("time", time.Minute, "how long to search")
	seed := flag.Uint64("seed", 1, "the seed of the programs")
	pop := flag.Int("pop", 16, "programs in a generation (at least 4)")
	turns := flag.Int("turns", 3, "turns each program plays")
	keep := flag.Int("keep", 5, "worst programs to print (and write) of each ratio")
	failsafe := flag.Duration("failsafe", limits.FailsafeTime, "the wall-clock failsafe of a call (the default limits'; less searches faster, the ratios are the same)")
	write := flag.Bool("write", false, "write the worst programs into the corpus (-corpus)")
	corpus := flag.String("corpus", "scripting/costsearch/"+costsearch.CorpusDir, "the corpus folder -write writes to")
	without := flag.String("without", "", "operations new genes leave out, by name, comma-separated (to search past the known attacks)")
	list := flag.Bool("ops", false, "list the operations' names and exit")
	flag.Parse()
	if *list {
		for _, op := range costsearch.Ops {
			fmt.Println(op.Name)
		}
		return
	}
	var ops []int
	if *without != "" {
		var err error
		if ops, err = costsearch.OpsWithout(strings.Split(*without, ",")); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	if err := run(limits, *d, *seed, *pop, *turns, *keep, *failsafe, *write, *corpus, ops); err != nil {
		fmt.Fprintln(os.Stderr, "costsearch:", err)
		os.Exit(1)
	}
}

func run(limits scripting.Limits, d time.Duration, seed uint64, pop, turns, keep int, failsafe time.Duration, write bool, corpus string, ops []int) error {
	if d <= 0 {
		return fmt.Errorf("-time %v: must be positive", d)
	}
	if failsafe <= 0 {
		return fmt.Errorf("-failsafe %v: must be positive", failsafe)
	}
	if write {
		if st, err := os.Stat(corpus); err != nil || !st.IsDir() {
			return fmt.Errorf("-corpus %s: not a folder (run from the repository's root, or give -corpus)", corpus)
		}
	}
	limits.FailsafeTime = failsafe
	r, err := costsearch.NewRunner(limits, turns)
	if err != nil {
		return err
	}
	byTime, byHeap, err := costsearch.Search(costsearch.Config{
		Runner: r, Seed: seed, Population: pop, Deadline: time.Now().Add(d), Keep: keep, Ops: ops,
		Log: func(s string) { fmt.Fprintln(os.Stderr, s) },
	})
	if err != nil {
		return err
	}
	peer := r.Run(costsearch.PeerSource).NsPerInstruction(turns)
	bound := costsearch.MaxNsPerInstruction / float64(costsearch.PeerNsPerInstruction) * peer
	fmt.Printf("the peer (small tables) runs %.0f ns per charged instruction here: the bound of %d ns at %d ns for the peer is %.0f ns here\n\n",
		peer, costsearch.MaxNsPerInstruction, costsearch.PeerNsPerInstruction, bound)
	for _, o := range []struct {
		obj   costsearch.Objective
		found []costsearch.Found
	}{{costsearch.ByTime, byTime}, {costsearch.ByHeap, byHeap}} {
		fmt.Printf("the worst by %s:\n", o.obj)
		for i, f := range o.found {
			fmt.Printf("%d. %.0f ns/instruction (%.1f× the peer), held/weighed %.2f (held %d, weighed %d): %s\n",
				i+1, f.NsPerInstruction, f.NsPerInstruction/peer, f.HeapRatio, f.Result.Held, f.Result.Weighed, f.Genome)
			if gene, without := costsearch.Blame(r, f, o.obj); len(f.Genome.Genes) > 1 {
				fmt.Printf("   owed most to %s N=%d M=%d (%.2f without it)\n", costsearch.Ops[gene.Op].Name, gene.N, gene.M, without)
			}
			if write {
				path, err := costsearch.WriteFound(corpus, f, o.obj, turns)
				if err != nil {
					return err
				}
				fmt.Printf("   written to %s\n", path)
			}
		}
		fmt.Println()
	}
	return nil
}
