package cellular

import (
	"fmt"

	"github.com/mod2048/mod2048/engine"
)

// Ending says why a cellular game is over: the goal held; the colony
// died out; no swipe changes the board; the turn limit ran out.
func (r *Rules) Ending(s *engine.State) engine.Ending {
	switch s.Status {
	case engine.Won, engine.WonContinue:
		return engine.EndGoal
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
			return engine.EndDiedOut
		case r.lost(s):
			return engine.EndNoMove
		case r.outOfTime(s.Turn):
			return engine.EndTurnLimit
		}
		return engine.EndLost
	}
	return ""
}

// Explain says why a cellular game is won or lost, in a player's words.
func (r *Rules) Explain(s *engine.State) string {
	switch r.Ending(s) {
	case engine.EndGoal:
		if r.s.Goal.Hold > 1 {
			return fmt.Sprintf("the colony held the goal: %d stable turns in a row with %d energy or more", r.s.Goal.Hold, r.threshold)
		}
		return fmt.Sprintf("the colony held the goal: a stable turn with %d energy or more", r.threshold)
	case engine.EndDiedOut:
		return "the colony died out: no alive cell is left"
	case engine.EndNoMove:
		return "no move left: no swipe changes the board"
	case engine.EndTurnLimit:
		return fmt.Sprintf("the turn limit ran out: %d turns without reaching the goal", r.s.Goal.Turns)
	case engine.EndLost:
		return "the game is lost"
	}
	return ""
}
