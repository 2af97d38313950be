package sim

import "sync/atomic"

// ledger is a run's budget (Options.Budget), counted in game order: the
// run ends with the game at which the games before it and it reach the
// budget (cut), and the games after it are dropped. It also drops, at
// once, every game that the budget is sure to drop: game k once the work
// the games before it have done so far reaches the budget, though some of
// them are still under way (their work only grows, so the cut comes
// before k). Without it, a long game early in the order held the cut
// open while the other workers played on past the budget, work the run
// then threw away (a mod's endless game: a study's run played 148 million
// moves for a share of 74 million). The games kept are the same either
// way: a game before the cut is never sure to be dropped
// (TestLedgerDropsEarly, TestBudget).
//
// Its fields, but for work and the atomics, are guarded by the run's
// mutex.
type ledger struct {
	budget   uint64
	work     []atomic.Uint64 // each game's work so far; its whole work once it has ended
	finished []bool
	prefix   int    // the games 0 to prefix−1 have all finished
	spent    uint64 // and did this much work
	started  int    // the games 0 to started−1 have been given to a worker
	// cut is the game that reached the budget (len(work) while none
	// has); drop the first game sure to be dropped (len(work): none).
	cut, drop atomic.Int64
	// pending, when set, is kept at the most work the games under way and
	// not dropped may still do (Options.Pending).
	pending *atomic.Uint64
}

func newLedger(budget uint64, games int, pending *atomic.Uint64) *ledger {
	l := &ledger{budget: budget, work: make([]atomic.Uint64, games), finished: make([]bool, games), pending: pending}
	l.cut.Store(int64(games))
	l.drop.Store(int64(games))
	return l
}

// dropped says that game k is no longer needed: after the cut, or sure to
// be after it.
func (l *ledger) dropped(k int) bool {
	return int64(k) > l.cut.Load() || int64(k) >= l.drop.Load()
}

// start says whether game k (the next in order) may start: false once it
// is sure to be dropped, and then no game after it starts either.
func (l *ledger) start(k int) bool {
	l.started = k + 1
	l.update()
	return !l.dropped(k)
}

// ended records game k's end (ok: finished, its work its whole work) and
// moves the cut and the games sure to be dropped.
func (l *ledger) ended(k int, ok bool) {
	l.finished[k] = ok
	for l.budget > 0 && l.cut.Load() == int64(len(l.work)) && l.prefix < len(l.work) && l.finished[l.prefix] {
		l.spent += l.work[l.prefix].Load()
		if l.spent >= l.budget {
			l.cut.Store(int64(l.prefix))
		}
		l.prefix++
	}
	l.update()
}

// update moves drop to the first game whose games before it have done the
// budget's work so far, and works out pending.
func (l *ledger) update() {
	if l.budget == 0 {
		return
	}
	l.moveDrop()
	if l.pending != nil {
		var most uint64
		for k := l.prefix; k < l.started; k++ {
			if w := l.work[k].Load(); !l.finished[k] && !l.dropped(k) && w < l.budget {
				most += l.budget - w
			}
		}
		l.pending.Store(most)
	}
}

func (l *ledger) moveDrop() {
	sum := l.spent
	for k := l.prefix; k < l.started; k++ {
		if sum >= l.budget {
			l.drop.Store(int64(min(int64(k), l.drop.Load())))
			return
		}
		sum += l.work[k].Load()
	}
	if sum >= l.budget && l.started < len(l.work) {
		l.drop.Store(int64(min(int64(l.started), l.drop.Load())))
	}
}
