//go:build race

package fuzz

// raceEnabled: the race detector slows Go code some ten times, and not
// alike for all code: the time oracle is not asserted under it.
const raceEnabled = true
