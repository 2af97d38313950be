package scripting

import (
	"fmt"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"
)

// Limits bound what one mod may use. A handler that passes a limit stops
// with an error naming the limit; the game goes on without its effects.
//
// The budgets are counts, so that a handler passes or fails the same way on
// every machine and under any load, natively and in the browser: the VM
// counts one instruction for each it runs, the builtins that loop count
// their work too (see the charges in sandbox.go), and what a mod builds is
// charged by size: every bytesPerInstruction bytes a concatenation (`..`,
// concat.go), a builtin or a table (made or grown: lua.Meter, which Done
// reads) makes count one instruction, and each value a `...` passes on
// counts one. So HandlerInstructions and TurnInstructions also bound the bytes a
// call and a turn build (64 MiB and 256 MiB by default). MaxMemory bounds
// what a mod keeps from one call to the next, estimated from its values,
// never from the process's memory (memory.go).
//
// FailsafeTime is a failsafe for work no count sees (the length of a table
// full of holes): far above what the budgets let a handler do, it stops a
// call by the wall clock, which is not deterministic, and says so
// (Report.Failsafe). It does not run under WebAssembly, where no watchdog
// runs while a call does. MaxHeapGrowth, a failsafe on the growth of the
// whole process's heap during a call, is off (0) by default: nothing the
// budgets allow needs it, and what it reads counts every goroutine's
// memory (other games', with `2048 sim --jobs`), so it would let the
// machine decide a mod's fate. An embedder may set it as a last resort.
type Limits struct {
	HandlerInstructions int64 // one handler call
	TurnInstructions    int64 // all of one mod's handler calls in one turn, dry runs included (see BeforeMoveInstructions)
	// BeforeMoveInstructions bound one evaluation of a mod's before_move
	// handlers: in a move, and in each dry run that asks whether a move is
	// refused (Refused), which the play session runs for up to four
	// directions before a move. Those four dry runs come out of the
	// turn's budget: a mod with before_move handlers has
	// TurnInstructions less 4 × BeforeMoveInstructions for its move, so
	// that a move and its dry runs together run at most TurnInstructions.
	// 0 is TurnInstructions / 8.
	BeforeMoveInstructions int64
	LoadInstructions       int64         // loading the mod: its files' top level
	FailsafeTime           time.Duration // wall clock of one call (failsafe)
	CallStack              int           // Lua call frames (deep recursion ends in an error)
	Registry               int           // Lua data-stack slots
	MaxString              int           // bytes a builtin may produce (string.rep, upper, lower, reverse, format, gsub, table.concat)
	MaxPattern             int           // bytes of subject (and of pattern) string.gsub, gmatch, find and match may scan
	MaxItems               int           // values unpack and string.byte may return, elements table.concat may join and table.sort may sort
	MaxHandlers            int           // handlers one mod may register for one event
	MaxHeapGrowth          uint64        // growth of the process's Go heap during a call before the call is stopped (failsafe, last resort); 0, the default, is off
	MaxMemory              int64         // bytes of the Lua values a mod holds from one call to the next, weighed (memory.go); 0 is no limit
	// MaxGameMemory bounds what all the mods of a game hold together,
	// weighed as MaxMemory is: the ceiling that lets many mods, each
	// within its own budget, share a browser page. 0 is no limit.
	MaxGameMemory int64
	MaxLog        int // bytes of print output kept per mod
}

// defaultLimits are the limits mods run under. On the machine they were
// measured on (an AMD EPYC core, Go 1.26), gopher-lua runs 25 to 30 million
// instructions a second of arithmetic and 6 to 8 million of table building:
// a million instructions are 35 to 150 ms.
var defaultLimits = Limits{
	HandlerInstructions:    1_000_000,
	TurnInstructions:       4_000_000,
	BeforeMoveInstructions: 0, // TurnInstructions / 8: 500000
	LoadInstructions:       4_000_000,
	FailsafeTime:           2 * time.Second,
	CallStack:              200,
	Registry:               64 * 1024,
	MaxString:              1 << 20,
	MaxPattern:             64 << 10,
	MaxItems:               1 << 16,
	MaxHandlers:            64,
	MaxMemory:              64 << 20,
	MaxGameMemory:          128 << 20,
	MaxLog:                 64 << 10,
}

// DefaultLimits returns the limits mods run under unless the embedder sets
// others: a copy, to change as it likes.
func DefaultLimits() Limits { return defaultLimits }

// bytesPerInstruction is what a builtin charges for the bytes it copies or
// makes: one instruction for every 64, about the time the VM takes for one.
const bytesPerInstruction = 64

// stopKind says why a call was stopped.
type stopKind int

