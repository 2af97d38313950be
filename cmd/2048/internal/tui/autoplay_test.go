package tui

import (
	"errors"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/session"
)

// TestAutoplayStops: autoplay plays the advisor's moves, stops on a win
// (offering to keep playing) and on any key; a failing advisor stops it
// with its error.
func TestAutoplayStops(t *testing.T) {
	c, err := config.Build(config.BuildOptions{Sets: []string{"size=2"}})
	if err != nil {
		t.Fatal(err)
	}
	board, _ := engine.ParseRows(engine.NewClassic(), []string{"512 512", "1024 0"}, 2, 2)
	s, err := session.New(session.Setup{Config: c}, session.Start{Seed: 1, Board: &board})
	if err != nil {
		t.Fatal(err)
	}
	scr := tcell.NewSimulationScreen("UTF-8")
	scr.Init()
	defer scr.Fini()
	scr.SetSize(80, 24)
	moves := []engine.Direction{engine.Left, engine.Up}
	advisor := func(*session.Session) (engine.Direction, string, error) {
		if len(moves) == 0 {
			return 0, "", errors.New("out of ideas")
		}
		d := moves[0]
		moves = moves[1:]
		return d, "test", nil
	}
	a, err := New(scr, Config{Ruleset: "classic", Difficulty: "classic", Session: s, Advisor: advisor, Autoplay: true})
	if err != nil {
		t.Fatal(err)
	}
	if !a.auto {
		t.Fatal("Autoplay did not start autoplay")
	}
	a.HandleEvent(&autoTick{n: a.autoTick}) // Left: 1024 1024 / 1024 .
	if s.State().Turn != 1 || !a.auto {
		t.Fatalf("after one tick: turn %d, autoplay %v", s.State().Turn, a.auto)
	}
	a.HandleEvent(&autoTick{n: a.autoTick - 1}) // a stale timer does nothing
	if s.State().Turn != 1 {
		t.Fatal("a stale timer played")
	}
	a.HandleEvent(&autoTick{n: a.autoTick}) // Up: 2048, a win
	if s.Status() != engine.Won || a.auto || !strings.Contains(a.msg, "autoplay stopped on the win") {
		t.Fatalf("the win: %v, autoplay %v, %q", s.Status(), a.auto, a.msg)
	}
	// p goes on after keeping playing; the advisor's failure stops it.
	a.HandleEvent(tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone))
	a.HandleEvent(tcell.NewEventKey(tcell.KeyRune, 'p', tcell.ModNone))
	a.HandleEvent(&autoTick{n: a.autoTick})
	if a.auto || !strings.Contains(a.msg, "out of ideas") {
		t.Fatalf("a failing advisor: autoplay %v, %q", a.auto, a.msg)
	}
	// Any key stops it, and does nothing else.
	moves = []engine.Direction{engine.Down}
	a.HandleEvent(tcell.NewEventKey(tcell.KeyRune, 'p', tcell.ModNone))
	turn := s.State().Turn
	a.HandleEvent(tcell.NewEventKey(tcell.KeyRune, 'u', tcell.ModNone))
	if a.auto || s.State().Turn != turn {
		t.Fatalf("a key during autoplay: autoplay %v, turn %d (was %d)", a.auto, s.State().Turn, turn)
	}
}
