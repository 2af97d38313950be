package sim

import (
	"sync/atomic"
	"testing"
)

// TestLedgerDropsEarly: a long game early in the order no longer holds a
// run's budget open: once the work of the games before a game reaches the
// budget, that game is dropped (a game under way at its next look, a game
// not started never starts), though the game that will reach the budget
// has not ended; and the games before the cut are never dropped. Before
// the ledger, a worker played every later game while game 0 went on (the
// study's run of 148 million moves for a share of 74 million).
func TestLedgerDropsEarly(t *testing.T) {
	var pending atomic.Uint64
	l := newLedger(1000, 20, &pending)
	if !l.start(0) {
		t.Fatal("game 0 may not start")
	}
	l.work[0].Store(500) // a long game, under way
	k := 1
	for ; k < 20; k++ {
		if !l.start(k) {
			break
		}
		l.work[k].Store(100)
		l.ended(k, true)
	}
	if k != 6 {
		t.Errorf("games 1 to %d started beside a game of 500 under a budget of 1000, want 1 to 5", k-1)
	}
	if l.dropped(5) || !l.dropped(6) || l.dropped(0) {
		t.Errorf("dropped: game 0 %v, 5 %v, 6 %v; want only 6", l.dropped(0), l.dropped(5), l.dropped(6))
	}
	// What is left: game 0, under way, to at most the budget by itself.
	if got := pending.Load(); got != 500 {
		t.Errorf("pending %d, want 500: game 0's way to the budget", got)
	}
	// Game 0 reaches the budget by itself: the cut is at it, and the
	// games after it are dropped.
	l.work[0].Store(1000)
	l.ended(0, true)
	if l.cut.Load() != 0 || !l.dropped(1) || pending.Load() != 0 {
		t.Errorf("cut %d, game 1 dropped %v, pending %d", l.cut.Load(), l.dropped(1), pending.Load())
	}

	// Games under way: game 2 is dropped at its next look once games 0
	// and 1, neither ended, have done the budget's work; game 1 is not,
	// for game 0 alone has not.
	l = newLedger(1000, 5, nil)
	for k := range 3 {
		l.start(k)
	}
	l.work[0].Store(600)
	l.work[1].Store(400)
	l.update()
	if l.dropped(1) || !l.dropped(2) {
		t.Errorf("game 1 dropped %v, game 2 %v; want game 2 only", l.dropped(1), l.dropped(2))
	}
	// No budget: nothing is dropped.
	l = newLedger(0, 3, nil)
	l.start(0)
	l.work[0].Store(1 << 40)
	l.ended(0, true)
	if !l.start(1) || l.dropped(2) {
		t.Error("a run without a budget dropped a game")
	}
}
