// Package mod is a mod as data: its folder's manifest (mod.toml), read and
// checked, with errors that name the file, line and key (FileError); its
// settings, and MOD.KEY=VALUE settings (ApplySettings); its files, read
// from a folder, from a file system in memory or from the sources a replay
// carries, as hostile input (MaxManifest, MaxSource); a player's mod as
// every frontend takes it, a zip, a folder or files given by path, held to
// one set of limits (ReadZip, ReadFolder, FolderFiles: MaxFiles,
// MaxEntries, MaxFileBytes, MaxBytes); and the order in which mods load
// (Order).
//
// It runs no Lua: package scripting hosts a mod's code. A tool that only
// reads mods (lists them, installs them, carries their sources in a
// replay) needs this package alone, and no Lua VM.
package mod
