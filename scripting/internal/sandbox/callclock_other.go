//go:build !linux

package sandbox

import "time"

// callClock is the clock a call's time failsafe reads. Where no thread's
// CPU clock can be read from another thread (WebAssembly, which has one
// thread and runs no Watchdog while a call runs; other systems), it is
// the wall clock.
type callClock struct{}

var clockEpoch = time.Now()

func holdThread()    {}
func releaseThread() {}

func threadClock() callClock { return callClock{} }

func (callClock) read() time.Duration { return time.Since(clockEpoch) }

// ThreadTime is the wall clock's time here (see callClock).
func ThreadTime() time.Duration { return time.Since(clockEpoch) }

// ClockKind says what the time failsafe reads here.
const ClockKind = "the wall clock"
