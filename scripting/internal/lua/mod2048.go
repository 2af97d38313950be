package lua

import (
	"errors"
	"github.com/mod2048/mod2048/scripting/internal/workcount" // [mod2048] the work count (PATCHES.md, 19)
	"maps"
	"strings"
	"sync/atomic"
)

// [mod2048] What this copy adds to gopher-lua for the mod host: a table's
// footprint (what its own structure holds on the heap), and a table's copy
// and compaction, which the host's sandbox templates use. PATCHES.md lists
// every change to upstream.

// The sizes of what a footprint counts, in bytes, for a 64-bit Go (amd64,
// arm64 and wasm alike) with Go's swiss-table maps (Go 1.24 on).
const (
	tableStruct   = 128 // an LTable: its fields, in the size class that holds them
	valueSlot     = 16  // an LValue in a slice: an interface
	mapHeader     = 48  // a map's header
	mapTable      = 48  // one table of a map's directory, with its directory entry
	mapGroupSlots = 8   // the slots of a map's group
	mapTableSlots = 1024
	strdictSlot   = 32 // a string key and an LValue
	dictSlot      = 32 // an LValue key and an LValue
	k2iSlot       = 24 // an LValue key and an int
)

// Footprint estimates the bytes the table's own structure holds: the table,
// its array part (by capacity), its hash maps (by the slots they have
// used since they were made: the room asked for and every new key, since a
// Go map keeps its room and the slots of deleted keys) and its key list. What its keys and values refer to is not counted. The figure
// depends only on what was done to the table, so it is the same on every
// machine.
func (tb *LTable) Footprint() int64 {
	n := int64(tableStruct) + int64(cap(tb.array))*valueSlot + int64(cap(tb.keys))*valueSlot
	if tb.strdict != nil {
		n += mapBytes(max(tb.usedS, len(tb.strdict)), strdictSlot)
	}
	if tb.dict != nil {
		n += mapBytes(max(tb.usedD, len(tb.dict)), dictSlot)
	}
	if tb.k2i != nil {
		n += mapBytes(len(tb.k2i), k2iSlot)
	}
	return n
}

// mapBytes estimates what a Go map that has held n entries of slot bytes
// each takes: a header and, for up to 8 entries, one group; past that,
// tables of groups whose slots are a power of two kept at most 7/8 full.
func mapBytes(n int, slot int64) int64 {
	group := 8 + mapGroupSlots*slot
	switch {
	case n == 0:
		return mapHeader
	case n <= mapGroupSlots:
		return mapHeader + sizeClass(group)
	}
	slots := int64(16)
	for slots*7/8 < int64(n) {
		workcount.Step()
		slots *= 2
	}
	tables := max(slots/mapTableSlots, 1)
	return mapHeader + tables*mapTable + slots/mapGroupSlots*group
}

// sizeClass rounds a small allocation up as Go's allocator does, roughly:
// to 16 bytes up to 128, to 32 up to 256, to 64 beyond.
func sizeClass(n int64) int64 {
	switch {
	case n <= 128:
		return (n + 15) &^ 15
	case n <= 256:
		return (n + 31) &^ 31
	default:
		return (n + 63) &^ 63
	}
}

// Clone returns a new table with tb's entries, which Next visits in tb's
// order, as if they had been set one by one in that order; its maps are
// copied whole. tb's metatable is not copied: the new table has none.
func (tb *LTable) Clone() *LTable {
	out := &LTable{Metatable: LNil}
	if tb.array != nil {
		out.array = append(make([]LValue, 0, len(tb.array)), tb.array...)
	}
	out.dict = cloneMap(tb.dict)
	out.strdict = cloneMap(tb.strdict)
	if tb.keys != nil {
		out.keys = append(make([]LValue, 0, len(tb.keys)), tb.keys...)
	}
	out.k2i = cloneMap(tb.k2i)
	out.dead, out.usedS, out.usedD = tb.dead, tb.usedS, tb.usedD
	return out
}

// Compact remakes tb's maps and key list with room for their entries and
// no more, dropping the keys deleted since, so that its copies are as
// small as they can be. tb keeps its entries and their order.
func (tb *LTable) Compact() {
	if tb.keys != nil {
		tb.compactKeys()
	}
	tb.strdict, tb.dict, tb.k2i = remake(tb.strdict), remake(tb.dict), remake(tb.k2i)
	if tb.keys != nil {
		tb.keys = append(make([]LValue, 0, len(tb.keys)), tb.keys...)
	}
	tb.usedS, tb.usedD = len(tb.strdict), len(tb.dict)
}

