package sim

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/engine/ai"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
)

func repoMod(b testing.TB, name string) *mod.Mod {
	_, file, _, _ := runtime.Caller(0)
	m, err := mod.Load(filepath.Join(filepath.Dir(file), "..", "..", "mods", name))
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// BenchmarkGames reports games a second (games/s) for each policy on
// classic 4×4 and cellular mid, with no mod and with each shipped mod of
// the ruleset, one worker. The time a move with each mod costs is
// BenchmarkModMove's figure, with its before-and-after.
func BenchmarkGames(b *testing.B) {
	type setup struct {
		name, ruleset, preset string
		mods                  []string
	}
	setups := []setup{
		{"classic", "classic", "classic", nil},
		{"classic+freeze", "classic", "classic", []string{"freeze"}},
		{"classic+overdrive", "classic", "classic", []string{"overdrive"}},
		{"classic+one_way", "classic", "classic", []string{"one_way"}},
		{"classic+bomb", "classic", "classic", []string{"bomb"}},
		{"classic+ghost", "classic", "classic", []string{"ghost"}},
		{"cellular-mid", "cellular", "mid", nil},
		{"cellular-mid+moss", "cellular", "mid", []string{"moss"}},
		{"cellular-mid+plague", "cellular", "mid", []string{"plague"}},
	}
	for _, st := range setups {
		for _, policy := range []string{"random", "greedy", "lookahead"} {
			b.Run(fmt.Sprintf("%s/%s", st.name, policy), func(b *testing.B) {
				c, err := config.Build(config.BuildOptions{Ruleset: st.ruleset, Difficulty: st.preset})
				if err != nil {
					b.Fatal(err)
				}
				var mods []*mod.Mod
				for _, m := range st.mods {
					mods = append(mods, repoMod(b, m))
				}
				mk, _ := MakePolicy(policy, PolicyOptions{Depth: 1, Samples: 4})
				turns := 0
				games := 0
				for b.Loop() {
					rs, err := Run(Options{Setup: session.Setup{Config: c, Mods: mods}, Make: mk, Games: 1, Seed: uint64(games), MaxTurns: 1000, Jobs: 1})
					if err != nil {
						b.Fatal(err)
					}
					turns += rs[0].Turns
					games++
				}
				b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
				b.ReportMetric(float64(turns)/float64(games), "turns/game")
			})
		}
	}
}

// BenchmarkOverhead compares the lab's cost a move (a session, the random
// policy's view and choice, the bookkeeping) with the engine's alone
// playing the same random policy on the same games: both play 50 whole
// games of classic 4×4 a loop, new games included, and report ns/move.
func BenchmarkOverhead(b *testing.B) {
	c, _ := config.Build(config.BuildOptions{})
	const games = 50
	b.Run("Game.Move", func(b *testing.B) {
		moves := 0
		for b.Loop() {
			for i := 0; i < games; i++ {
				seed := GameSeed(1, i)
				rules, opt, _ := c.Game(seed, false)
				g, _ := engine.New(rules, opt)
				rng := engine.NewRNG(seed)
				for g.Status() == engine.Playing {
					legal := g.LegalMoves().List()
					g.Move(legal[rng.IntN(len(legal))])
					moves++
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(moves), "ns/move")
	})
	b.Run("sim", func(b *testing.B) {
		mk, _ := MakePolicy("random", PolicyOptions{})
		moves := 0
		for b.Loop() {
			rs, _ := Run(Options{Setup: session.Setup{Config: c}, Make: mk, Games: games, Seed: 1, MaxTurns: 100000, Jobs: 1})
			for _, r := range rs {
				moves += r.Turns
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(moves), "ns/move")
	})
}

// BenchmarkChoose is one move's choice of each searching policy on the
// presets' cellular 6 × 6 boards, 20 turns into a game (ns/op is the time
// a move; the expert's budget is about 20 ms on one core).
func BenchmarkChoose(b *testing.B) {
	for _, preset := range []string{"early", "mid", "late"} {
		c, err := config.Preset(preset)
		if err != nil {
			b.Fatal(err)
		}
		s, err := session.New(session.Setup{Config: c}, session.Start{Seed: 3})
		if err != nil {
			b.Fatal(err)
		}
		greedy, _ := MakePolicy("greedy", PolicyOptions{})
		g, _ := greedy(3)
		for i := 0; i < 20 && !s.Status().Over(); i++ {
			s.Move(g.Choose(ViewOf(s)))
		}
		if s.Status().Over() {
			b.Fatalf("%s: the game is over after %d turns", preset, s.State().Turn)
		}
		for _, k := range Ladder(PolicyOptions{AI: ai.Defaults()}) {
			if k.Policy == "random" {
				continue
			}
			mk, err := MakePolicy(k.Policy, k.Options)
			if err != nil {
				b.Fatal(err)
			}
			p, _ := mk(1)
			v := ViewOf(s)
			b.Run(preset+"/"+strings.ReplaceAll(k.Name, " ", ""), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					p.Choose(v)
				}
			})
		}
		s.Close()
	}
}

// BenchmarkModMove is the lab's --timing figure for each shipped mod: the
// wall-clock time of a move with the mod (Session.Move), random policy,
// one worker, whole games; µs/move is the figure, ns/op one game. Issue 21
// measured, before its work (µs/move): freeze 29.7, ghost 78.5, bomb 83.3,
// plague 81.2, moss 89.5. Side by side with the program as filed (commit
// cf9a129) on 25 November, the lab's figure, medians of ten runs: freeze
// 26.1 → 3.4, ghost 73.6 → 7.0, bomb 89.9 → 7.5, plague 105.0 → 12.7,
// moss 121.1 → 13.8 (README). It runs with the lab's GOGC (GCPercent),
// unless GOGC is set.
func BenchmarkModMove(b *testing.B) {
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(GCPercent))
	}
	for _, st := range []struct{ mod, ruleset, preset string }{
		{"freeze", "classic", "classic"},
		{"bomb", "classic", "classic"},
		{"ghost", "classic", "classic"},
		{"overdrive", "classic", "classic"},
		{"one_way", "classic", "classic"},
		{"plague", "cellular", "mid"},
		{"moss", "cellular", "mid"},
	} {
		b.Run(st.mod, func(b *testing.B) {
			c, err := config.Build(config.BuildOptions{Ruleset: st.ruleset, Difficulty: st.preset})
			if err != nil {
				b.Fatal(err)
			}
			mods := []*mod.Mod{repoMod(b, st.mod)}
			mk, _ := MakePolicy("random", PolicyOptions{})
			var moves int
			var hooks time.Duration
			games := 0
			b.ReportAllocs()
			for b.Loop() {
				rs, err := Run(Options{Setup: session.Setup{Config: c, Mods: mods}, Make: mk, Games: 1, Seed: uint64(games), MaxTurns: 1000, Jobs: 1, Timing: true})
				if err != nil {
					b.Fatal(err)
				}
				moves += rs[0].Turns
				hooks += rs[0].HookNanos
				games++
			}
			b.ReportMetric(float64(hooks.Nanoseconds())/1000/float64(moves), "µs/move")
		})
	}
}
