// Package ledger keeps the allocation ledger of the Lua VM, the sandbox
// and the host, and their loop ledger, its twin for time (below):
// allocs.txt lists every heap allocation the compiler reports in the
// patched gopher-lua (scripting/internal/lua and its ast and parse
// packages, the ones the binary holds), in scripting/internal/sandbox and
// in the host a mod's calls reach (package scripting itself, not its
// subpackages: its API, requests, payloads, storage, events and reports),
// each with why a mod cannot grow the heap through it unpaid. A site is
// what go build -gcflags=-m says "escapes to heap" or "moved to heap",
// and what it says "does not escape" but is made on the heap all the same
// when longer than the 32 bytes the compiler keeps on the stack: a make
// of a variable size, a string built or converted. Each is one of:
//
//   - metered: the allocation is charged to the mod's budget: by Spend
//     (a builtin charges the bytes it copies, BytesPerInstruction to the
//     instruction), or by the state's lua.Meter, which counts what tables,
//     closures and number blocks allocate and Budget.Done charges;
//   - bounded: its size is bounded by a small constant (a fixed-size
//     struct, a closure of a few words, a pointer in an interface), or no
//     mod's call pays it (load time, on a source the host caps at
//     MaxSource; the state's creation, once per mod; an error path, once
//     per raised error);
//   - unmetered: neither; the entry names what grows it, a lead to fix;
//   - unclassified: new, until a person writes one of the above.
//
// A site is keyed by package, file, enclosing function and the compiler's
// description, never by line, so the ledger survives unrelated edits; a
// line also holds how many such sites the function has, so a new site of a
// kind the function already has is caught too. The compiler names the
// parser's rules parser.go.y and yaccpar (its //line directives), and a
// generic of the standard library compiled into the packages by its path
// below GOROOT/src.
//
// TestAllocationLedger builds the packages with -gcflags=-m and fails
// listing the sites the ledger lacks, the entries whose sites are gone,
// and the entries still unclassified; it logs the unmetered ones (the
// constant failOnUnmetered makes them fail it). After a change to the VM,
// the sandbox or the host, run
//
//	make ledger    # go run ./scripting/internal/ledger/cmd/ledger -write
//
// which rewrites the ledger from the compiler's output, sorted, keeping
// every classification and marking new sites unclassified (a kind whose
// count grew too, with its old reason beside), then replace each
// unclassified: with the reason. The -where flag of the same command lists
// every site with the compiler's positions, to find them.
//
// The compiler's words change with Go releases, so a new Go may need the
// ledger regenerated (and its new keys classified from the old ones). The
// build is for linux/amd64 whatever the machine, so that the sites do not
// depend on it.
//
// The ledger sees the allocations of these packages' own code (and of what
// the compiler inlines into it), not those inside the functions they call
// in other packages: strconv's error that copies the text it failed to
// parse, strings.ToLower's copy, fmt.Sprintf's result where it does not
// escape, a regexp's replacement. Where such a call's result escapes, its
// site is listed (LString(strings.ToLower(str))); where it does not, the
// reader of the function must weigh it.
//
// # The loop ledger
//
// loops.txt lists every loop and every recursion of the same packages and
// of the host code a mod's call reaches (package scripting), with why a
// mod cannot make it run long unpaid: FindLoops reads the packages'
// non-test files with go/ast and finds each for and range statement, each
// goto that jumps back, and each function that calls itself or belongs to
// a cycle of its package's call graph (the static calls and references
// that go/types resolves). Each is one of:
//
//   - charged: every iteration is paid from the mod's budget; the entry
//     names the meter call (b.Spend, the state's Meter, Budget.Done
//     through the VM's instruction loop);
//   - bounded: a constant bounds its trip count (MaxPattern, MaxItems,
//     the board's size, a fixed table), or no mod's call runs it (load
//     time, a library no sandbox opens); a reason that rests on an
//     invariant names the test that holds it, and TestLoopLedger checks
//     that every test the ledger cites exists;
//   - uncharged: neither; the entry names what grows it, a lead to fix;
//   - unclassified: new, until a person writes one of the above.
//
// A loop is keyed by package, file, enclosing function and its header as
// gofmt prints it on one line (for i := 0; i < n; i++, for k, v := range
// t, goto L (back), recursion: calls F, G: the functions of its cycle the
// function calls), with how many such loops the function has: no line
// numbers. TestLoopLedger fails on a loop the ledger lacks, an entry whose
// loop is gone, an unclassified entry and an uncharged one (the leads it
// found first are fixed: failOnUncharged). After a change, run
//
//	make loops    # go run ./scripting/internal/ledger/cmd/loops -write
//
// and classify what it marks unclassified (-where lists every loop's
// positions). The call graph sees static calls only: a recursion through
// a function value (a Go builtin that calls back into the VM, a
// metamethod, the VM's jump table) is not found; the VM's call stack
// (Limits.CallStack) bounds those.
package ledger
