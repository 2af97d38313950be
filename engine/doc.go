// Package engine is the deterministic core of the 2048 modding host.
//
// It owns the board, the rules interface, the game state machine, the seeded
// random source, the spawn queue, undo and redo, serialization and the event
// points that mods hook into. It does no I/O and knows nothing of terminals,
// files, Lua or TOML: everything else adapts to it.
//
// A Game plays one ruleset, given as a value of the Rules interface. The
// classic rules of 2048 ship in this package as Classic; other rulesets (see
// package cellular) implement Rules without touching it.
//
// A turn is built in a scratch copy of the state and swapped in only when it
// succeeds, so a step that fails (an invalid spawn, a hook's error, a refused
// move) leaves the game exactly as it was. All randomness comes from the RNG
// stored in the state, so a game restored from a save, or undone and played
// again, continues exactly as it would have.
package engine
