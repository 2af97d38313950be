package engine

import (
	"fmt"
	"strings"
)

// Direction is a move: Left, Right, Up or Down.
type Direction uint8

// The four moves.
const (
	Left Direction = iota
	Right
	Up
	Down
)

// Directions lists the four moves in a fixed order.
var Directions = [4]Direction{Left, Right, Up, Down}

var directionNames = [4]string{"Left", "Right", "Up", "Down"}

// String returns the direction's name, "Left", "Right", "Up" or "Down".
func (d Direction) String() string {
	if d.Valid() {
		return directionNames[d]
	}
	return fmt.Sprintf("Direction(%d)", uint8(d))
}

// Valid reports whether d is one of the four moves.
func (d Direction) Valid() bool { return d <= Down }

// ParseDirection reads a direction by name or alias, in any case: Left, Right,
// Up, Down, or the compass aliases W, E, N, S.
func ParseDirection(s string) (Direction, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "left", "w", "west":
		return Left, nil
	case "right", "e", "east":
		return Right, nil
	case "up", "n", "north":
		return Up, nil
	case "down", "s", "south":
		return Down, nil
	}
	return 0, fmt.Errorf("unknown direction %q (want Left, Right, Up, Down or W, E, N, S)", s)
}

// DirSet is a set of directions.
type DirSet uint8

// Has reports whether d is in the set.
func (s DirSet) Has(d Direction) bool { return d.Valid() && s&(1<<d) != 0 }

// With returns the set with d added.
func (s DirSet) With(d Direction) DirSet { return s | 1<<d }

// Len returns the number of directions in the set.
func (s DirSet) Len() int {
	n := 0
	for _, d := range Directions {
		if s.Has(d) {
			n++
		}
	}
	return n
}

// List returns the directions in the set, in the order of Directions.
func (s DirSet) List() []Direction {
	var out []Direction
	for _, d := range Directions {
		if s.Has(d) {
			out = append(out, d)
		}
	}
	return out
}

// String returns the set as space-separated names, or "none".
func (s DirSet) String() string {
	if s == 0 {
		return "none"
	}
	var names []string
	for _, d := range s.List() {
		names = append(names, d.String())
	}
	return strings.Join(names, " ")
}
