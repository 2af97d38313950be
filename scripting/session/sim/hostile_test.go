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
	dir := filepath.Join("..", "..", "..", "testdata", "hostile")
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
			mod, err := scripting.LoadMod(filepath.Join(dir, e.Name()))
			if err != nil {
				continue
			}
			if variant != "" {
				if _, ok := mod.Values["variant"]; !ok {
					continue
				}
				if err := mod.Set("variant", fmt.Sprintf("%q", variant)); err != nil {
					t.Fatalf("%s: %v", e.Name(), err)
				}
			}
			name := e.Name() + "/" + variant
			o := Options{Setup: session.Setup{Config: c, Mods: []*scripting.Mod{mod}, Limits: limits}, Policy: "random", Make: mk, Games: 1, Seed: 5, MaxTurns: 20}
			if s, err := session.New(o.Setup, session.Start{Seed: 1}); err != nil {
				continue // an attack on loading: the lab refuses the mod
			} else {
				s.Close()
			}
			run := func(jobs int, load bool) []byte {
				o.Jobs = jobs
				var stop atomic.Bool
				var wg sync.WaitGroup
				if load {
					for range runtime.NumCPU() {
						wg.Add(1)
						go func() {
							defer wg.Done()
							var keep [][]byte
							for !stop.Load() {
								keep = append(keep, make([]byte, 64<<10))
								if len(keep) > 256 {
									keep = keep[:0]
								}
							}
						}()
					}
				}
				rs, err := Run(o)
				stop.Store(true)
				wg.Wait()
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
