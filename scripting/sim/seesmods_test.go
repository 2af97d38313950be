package sim

import (
	"strings"
	"testing"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/engine/ai"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
)

// overdriveBoard is a position where overdrive (a merge that makes 64 or
// more doubles it) turns the best move around: Left or Right merges the
// two 32s, 64 points by the rules and 128 with the mod; Up or Down merges
// three pairs down the columns, 80 points either way.
var overdriveBoard = []string{
	"32 32 .  .",
	".  .  .  .",
	"16 8  16 2",
	"16 8  16 4",
}

func overdriveSession(t *testing.T, mods []*mod.Mod) *session.Session {
	t.Helper()
	c, err := config.Build(config.BuildOptions{Ruleset: "classic"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := engine.ParseRows(engine.NewClassic(), overdriveBoard, 4, 4)
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.New(session.Setup{Config: c, Mods: mods}, session.Start{Seed: 7, Board: &b})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// TestPoliciesSeeTheMods: the policies' searches play the mods' hooks on
// their forks, so with overdrive they take the merge the mod doubles, and
// without it the one the rules score higher; the search leaves the game,
// its storage and the mod's log as they were.
func TestPoliciesSeeTheMods(t *testing.T) {
	horizontal := func(d engine.Direction) bool { return d == engine.Left || d == engine.Right }
	for _, tc := range []struct {
		policy string
		depth  int
	}{{"greedy", 1}, {"lookahead", 1}} {
		for _, withMod := range []bool{false, true} {
			var mods []*mod.Mod
			if withMod {
				mods = []*mod.Mod{repoMod(t, "overdrive")}
			}
			s := overdriveSession(t, mods)
			before, err := s.Save()
			if err != nil {
				t.Fatal(err)
			}
			mk, err := MakePolicy(tc.policy, PolicyOptions{Depth: tc.depth, Samples: 2, AI: ai.Defaults()})
			if err != nil {
				t.Fatal(err)
			}
			p, err := mk(1)
			if err != nil {
				t.Fatal(err)
			}
			d := p.Choose(ViewOf(s))
			if horizontal(d) != withMod {
				t.Errorf("%s, overdrive %v: chose %v", tc.policy, withMod, d)
			}
			after, err := s.Save()
			if err != nil {
				t.Fatal(err)
			}
			if string(before) != string(after) {
				t.Errorf("%s, overdrive %v: the search changed the game", tc.policy, withMod)
			}
			if withMod {
				if log := s.Log("overdrive"); len(log) != 0 {
					t.Errorf("%s: the search's dry runs logged %q", tc.policy, log)
				}
				res, err := s.Move(engine.Left)
				if err != nil || res.Gained.String() != "128" {
					t.Errorf("Left after the search: %+v, %v; want 128 points", res, err)
				}
				if log := s.Log("overdrive"); len(log) != 1 || !strings.Contains(log[0], "64 becomes 128") {
					t.Errorf("the move's log: %q", log)
				}
			}
		}
	}
}

// trapdoor is a mod whose danger only its hooks show: a turn that moves
// toward dir fills the board with a checkerboard of 2s and 4s, which
// loses the game.
func trapdoor(t *testing.T, dir engine.Direction) *mod.Mod {
	t.Helper()
	m, err := mod.LoadSources(map[string]string{
		"mod.toml": `id = "trapdoor"
name = "Trapdoor"
version = "1.0.0"
api_version = 1
description = "A move one way loses the game."
rulesets = ["classic"]
`,
		"main.lua": `
local trap = "` + strings.ToLower(dir.String()) + `"
game.on("tick", function(ev)
  if ev.dir ~= trap then return end
  local set = {}
  for row = 0, game.height - 1 do
    for col = 0, game.width - 1 do
      set[#set + 1] = { row = row, col = col, cell = (row + col) % 2 == 0 and 2 or 4 }
    end
  end
  return { set = set }
end)
`,
	}, "trapdoor")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestExpertSeesTheMods: the expert, whose packed search cannot see a
// mod, searches a game with mods through the engine's forks, which play
// the mods' hooks: the move it likes best without the trapdoor is the one
// it leaves alone with the trapdoor set on it.
func TestExpertSeesTheMods(t *testing.T) {
	board := []string{
		"2 4 8 .",
		"4 2 . .",
		"2 . . .",
		". . . .",
	}
	c, err := config.Build(config.BuildOptions{Ruleset: "classic"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := engine.ParseRows(engine.NewClassic(), board, 4, 4)
	if err != nil {
		t.Fatal(err)
	}
	choose := func(mods []*mod.Mod) engine.Direction {
		s, err := session.New(session.Setup{Config: c, Mods: mods}, session.Start{Seed: 3, Board: &b})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		e, err := NewExpert(PolicyOptions{AI: ai.Defaults()})
		if err != nil {
			t.Fatal(err)
		}
		adv, err := e.Advise(ViewOf(s))
		if err != nil {
			t.Fatal(err)
		}
		return adv[0].Dir
	}
	free := choose(nil)
	if trapped := choose([]*mod.Mod{trapdoor(t, free)}); trapped == free {
		t.Errorf("with the trapdoor on %v the expert still plays it", free)
	}
	// A trap on a move it does not like leaves its choice alone.
	other := engine.Up
	if free == engine.Up {
		other = engine.Down
	}
	if got := choose([]*mod.Mod{trapdoor(t, other)}); got != free {
		t.Errorf("with the trapdoor on %v the expert plays %v, not %v", other, got, free)
	}
}

// sinkhole clears the board's largest tile on every turn that moves down:
// a danger only its hooks show.
func sinkhole(t *testing.T) *mod.Mod {
	t.Helper()
	m, err := mod.LoadSources(map[string]string{
		"mod.toml": `id = "sinkhole"
name = "Sinkhole"
version = "1.0.0"
api_version = 1
description = "Down swallows the largest tile."
rulesets = ["classic"]
`,
		"main.lua": `
game.on("tick", function(ev)
  if ev.dir ~= "down" then return end
  local best, br, bc = 0, 0, 0
  for row = 0, game.height - 1 do
    for col = 0, game.width - 1 do
      local v = game.cell(row, col)
      if type(v) == "number" and v > best then best, br, bc = v, row, col end
    end
  end
  storage.swallowed = (storage.swallowed or 0) + 1
  return { set = { { row = br, col = bc, cell = 0 } } }
end)
`,
	}, "sinkhole")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestLookaheadAvoidsTheSinkhole: a lookahead game with the sinkhole mod
// gives it no tile worth keeping (32 or more) unless nothing but Down is
// legal, where the same search made blind to the mods (its forks without
// hooks, as the lab's were) walks into it again and again.
func TestLookaheadAvoidsTheSinkhole(t *testing.T) {
	c, err := config.Build(config.BuildOptions{Ruleset: "classic"})
	if err != nil {
		t.Fatal(err)
	}
	m := sinkhole(t)
	// play returns the largest tiles down swallowed with another move
	// legal, and the largest tile at the end.
	play := func(blind bool) (swallowed []int, top int) {
		s, err := session.New(session.Setup{Config: c, Mods: []*mod.Mod{m}}, session.Start{Seed: 11})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		mk, err := MakePolicy("lookahead", PolicyOptions{Depth: 2, Samples: 2})
		if err != nil {
			t.Fatal(err)
		}
		p, err := mk(11)
		if err != nil {
			t.Fatal(err)
		}
		largest := func() int {
			top := 0
			for _, c := range s.State().Board.Cells {
				top = max(top, int(c.Level))
			}
			return 1 << top
		}
		for turn := 0; turn < 200 && !s.Status().Over(); turn++ {
			v := ViewOf(s)
			if blind {
				v.Fork = func(seed uint64) *engine.Game {
					f := s.Fork(seed)
					f.SetHooks(nil)
					return f
				}
			}
			d := p.Choose(v)
			if d == engine.Down && v.Legal != engine.DirSet(0).With(engine.Down) {
				swallowed = append(swallowed, largest())
			}
			if _, err := s.Move(d); err != nil {
				t.Fatal(err)
			}
		}
		return swallowed, largest()
	}
	seeing, seeingTop := play(false)
	blindly, blindTop := play(true)
	t.Logf("down swallowed %v seeing the mod (largest at the end %d); %v blind (%d)", seeing, seeingTop, blindly, blindTop)
	for _, v := range seeing {
		if v >= 32 {
			t.Errorf("the search let the sinkhole swallow a %d with another move legal", v)
		}
	}
	if len(blindly) < 10 || blindTop >= seeingTop {
		t.Errorf("the blind search lost only %v and got to %d, against %d: the test shows nothing", blindly, blindTop, seeingTop)
	}
}
