package sim

import (
	"testing"
	"time"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine/ai"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
)

// BenchmarkWorkUnit measures what a unit of a run's work (Result.Work: a
// move, InstructionsPerMove Lua instructions, NodesPerMove positions of the
// packed search) costs in time, for each kind of work the lab's players
// and mods do: the figures InstructionsPerMove and NodesPerMove are set
// from (ns/unit; the budget's time is bounded by the costliest unit).
func BenchmarkWorkUnit(b *testing.B) {
	for _, tc := range []struct {
		ruleset, diff, mod, pol string
		turns                   int
	}{
		{"classic", "", "", "expert", 150},
		{"classic", "", "", "lookahead", 400},
		{"classic", "", "", "lookahead2", 200},
		{"classic", "", "bomb", "lookahead", 300},
		{"classic", "", "bomb", "expert", 40},
		{"classic", "", "freeze", "lookahead", 300},
		{"classic", "", "one_way", "lookahead", 300},
		{"cellular", "mid", "", "lookahead", 150},
		{"cellular", "mid", "", "expert", 60},
		{"cellular", "mid", "moss", "lookahead", 150},
		{"cellular", "mid", "plague", "expert", 40},
	} {
		b.Run(tc.ruleset+"/"+tc.mod+"/"+tc.pol, func(b *testing.B) {
			c, _ := config.Build(config.BuildOptions{Ruleset: tc.ruleset, Difficulty: tc.diff})
			var mods []*mod.Mod
			if tc.mod != "" {
				mods = []*mod.Mod{repoMod(b, tc.mod)}
			}
			po := PolicyOptions{Depth: 1, Samples: DefaultSamples, AI: ai.Defaults()}
			pol := tc.pol
			if pol == "lookahead2" {
				pol, po.Depth = "lookahead", 2
			}
			mk, err := MakePolicy(pol, po)
			if err != nil {
				b.Fatal(err)
			}
			var moves, nodes uint64
			var instr int64
			start := time.Now()
			for g := 0; g < b.N; g++ {
				s, err := session.New(session.Setup{Config: c, Mods: mods, Deterministic: true}, session.Start{Seed: uint64(g + 1), NoUndo: true})
				if err != nil {
					b.Fatal(err)
				}
				s.CountMoves(&moves)
				p, _ := mk(uint64(g))
				for i := 0; i < tc.turns && !s.Status().Over(); i++ {
					if s.Legal() == 0 {
						break
					}
					s.Move(p.Choose(ViewOf(s)))
				}
				if nc, ok := p.(nodeCounter); ok {
					nodes += nc.Nodes()
				}
				instr += s.ModInstructions()
				s.Close()
			}
			el := time.Since(start).Nanoseconds()
			work := Result{Moves: moves, Instructions: uint64(instr), Nodes: nodes}.Work()
			b.ReportMetric(float64(el)/float64(max(work, 1)), "ns/unit")
			b.ReportMetric(float64(work)/float64(b.N), "units/game")
		})
	}
}