// cloneMap copies m whole, room and all (a compacted map has no more room
// than it needs); nil stays nil.
func cloneMap[K comparable, V any](m map[K]V) map[K]V {
	if m == nil {
		return nil
	}
	return maps.Clone(m)
}

// numberBlock is how many numbers the allocator of a state makes at once
// (upstream: 32). A number kept alive keeps its block alive: with 32, a mod
// that keeps one number in ten holds 256 bytes for each.
const numberBlock = 2

// ForEachHeld calls cb with every value the table holds and every key of
// its hash part: what it keeps alive. The keys of the array part are not
// values the table holds, but positions. The keys are those of its key
// list, which keeps the keys deleted since its last compaction too (and
// with them their strings: a table of 100,000 deleted string keys held
// 2.4 MB of them that the weighing missed).
func (tb *LTable) ForEachHeld(cb func(LValue)) {
	for _, v := range tb.array {
		workcount.Step()
		if v != LNil {
			cb(v)
		}
	}
	for _, v := range tb.strdict {
		workcount.Step()
		cb(v)
	}
	for _, v := range tb.dict {
		workcount.Step()
		cb(v)
	}
	if tb.keys != nil {
		for _, k := range tb.keys {
			workcount.Step()
			cb(k)
		}
		return
	}
	for k := range tb.strdict { // a table made without its key list
		workcount.Step()
		cb(LString(k))
	}
	for k := range tb.dict {
		workcount.Step()
		cb(k)
	}
}

// Meter counts the bytes the tables of a state allocate (LState.Meter):
// each table as it is made (its struct and the room asked for), its list
// part each time it grows (the slots added), and keyBytes for each new key
// of its hash part. The mod host charges them to the instruction budget,
// so that an instruction that makes or grows a table costs what it
// allocates. The count depends only on what the code did, never on the
// machine.
type Meter struct {
	Bytes int64
	// Work counts what the state's operations do in proportion to an
	// operand, in the same unit as Bytes (the host charges one instruction
	// for every 64): a string's bytes compared, hashed as a table key or
	// copied out of its parent (Scanned), and the keys and slots Next skips
	// to find the next entry (skipped). It is not memory: the host's caps
	// on what a call builds read Bytes alone.
	Work int64
}

// FreeScan is how long a string may be before the work done on its bytes
// is counted (Scanned): comparing or hashing up to 64 bytes takes less
// than the instruction that asks for it.
const FreeScan = 64

// Scanned counts the work of reading n bytes of a string (nil: not
// counted): comparing two strings, hashing one as a table key, copying
// one out of its parent.
func (m *Meter) Scanned(n int) {
	if n > FreeScan && m != nil {
		m.Work += int64(n)
	}
}

// The work Next does to skip what it does not return, in Meter.Work's
// unit: a key deleted from the hash part costs a lookup of its map (an
// instruction's worth), an empty slot of the list part a load and a test.
const (
	skipKeyWork  = 64
	skipSlotWork = 4
)

// skipped counts what Next skipped: keys of the hash part and slots of
// the array part.
func (tb *LTable) skipped(keys, slots int) {
	if tb.meter != nil {
		tb.meter.Work += int64(keys)*skipKeyWork + int64(slots)*skipSlotWork
	}
}

// scanned counts the hashing of a string key of the table's.
func (tb *LTable) scanned(key string) {
	if len(key) > FreeScan {
		tb.meter.Scanned(len(key))
	}
}

// SetMeter makes the table count on m, as a table the state made does
// (the sandbox's copies of its library templates).
func (tb *LTable) SetMeter(m *Meter) { tb.meter = m }

// keyBytes is what a new key of a table's hash part costs, on average:
// its slot in the map (a map keeps about half as many slots again as it
// holds keys), its entry in the key list and in the key index.
const keyBytes = 112

// newMeteredTable is newLTable, counted on m (nil: not counted).
func newMeteredTable(m *Meter, acap, hcap int) *LTable {
	tb := newLTable(acap, hcap)
	if m != nil {
		tb.meter = m
		m.Bytes += tableStruct + int64(max(acap, 0))*valueSlot
		if hcap > 0 {
			m.Bytes += mapBytes(hcap, strdictSlot)
		}
	}
	return tb
}

