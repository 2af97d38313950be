package scripting

import (
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// watchdog is the failsafe of the hosts' mods: while a call runs it checks
// every tick that the call has not run longer than Limits.FailsafeTime by
// the wall clock, nor grown the heap by more than Limits.MaxHeapGrowth (if
// set: it is off by default), and stops it if it has. While no call runs
// it sleeps, with no ticker, until a call starts (budget.start wakes it):
// a game waiting for a key costs it nothing.
//
// One watchdog serves every host of the process (theWatchdog): a host adds
// its mods' budgets when it loads them and removes them when it closes. A
// watchdog of its own for each host cost a new game a goroutine, a ticker
// and its wake-ups: a third of a new session's time.
type watchdog struct {
	mu      sync.Mutex
	budgets map[*budget]string // budget → mod id
	stop    chan struct{}
	once    sync.Once

	wake   chan struct{} // a call started while the watchdog slept
	asleep atomic.Bool
	ticks  atomic.Int64 // times it has woken to check, for tests
}

const watchdogTick = 2 * time.Millisecond

func newWatchdog() *watchdog {
	w := &watchdog{budgets: map[*budget]string{}, stop: make(chan struct{}), wake: make(chan struct{}, 1)}
	go w.run()
	return w
}

// theWatchdog is the process's watchdog, started on first use; it runs
// until the process ends.
var theWatchdog = sync.OnceValue(newWatchdog)

// add watches b's calls, which may grow the heap by at most limit
// (Limits.MaxHeapGrowth; 0 is no limit).
func (w *watchdog) add(b *budget, id string, limit uint64) {
	b.limit = limit
	b.mu.Lock()
	b.w = w
	b.mu.Unlock()
	w.mu.Lock()
	w.budgets[b] = id
	w.mu.Unlock()
}

// remove stops watching b.
func (w *watchdog) remove(b *budget) {
	w.mu.Lock()
	delete(w.budgets, b)
	w.mu.Unlock()
	b.mu.Lock()
	b.w = nil
	b.mu.Unlock()
}

func (w *watchdog) close() { w.once.Do(func() { close(w.stop) }) }

// wakeUp wakes the watchdog if it sleeps; a call has started. The caller
// has marked its call running first: the watchdog marks itself asleep
// before it looks for running calls, so one of the two sees the other.
func (w *watchdog) wakeUp() {
	if w.asleep.Load() {
		select {
		case w.wake <- struct{}{}:
		default:
		}
	}
}

const heapMetric = "/memory/classes/heap/objects:bytes"

// readHeap returns the bytes of the Go heap's objects, live or not yet
// collected.
func readHeap(sample []metrics.Sample) uint64 {
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return sample[0].Value.Uint64()
}

// runningCall is a call the watchdog watches.
type runningCall struct {
	b     *budget
	calls uint64
	base  uint64 // the heap when it started (budget.base)
}

// running returns the calls that run now. It clears out first: a budget
// left in its unused room would keep a closed host's Lua state alive.
func (w *watchdog) running(out []runningCall) []runningCall {
	clear(out[:cap(out)])
	out = out[:0]
	w.mu.Lock()
	defer w.mu.Unlock()
	for b := range w.budgets {
		b.mu.Lock()
		if b.running {
			out = append(out, runningCall{b, b.calls, b.base})
		}
		b.mu.Unlock()
	}
	return out
}

// run checks the calls every tick while any runs. A call's memory is the
// growth of the Go heap since the call started (budget.start reads it;
// garbage collection during the call lowers the base); a call past an
// eighth of its limit is armed. A call's time counts from the first check
// that saw it. Each call has its own base: neither the calls of other
// hosts, which start and end while it runs, nor what the program
// allocated before it started count against it.
func (w *watchdog) run() {
	t := time.NewTicker(watchdogTick)
	defer t.Stop()
	sample := []metrics.Sample{{Name: heapMetric}}
	var calls []runningCall
	for {
		var now time.Time
		select {
		case <-w.stop:
			return
		case now = <-t.C:
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
			now = time.Now()
			calls = w.running(calls)
		}
		heap := readHeap(sample)
		for _, c := range calls {
			s := &c.b.seen                   // only this goroutine touches it
			if !s.ok || s.calls != c.calls { // a call began since the last tick
				*s = seen{true, c.calls, now, min(c.base, heap)}
				continue
			}
			if heap < s.base {
				s.base = heap
			}
			c.b.mu.Lock()
			failsafe := c.b.failsafe
			c.b.mu.Unlock()
			if now.Sub(s.at) > failsafe {
				c.b.cancelCall(c.calls, stop{stopFailsafe, timeReason(failsafe)})
			}
		}
		for _, c := range calls {
			limit := c.b.limit
			if limit == 0 { // the memory failsafe is off
				continue
			}
			base := c.b.seen.base
			switch growth := heap - min(base, heap); {
			case growth > limit:
				c.b.cancelCall(c.calls, stop{stopFailsafe, memoryReason(limit)})
			case growth > limit/8:
				c.b.arm(c.calls, base)
			}
		}
	}
}

// seen is what the watchdog knows of a budget's call, kept in the budget
// (budget.seen) rather than in a map of the watchdog's, which would keep a
// closed host's Lua states alive.
type seen struct {
	ok    bool
	calls uint64    // the call it saw
	at    time.Time // when it first saw it
	base  uint64    // the heap its growth counts from
}
