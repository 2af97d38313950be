package fuzz

import (
	"errors"
	"fmt"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"

	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/costsearch"
	"github.com/mod2048/mod2048/scripting/mod"
)

// fuzzTurns are the turns each program plays, after its load and its
// game's start: every event fires in them.
const fuzzTurns = 2

// A workCounter is the hook of a third oracle, which a _test.go file of
// this package under a build tag sets (workCount, in an init): Start is
// called before a program's first run (its load, start and turns:
// RunQuick), Check after it, with what the runner measured; Check returns
// what passed its bound, or nil, and FuzzSandbox fails with it. The
// deterministic work count (workcount_test.go, under the tag workcount)
// is one: res.Work and res.Instructions both count the turns only.
type workCounter interface {
	Start()
	Check(res costsearch.Result) error
}

// workCount is the third oracle, nil unless a build tag sets it.
var workCount workCounter

// state is what the fuzz target keeps from one input to the next in a
// process: the runner, and the bound on the time per instruction,
// measured once against the peer.
var state = sync.OnceValues(func() (*fuzzState, error) {
	r, err := costsearch.NewRunner(scripting.DefaultLimits(), fuzzTurns)
	if err != nil {
		return nil, err
	}
	r.Deterministic = true
	peer := 0.0
	for i := range 3 {
		res := r.RunQuick(costsearch.Files(costsearch.PeerSource))
		if res.Err != nil {
			return nil, res.Err
		}
		if ns := res.NsPerInstruction(fuzzTurns); i == 0 || ns < peer {
			peer = ns
		}
	}
	return &fuzzState{r: r, peer: peer, limit: peer * costsearch.MaxNsPerInstruction / costsearch.PeerNsPerInstruction}, nil
})

type fuzzState struct {
	r *costsearch.Runner
	// peer is the peer's least ns per charged instruction; limit the
	// bound on a program's: MaxNsPerInstruction, as a ratio to the peer
	// (TestCostCorpus's), so that it stands on any machine.
	peer, limit float64
}

// heapFilter is what a program must allocate (the process's heap
// allocations while it loads and plays, /gc/heap/allocs:bytes) for the
// heap oracle to measure it: a program that allocated less cannot hold
// costsearch.HeapFloor more than an empty mod, so the oracle could not
// fail on it. The count misses what the caches of spans have not handed
// back yet (a span of each size class, some hundreds of KiB at most), so
// the filter is half the floor.
const heapFilter = costsearch.HeapFloor / 2

func allocated() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// FuzzSandbox decodes each input into a Lua program (Decode), checks that
// its files compile (the generator's promise), and plays it
// in the real sandbox, a deterministic host at the default limits, for a
// load, a start and two turns; then holds it to the oracles:
//
//   - no panic, and no error but the mod's own (a load that fails, a
//     report): no *scripting.CostModelError (the failsafe stopped a call
//     on fewer instructions than its budget), no other error of the
//     host, and no Go runtime error caught as the mod's;
//   - time: its turns' CPU time per charged instruction within
//     MaxNsPerInstruction, as a ratio to the peer (TestCostCorpus's
//     bound); a program over it is run twice more and its least kept;
//   - heap: for a program that allocated at least heapFilter, played again
//     with the heap measured (costsearch.Runner.RunFiles, whose
//     collections are too dear for every input): it holds at most
//     MaxHeapRatio of what it weighs (past HeapFloor), and nothing of
//     HeapFloor outlives its host; over it, the least of three runs;
//   - the work count, if a build tag sets workCount.
func FuzzSandbox(f *testing.F) {
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		tg, err := state()
		if err != nil {
			t.Fatal(err)
		}
		p := Decode(data)
		files := p.Files()
		for name, src := range files {
			if name != mod.ManifestName {
				if err := compiles(src, name); err != nil {
					t.Fatalf("the generator wrote a file that does not compile: %s: %v\n%s", name, err, p)
				}
			}
		}
		if workCount != nil {
			workCount.Start()
		}
		before := allocated()
		res := tg.r.RunQuick(files)
		grew := allocated() - before
		if err := modsOwn(res); err != nil {
			t.Fatalf("%v\n%s", err, p)
		}
		if workCount != nil {
			if err := workCount.Check(res); err != nil {
				t.Fatalf("work count: %v\n%s", err, p)
			}
		}
		if res.Err != nil {
			return
		}
		if !raceEnabled {
			ns := res.NsPerInstruction(fuzzTurns)
			for range 2 {
				if ns <= tg.limit {
					break
				}
				ns = min(ns, tg.r.RunQuick(files).NsPerInstruction(fuzzTurns))
			}
			if ns > tg.limit {
				t.Errorf("%.0f ns per charged instruction (%d instructions), %.1f× the peer's %.0f: the bound is %.0f (%d ns where the peer runs %d)\n%s",
					ns, res.Instructions, ns/tg.peer, tg.peer, tg.limit, costsearch.MaxNsPerInstruction, costsearch.PeerNsPerInstruction, p)
			}
		}
		if grew < heapFilter {
			return
		}
		full := tg.r.RunFiles(files)
		for range 2 {
			if full.Err != nil || (full.HeapRatio() <= costsearch.MaxHeapRatio && full.Leaked < costsearch.HeapFloor) {
				break
			}
			again := tg.r.RunFiles(files)
			if again.Err == nil && again.HeapRatio() < full.HeapRatio() {
				full.Held, full.Weighed = again.Held, again.Weighed
			}
			if again.Err == nil {
				full.Leaked = min(full.Leaked, again.Leaked)
			}
		}
		if err := modsOwn(full); err != nil {
			t.Fatalf("played again: %v\n%s", err, p)
		}
		if q := full.HeapRatio(); q > costsearch.MaxHeapRatio {
			t.Errorf("the heap holds %d bytes, %.2f× the %d weighed (the bound is %.1f×)\n%s", full.Held, q, full.Weighed, costsearch.MaxHeapRatio, p)
		}
		if full.Leaked >= costsearch.HeapFloor {
			t.Errorf("%d bytes of the heap outlive the closed host\n%s", full.Leaked, p)
		}
	})
}

// modsOwn returns nil if res ended as a mod may make it end: played, or
// stopped by the mod's own failure to load (its error, its budget), or by
// its refusing every move; and no report of its is a Go runtime error
// (which the VM turns into the mod's error). Anything else is the host's:
// the sandbox's cost model failing (*scripting.CostModelError), or an
// error no mod should cause.
func modsOwn(res costsearch.Result) error {
	for _, r := range res.Reports {
		if strings.Contains(r, "runtime error:") {
			return fmt.Errorf("a Go runtime error reported as the mod's: %s", r)
		}
	}
	err := res.Err
	var cm *scripting.CostModelError
	var me *scripting.ModError
	var fe *mod.FileError
	switch {
	case err == nil, errors.Is(err, costsearch.ErrNoLegalMove):
		return nil
	case errors.As(err, &cm):
		return fmt.Errorf("the cost model failed: %w", err)
	case errors.As(err, &me):
		if strings.Contains(me.Message, "runtime error:") {
			return fmt.Errorf("a Go runtime error reported as the mod's: %w", err)
		}
		return nil
	case errors.As(err, &fe):
		return nil
	}
	return fmt.Errorf("the host failed: %T: %w", err, err)
}
