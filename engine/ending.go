package engine

import (
	"slices"
	"strings"
)

// Ending is why a game is over, as a value (Explainer.Explain says it in
// a player's words). A ruleset names its own; a frontend adds what the
// rules do not see (the mods' refusals, a lab's turn limit).
type Ending string

// The endings the rulesets name.
const (
	EndGoal      Ending = "goal"       // won: the ruleset's goal reached (classic's win tile, the colony's goal held)
	EndNoMove    Ending = "no move"    // lost: no move changes the board
	EndDiedOut   Ending = "died out"   // lost: no alive cell is left (cellular)
	EndTurnLimit Ending = "turn limit" // lost: the ruleset's own turn limit ran out (cellular)
	EndLost      Ending = "lost"       // lost, for a reason the ruleset does not name
)

// Ending says why a classic game is over: its goal, or no move left.
func (c *Classic) Ending(s *State) Ending {
	switch s.Status {
	case Won, WonContinue:
		return EndGoal
	case Lost:
		return EndNoMove
	}
	return ""
}

// AppliedEdit is a cell edit a hook's request made, with the cell it
// replaced.
type AppliedEdit struct {
	Edit
	Was Cell
}

// LastEdits returns the cell edits the hooks asked for on the last move
// played (its tick), or on the new game's start when no move followed, in
// the order applied, each with the cell it replaced. Undo and redo leave
// it as it was; the slice is the game's, valid until its next move.
func (g *Game) LastEdits() []AppliedEdit { return g.applied }

// Blamed is whose doing ended a game: a mod, and the hazard whose
// blocking marks left no move, or none when it was the cells the mod set.
type Blamed struct {
	Mod    string
	Hazard string // the hazard's short name; "" when the mod's cell edits are to blame
}

// Blame says whose doing lost the game s of rules r, when a mod's did:
// the mod whose blocking marks of one hazard leave no move that there
// would be without them, or else the mod whose cell edits of the turn
// that ended the game (edits: Game.LastEdits) lost it, so that s undone
// of them alone is not lost. Hazards are tried in name order, then the
// edits' mods in the order they first edited. It reports false for a game
// not lost, and for one the rules alone lost. A game no move changes,
// though its rules play on (a board emptied of every tile), counts as lost
// when its status says Lost.
func Blame(r Rules, s *State, edits []AppliedEdit) (Blamed, bool) {
	if s.Status != Lost {
		return Blamed{}, false
	}
	var hazards []string
	for _, m := range s.Marks {
		if m.Block && !slices.Contains(hazards, m.Name) {
			hazards = append(hazards, m.Name)
		}
	}
	slices.Sort(hazards)
	for _, h := range hazards {
		mod, name, ok := strings.Cut(h, ":")
		if !ok {
			continue
		}
		c := s.Clone()
		c.Marks = slices.DeleteFunc(c.Marks, func(m Mark) bool { return m.Block && m.Name == h })
		if !lostWith(r, &c) {
			return Blamed{Mod: mod, Hazard: name}, true
		}
	}
	var mods []string
	for _, e := range edits {
		if e.By != "" && !slices.Contains(mods, e.By) {
			mods = append(mods, e.By)
		}
	}
	for _, mod := range mods {
		c := s.Clone()
		for i := len(edits) - 1; i >= 0; i-- {
			if e := edits[i]; e.By == mod && c.Board.In(e.Pos) {
				c.Board.Set(e.Pos, e.Was)
			}
		}
		if !lostWith(r, &c) {
			return Blamed{Mod: mod}, true
		}
	}
	return Blamed{}, false
}

// lostWith reports whether s is lost, worked out again from its board and
// marks: the rules find it lost, or no move changes it though they play on
// (a board emptied of every tile, where no spawn comes).
func lostWith(r Rules, s *State) bool {
	s.Status = Playing
	r.Settle(s)
	switch s.Status {
	case Lost:
		return true
	case Playing:
		for _, d := range Directions {
			if r.Changes(s, d) {
				return false
			}
		}
		return true
	}
	return false
}
