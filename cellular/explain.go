package cellular

import (
	"fmt"

	"github.com/mod2048/mod2048/engine"
)

// Explain says why a cellular game is won or lost: the goal held, the
// colony died out, no swipe left, or the turn limit.
func (r *Rules) Explain(s *engine.State) string {
	switch s.Status {
	case engine.Won, engine.WonContinue:
		msg := fmt.Sprintf("the colony held the goal: a stable turn with %d energy or more", r.threshold)
		if r.s.Goal.Hold > 1 {
			msg = fmt.Sprintf("the colony held the goal: %d stable turns in a row with %d energy or more", r.s.Goal.Hold, r.threshold)
		}
		return msg
	case engine.Lost:
		alive := false
		for _, c := range s.Board.Cells {
			if c.Kind == KindAlive {
				alive = true
				break
			}
		}
		switch {
		case !alive && r.s.ExtinctionLoses:
			return "the colony died out: no alive cell is left"
		case r.lost(s):
			return "no move left: no swipe changes the board"
		case r.outOfTime(s.Turn):
			return fmt.Sprintf("the turn limit ran out: %d turns without reaching the goal", r.s.Goal.Turns)
		}
		return "the game is lost"
	}
	return ""
}
