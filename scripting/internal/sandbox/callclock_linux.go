//go:build linux

package sandbox

import (
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

// callClock is the clock a call's time failsafe reads. On Linux it is the
// CPU time of the thread the call runs on, which the call holds for
// itself from Budget.Start to Budget.End (holdThread): no other goroutine
// runs on that thread meanwhile, so neither another game of the process
// nor another process on the machine moves it. The Watchdog reads it from
// its own goroutine through the thread's CPU clock id.
type callClock struct{ id int32 }

// holdThread locks the calling goroutine to its thread, releaseThread
// lets it go.
func holdThread()    { runtime.LockOSThread() }
func releaseThread() { runtime.UnlockOSThread() }

// threadClock returns the CPU clock of the calling thread (a system call:
// the call gives it only when the Watchdog asks, Budget.giveClock).
func threadClock() callClock {
	// MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED) of linux/posix-timers.h:
	// the thread's id, complemented, above the flags "per thread" (4)
	// and "scheduler time" (2).
	return callClock{int32(^uint32(syscall.Gettid())<<3) | 6}
}

// read returns the CPU time the thread has run.
func (c callClock) read() time.Duration {
	var ts syscall.Timespec
	if _, _, e := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, uintptr(c.id), uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}

// ThreadTime is the CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID):
// with the goroutine locked to its thread, the work it alone did,
// whatever else the machine runs. The cost search measures by it.
func ThreadTime() time.Duration {
	var ts syscall.Timespec
	const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID
	if _, _, e := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}

// ClockKind says what the time failsafe reads here.
const ClockKind = "the call's own CPU time"