const (
	notStopped   stopKind = iota
	stopBudget            // out of instructions: the same on every run
	stopFailsafe          // the wall clock or the heap: depends on the machine
)

// stop is why the host stopped a call, if it did.
type stop struct {
	kind   stopKind
	reason string
}

// budget is the context a mod's Lua state runs under. The VM calls Done
// before every instruction, and Done counts: when the call's instructions
// are spent, the channel it returns is closed and the VM raises the
// budget's error at the next instruction, inside pcall or not. Builtins
// charge their work with spend. The watchdog closes the channel too, as a
// failsafe, when a call runs too long by the wall clock or grows the heap
// too much.
//
// A call that has grown the heap a good part of its limit is armed: then
// Done itself reads the heap every few instructions, so that a string that
// doubles at each instruction stops at the first instruction past the limit
// rather than at the watchdog's next tick (which a long copy can delay).
// And a builtin about to make a string of an eighth of the limit or more
// asks first (tooBig): with the heap as it stands, the string must not
// take the call past its limit. So one large copy cannot outrun the
// watchdog's tick, which a loaded machine can delay by many milliseconds.
type budget struct {
	box *sandbox // the sandbox whose state's context the budget is (sandboxOf)

	left int64  // instructions left to the running call; only its goroutine touches it
	over string // the error when they are spent

	mu       sync.Mutex
	done     chan struct{}
	why      stop
	running  bool
	failsafe time.Duration // the running call's wall-clock failsafe
	calls    uint64        // calls started, so the watchdog tells one call from the next
	w        *watchdog     // woken when a call starts, if it sleeps

	stopped atomic.Bool   // done is closed: the running call is stopped (Done)
	armed   atomic.Bool   // Done checks the heap
	armBase atomic.Uint64 // the heap the growth counts from, once armed
	base    uint64        // the heap when the running call started, if limit is set (written under mu)
	steps   int           // instructions since the armed call's last check
	limit   uint64        // Limits.MaxHeapGrowth
	heap    []metrics.Sample
	seen    seen // the watchdog's, touched by its goroutine only

	// meter counts what the state's tables allocate (lua.Meter), and
	// metered is how much of it Done has charged: every
	// bytesPerInstruction bytes a table is made or grown by count one
	// instruction, as a concatenation's do.
	meter   lua.Meter
	metered int64
	// strings are the bytes of the long strings the call's builtins and
	// concatenations made (tooBig counts them). The game's ceiling caps
	// what a call builds, tables and strings, at capBytes past capBase
	// (0: no cap), stopping it with capReason.
	strings   int64
	capBytes  int64
	capBase   int64
	capReason string
}

// built is what the state has built: its tables, closures and numbers
// (the meter) and its long strings.
func (b *budget) built() int64 { return b.meter.Bytes + b.strings }

// overCap says whether the running call has built more than its cap.
func (b *budget) overCap() bool {
	return b.capBytes > 0 && b.built()-b.capBase > b.capBytes
}

func newBudget() *budget {
	return &budget{done: make(chan struct{}), heap: []metrics.Sample{{Name: heapMetric}}}
}

func (b *budget) Deadline() (time.Time, bool) { return time.Time{}, false }
func (b *budget) Value(any) any               { return nil }

// Done counts one instruction. It returns the closed channel once the call
// is stopped, and nil before: the VM's select on a nil channel, before
// every instruction, costs less than one on an open channel.
func (b *budget) Done() <-chan struct{} {
	if n := b.meter.Bytes - b.metered; n >= bytesPerInstruction {
		k := n / bytesPerInstruction
		b.left -= k
		b.metered += k * bytesPerInstruction
		if b.overCap() {
			b.cancel(stop{stopBudget, b.capReason})
		}
	}
	if b.left--; b.left < 0 {
		b.cancel(stop{stopBudget, b.over})
	}
	if b.armed.Load() {
		if b.steps++; b.steps >= armedCheckPeriod {
			b.steps = 0
			if heap := readHeap(b.heap); heap > b.armBase.Load() && heap-b.armBase.Load() > b.limit {
				b.cancel(stop{stopFailsafe, memoryReason(b.limit)})
			}
		}
	}
	if b.stopped.Load() {
		return b.done
	}
	return nil
}

// spend charges n instructions of a builtin's work and raises the budget's
// error if the call is out of budget (or stopped by the failsafe).
func (b *budget) spend(L *lua.LState, n int) {
	if b.left -= int64(n); b.left < 0 {
		b.cancel(stop{stopBudget, b.over})
	}
	select {
	case <-b.done:
		L.RaiseError("%s", b.Err())
	default:
	}
}

// armedCheckPeriod is how many instructions an armed call runs between two
// reads of the heap: fewer than a loop that doubles a string takes.
const armedCheckPeriod = 3

