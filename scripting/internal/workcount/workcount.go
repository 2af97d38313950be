// Package workcount counts the iterations of the loops and recursions a mod can
// drive: the deterministic work count of the loop ledger
// (scripting/internal/ledger, loops.txt). Every loop and recursive
// function the ledger lists, but for those no mod reaches, calls Step
// first in its body (TestLoopLedger holds it, and `make loops` puts the
// call in). In a normal build Step is empty and the compiler drops it; in
// a build with the tag workcount it counts, so that a test can hold a
// program's work to a bound in its charged instructions, exactly and the
// same on every machine (MODDING's schedule: WorkPerInstruction).
//
// The loops that save and load a mod's storage call Save instead: the
// schedule bounds that work by storage's size (MaxStorage) rather than
// charging it, once a turn, so it is counted apart (Saved) and not held
// to WorkPerInstruction.
package workcount

// WorkPerInstruction is the bound: the loop iterations a program may run
// for each instruction it is charged (TestWorkBound, FuzzSandbox). The
// cheapest iterations are a byte of a copy or a scan, whose work the
// schedule charges an instruction for every 64 bytes (string.reverse,
// string.format, %q): 64 of them an instruction. The fuzz target found
// that a bound of 32 failed a reverse of a long string.
const WorkPerInstruction = 64
