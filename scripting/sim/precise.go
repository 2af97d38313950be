package sim

import (
	"math"
	"time"
)

// PrecisionBatch is how many games --precision plays before it looks at
// the interval again: a number of the flags' own, never of --jobs, so that
// the same flags stop after the same games on every machine. 25 games are
// the fewest whose interval can be within ±7 points (the default
// precision) when none or all of them are won: a run whose answer is
// plain stops after one batch.
const PrecisionBatch = 25

// PreciseLeft is the time a run played to a precision has left, at the
// rate so far: until the games its win rate's interval needs are played
// (StopAt: in whole batches, at most most), or its budget is spent and
// the games then under way have finished, whichever comes first; before
// the first batch's interval, the first batch. Once the budget is spent,
// the games under way (jobs of them) finish, each at most at its own
// budget's work. It is not known before a game has finished, unless the
// budget's work has begun.
func PreciseLeft(done, most int, took time.Duration, half float64, at int, want float64, played, budget uint64, jobs int) (time.Duration, bool) {
	if budget > 0 && played >= budget {
		if most := budget * uint64(max(jobs, 1)); played < most {
			return AtRate(played, most, took), true
		}
		return 0, false
	}
	jobs = max(jobs, 1)
	left, ok := time.Duration(math.MaxInt64), false
	// ended is the games played, those under way counted half played, as
	// they are on average: a run's first lines, when few games have
	// ended, would read its pace as slower than it is.
	ended := 0.0
	if done > 0 {
		// Before the first batch's interval, the first batch: it is
		// enough where every game is won, or none.
		need := min(PrecisionBatch, most)
		if half > want && at > 0 {
			need = StopAt(half, at, want, most)
		}
		ended = float64(done) + float64(min(jobs, max(need-done, 0)))/2
		left, ok = time.Duration(max(float64(need)-ended, 0)/ended*float64(took)), true
	}
	if budget > 0 && played > 0 && played < budget {
		spent := AtRate(played, budget, took)
		if ended > 0 {
			// Then the games under way finish: the last of jobs games at
			// random points of their play, jobs/(jobs+1) of a game.
			game := float64(took) * float64(jobs) / ended
			spent += time.Duration(game * float64(jobs) / float64(jobs+1))
		}
		left, ok = min(left, spent), true
	}
	return left, ok
}

// StopAt is the games a run played to a precision stops at, in whole
// batches after at (and at most most), were its win rate the one its
// interval of half at at games says: the interval is Wilson's (sim's),
// whose half-width h of a rate p in n games is z·√(p(1−p)/n + z²/4n²) /
// (1 + z²/n), so p(1−p) is read off h exactly and the batches played on
// until h is want. The run's own rate wanders as it goes, so no reading
// of its first batches knows where it will stop: on runs simulated to the
// lab's rule (TestPreciseLeftAtMidpoint), this estimate at a run's
// midpoint comes within a quarter of the time left about as often as one
// that knew the true rate. (The estimate it replaces read p(1−p) off h as
// though h were z·√(p(1−p)/n), and took it one standard error nearer a
// half: at its midpoint, a run that won 10% of its games was said to have
// about twice the time it had.)
func StopAt(half float64, at int, want float64, most int) int {
	const z = 1.959963984540054
	n := float64(at)
	den := 1 + z*z/n
	q := min(max(n*(half*den/z)*(half*den/z)-z*z/(4*n), 0), 0.25) // p(1−p)
	for g := at + PrecisionBatch; g < most; g += PrecisionBatch {
		n := float64(g)
		if z*math.Sqrt(q/n+z*z/(4*n*n))/(1+z*z/n) <= want {
			return g
		}
	}
	return most
}

// atRate is the time work from done to to takes at the rate of done in
// took.
func AtRate(done, to uint64, took time.Duration) time.Duration {
	return time.Duration(float64(to-done) / float64(done) * float64(took))
}
