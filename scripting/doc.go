// Package scripting hosts Lua mods (gopher-lua) on the engine's events: one
// sandboxed Lua state per mod, plain-table payloads, requests that the host
// validates and the engine applies, per-mod storage and random streams kept
// in the game state, and errors that are reported without stopping the game.
// MODDING.md at the repository's top is the guide for mod authors.
//
// # Embedding
//
// A program loads each mod with package scripting/mod (mod.Load reads its
// folder: mod.toml and Lua files), sets its settings with mod.Mod's Set,
// and hands the mods to package scripting/session, which makes a Host for
// every game and plays moves through it. From this package such a program
// reads what the session hands out: Report (a mod's error: mod, event,
// file, line, message) and Hazard (how a mark is shown). Host, its Limits and
// the annotation and API listings are for code below the session and for
// tools (the mod scaffold, the LuaLS annotation file).
package scripting
