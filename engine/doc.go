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
//
// # Embedding
//
// A program that plays games (a frontend, a tool, a Go program embedding
// the host) plays them through package scripting/session, the one door: it
// builds the Game from a configuration, attaches the mods and keeps the
// player's view (legal moves and status with the mods' refusals). From this
// package such a program reads what the session hands out: State (its
// Board of Cells, Score, Status, Turn and Marks), Direction and DirSet,
// Result, Refusal and the other errors. Game, Hooks and the events are for
// code below the session: a ruleset (Rules, Turn), the mod host (Hooks),
// or a search that plays clones of a position without mods.
package engine
