//go:build race

package scripting

// raceEnabled: make test runs this package twice, under the race detector
// and without it. A test that only runs a mod's own work in the VM, or
// weighs what it holds, exercises no goroutine of the host's that the
// hostile suite does not, and the race detector slows it some ten times:
// it runs in the pass without it.
const raceEnabled = true
