package session_test

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
)

// The proof that no mod can make two runs of the same game differ: every
// shipped mod and every mod of the hostile suite plays seeded games with
// undo, redo, save and resume mixed in, in two separate processes, one of
// them on a single OS thread (GOMAXPROCS=1) with other goroutines keeping
// the CPU busy. The two transcripts (each game's final save, every mod
// report, every load error) must be byte-identical.
//
// The mods run under budgets a tenth of the defaults and failsafes tighter
// than the defaults (1 s, 128 MiB), so that the hostile mods that only a
// failsafe stops cost seconds, not minutes: a budget stop still comes well
// before the wall-clock failsafe, even on one loaded thread. Which failsafe
// stops a call depends on the machine; the game's state records only that
// one did, and the transcript writes a failsafe's report the same way.

// proofLimits are the limits of the proof's games.
var proofLimits = func() scripting.Limits {
	l := scripting.DefaultLimits()
	l.HandlerInstructions = 100_000
	l.TurnInstructions = 400_000
	l.LoadInstructions = 400_000
	l.FailsafeTime = time.Second
	return l
}()

const proofEnv = "MOD2048_PROOF_OUT"

func TestProofAcrossProcesses(t *testing.T) {
	if os.Getenv(proofEnv) != "" {
		t.Skip("inside a child of the proof")
	}
	dir := t.TempDir()
	// The two children run at once: the loaded one shares the machine
	// with the other too.
	var outs [2][]byte
	errs := make(chan error, 2)
	for i, env := range [][]string{
		{"GOMAXPROCS=2"},
		{"GOMAXPROCS=1", "MOD2048_PROOF_LOAD=1"},
	} {
		go func() {
			out := filepath.Join(dir, fmt.Sprintf("run%d.txt", i))
			cmd := exec.Command(os.Args[0], "-test.run=^TestProofChild$", "-test.count=1")
			cmd.Env = append(append(os.Environ(), proofEnv+"="+out), env...)
			if msg, err := cmd.CombinedOutput(); err != nil {
				errs <- fmt.Errorf("child %d (%v): %v\n%s", i, env, err, msg)
				return
			}
			data, err := os.ReadFile(out)
			outs[i] = data
			errs <- err
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if len(outs[0]) == 0 || bytes.Count(outs[0], []byte("\nmod ")) < 30 {
		t.Fatalf("the transcript is too short to prove anything:\n%s", outs[0])
	}
	if !bytes.Equal(outs[0], outs[1]) {
		a, b := strings.Split(string(outs[0]), "\n"), strings.Split(string(outs[1]), "\n")
		for i := 0; i < min(len(a), len(b)); i++ {
			if a[i] != b[i] {
				t.Fatalf("the two processes differ at line %d:\n  %s\n  %s", i+1, a[i], b[i])
			}
		}
		t.Fatalf("the two processes differ in length: %d and %d lines", len(a), len(b))
	}
	t.Logf("%d games, %d bytes of transcript, identical in both processes", bytes.Count(outs[0], []byte("\nmod ")), len(outs[0]))
}

// TestProofChild writes the transcript of the proof's games to the file
// the parent names; it does nothing in an ordinary run.
func TestProofChild(t *testing.T) {
	out := os.Getenv(proofEnv)
	if out == "" {
		t.Skip("run by TestProofAcrossProcesses")
	}
	if os.Getenv("MOD2048_PROOF_LOAD") != "" {
		var stop atomic.Bool
		defer stop.Store(true)
		for i := 0; i < 3; i++ {
			go func() {
				x := uint64(i)
				for !stop.Load() {
					x = x*6364136223846793005 + 1442695040888963407
					if x == 0 {
						runtime.Gosched()
					}
				}
			}()
		}
	}
	var b strings.Builder
	b.WriteString("proof transcript\n")
	for _, dir := range proofMods(t) {
		proofGames(t, &b, dir)
	}
	if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// proofMods lists the folders of the shipped mods and the hostile suite's.
func proofMods(t *testing.T) []string {
	var dirs []string
	for _, pattern := range []string{"mods/*/mod.toml", "testdata/hostile/*/mod.toml"} {
		found, err := filepath.Glob(repo(t, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range found {
			dirs = append(dirs, filepath.Dir(f))
		}
	}
	sort.Strings(dirs)
	return dirs
}

// proofGames plays two seeded games with the mod of dir and writes what
// happened: a load error, or each report and the final save's digest.
func proofGames(t *testing.T, b *strings.Builder, dir string) {
	name := filepath.Base(filepath.Dir(dir)) + "/" + filepath.Base(dir)
	m, err := mod.Load(dir)
	if err != nil {
		fmt.Fprintf(b, "\nmod %s: load: %v\n", name, err)
		return
	}
	ruleset := m.Manifest.Rulesets[0]
	preset, err := config.DefaultPreset(ruleset)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Preset(preset)
	if err != nil {
		t.Fatal(err)
	}
	setup := session.Setup{Config: cfg, Mods: []*mod.Mod{m}, Limits: proofLimits}
	for seed := uint64(1); seed <= 2; seed++ {
		fmt.Fprintf(b, "\nmod %s seed %d\n", name, seed)
		s, err := session.New(setup, session.Start{Seed: seed})
		if err != nil {
			fmt.Fprintf(b, "start: %v\n", err)
			continue
		}
		rng := engine.NewRNG(seed * 7919)
		for step := 0; step < 40; step++ {
			switch n := rng.IntN(100); {
			case n < 75:
				d := engine.Directions[rng.IntN(4)]
				res, err := s.Move(d)
				fmt.Fprintf(b, "%d %v %v %v", step, d, res.Changed, s.Status())
				if err != nil {
					fmt.Fprintf(b, " error %v", err)
				}
				b.WriteString("\n")
			case n < 85:
				fmt.Fprintf(b, "%d undo %v\n", step, s.Undo())
			case n < 93:
				fmt.Fprintf(b, "%d redo %v\n", step, s.Redo())
			default:
				data, err := s.Save()
				if err != nil {
					t.Fatal(err)
				}
				s.Close()
				if s, err = session.Resume(setup, data); err != nil {
					t.Fatalf("%s: resume: %v", name, err)
				}
				fmt.Fprintf(b, "%d resumed\n", step)
			}
			for _, r := range s.TakeReports() {
				if r.Failsafe {
					fmt.Fprintf(b, "  report mod %s %s: stopped by a failsafe\n", r.Mod, r.Event)
					continue
				}
				fmt.Fprintf(b, "  report %v\n", r)
			}
		}
		data, err := s.Save()
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(b, "final %x legal %v\n", sha256.Sum256(data), s.Legal())
		s.Close()
	}
}