func (b *budget) Err() error {
	select {
	case <-b.done:
		b.mu.Lock()
		defer b.mu.Unlock()
		return budgetError(b.why.reason)
	default:
		return nil
	}
}

type budgetError string

func (e budgetError) Error() string { return string(e) }

// start opens a call that may run n instructions, failing with over when it
// runs more, and runs at most failsafe by the wall clock.
func (b *budget) start(n int64, over string, failsafe time.Duration) {
	b.left, b.over, b.steps = n, over, 0
	b.armed.Store(false)
	var base uint64
	if b.limit > 0 {
		base = readHeap(b.heap)
	}
	b.mu.Lock()
	b.base = base // under the lock: the watchdog reads it with running
	b.running = true
	b.failsafe = failsafe
	b.calls++
	w := b.w
	b.mu.Unlock()
	if w != nil {
		w.wakeUp()
	}
}

// stop closes the call and returns the instructions it ran and why it was
// stopped, if it was; after a stop it makes a fresh channel, so the state
// stays usable.
func (b *budget) stop(n int64) (used int64, why stop) {
	used = n - max(b.left, 0)
	b.left = 0
	b.armed.Store(false)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.running = false
	select {
	case <-b.done:
		why = b.why
		b.done = make(chan struct{})
		b.why = stop{}
		b.stopped.Store(false)
	default:
	}
	return used, why
}

// cancel stops the running call, if one runs and is not stopped yet.
func (b *budget) cancel(why stop) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.running {
		return
	}
	select {
	case <-b.done:
	default:
		b.why = why
		close(b.done)
		b.stopped.Store(true)
	}
}

// arm makes call number calls check the heap itself, counting from base,
// if it still runs.
func (b *budget) arm(calls, base uint64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.calls == calls && b.running && !b.armed.Load() {
		b.armBase.Store(base)
		b.armed.Store(true)
	}
}

// tooBig is asked by a builtin before it makes a string of n bytes. With
// the memory failsafe on, a string of an eighth of the limit or more is
// weighed against the heap first: if the heap, with the string, would have
// grown more than the limit since the call started, the call is stopped
// and tooBig reports true (the builtin then raises the budget's error,
// spend(L, 0)); otherwise the call is armed.
func (b *budget) tooBig(n int) bool {
	b.strings += int64(n)
	if b.overCap() {
		b.cancel(stop{stopBudget, b.capReason})
		return true
	}
	if b.limit == 0 || uint64(n) < b.limit/8 {
		return false
	}
	if heap := readHeap(b.heap) + uint64(n); heap > b.base && heap-b.base > b.limit {
		b.cancel(stop{stopFailsafe, memoryReason(b.limit)})
		return true
	}
	b.arm(b.calls, b.base)
	return false
}

// cancelCall stops call number calls, if it still runs.
func (b *budget) cancelCall(calls uint64, why stop) {
	b.mu.Lock()
	same := b.calls == calls
	b.mu.Unlock()
	if same {
		b.cancel(why)
	}
}

func memoryReason(limit uint64) string {
	return fmt.Sprintf("stopped by the failsafe: the memory grew by more than %d MiB during the call", limit>>20)
}

func timeReason(d time.Duration) string {
	return fmt.Sprintf("stopped by the failsafe: the call ran for more than %v", d)
}

// The errors of a spent budget.
func callReason(l Limits) string {
	return fmt.Sprintf("exceeded its instruction budget (%d a call)", l.HandlerInstructions)
}

func turnReason(l Limits) string {
	return fmt.Sprintf("exceeded its instruction budget (%d a turn)", l.TurnInstructions)
}

// beforeMoveBudget is Limits.BeforeMoveInstructions, its default worked
// out; dryRunsReserve what a mod with before_move handlers sets aside of
// its turn for the dry runs; at least one instruction is left to the turn.
func beforeMoveBudget(l Limits) int64 {
	if l.BeforeMoveInstructions > 0 {
		return l.BeforeMoveInstructions
	}
	return l.TurnInstructions / 8
}

func dryRunsReserve(l Limits) int64 {
	return min(4*beforeMoveBudget(l), max(l.TurnInstructions-1, 0))
}

func beforeMoveReason(l Limits) string {
	return fmt.Sprintf("exceeded its instruction budget (%d for before_move)", beforeMoveBudget(l))
}

func dryTurnReason(l Limits) string {
	return fmt.Sprintf("exceeded its instruction budget (%d a turn, less %d kept for the dry runs of before_move)", l.TurnInstructions, dryRunsReserve(l))
}

func loadReason(l Limits) string {
	return fmt.Sprintf("exceeded its instruction budget (%d to load)", l.LoadInstructions)
}
