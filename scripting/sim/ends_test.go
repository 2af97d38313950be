package sim

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
)

// endsMod is a mod of the given Lua, for the classic ruleset.
func endsMod(t *testing.T, id, lua string) *mod.Mod {
	t.Helper()
	m, err := mod.LoadSources(map[string]string{
		"mod.toml": "id = \"" + id + "\"\nname = \"" + id + "\"\nversion = \"1.0.0\"\napi_version = 2\nrulesets = [\"classic\"]\n",
		"main.lua": lua,
	}, id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// sweeperMod keeps the board from filling: a turn that leaves fewer than
// three empty cells empties the bottom row, so no game ends.
func sweeperMod(t *testing.T) *mod.Mod {
	return endsMod(t, "sweeper", `game.on("tick", function()
  if #game.cells({ cell = "^0$" }) < 3 then
    for c = 0, game.width - 1 do game.set(game.height - 1, c, 0) end
  end
end)`)
}

// TestEnds: every report counts its games by how they ended, naming the
// mod (and its hazard) whose doing ended them: a mod that refuses every
// move, one that walls the board in with a blocking hazard, one that fills
// it; the rules' own ends; and the games the run's turn limit cut.
func TestEnds(t *testing.T) {
	for _, tc := range []struct {
		name     string
		mods     []*mod.Mod
		maxTurns int
		want     EndCount // the most common ending (Games and MedianTurn not compared)
	}{
		{"no mod", nil, 100000, EndCount{End: engine.EndNoMove}},
		{"the run's turn limit", nil, 5, EndCount{End: EndUnfinished}},
		{"refused", []*mod.Mod{endsMod(t, "cap", `game.on("tick", function() storage.n = (storage.n or 0) + 1 end)
game.on("before_move", function() if (storage.n or 0) >= 3 then return { refuse = "enough" } end end)`)}, 100000,
			EndCount{End: session.EndRefused, Mod: "cap"}},
		{"walled in", []*mod.Mod{endsMod(t, "maze", `local WALL = game.hazard { name = "wall", glyph = "#", blocks = true }
game.on("start", function()
  for r = 0, game.height - 1 do for c = 0, game.width - 1 do
    if game.cell(r, c) == 0 then game.mark(r, c, WALL) end
  end end
end)`)}, 100000, EndCount{End: engine.EndNoMove, Mod: "maze", Hazard: "wall"}},
		{"filled", []*mod.Mod{trapdoor(t, engine.Left)}, 100000, EndCount{End: engine.EndNoMove, Mod: "trapdoor"}},
		// An empty board has no move, and no spawn comes: the rules play
		// on (the classic spec's empty board is Playing), the player
		// cannot.
		{"emptied", []*mod.Mod{endsMod(t, "emptier", `game.on("tick", function(ev)
  if ev.turn == 3 then
    for r = 0, game.height - 1 do for c = 0, game.width - 1 do game.set(r, c, 0) end end
  end
end)`)}, 100000, EndCount{End: engine.EndNoMove, Mod: "emptier"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := options(t, "random", 20)
			o.Setup.Mods, o.MaxTurns = tc.mods, tc.maxTurns
			results, err := Run(o)
			if err != nil {
				t.Fatal(err)
			}
			r := NewReport(header(o), results)
			total := 0
			for _, e := range r.Ends {
				total += e.Games
			}
			if total != r.Games || len(r.Ends) == 0 {
				t.Fatalf("the ends count %d games of %d: %+v", total, r.Games, r.Ends)
			}
			got := r.Ends[0]
			got.Games, got.MedianTurn = 0, 0
			if got != tc.want {
				t.Errorf("the most common end is %+v, want %+v (all: %+v)", r.Ends[0], tc.want, r.Ends)
			}
			var text bytes.Buffer
			if err := r.Text(&text); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(text.String(), tc.want.Cause()) {
				t.Errorf("the text lacks %q:\n%s", tc.want.Cause(), text.String())
			}
			t.Logf("%s: %+v", tc.name, r.Ends)
		})
	}
}

// TestEndsCellular: a cellular run's games end by the ruleset's own
// causes (the goal, the colony dying out, no swipe left, its turn limit),
// each counted.
func TestEndsCellular(t *testing.T) {
	for _, difficulty := range []string{"early", "late"} {
		c, err := config.Build(config.BuildOptions{Ruleset: "cellular", Difficulty: difficulty})
		if err != nil {
			t.Fatal(err)
		}
		o := options(t, "greedy", 30)
		o.Setup.Config = c
		results, err := Run(o)
		if err != nil {
			t.Fatal(err)
		}
		r := NewReport(header(o), results)
		total := 0
		for _, e := range r.Ends {
			switch e.End {
			case engine.EndGoal, engine.EndDiedOut, engine.EndNoMove, engine.EndTurnLimit, EndUnfinished:
			default:
				t.Errorf("%s: a cellular game ended %q", difficulty, e.End)
			}
			total += e.Games
		}
		goals := 0
		for _, e := range r.Ends {
			if e.End == engine.EndGoal {
				goals = e.Games
			}
		}
		if total != r.Games || goals != r.Wins {
			t.Errorf("%s: the ends %+v count %d games and %d goals; the report has %d games, %d won", difficulty, r.Ends, total, goals, r.Games, r.Wins)
		}
		t.Logf("%s: %+v", difficulty, r.Ends)
	}
}

// TestModsVerdict: a study of the same games without the mods and with
// them says, skill by skill, what the mods change, on a measure that
// separates: the win rate where it moves, else the median highest tile;
// how long the games last, the games they make endless, the games their
// doing ends; then the whole in one sentence.
func TestModsVerdict(t *testing.T) {
	sweeper := sweeperMod(t)
	cap := endsMod(t, "cap", `game.on("tick", function() storage.n = (storage.n or 0) + 1 end)
game.on("before_move", function() if (storage.n or 0) >= 30 then return { refuse = "enough" } end end)`)
	for _, tc := range []struct {
		name string
		mod  *mod.Mod
		want []string
	}{
		{"endless", sweeper, []string{"random: no significant change — no game won either way; median highest tile 128 → 128 (not significant); games at least 17 times longer (median turns 118 → 2000); makes the games endless: 20 of 20 unfinished at 2,000 turns (0 of 20 without)",
			"sweeper makes classic no easier and no harder for the random player and makes games at least 17 times longer"}},
		{"ended by a mod", cap, []string{"random: harder — no game won either way; median highest tile 128 → 32 (significant); games about 75% shorter (median turns 118 → 30); its mods' doing ends 20 of 20 games (every move refused by cap)",
			"cap makes classic easier for nobody, harder for the random player, and makes games about 75% shorter"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := &Study{Kind: "mods", Games: 20, Seed: 7, MaxTurns: 2000}
			for _, mods := range [][]*mod.Mod{nil, {tc.mod}} {
				o := options(t, "random", 20)
				o.Setup.Mods, o.MaxTurns = mods, 2000
				results, err := Run(o)
				if err != nil {
					t.Fatal(err)
				}
				label := "classic"
				if mods != nil {
					label += " + " + mods[0].ID()
				}
				st.Entries = append(st.Entries, Entry{Config: label, Skill: "random", Report: NewReport(header(o), results)})
			}
			verdicts := strings.Join(st.Verdicts(), "\n")
			for _, w := range tc.want {
				if !strings.Contains(verdicts, w) {
					t.Errorf("the verdict lacks %q:\n%s", w, verdicts)
				}
			}
		})
	}
}

// TestBudgetCountsModWork: a run's budget counts its mods' Lua work with
// its moves (Result.Work): a mod that works hard every turn ends its run
// at the budget after far fewer games than its moves alone would.
func TestBudgetCountsModWork(t *testing.T) {
	busy := endsMod(t, "busy", `game.on("tick", function()
  local n = 0
  for i = 1, 2000 do n = n + i end
  storage.n = n
end)`)
	o := options(t, "random", 200)
	o.Setup.Mods, o.Budget = []*mod.Mod{busy}, 200_000
	results, err := Run(o)
	if err != nil {
		t.Fatal(err)
	}
	var moves, instructions, work uint64
	for _, r := range results {
		moves += r.Moves
		instructions += r.Instructions
		work += r.Moves + r.Instructions/InstructionsPerMove
	}
	if !Cut(o, results) || len(results) >= 200 {
		t.Fatalf("the run played %d games, cut %v", len(results), Cut(o, results))
	}
	if Spent(results) != work || instructions < 2000*uint64(len(results)) {
		t.Errorf("spent %d, want %d: %d moves and %d instructions, one move a %d", Spent(results), work, moves, instructions, InstructionsPerMove)
	}
	if moves*10 > o.Budget {
		t.Errorf("the moves alone (%d) are near the budget (%d): the mods' work did not count", moves, o.Budget)
	}
	t.Logf("%d games: %d moves, %d instructions, %d spent of %d", len(results), moves, instructions, Spent(results), o.Budget)
}

// TestBudgetStopsEndlessGame: a game whose own work reaches the run's
// budget stops there, unfinished at the budget, at the same turn whatever
// the other games do: a run of endless games does about its budget, not
// its budget and the work of every game under way to the turn limit.
func TestBudgetStopsEndlessGame(t *testing.T) {
	sweeper := sweeperMod(t)
	var turns []int
	for _, jobs := range []int{1, 2} {
		o := options(t, "random", 3)
		o.Setup.Mods, o.Budget, o.MaxTurns, o.Jobs = []*mod.Mod{sweeper}, 20_000, 1_000_000, jobs
		results, err := Run(o)
		if err != nil {
			t.Fatal(err)
		}
		if len(results) != 1 || results[0].End != EndBudget || results[0].Outcome != Unfinished {
			t.Fatalf("jobs %d: %+v", jobs, results)
		}
		if w := results[0].Work(); w < o.Budget || w > o.Budget+o.Budget/10 {
			t.Errorf("jobs %d: the game did %d work for a budget of %d", jobs, w, o.Budget)
		}
		turns = append(turns, results[0].Turns)
	}
	if turns[0] != turns[1] {
		t.Errorf("the game stops at turn %d with one worker, %d with two", turns[0], turns[1])
	}
}
