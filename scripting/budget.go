package scripting

import (
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// Limits bound what one mod may use. A handler that passes a limit stops
// with an error naming the limit; the game goes on without its effects.
type Limits struct {
	HandlerTime   time.Duration // one handler call
	TurnTime      time.Duration // all of one mod's handler calls in one turn
	CallStack     int           // Lua call frames (deep recursion ends in an error)
	Registry      int           // Lua data-stack slots
	MaxString     int           // bytes a builtin may produce (string.rep, upper, lower, reverse, format, gsub, table.concat)
	MaxPattern    int           // bytes of subject (and of pattern) string.gsub, gmatch, find and match may scan
	MaxItems      int           // values unpack and string.byte may return, elements table.concat may join and table.sort may sort
	MaxHandlers   int           // handlers one mod may register for one event
	MaxHeapGrowth uint64        // Go heap growth during a call before the call is stopped
	MaxLog        int           // bytes of print output kept per mod
}

// DefaultLimits are the limits mods run under.
var DefaultLimits = Limits{
	HandlerTime:   50 * time.Millisecond,
	TurnTime:      200 * time.Millisecond,
	CallStack:     200,
	Registry:      64 * 1024,
	MaxString:     1 << 20,
	MaxPattern:    64 << 10,
	MaxItems:      1 << 16,
	MaxHandlers:   64,
	MaxHeapGrowth: 512 << 20,
	MaxLog:        64 << 10,
}

// budget is the context a mod's Lua state runs under: the VM checks Done on
// every instruction, and the watchdog closes it when a call runs out of time
// or memory. Unlike a context.WithTimeout, it costs nothing per call.
//
// A call that has grown the heap a good part of its limit is armed: then
// Done itself reads the heap every few instructions, so that a string that
// doubles at each instruction stops at the first instruction past the limit
// rather than at the watchdog's next tick (which a long copy can delay).
type budget struct {
	mu       sync.Mutex
	done     chan struct{}
	reason   string
	deadline time.Time // zero while no call runs
	calls    uint64    // calls started, so the watchdog tells one call from the next

	armed   atomic.Bool   // Done checks the heap
	armBase atomic.Uint64 // the heap the growth counts from, once armed
	steps   int           // instructions since the armed call's last check
	limit   uint64        // Limits.MaxHeapGrowth
	heap    []metrics.Sample
}

func newBudget() *budget {
	return &budget{done: make(chan struct{}), heap: []metrics.Sample{{Name: heapMetric}}}
}

func (b *budget) Deadline() (time.Time, bool) { return time.Time{}, false }
func (b *budget) Value(any) any               { return nil }

func (b *budget) Done() <-chan struct{} {
	if b.armed.Load() {
		if b.steps++; b.steps >= armedCheckPeriod {
			b.steps = 0
			if heap := readHeap(b.heap); heap > b.armBase.Load() && heap-b.armBase.Load() > b.limit {
				b.cancel(memoryReason(b.limit), time.Now(), false)
			}
		}
	}
	return b.done
}

// armedCheckPeriod is how many instructions an armed call runs between two
// reads of the heap: fewer than a loop that doubles a string takes.
const armedCheckPeriod = 3

func (b *budget) Err() error {
	select {
	case <-b.done:
		return budgetError(b.reason)
	default:
		return nil
	}
}

type budgetError string

func (e budgetError) Error() string { return string(e) }

// start opens a call that must end by deadline.
func (b *budget) start(deadline time.Time) {
	b.mu.Lock()
	b.armed.Store(false)
	b.deadline = deadline
	b.calls++
	b.mu.Unlock()
	b.steps = 0
}

// stop closes the call; after a cancellation it makes a fresh channel, so
// the state stays usable.
func (b *budget) stop() (cancelled string) {
	b.armed.Store(false)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.deadline = time.Time{}
	select {
	case <-b.done:
		cancelled = b.reason
		b.done = make(chan struct{})
		b.reason = ""
	default:
	}
	return cancelled
}

// cancel stops the running call, if one runs, with reason.
func (b *budget) cancel(reason string, now time.Time, timeOnly bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.deadline.IsZero() || (timeOnly && now.Before(b.deadline)) {
		return
	}
	select {
	case <-b.done:
	default:
		b.reason = reason
		close(b.done)
	}
}

// arm makes call number calls check the heap itself, counting from base,
// if it still runs.
func (b *budget) arm(calls, base uint64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.calls == calls && !b.deadline.IsZero() && !b.armed.Load() {
		b.armBase.Store(base)
		b.armed.Store(true)
	}
}

// cancelCall cancels call number calls, if it still runs.
func (b *budget) cancelCall(calls uint64, reason string, now time.Time) {
	b.mu.Lock()
	same := b.calls == calls
	b.mu.Unlock()
	if same {
		b.cancel(reason, now, false)
	}
}
