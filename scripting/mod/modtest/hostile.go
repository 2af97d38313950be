// Package modtest holds hostile mods for the tests of every frontend that
// reads a player's mod (`2048 mod install`, the browser game), so that
// each is tested against the same archives and must refuse each with the
// same error (mod.ReadZip's).
package modtest

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"fmt"
	"hash/crc32"
	"io/fs"
	"maps"
	"runtime"
	"slices"

	"github.com/mod2048/mod2048/scripting/mod"
)

// Manifest is a valid manifest of the mod "m".
const Manifest = "id = \"m\"\nname = \"M\"\nversion = \"1.0.0\"\napi_version = 2\n"

// Archive is a hostile zip and what refusing it says.
type Archive struct {
	Name string // what is wrong with it
	Zip  []byte
	// Want is the error, after the zip's name and ": " (mod.ReadZip's
	// error is NAME: Want).
	Want string
}

// BombBytes is how much a bomb's entry inflates to: four times what a mod
// may have.
const BombBytes = 4 * mod.MaxBytes

// entry is an entry of a zip to write: a file or folder (name ending in
// /), a link, or a raw deflated file that declares size bytes.
type entry struct {
	name, content string
	link          bool
	spaces        int    // a file of this many spaces, deflated
	declared      uint64 // with spaces: the size its header declares
}

// file and link make entries; a file's name ending in / is a folder.
func file(name, content string) entry { return entry{name: name, content: content} }
func link(name, to string) entry      { return entry{name: name, content: to, link: true} }

// spaces is a file of n spaces, deflated, whose header declares declared
// bytes.
func spaces(name string, n int, declared uint64) entry {
	return entry{name: name, spaces: n, declared: declared}
}

// zipOf writes a zip of the entries in order (names may repeat); a name
// ending in / is a folder.
func zipOf(entries ...entry) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		if e.spaces > 0 {
			data, crc := deflated(e.spaces)
			w, err := zw.CreateRaw(&zip.FileHeader{Name: e.name, Method: zip.Deflate, CRC32: crc, CompressedSize64: uint64(len(data)), UncompressedSize64: e.declared})
			if err != nil {
				panic(err)
			}
			w.Write(data)
			continue
		}
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		if e.link {
			h.SetMode(fs.ModeSymlink | 0o777)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			panic(err)
		}
		w.Write([]byte(e.content))
	}
	if err := zw.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// deflated returns n spaces deflated, and their CRC-32, written a
// megabyte at a time (never whole in memory).
func deflated(n int) ([]byte, uint32) {
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, flate.BestSpeed)
	if err != nil {
		panic(err)
	}
	chunk := bytes.Repeat([]byte{' '}, 1<<20)
	crc := crc32.NewIEEE()
	for done := 0; done < n; done += len(chunk) {
		c := chunk[:min(len(chunk), n-done)]
		w.Write(c)
		crc.Write(c)
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes(), crc.Sum32()
}

// Zip is a zip of files (name → content), in name order.
func Zip(files map[string]string) []byte {
	var entries []entry
	for _, name := range slices.Sorted(maps.Keys(files)) {
		entries = append(entries, file(name, files[name]))
	}
	return zipOf(entries...)
}

// Bomb is a zip of the mod folder dir: its manifest, and a main.lua of n
// spaces, deflated, whose header declares declared bytes.
func Bomb(dir, manifest string, n int, declared uint64) []byte {
	return zipOf(file(dir+"/mod.toml", manifest), spaces(dir+"/main.lua", n, declared))
}

