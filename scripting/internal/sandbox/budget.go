package sandbox

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"
)

// Limits are what a sandbox's own functions bound (the host's Limits
// holds them with the budgets it keeps itself).
type Limits struct {
	CallStack  int // Lua call frames (deep recursion ends in an error)
	Registry   int // Lua data-stack slots
	MaxString  int // bytes a builtin may produce (string.rep, upper, lower, reverse, format, gsub, table.concat)
	MaxPattern int // bytes of subject (and of pattern) string.gsub, gmatch, find and match may scan
	MaxItems   int // values unpack and string.byte may return, elements table.concat may join and table.sort may sort
}

// BytesPerInstruction is what a builtin charges for the bytes it copies or
// makes: one instruction for every 64, about the time the VM takes for one.
const BytesPerInstruction = 64

// StopKind says why a call was stopped.
type StopKind int

const (
	NotStopped   StopKind = iota
	StopBudget            // out of instructions: the same on every run
	StopFailsafe          // the call's clock: depends on the machine
)

// Stop is why the host stopped a call, if it did.
type Stop struct {
	Kind   StopKind
	Reason string
}

// Budget is the context a mod's Lua state runs under. The VM calls Done
// before every instruction, and Done counts: when the call's instructions
// are spent, the channel it returns is closed and the VM raises the
// Budget's error at the next instruction, inside pcall or not. Builtins
// charge their work with spend. The Watchdog closes the channel too, as a
// failsafe, when a call runs too long by its own clock (callClock: on
// Linux the CPU time of the call's thread, so that nothing else the
// machine runs can stop it).
//
// What a call builds (tables, closures, numbers and long strings) is
// counted as it is built, and SetCap bounds it: a builtin about to make a
// long string asks first (tooBig), so no copy is made past the cap.
type Budget struct {
	box *Box // the sandbox whose state's context the Budget is (Of)

	left int64  // instructions left to the running call; only its goroutine touches it
	over string // the error when they are spent

	mu       sync.Mutex
	done     chan struct{}
	why      Stop
	running  bool
	failsafe time.Duration // the running call's time failsafe
	calls    uint64        // calls started, so the Watchdog tells one call from the next
	clock    callClock     // the running call's clock, once given (giveClock; under mu)
	// clockKnown: the call has given its clock. The call gives it when
	// the Watchdog asks (stateWantClock), at its next instruction or
	// builtin: a call the Watchdog never sees, shorter than its tick,
	// never reads its thread (a system call).
	clockKnown bool
	w          *Watchdog // woken when a call starts, if it sleeps

	// state holds stateStopped (done is closed: the running call is
	// stopped) and stateWantClock (the Watchdog asks the call for its
	// clock): Done reads both with one load.
	state atomic.Uint32
	seen  seen // the Watchdog's, touched by its goroutine only

	// meter counts what the state's tables allocate and the work its
	// operations do in proportion to an operand (lua.Meter: Bytes and
	// Work), and metered is how much of the two Done has charged: every
	// BytesPerInstruction of them count one instruction, as a
	// concatenation's bytes do.
	meter   lua.Meter
	metered int64
	// strings are the bytes of the long strings the call's builtins and
	// concatenations made (tooBig counts them). The cap bounds what a call
	// builds, tables and strings, at capBytes past capBase (0: no cap),
	// stopping it with capReason.
	strings int64
	// code is what the files the state compiled hold (their prototypes,
	// CodeBuilt), which no meter counts.
	code      int64
	capBytes  int64
	capBase   int64
	capReason string
}

// built is what the state has built: its tables, closures and numbers
// (the meter), its long strings and its compiled code.
func (b *Budget) Built() int64 { return b.meter.Bytes + b.strings + b.code }

// CodeBuilt adds n bytes of compiled code (a file's prototypes, which the
// state now reaches) to what the state has built, and reports whether the
// running call is still within its cap: past it, the call is stopped with
// the cap's error, as a table or a string past it stops it.
func (b *Budget) CodeBuilt(n int64) bool {
	b.code += n
	if b.overCap() {
		b.cancel(Stop{StopBudget, b.capReason})
		return false
	}
	return true
}

// overCap says whether the running call has built more than its cap.
func (b *Budget) overCap() bool {
	return b.capBytes > 0 && b.CallBuilt() > b.capBytes
}

func NewBudget() *Budget {
	return &Budget{done: make(chan struct{})}
}

func (b *Budget) Deadline() (time.Time, bool) { return time.Time{}, false }
func (b *Budget) Value(any) any               { return nil }

// Done counts one instruction. It returns the closed channel once the call
// is stopped, and nil before: the VM's select on a nil channel, before
// every instruction, costs less than one on an open channel.
func (b *Budget) Done() <-chan struct{} {
	if n := b.meter.Bytes + b.meter.Work - b.metered; n >= BytesPerInstruction {
		k := n / BytesPerInstruction
		b.left -= k
		b.metered += k * BytesPerInstruction
		if b.overCap() {
			b.cancel(Stop{StopBudget, b.capReason})
		}
	}
	if b.left--; b.left < 0 {
		b.cancel(Stop{StopBudget, b.over})
	}
	if s := b.state.Load(); s != 0 {
		if s&stateWantClock != 0 {
			b.giveClock()
		}
		if s&stateStopped != 0 {
			return b.done
		}
	}
	return nil
}