// grew counts the growth of the list part from capacity c.
func (tb *LTable) grew(c int) {
	if tb.meter != nil && cap(tb.array) > c {
		tb.meter.Bytes += int64(cap(tb.array)-c) * valueSlot
	}
}

// What a closure costs the meter (and the host's memory walk): the
// function, and for each upvalue its pointer and its cell.
const (
	ClosureBytes = 64
	UpvalueBytes = 56
)

// [mod2048] What a compiled function's prototype holds, as Go lays it
// out (protoStruct and the sizes below, for a 64-bit Go).
const (
	protoStruct  = 240 // a FunctionProto: its fields, in the size class that holds them
	dbgLocalInfo = 32  // a DbgLocalInfo
	dbgCallSlot  = 24  // a DbgCall in a slice
	stringSlot   = 16  // a string in a slice
	numberConst  = 8   // a number constant's box (Go packs two in 16 bytes)
)

// Footprint estimates the bytes the prototype's own structure holds: the
// prototype, its code and its source positions, its constants (a string's
// header and bytes, a number's box) and their strings' copies, its nested
// prototypes' pointers, its debug data (locals, calls, upvalue names, with
// their names' bytes), each slice by its capacity. What its nested
// prototypes hold is theirs (a walk visits each once). It depends only on
// the code compiled, so it is the same on every machine.
func (fp *FunctionProto) Footprint() int64 {
	n := int64(protoStruct)
	n += sliceBytes(cap(fp.Code), 4) + sliceBytes(cap(fp.DbgSourcePositions), 8)
	n += sliceBytes(cap(fp.Constants), valueSlot) + sliceBytes(cap(fp.stringConstants), stringSlot)
	for _, c := range fp.Constants {
		workcount.Step()
		switch c := c.(type) {
		case LString:
			if len(c) > 0 {
				n += stringSlot + stringBytes(len(c))
			}
		case LNumber:
			n += numberConst
		}
	}
	n += sliceBytes(cap(fp.FunctionPrototypes), 8)
	n += sliceBytes(cap(fp.DbgLocals), 8)
	for _, l := range fp.DbgLocals {
		workcount.Step()
		n += dbgLocalInfo + stringBytes(len(l.Name))
	}
	n += sliceBytes(cap(fp.DbgCalls), dbgCallSlot)
	for _, c := range fp.DbgCalls {
		workcount.Step()
		n += stringBytes(len(c.Name))
	}
	n += sliceBytes(cap(fp.DbgUpvalues), stringSlot)
	for _, u := range fp.DbgUpvalues {
		workcount.Step()
		n += stringBytes(len(u))
	}
	return n
}

// sliceBytes is what Go allocates for the backing array of n elements of size
// bytes each: nothing for none, else its size class.
func sliceBytes(n int, size int64) int64 {
	if n == 0 {
		return 0
	}
	return sizeClass(int64(n) * size)
}

// stringBytes is what Go allocates for a string's n bytes: nothing for
// none, small ones rounded up to 8 bytes (the collector packs the
// smallest together), the rest to their size class.
func stringBytes(n int) int64 {
	switch {
	case n == 0:
		return 0
	case n <= 16:
		return int64(n+7) &^ 7
	}
	return sizeClass(int64(n))
}

// Layout returns the length of the table's list part and how many keys its
// key list holds, deleted ones included until they are compacted: what
// tells a table made by setting its entries in order from one that was
// changed since (the host's storage keeps its tables laid out so).
func (tb *LTable) Layout() (listLen, keys int) { return len(tb.array), len(tb.keys) }

// compareStrings compares two strings for < and <=, counting the bytes
// it may read on the state's meter.
func (ls *LState) compareStrings(a, b LString) int {
	ls.Meter.Scanned(min(len(a), len(b)))
	return strCmp(string(a), string(b))
}

// equalStrings says whether two strings are equal, counting the bytes it
// may read on the state's meter: strings of different lengths differ at
// once.
func (ls *LState) equalStrings(a, b LString) bool {
	if len(a) == len(b) {
		ls.Meter.Scanned(len(a))
	}
	return a == b
}

