//go:build race

package scripting_test

// raceSlowdown scales the suite's wall-clock bounds: the race detector
// slows Go code down some ten times.
const raceSlowdown = 10
