//go:build !race

package costsearch

// raceEnabled: the race detector slows Go code some ten times, and not
// alike for all code: the timing bounds are not asserted under it.
const raceEnabled = false
