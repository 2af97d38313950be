package sim

import (
	"math"
	"testing"
	"time"

	"github.com/mod2048/mod2048/engine"
)

// TestPreciseLeft: a run played to a precision has left the time of the
// games its interval needs (in whole batches, at most its most), or of
// its budget's rest and the games then under way, whichever is sooner,
// at the pace of the games played, those under way counted half played.
func TestPreciseLeft(t *testing.T) {
	for _, tc := range []struct {
		done, most  int
		took        time.Duration
		half        float64
		at          int
		want        float64
		played, bud uint64
		left        time.Duration
		ok          bool
	}{
		{0, 5000, time.Second, 0, 0, 0.07, 0, 0, 0, false}, // nothing known yet
		// ±10 points at 25 games (Wilson's, a rate near 5%): ±6.7 at 50
		// games; 26 played in 13 s, the two under way counted half.
		{25, 5000, 13 * time.Second, 0.10, 25, 0.07, 0, 0, 12 * time.Second, true},
		// ±13 points at 50 (a rate near 37%): ±6.7 at 200 games.
		{50, 5000, 51 * time.Second, 0.13, 50, 0.07, 0, 0, 149 * time.Second, true},
		// The budget comes first, in 39 s, and then the two games under
		// way finish: the later of two, 2/3 of a game of 3 s.
		{25, 5000, 39 * time.Second, 0.14, 25, 0.07, 1_000_000, 2_000_000, 41 * time.Second, true},
		{25, 50, 13 * time.Second, 0.14, 25, 0.07, 0, 0, 12 * time.Second, true},              // at most 50 games
		{0, 5000, 10 * time.Second, 0, 0, 0.07, 1_000_000, 4_000_000, 30 * time.Second, true}, // the budget alone: no game's time known
		{10, 5000, 11 * time.Second, 0, 0, 0.07, 0, 0, 14 * time.Second, true},                // the first batch first
		{1, 5000, 10 * time.Second, 0, 0, 0.07, 5_000_000, 4_000_000, 6 * time.Second, true},  // spent: the two games under way do 8 million at most
	} {
		left, ok := PreciseLeft(tc.done, tc.most, tc.took, tc.half, tc.at, tc.want, tc.played, tc.bud, 2)
		if ok != tc.ok || ok && left != tc.left {
			t.Errorf("PreciseLeft(%+v) = %v, %v; want %v, %v", tc, left, ok, tc.left, tc.ok)
		}
	}
}

// TestPreciseLeftAtMidpoint: at a run's midpoint, the time left said
// comes within a quarter of the time the run then takes about as often as
// an estimate that knew the run's true win rate (the games that rate's
// interval needs). Runs of rates from 3% to 90% are simulated to the
// lab's rule (batches of 25 games, Wilson's interval, until it is within
// ±7 points), on one worker, each game taking a second, 300 of each
// rate, those of at least two batches kept: a run's own rate wanders as
// it goes, so
// neither estimate is always near, and both miss most often at rates near
// 0% or 100%, whose runs are short.
func TestPreciseLeftAtMidpoint(t *testing.T) {
	const want, most = 0.07, 5000
	var said, knew int
	for _, p := range []float64{0.03, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9} {
		// The games a run of rate p needs, to the rule.
		oracle := most
		for g := PrecisionBatch; g < most; g += PrecisionBatch {
			wins := int(math.Round(p * float64(g)))
			rs := make([]Result, g)
			for i := range wins {
				rs[i].Outcome = Won
			}
			if HalfWidth(rs) <= want {
				oracle = g
				break
			}
		}
		s, k, runs := 0, 0, 0
		for run := range 300 {
			var rs []Result
			halves := map[int]float64{}
			for len(rs) < most {
				for range PrecisionBatch {
					u := float64(engine.Mix(uint64(run)<<32|uint64(len(rs))+uint64(p*1000)<<48)>>11) / (1 << 53)
					rs = append(rs, Result{Outcome: Lost})
					if u < p {
						rs[len(rs)-1].Outcome = Won
					}
				}
				halves[len(rs)] = HalfWidth(rs)
				if halves[len(rs)] <= want {
					break
				}
			}
			n := len(rs)
			if n < 2*PrecisionBatch {
				continue
			}
			runs++
			// One worker, a game a second: the run takes n seconds, and
			// half a second after its midpoint's game it is half way
			// through the next.
			done := n / 2
			at := done / PrecisionBatch * PrecisionBatch
			took := float64(done) + 0.5
			left, ok := PreciseLeft(done, most, time.Duration(took*float64(time.Second)), halves[at], at, want, 0, 0, 1)
			near := func(left float64) bool { return math.Abs(left-(float64(n)-took)) <= 0.25*(float64(n)-took) }
			if ok && near(left.Seconds()) {
				s++
			}
			if near(max(float64(oracle)-took, 0)) {
				k++
			}
		}
		t.Logf("rate %.0f%%: of %d runs, %d said within a quarter at the midpoint, %d knowing the rate", 100*p, runs, s, k)
		if float64(s) < 0.75*float64(k) {
			t.Errorf("rate %.0f%%: %d runs' time left said within a quarter at the midpoint, %d knowing the rate", 100*p, s, k)
		}
		said, knew = said+s, knew+k
	}
	if float64(said) < 0.9*float64(knew) {
		t.Errorf("%d runs' time left said within a quarter at the midpoint, %d knowing the rate", said, knew)
	}
}
