package session_test

import (
	"errors"
	"testing"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
)

// The session's cost per move against playing the engine (or the mod host)
// directly, on the same workload: moves round the four directions from a
// fixed seed, a new game (same seed) whenever one is lost.

var benchDirs = [4]engine.Direction{engine.Left, engine.Up, engine.Right, engine.Down}

func benchSetup(b *testing.B, mods ...string) session.Setup {
	setup := session.Setup{Config: classic(b, "undo_limit=0", "stop_on_win=false")}
	for _, m := range mods {
		setup.Mods = append(setup.Mods, loadMod(b, m))
	}
	return setup
}

func benchSession(b *testing.B, mods ...string) {
	s, err := session.New(benchSetup(b, mods...), session.Start{Seed: 42})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := s.Move(benchDirs[i&3]); err != nil && !refused(err) {
			b.Fatal(err)
		}
		i++
		if s.Status() == engine.Lost {
			if err := s.NewGame(42); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// benchDirect plays the same games as benchSession, through engine.Game
// (and scripting.Host with mods) as a frontend did before the session.
func benchDirect(b *testing.B, mods ...string) {
	setup := benchSetup(b, mods...)
	var host *scripting.Host
	newGame := func() *engine.Game {
		rules, opt, err := setup.Config.Game(42, false)
		if err != nil {
			b.Fatal(err)
		}
		g, err := engine.New(rules, opt)
		if err != nil {
			b.Fatal(err)
		}
		if len(setup.Mods) > 0 {
			if host != nil {
				host.Close()
			}
			if host, err = scripting.NewHost(setup.Mods, rules, opt, scripting.DefaultLimits()); err != nil {
				b.Fatal(err)
			}
			g.SetHooks(host)
		}
		return g
	}
	g := newGame()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		var err error
		if host != nil {
			_, err = host.Move(g, benchDirs[i&3])
		} else {
			_, err = g.Move(benchDirs[i&3])
		}
		if err != nil && !refused(err) {
			b.Fatal(err)
		}
		i++
		if g.Status() == engine.Lost {
			g = newGame()
		}
	}
	if host != nil {
		host.Close()
	}
}

func refused(err error) bool {
	var ref *engine.Refusal
	return errors.As(err, &ref)
}

func BenchmarkMove(b *testing.B) {
	b.Run("engine", func(b *testing.B) { benchDirect(b) })
	b.Run("session", func(b *testing.B) { benchSession(b) })
	b.Run("host-freeze", func(b *testing.B) { benchDirect(b, "freeze") })
	b.Run("session-freeze", func(b *testing.B) { benchSession(b, "freeze") })
	b.Run("host-one_way", func(b *testing.B) { benchDirect(b, "one_way") })
	b.Run("session-one_way", func(b *testing.B) { benchSession(b, "one_way") })
}

// BenchmarkNewSession is a new session (a new game) with one shipped mod:
// the mod's host made, its files run, the game started. Issue 21 asked for
// 100 µs at most; before it: freeze 274 µs, bomb 476, ghost 323, moss 820,
// plague 519. Side by side with the program as filed, on 25 November
// (four runs each, medians): freeze 488 → 71, bomb 904 → 77, ghost 592 →
// 74, moss 1253 → 103, plague 830 → 100, with the program as filed 1.5 to
// 1.9 times slower than when the issue measured it (README).
func BenchmarkNewSession(b *testing.B) {
	for _, st := range []struct{ mod, ruleset, preset string }{
		{"", "classic", ""},
		{"freeze", "classic", ""},
		{"bomb", "classic", ""},
		{"ghost", "classic", ""},
		{"moss", "cellular", "mid"},
		{"plague", "cellular", "mid"},
	} {
		name := st.mod
		if name == "" {
			name = "none"
		}
		b.Run(name, func(b *testing.B) {
			c, err := config.Build(config.BuildOptions{Ruleset: st.ruleset, Difficulty: st.preset})
			if err != nil {
				b.Fatal(err)
			}
			setup := session.Setup{Config: c}
			if st.mod != "" {
				setup.Mods = []*mod.Mod{loadMod(b, st.mod)}
			}
			b.ReportAllocs()
			seed := uint64(0)
			for b.Loop() {
				seed++
				s, err := session.New(setup, session.Start{Seed: seed})
				if err != nil {
					b.Fatal(err)
				}
				s.Close()
			}
		})
	}
}
