package sandbox

import (
	"sync"
	"sync/atomic"
	"time"
)

// Watchdog is the failsafe of the hosts' mods: while a call runs it checks
// every tick that the call has not run longer than Limits.FailsafeTime by
// its own clock (callClock: on Linux the CPU time of the call's thread,
// which neither another game of the process nor another process moves),
// and stops it if it has. While no call runs
// it sleeps, with no ticker, until a call starts (Budget.start wakes it):
// a game waiting for a key costs it nothing.
//
// One Watchdog serves every host of the process (TheWatchdog): a host adds
// its mods' budgets when it loads them and removes them when it closes. A
// Watchdog of its own for each host cost a new game a goroutine, a ticker
// and its wake-ups: a third of a new session's time.
type Watchdog struct {
	mu      sync.Mutex
	budgets map[*Budget]string // Budget → mod id
	stop    chan struct{}
	once    sync.Once

	wake   chan struct{} // a call started while the Watchdog slept
	asleep atomic.Bool
	ticks  atomic.Int64 // times it has woken to check, for tests
}

const watchdogTick = 2 * time.Millisecond

func newWatchdog() *Watchdog {
	w := &Watchdog{budgets: map[*Budget]string{}, stop: make(chan struct{}), wake: make(chan struct{}, 1)}
	go w.run()
	return w
}

// TheWatchdog is the process's Watchdog, started on first use; it runs
// until the process ends.
var TheWatchdog = sync.OnceValue(newWatchdog)

// Add watches b's calls.
func (w *Watchdog) Add(b *Budget, id string) {
	b.mu.Lock()
	b.w = w
	b.mu.Unlock()
	w.mu.Lock()
	w.budgets[b] = id
	w.mu.Unlock()
}

// Remove stops watching b.
func (w *Watchdog) Remove(b *Budget) {
	w.mu.Lock()
	delete(w.budgets, b)
	w.mu.Unlock()
	b.mu.Lock()
	b.w = nil
	b.mu.Unlock()
}

func (w *Watchdog) close() { w.once.Do(func() { close(w.stop) }) }

// wakeUp wakes the Watchdog if it sleeps; a call has started. The caller
// has marked its call running first: the Watchdog marks itself asleep
// before it looks for running calls, so one of the two sees the other.
func (w *Watchdog) wakeUp() {
	if w.asleep.Load() {
		select {
		case w.wake <- struct{}{}:
		default:
		}
	}
}

// runningCall is a call the Watchdog watches.
type runningCall struct {
	b     *Budget
	calls uint64
	clock callClock
	known bool // the call has given its clock
}

// running returns the calls that run now. It clears out first: a Budget
// left in its unused room would keep a closed host's Lua state alive.
func (w *Watchdog) running(out []runningCall) []runningCall {
	clear(out[:cap(out)])
	out = out[:0]
	w.mu.Lock()
	defer w.mu.Unlock()
	for b := range w.budgets {
		b.mu.Lock()
		if b.running {
			out = append(out, runningCall{b, b.calls, b.clock, b.clockKnown})
		}
		b.mu.Unlock()
	}
	return out
}

// run checks the calls every tick while any runs. A call's time counts by
// its clock (callClock) from the first check that had it: at its first
// check the Watchdog asks the call for it, and the call gives it at its
// next instruction or builtin, so that a call shorter than a tick never
// pays the system call that names its thread.
func (w *Watchdog) run() {
	t := time.NewTicker(watchdogTick)
	defer t.Stop()
	var calls []runningCall
	for {
		select {
		case <-w.stop:
			return
		case <-t.C:
		}
		w.ticks.Add(1)
		calls = w.running(calls)
		if len(calls) == 0 {
			// Sleep until a call starts: first say so, then look again.
			t.Stop()
			w.asleep.Store(true)
			if calls = w.running(calls); len(calls) == 0 {
				select {
				case <-w.stop:
					return
				case <-w.wake:
				}
			}
			w.asleep.Store(false)
			select { // a wake-up sent after the second look
			case <-w.wake:
			default:
			}
			t.Reset(watchdogTick)
			w.ticks.Add(1)
			calls = w.running(calls)
		}
		for _, c := range calls {
			s := &c.b.seen                   // only this goroutine touches it
			if !s.ok || s.calls != c.calls { // a call began since the last tick
				*s = seen{ok: true, calls: c.calls, wall: time.Now()}
				if !c.known {
					c.b.wantClock(c.calls) // given at its next instruction
				}
			}
			c.b.mu.Lock()
			failsafe := c.b.failsafe
			c.b.mu.Unlock()
			switch {
			case c.known && !s.known: // its clock, from now on
				s.known, s.at = true, c.clock.read()
			case c.known:
				if c.clock.read()-s.at > failsafe {
					c.b.cancelCall(c.calls, Stop{StopFailsafe, timeReason(failsafe)})
				}
			case time.Since(s.wall) > failsafe:
				// Asked, the call has run no instruction nor builtin
				// since: stuck in one Go function, which no count sees. The
				// wall clock, as a last resort.
				c.b.cancelCall(c.calls, Stop{StopFailsafe, timeReason(failsafe)})
			}
		}
	}
}

// seen is what the Watchdog knows of a Budget's call, kept in the Budget
// (Budget.seen) rather than in a map of the Watchdog's, which would keep a
// closed host's Lua states alive.
type seen struct {
	ok    bool
	calls uint64        // the call it saw
	wall  time.Time     // when it first saw it
	known bool          // it has the call's clock
	at    time.Duration // the call's clock when it first had it
}

// Asleep says whether the watchdog sleeps: no call runs, and it holds
// none (for tests that weigh the heap).
func (w *Watchdog) Asleep() bool { return w.asleep.Load() }
