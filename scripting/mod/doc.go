// Package mod is a mod as data: its folder's manifest (mod.toml), read and
// checked, with errors that name the file, line and key (FileError); its
// settings; its files, read from a folder, from a file system in memory or
// from the sources a replay carries, as hostile input (MaxManifest,
// MaxSource); and the order in which mods load (Order).
//
// It runs no Lua: package scripting hosts a mod's code. A tool that only
// reads mods (lists them, installs them, carries their sources in a
// replay) needs this package alone, and no Lua VM.
package mod
