package engine

import (
	"fmt"
	"strings"
)

// Status is where a game stands.
type Status uint8

// The statuses of a game. Won is terminal until KeepPlaying is called (the
// stop-on-win behaviour); WonContinue means the game has been won and play
// goes on; Lost means no move can change the board, and the board holds a
// tile (classic: a board without any tile has no move, yet it is Playing, as
// in the original game).
const (
	Playing Status = iota
	Won
	WonContinue
	Lost
)

var statusNames = [...]string{"Playing", "Won", "Won (continue)", "Lost"}

// String returns the status as the specifications write it: "Playing",
// "Won", "Won (continue)" or "Lost".
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// Over reports whether the game is finished, Won or Lost: a move is then
// ignored (a no-op, not an error).
func (s Status) Over() bool { return s == Won || s == Lost }

// HasWon reports whether the game has been won (Won or WonContinue).
func (s Status) HasWon() bool { return s == Won || s == WonContinue }

// ParseStatus reads a status as String writes it, in any case; "WonContinue"
// is accepted for "Won (continue)".
func ParseStatus(text string) (Status, error) {
	t := strings.ToLower(strings.Join(strings.Fields(text), " "))
	switch t {
	case "playing":
		return Playing, nil
	case "won":
		return Won, nil
	case "won (continue)", "woncontinue", "won(continue)":
		return WonContinue, nil
	case "lost":
		return Lost, nil
	}
	return 0, fmt.Errorf("unknown status %q (want Playing, Won, Won (continue) or Lost)", text)
}
