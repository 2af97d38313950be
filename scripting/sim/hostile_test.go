package sim

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
)

// attackMark marks a hostile mod's attack in its main.lua: its variant.
var attackMark = regexp.MustCompile(`-- attack:(\w+)`)

// TestHostileJobsUnderLoad: for every hostile mod of the suite
// (testdata/hostile), and each attack it marks, the lab's report is the same byte for byte with one
// worker, with two, and with two while the machine is loaded (goroutines
// that burn the processors and churn the heap): the budgets, which count,
// stop every one of them, never the wall clock or the heap, which the load
// moves.
func TestHostileJobsUnderLoad(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "hostile")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	c, err := config.Build(config.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mk, err := MakePolicy("random", PolicyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Budgets a tenth of the defaults, memory a sixteenth: the runs take a
	// fraction of the time, and the wall clock has ten times as much to
	// lose. (The addresses mod keeps what each refused try made: with
	// 64 MiB a game of it takes the random player ten thousand tries.)
	limits := scripting.DefaultLimits()
	limits.HandlerInstructions /= 10
	limits.TurnInstructions /= 10
	limits.LoadInstructions /= 10
	limits.MaxMemory /= 16
	limits.MaxGameMemory /= 16
	tested := 0
	for _, e := range entries {
		src, err := os.ReadFile(filepath.Join(dir, e.Name(), "main.lua"))
		if err != nil {
			continue
		}
		// Every variant the mod marks (-- attack:NAME), or its default.
		variants := []string{""}
		for _, m := range attackMark.FindAllSubmatch(src, -1) {
			if v := string(m[1]); !slices.Contains(variants, v) {
				variants = append(variants, v)
			}
		}
		if len(variants) > 1 {
			variants = variants[1:]
		}
		for _, variant := range variants {
			md, err := mod.Load(filepath.Join(dir, e.Name()))
			if err != nil {
				continue
			}
			if variant != "" {
				if _, ok := md.Values["variant"]; !ok {
					continue
				}
				if err := md.Set("variant", fmt.Sprintf("%q", variant)); err != nil {
					t.Fatalf("%s: %v", e.Name(), err)
				}
			}
			name := e.Name() + "/" + variant
			o := Options{Setup: session.Setup{Config: c, Mods: []*mod.Mod{md}, Limits: limits}, Policy: "random", Make: mk, Games: 1, Seed: 5, MaxTurns: 20}
			if s, err := session.New(o.Setup, session.Start{Seed: 1}); err != nil {
				continue // an attack on loading: the lab refuses the mod
			} else {
				s.Close()
			}
			run := func(jobs int, load bool) []byte {
				o.Jobs = jobs
				stop := loadMachine(load)
				rs, err := Run(o)
				stop()
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				data, err := NewReport(o.header(), rs).JSON()
				if err != nil {
					t.Fatal(err)
				}
				return data
			}
			start := time.Now()
			one, two, loaded := run(1, false), run(2, false), run(2, true)
			t.Logf("%s: %v", name, time.Since(start).Round(time.Millisecond))
			if !bytes.Equal(one, two) || !bytes.Equal(one, loaded) {
				t.Errorf("%s: the reports differ with --jobs 1, 2 and 2 under load:\n%s\n%s\n%s", name, one, two, loaded)
			}
			if bytes.Contains(one, []byte("stopped by the failsafe")) {
				t.Errorf("%s: a failsafe decided the report:\n%s", name, one)
			}
			tested++
		}
	}
	if tested < 40 {
		t.Fatalf("only %d hostile attacks ran", tested)
	}
	t.Logf("%d hostile attacks", tested)
}

// TestMemoryHeavyJobsDefaultLimits: the memory-heavy attacks under the
// budgets players have (where a giant request, storage nested or spread too
// far and memory kept each reach the host's checks), one worker, two, and
// two under load: the same report, and no failsafe.
func TestMemoryHeavyJobsDefaultLimits(t *testing.T) {
	c, err := config.Build(config.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mk, err := MakePolicy("random", PolicyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, variant := range []string{"requests", "deep", "wide", "far", "keep"} {
		m, err := mod.Load(filepath.Join("..", "..", "testdata", "hostile", "memory_heavy"))
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Set("variant", fmt.Sprintf("%q", variant)); err != nil {
			t.Fatal(err)
		}
		o := Options{Setup: session.Setup{Config: c, Mods: []*mod.Mod{m}}, Policy: "random", Make: mk, Games: 2, Seed: 9, MaxTurns: 12}
		var reports [3][]byte
		for i, jobs := range []int{1, 2, 2} {
			o.Jobs = jobs
			stop := loadMachine(i == 2)
			rs, err := Run(o)
			stop()
			if err != nil {
				t.Fatal(err)
			}
			if reports[i], err = NewReport(o.header(), rs).JSON(); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(reports[0], reports[1]) || !bytes.Equal(reports[0], reports[2]) {
			t.Errorf("%s: the reports differ with --jobs 1, 2 and 2 under load", variant)
		}
		if bytes.Contains(reports[0], []byte("stopped by the failsafe")) || !bytes.Contains(reports[0], []byte(`"first_error"`)) {
			t.Errorf("%s: want a budget's error and no failsafe:\n%s", variant, reports[0])
		}
	}
}

// loadMachine, when on, loads the machine (goroutines that burn the
// processors and churn the heap) until the returned function is called.
func loadMachine(on bool) (stop func()) {
	if !on {
		return func() {}
	}
	var done atomic.Bool
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var keep [][]byte
			for !done.Load() {
				keep = append(keep, make([]byte, 64<<10))
				if len(keep) > 256 {
					keep = keep[:0]
				}
			}
		}()
	}
	return func() { done.Store(true); wg.Wait() }
}
