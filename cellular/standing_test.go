package cellular

import (
	"testing"

	"github.com/mod2048/mod2048/engine"
)

// TestStanding: a game's standing against the goal, as a screen shows it.
func TestStanding(t *testing.T) {
	s := earlySettings()
	s.Goal.Turns = 100
	r := mustRules(t, s)
	board := func() engine.Board {
		b := engine.Board{Width: s.Width, Height: s.Height, Cells: make([]engine.Cell, s.Width*s.Height)}
		b.Cells[0] = aliveCell(3)
		b.Cells[1] = aliveCell(2)
		b.Cells[2] = engine.Cell{Kind: KindDormant, Level: 5}
		return b
	}
	for _, c := range []struct {
		name string
		turn int
		vars map[string]int64
		want Standing
	}{
		{"before a turn", 0, nil, Standing{Energy: 5, Goal: r.Threshold(), Quarters: 3, TurnsLeft: 100, Hold: 1}},
		{"unstable", 7, map[string]int64{VarBase: 5, VarStreak: 0}, Standing{Energy: 5, Goal: r.Threshold(), Played: true, Quarters: 3, TurnsLeft: 93, Hold: 1}},
		{"a streak of 2", 8, map[string]int64{VarBase: 5, VarStreak: 2}, Standing{Energy: 5, Goal: r.Threshold(), Played: true, Stable: true, Streak: 2, Quarters: 5, TurnsLeft: 92, Hold: 1}},
		{"a long streak", 99, map[string]int64{VarBase: 5, VarStreak: 30}, Standing{Energy: 5, Goal: r.Threshold(), Played: true, Stable: true, Streak: 30, Quarters: 12, TurnsLeft: 1, Hold: 1}},
		{"stable at the goal", 100, map[string]int64{VarBase: 40, VarStreak: 1}, Standing{Energy: 5, Goal: r.Threshold(), Played: true, Stable: true, Streak: 1, Quarters: 4, TurnsLeft: 0, Hold: 1, Held: 1}},
	} {
		st := &engine.State{Board: board(), Turn: c.turn, Vars: c.vars}
		if got := r.Standing(st); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
	s.Goal.Turns, s.Goal.Hold = 0, 3
	r = mustRules(t, s)
	st := &engine.State{Board: board(), Turn: 5, Vars: map[string]int64{VarBase: 5, VarStreak: 2, VarHeld: 2}}
	if got := r.Standing(st); got.TurnsLeft != -1 || got.Hold != 3 || got.Held != 2 {
		t.Errorf("no limit, hold 3: %+v", got)
	}
}