// MaxNumberText is the longest string that converts to a number, spaces
// included: a longer one is not a number (tonumber gives nil, arithmetic
// on it fails), so that no conversion parses more than this.
const MaxNumberText = 1024

var errNumberTooLong = errors.New("a number's text is longer than 1024 bytes")

// parseWork is the work of parsing a byte of a number, in Meter.Work's
// unit: parsing takes about 5 ns a byte, so 8 bytes are an instruction.
const parseWork = 8

// parseNumber is parseNumber, counting its work on the state's meter: a
// string converted to a number by arithmetic, an argument or tonumber.
func (ls *LState) parseNumber(s string) (LNumber, error) {
	if len(s) <= MaxNumberText {
		ls.Meter.Scanned(len(s) * parseWork)
	}
	return parseNumber(s)
}

// Piece returns piece, a part of s, as a string of its own when it is
// shorter than s, counting the copy on the state's meter: a Go substring
// shares its parent's bytes, so one byte of a 16 MiB string kept by a mod
// kept all 16 MiB alive, where the host's weighing counts one. A copy
// costs the bytes it copies (the piece is at most what was scanned to
// find it), and the parent goes when nothing else holds it. The whole of
// s is s itself.
func Piece(L *LState, s, piece string) string {
	if len(piece) == len(s) {
		return s
	}
	L.Meter.Scanned(len(piece))
	return strings.Clone(piece)
}

// walks numbers the walks of the values of every state (NewWalk), so that
// a value knows the last walk that visited it: a walk of a mod's values
// (the host's weighing) tells a value it has seen from one it has not by
// a field of the value, where a map of every value seen took most of a
// walk's time (a microsecond for each of 400,000 closures).
var walks atomic.Uint64

// NewWalk returns a number no walk has had: a walk marks the values it
// visits with it (Visit). Walks of one state's values must not run at
// once; walks of different states' may.
func NewWalk() uint64 { return walks.Add(1) }

// sharedWalk marks a value that every state shares (MarkShared): no walk
// visits it, so that walks of different states, which may run at once,
// never write to it, and no state's weight counts it.
const sharedWalk = ^uint64(0)

// MarkShared marks the function, and what it reaches (its environment,
// its upvalues' values), as shared by every state: no walk visits them.
// It must be called before any state can reach the function.
func (fn *LFunction) MarkShared() {
	workcount.Step()
	if fn.walked == sharedWalk {
		return
	}
	fn.walked = sharedWalk
	if fn.Env != nil {
		fn.Env.MarkShared()
	}
	for _, uv := range fn.Upvalues {
		workcount.Step()
		markShared(uv.Value())
	}
}

// MarkShared marks the table, and what it holds and its metatable, as
// shared by every state: no walk visits them.
func (tb *LTable) MarkShared() {
	workcount.Step()
	if tb.walked == sharedWalk {
		return
	}
	tb.walked = sharedWalk
	markShared(tb.Metatable)
	tb.ForEachHeld(markShared)
}

func markShared(v LValue) {
	workcount.Step()
	switch v := v.(type) {
	case *LTable:
		v.MarkShared()
	case *LFunction:
		v.MarkShared()
	}
}

// Visit marks the table as visited by walk w, and says whether it was
// not yet.
func (tb *LTable) Visit(w uint64) bool {
	if tb.walked == w || tb.walked == sharedWalk {
		return false
	}
	tb.walked = w
	return true
}

// Visit marks the function as visited by walk w, and says whether it was
// not yet.
func (fn *LFunction) Visit(w uint64) bool {
	if fn.walked == w || fn.walked == sharedWalk {
		return false
	}
	fn.walked = w
	return true
}

// Visit marks the userdata as visited by walk w, and says whether it was
// not yet.
func (ud *LUserData) Visit(w uint64) bool {
	if ud.walked == w {
		return false
	}
	ud.walked = w
	return true
}

// Visited says whether walk w has visited the table, or it is shared
// (every walk may reach it).
func (tb *LTable) Visited(w uint64) bool { return tb.walked == w || tb.walked == sharedWalk }

// Visited says whether walk w has visited the function, or it is shared
// (every walk may reach it).
func (fn *LFunction) Visited(w uint64) bool { return fn.walked == w || fn.walked == sharedWalk }

// Visited says whether walk w has visited the userdata.
func (ud *LUserData) Visited(w uint64) bool { return ud.walked == w }
