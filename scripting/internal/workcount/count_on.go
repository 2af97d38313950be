//go:build workcount

package workcount

import "sync/atomic"

// Counting says whether this build counts (the tag workcount).
const Counting = true

var n, saved atomic.Int64

// Step counts one iteration.
func Step() { n.Add(1) }

// Count returns the iterations counted so far, by every goroutine: a test
// reads it around one program run alone.
func Count() int64 { return n.Load() }

// Save counts one iteration of saving or loading a mod's storage, apart
// from Step's.
func Save() { saved.Add(1) }

// Saved returns the iterations Save counted so far.
func Saved() int64 { return saved.Load() }