// Spend charges n instructions of a builtin's work and raises the Budget's
// error if the call is out of budget (or stopped by the failsafe).
func (b *Budget) Spend(L *lua.LState, n int) {
	if b.state.Load()&stateWantClock != 0 {
		b.giveClock() // a builtin that works long between two instructions
	}
	if b.left -= int64(n); b.left < 0 {
		b.cancel(Stop{StopBudget, b.over})
	}
	select {
	case <-b.done:
		L.RaiseError("%s", b.Err())
	default:
	}
}

// Charge charges n instructions of the host's work for the running call
// that no Lua function does (compiling a file, CompileCost) and reports
// whether the call had them: when it had not, the call is stopped with the
// Budget's error (End reports it), and the work is not to be done.
// Outside a Lua function it raises nothing; within one, Spend does the same
// and raises the error.
func (b *Budget) Charge(n int64) bool {
	if b.left -= n; b.left < 0 {
		b.cancel(Stop{StopBudget, b.over})
		return false
	}
	return true
}

func (b *Budget) Err() error {
	select {
	case <-b.done:
		b.mu.Lock()
		defer b.mu.Unlock()
		return budgetError(b.why.Reason)
	default:
		return nil
	}
}

type budgetError string

func (e budgetError) Error() string { return string(e) }

// Start opens a call that may run n instructions, failing with over when it
// runs more, and runs at most failsafe by its clock (callClock). The
// goroutine that starts a call ends it (End): on Linux it holds its
// thread in between.
func (b *Budget) Start(n int64, over string, failsafe time.Duration) {
	b.left, b.over = n, over
	holdThread()
	b.mu.Lock()
	b.running = true
	b.failsafe = failsafe
	b.clock, b.clockKnown = callClock{}, false
	b.state.And(^uint32(stateWantClock))
	b.calls++
	w := b.w
	b.mu.Unlock()
	if w != nil {
		w.wakeUp()
	}
}

// End closes the call and returns the instructions it ran and why it was
// stopped, if it was; after a stop it makes a fresh channel, so the state
// stays usable.
func (b *Budget) End(n int64) (used int64, why Stop) {
	used = n - max(b.left, 0)
	b.left = 0
	b.mu.Lock()
	defer b.mu.Unlock()
	b.running = false
	releaseThread()
	select {
	case <-b.done:
		why = b.why
		b.done = make(chan struct{})
		b.why = Stop{}
		b.state.And(^uint32(stateStopped))
	default:
	}
	return used, why
}

// The bits of Budget.state.
const (
	stateStopped uint32 = 1 << iota
	stateWantClock
)

// giveClock answers the Watchdog's request: the running call's clock.
// Only the call's own goroutine calls it.
func (b *Budget) giveClock() {
	clock := threadClock()
	b.mu.Lock()
	b.clock, b.clockKnown = clock, true
	b.mu.Unlock()
	b.state.And(^uint32(stateWantClock))
}

// wantClock asks call number calls for its clock, if it still runs and
// has not given it.
func (b *Budget) wantClock(calls uint64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.calls == calls && b.running && !b.clockKnown {
		b.state.Or(stateWantClock)
	}
}

// cancel stops the running call, if one runs and is not stopped yet.
func (b *Budget) cancel(why Stop) {
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
		b.state.Or(stateStopped)
	}
}

// tooBig is asked by a builtin before it makes a string of n bytes: it
// counts the string among what the call built, and if that takes the call
// past its cap, stops the call and reports true (the builtin then raises
// the Budget's error, Spend(L, 0)) before the string is made.
func (b *Budget) tooBig(n int) bool {
	b.strings += int64(n)
	if b.overCap() {
		b.cancel(Stop{StopBudget, b.capReason})
		return true
	}
	return false
}

// cancelCall stops call number calls, if it still runs.
func (b *Budget) cancelCall(calls uint64, why Stop) {
	b.mu.Lock()
	same := b.calls == calls
	b.mu.Unlock()
	if same {
		b.cancel(why)
	}
}

func timeReason(d time.Duration) string {
	return fmt.Sprintf("stopped by the failsafe: the call ran for more than %v", d)
}

// SetCap caps what the next call may build, tables and strings, at bytes
// from what the state has built so far (0: no cap), stopping it with
// reason past them.
func (b *Budget) SetCap(bytes int64, reason string) {
	b.capBytes, b.capReason, b.capBase = bytes, reason, b.Built()
}

// CallBuilt is what the state has built since the cap was last set: what
// the call built.
func (b *Budget) CallBuilt() int64 { return b.Built() - b.capBase }
