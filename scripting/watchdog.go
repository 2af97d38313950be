package scripting

import (
	"fmt"
	"runtime/metrics"
	"sync"
	"time"
)

// watchdog checks the running calls of a host's mods every tick: one past
// its deadline, or running while the heap has grown by more than the limit,
// is cancelled.
type watchdog struct {
	mu      sync.Mutex
	budgets map[*budget]string // budget → mod id
	limits  Limits
	stop    chan struct{}
	once    sync.Once
}

const watchdogTick = 2 * time.Millisecond

func newWatchdog(l Limits) *watchdog {
	w := &watchdog{budgets: map[*budget]string{}, limits: l, stop: make(chan struct{})}
	go w.run()
	return w
}

func (w *watchdog) add(b *budget, id string) {
	b.limit = w.limits.MaxHeapGrowth
	w.mu.Lock()
	w.budgets[b] = id
	w.mu.Unlock()
}

func (w *watchdog) close() { w.once.Do(func() { close(w.stop) }) }

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

func memoryReason(limit uint64) string {
	return fmt.Sprintf("exceeded its memory budget (%d MiB)", limit>>20)
}

// run checks the calls every tick. A call's memory is the growth of the
// Go heap since the tick before the call started (garbage collection during
// the call lowers the base); a call past an eighth of its limit is armed.
func (w *watchdog) run() {
	t := time.NewTicker(watchdogTick)
	defer t.Stop()
	sample := []metrics.Sample{{Name: heapMetric}}
	prev := readHeap(sample) // the heap at the last tick
	base := prev             // the heap when the running calls started
	seen := map[*budget]uint64{}
	limit := w.limits.MaxHeapGrowth
	timeReason := fmt.Sprintf("exceeded its time budget (%v a call, %v a turn)", w.limits.HandlerTime, w.limits.TurnTime)
	for {
		select {
		case <-w.stop:
			return
		case now := <-t.C:
			heap := readHeap(sample)
			w.mu.Lock()
			type call struct {
				b     *budget
				calls uint64
			}
			var running []call
			started := false
			for b := range w.budgets {
				b.mu.Lock()
				on, calls := !b.deadline.IsZero(), b.calls
				b.mu.Unlock()
				if on {
					running = append(running, call{b, calls})
					if seen[b] != calls {
						seen[b], started = calls, true
					}
					b.cancel(timeReason, now, true)
				}
			}
			w.mu.Unlock()
			switch {
			case len(running) == 0:
				base = heap
			case started: // a call began since the last tick
				base = min(prev, heap)
			case heap < base:
				base = heap
			}
			for _, c := range running {
				switch growth := heap - min(base, heap); {
				case growth > limit:
					c.b.cancelCall(c.calls, memoryReason(limit), now)
				case growth > limit/8:
					c.b.arm(c.calls, base)
				}
			}
			prev = heap
		}
	}
}
