//go:build !workcount

package workcount

// Counting says whether this build counts (the tag workcount).
const Counting = false

// Step counts one iteration; in this build it does nothing.
func Step() {}

// Count returns the iterations counted so far: none in this build.
func Count() int64 { return 0 }

// Save counts one iteration of saving or loading a mod's storage; in this
// build it does nothing.
func Save() {}

// Saved returns the iterations Save counted: none in this build.
func Saved() int64 { return 0 }