// Hostile returns the hostile zips: each over one of a mod's limits
// (mod.MaxEntries, MaxFiles, MaxFileBytes, MaxBytes), with a path that
// leaves the mod's folder, a link, a name given twice, a zip bomb (small
// deflated, huge inflated) whose header tells the truth, lies, or
// declares the limit, not a zip, or no mod.
func Hostile() []Archive {
	m := file("m/mod.toml", Manifest)
	main := file("m/main.lua", "")
	many := func(n int, name func(int) entry) []entry {
		out := []entry{m}
		for i := range n {
			out = append(out, name(i))
		}
		return out
	}
	size := func(n int) string { return fmt.Sprint(n>>20) + " MiB" }
	var out []Archive
	add := func(name, want string, entries ...entry) {
		out = append(out, Archive{Name: name, Zip: zipOf(entries...), Want: want})
	}
	out = append(out,
		Archive{"not a zip", []byte("PK this is no zip\n"), "not a zip: zip: not a valid zip file"},
		Archive{"a zip larger than a mod", append(zipOf(m, main), make([]byte, mod.MaxBytes)...), "the zip is larger than the " + size(mod.MaxBytes) + " a mod may have"},
	)
	add("too many entries", fmt.Sprintf("%d entries, more than the %d a mod's zip may have", mod.MaxEntries+1, mod.MaxEntries),
		many(mod.MaxEntries, func(i int) entry { return file(fmt.Sprintf("m/d%03d/", i), "") })...)
	add("too many files", fmt.Sprintf("%d files, more than the %d a mod may have", mod.MaxFiles+1, mod.MaxFiles),
		many(mod.MaxFiles, func(i int) entry { return file(fmt.Sprintf("m/f%03d.lua", i), "") })...)
	add("a name twice", `entry "m/main.lua" is in the zip twice: which one is the mod's is not clear`, m, main, file("m/main.lua", "error('x')"))
	add("a name twice, written two ways", `entry "m//main.lua" is in the zip twice: which one is the mod's is not clear`, m, main, file("m//main.lua", "error('x')"))
	add("a folder twice", `entry "m/lib" is in the zip twice: which one is the mod's is not clear`, m, file("m/lib/", ""), file("m/lib", ""))
	add("..", `entry "../evil.lua" would write outside the mod's folder`, m, file("../evil.lua", "x"))
	add(".. inside", `entry "m/../../evil.lua" would write outside the mod's folder`, m, file("m/../../evil.lua", "x"))
	add("an absolute path", `entry "/tmp/evil.lua" would write outside the mod's folder`, m, file("/tmp/evil.lua", "x"))
	add("a backslash", `entry "..\\evil.lua" would write outside the mod's folder`, m, file(`..\evil.lua`, "x"))
	add("a link", `entry "m/main.lua" is a link: a mod's zip may hold only files and folders`, m, link("m/main.lua", "/etc/passwd"))
	add("a control character", `entry "m/ma\x1bin.lua" has a control character in its name`, m, file("m/ma\x1bin.lua", ""))
	add("a file that is a folder", `entry "m/main.lua/x.lua" lies in "m/main.lua", which is a file`, m, main, file("m/main.lua/x.lua", ""))
	add("a folder that is a file", `entry "m/main.lua" is a file, and "m/main.lua/x.lua" lies in it`, m, file("m/main.lua/x.lua", ""), main)
	add("a file over a file's limit", `entry "m/big.lua" has more than the `+size(mod.MaxFileBytes)+" a file of a mod may have",
		m, main, spaces("m/big.lua", mod.MaxFileBytes+1, mod.MaxFileBytes+1))
	add("files over a mod's limit", "its files have more than the "+size(mod.MaxBytes)+" a mod may have",
		m, spaces("m/a.lua", mod.MaxBytes/2, mod.MaxBytes/2), spaces("m/b.lua", mod.MaxBytes/2, mod.MaxBytes/2))
	// Bombs: the header tells the truth (refused unread), lies (archive/zip
	// stops at what it declares), or declares a file's limit exactly (the
	// files then declare more than a mod's).
	add("a zip bomb", `entry "m/main.lua" has more than the `+size(mod.MaxFileBytes)+" a file of a mod may have",
		m, spaces("m/main.lua", BombBytes, BombBytes))
	add("a zip bomb whose header lies", `entry "m/main.lua": zip: not a valid zip file`,
		m, spaces("m/main.lua", BombBytes, 100))
	add("a zip bomb that declares the limit", "its files have more than the "+size(mod.MaxBytes)+" a mod may have",
		m, spaces("m/main.lua", BombBytes, mod.MaxFileBytes))
	add("no mod", "not a mod: it has no mod.toml", main, file("README.md", "hi"))
	add("two mods", "it holds several mods (a, b): give one", file("b/mod.toml", Manifest), file("a/mod.toml", Manifest))
	return out
}

// Allocated returns the bytes f allocates (the heap's total, after a
// collection): how a test holds reading a hostile zip to little memory.
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
