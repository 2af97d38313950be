package cellular

import (
	"strconv"

	"github.com/mod2048/mod2048/engine"
)

// Standing is how a game stands against the rules' goal: what a player's
// screen shows of it beside the score (the terminal's header, the page's).
type Standing struct {
	// Energy is the alive cells' energy on the board now; Goal the energy
	// a stable turn must end with to win (StabilizeThreshold, 0 with no
	// goal).
	Energy, Goal int
	// Played says a turn has been played; Stable that the last one was
	// (its Life tick had no birth and no death); Streak the stable turns
	// in a row, the last included.
	Played, Stable bool
	Streak         int64
	// Quarters is the last turn's score multiplier M in quarters (5 is
	// ×1.25): the streak's, min(1 + 0.25 × (streak − 1), 3), after a
	// stable turn; score.unstable_multiplier after one that was not.
	Quarters int64
	// TurnsLeft is the turns left before the turn limit (goal.turns), -1
	// with no limit.
	TurnsLeft int
	// Hold is the stable turns at the goal in a row a win takes
	// (goal.hold), and Held those played so far.
	Hold, Held int
}

// Standing returns how the game of state s stands against the goal.
func (r *Rules) Standing(s *engine.State) Standing {
	st := Standing{Goal: r.threshold, TurnsLeft: -1, Hold: max(r.s.Goal.Hold, 1)}
	for _, c := range s.Board.Cells {
		if c.Kind == KindAlive {
			st.Energy += int(c.Level)
		}
	}
	_, st.Played = s.Vars[VarBase]
	st.Streak = s.Vars[VarStreak]
	st.Stable = st.Played && st.Streak > 0
	st.Quarters = int64(r.s.Score.Unstable * 4)
	if st.Stable {
		st.Quarters = min(3+st.Streak, 12)
	}
	if r.s.Goal.Turns > 0 {
		st.TurnsLeft = max(r.s.Goal.Turns-s.Turn, 0)
	}
	st.Held = int(s.Vars[VarHeld])
	if st.Hold == 1 && st.Stable && r.threshold > 0 && int(s.Vars[VarBase]) >= r.threshold {
		st.Held = 1
	}
	return st
}

// Multiplier writes the last turn's multiplier for a player: ×1.25, ×0.75,
// ×3.
func (g Standing) Multiplier() string {
	return "×" + strconv.FormatFloat(float64(g.Quarters)/4, 'f', -1, 64)
}
