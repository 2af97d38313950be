// Package ledger keeps the allocation ledger of the Lua VM and the
// sandbox: allocs.txt lists every heap allocation the compiler reports in
// the patched gopher-lua (scripting/internal/lua and its ast, parse and pm
// packages, the ones the binary holds) and in scripting/internal/sandbox,
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
//     mod's call pays it (load time, charged by the compile budget; the
//     state's creation, once per mod; an error path, once per raised
//     error);
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
// constant failOnUnmetered makes them fail it). After a change to the VM
// or the sandbox, run
//
//	make ledger    # go run ./scripting/internal/ledger/cmd/ledger -write
//
// which rewrites the ledger from the compiler's output, sorted, keeping
// every classification and marking new sites unclassified, then replace
// each unclassified: with the reason. The compiler's words change with Go
// releases, so a new Go may need the ledger regenerated (and its new keys
// classified from the old ones).
package ledger
