package engine

import "fmt"

// Explainer is what a ruleset may implement to say, in a player's words,
// why a game is won or lost: "no move left", "the colony died out". It
// returns "" for a game still going.
type Explainer interface {
	Explain(s *State) string
	// Ending says the same as a value ("" for a game still going).
	Ending(s *State) Ending
}

// Explain says why a classic game is won or lost.
func (c *Classic) Explain(s *State) string {
	switch s.Status {
	case Won, WonContinue:
		return fmt.Sprintf("you made a %d tile", c.WinValue)
	case Lost:
		return "no move left"
	}
	return ""
}
