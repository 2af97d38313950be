package sim

import (
	"sync/atomic"
	"testing"

	"github.com/mod2048/mod2048/scripting/mod"
)

// entropyMod makes games long: every tenth turn a random tile halves (a
// tester's mod of issue 52: lookahead 2's median game went from 538 turns
// to 3,655 with it, and the expert's to 14,434).
func entropyMod(t *testing.T) *mod.Mod {
	return endsMod(t, "entropy", `local W = game.width
local TILES = { cell = "^[1-9]" }
game.on("tick", function(ev)
  if ev.turn % 10 ~= 0 then return end
  local tiles = game.cells(TILES)
  if #tiles == 0 then return end
  local k = tiles[game.random(#tiles)]
  local r, c = math.floor(k / W), k % W
  local v = game.cell(r, c)
  if v > 2 then game.set(r, c, math.floor(v / 2)) end
end)`)
}

// TestLongGamesPlayAboutTheBudget: a run of a mod that makes games long
// (entropy) or endless (sweeper) plays no more work than its budget for
// each of its workers, whatever the games do, kept or thrown away (Played
// counts both): what bounds a study's time (its budget, shared by its
// runs: config/DESIGNING.md), with a move's work past it at most, a
// worker.
func TestLongGamesPlayAboutTheBudget(t *testing.T) {
	for _, m := range []*mod.Mod{entropyMod(t), sweeperMod(t)} {
		for _, policy := range []string{"random", "lookahead"} {
			var played atomic.Uint64
			o := options(t, policy, 100_000)
			o.Setup.Mods, o.Budget, o.MaxTurns, o.Jobs, o.Played = []*mod.Mod{m}, 400_000, 1_000_000, 2, &played
			results, err := Run(o)
			if err != nil {
				t.Fatal(err)
			}
			if !Cut(o, results) {
				t.Errorf("%s, %s: %d games and not cut by the budget", m.ID(), policy, len(results))
			}
			const slack = 20_000 // a move's work, mods' and search's: far above any here
			if p := played.Load(); p > uint64(o.Jobs)*(o.Budget+slack) {
				t.Errorf("%s, %s: %d work played for a budget of %d at %d workers", m.ID(), policy, p, o.Budget, o.Jobs)
			}
			if s := Spent(results); s > o.Budget+slack {
				t.Errorf("%s, %s: the games kept spent %d for a budget of %d", m.ID(), policy, s, o.Budget)
			}
			t.Logf("%s, %s: %d games kept, %d spent, %d played", m.ID(), policy, len(results), Spent(results), played.Load())
		}
	}
}
