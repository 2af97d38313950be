// Package fuzz is the cost search's search guided by coverage: Go's native
// fuzzing (go test -fuzz FuzzSandbox) over Lua programs played in the
// real sandbox. Where costsearch combines fixed templates, Decode draws a
// mod from the whole grammar the sandbox takes, so that the fuzzer's
// coverage of the VM, the builtins and the host leads it to what the
// templates never write.
//
// Decode maps any byte string to a program: each of the generator's
// choices reads the next byte (three for a choice among more than 256),
// modulo the number of alternatives, and 0 once the bytes are spent, 0
// being always the simplest alternative (a literal, no more statements),
// so every byte string decodes, to the same program each time. The first
// choice is how many modules (0–3) the mod has; then main.lua: its top
// level, then 1–4 handlers (game.on, for any event), then the modules
// (m1.lua…, each a table of values and functions; main.lua and the later
// modules require them, at the top level or inside a handler). A block is
// statements: locals and assignments, if, numeric for, while and repeat
// with bounded trip counts, generic for (pairs, ipairs, next, gmatch,
// game.marks), functions and closures with upvalues and varargs,
// recursion (plain, tail, under pcall, with an error at its bottom),
// pcall, xpcall and error of any value, tables with metatables of any
// metamethods and their uses, the table library, strings made by the
// string library, the mod API (game.cell, cells, set, mark, unmark,
// marks, log, notify, random; storage's reads and writes), require and
// break. Expressions are typed (number, string, boolean, table,
// function), so that most programs run past their first statement, and
// draw on every operator and the builtins with operands of any size:
// string.rep up to MaxString, string.format with flag runs of thousands,
// patterns with long bracket classes (written out, or made by
// string.rep), %f, %b, captures and back-references, literals of up to
// 2 KiB. Loops are bounded by their trip counts and recursion by its
// depth argument, so a program mostly ends; one that does not is stopped
// by its budget. Every program compiles (TestDecodedProgramsParse).
//
// FuzzSandbox plays each program as costsearch.Runner does (a classic
// 4×4 game, the default limits, a deterministic host) for its load, its
// start and two turns, and holds it to the oracles: no panic and no error
// but the mod's own (no *scripting.CostModelError, no Go runtime error
// caught as the mod's); its turns' thread CPU time per charged
// instruction within costsearch.MaxNsPerInstruction (as a ratio to the
// peer program, measured when the target starts); and, for a program
// that allocated enough to hold costsearch.HeapFloor (the only ones the
// bound can fail), the heap it holds within costsearch.MaxHeapRatio of
// what it weighs, and nothing of the floor outliving its host. A
// violation of time or heap is measured twice more and the least kept.
// Built with the tag workcount (make test runs the seeds so), it holds
// a third, exact one too: the loop iterations of its turns, net of an
// empty mod's, at most workcount.WorkPerInstruction for each instruction
// charged (workcount_test.go).
// The seed corpus (testdata/fuzz/FuzzSandbox) holds the known attacks,
// written as the generator's choices (seeds_test.go); what the fuzzer
// finds past a bound that the sandbox has yet to mend is kept in
// testdata/fuzz-found, with a README, out of the corpus that go test
// runs.
package fuzz
