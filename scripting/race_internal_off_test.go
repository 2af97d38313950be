//go:build !race

package scripting

// raceEnabled: see race_internal_on_test.go.
const raceEnabled = false
