package lua

import "github.com/mod2048/mod2048/scripting/internal/workcount" // [mod2048] the work count (PATCHES.md, 19)

const defaultArrayCap = 32
const defaultHashCap = 32

type lValueArraySorter struct {
	L      *LState
	Fn     *LFunction
	Values []LValue
}

func (lv lValueArraySorter) Len() int {
	return len(lv.Values)
}

func (lv lValueArraySorter) Swap(i, j int) {
	lv.Values[i], lv.Values[j] = lv.Values[j], lv.Values[i]
}

func (lv lValueArraySorter) Less(i, j int) bool {
	if lv.Fn != nil {
		lv.L.Push(lv.Fn)
		lv.L.Push(lv.Values[i])
		lv.L.Push(lv.Values[j])
		lv.L.Call(2, 1)
		return LVAsBool(lv.L.reg.Pop())
	}
	return lessThan(lv.L, lv.Values[i], lv.Values[j])
}

func newLTable(acap int, hcap int) *LTable {
	if acap < 0 {
		acap = 0
	}
	if hcap < 0 {
		hcap = 0
	}
	tb := &LTable{}
	tb.Metatable = LNil
	if acap != 0 {
		tb.array = make([]LValue, 0, acap)
	}
	if hcap != 0 {
		tb.strdict = make(map[string]LValue, hcap)
		tb.usedS = hcap // [mod2048] the room is made now
	}
	return tb
}

// Len returns length of this LTable without using __len.
func (tb *LTable) Len() int {
	if tb.array == nil {
		return 0
	}
	var prev LValue = LNil
	for i := len(tb.array) - 1; i >= 0; i-- {
		workcount.Step()
		v := tb.array[i]
		if prev == LNil && v != LNil {
			return i + 1
		}
		prev = v
	}
	return 0
}

// Append appends a given LValue to this LTable.
func (tb *LTable) Append(value LValue) {
	if value == LNil {
		return
	}
	if tb.array == nil {
		tb.array = make([]LValue, 0, defaultArrayCap)
		tb.grew(0) // [mod2048] metered
	}
	if len(tb.array) == 0 || tb.array[len(tb.array)-1] != LNil {
		c := cap(tb.array) // [mod2048] for grew
		tb.array = append(tb.array, value)
		tb.migrate() // [mod2048] see migrate
		tb.grew(c)   // [mod2048] metered
	} else {
		i := len(tb.array) - 2
		for ; i >= 0; i-- {
			if tb.array[i] != LNil {
				break
			}
		}
		tb.array[i+1] = value
	}
}

// Insert inserts a given LValue at position `i` in this table.
func (tb *LTable) Insert(i int, value LValue) {
	if tb.array == nil {
		tb.array = make([]LValue, 0, defaultArrayCap)
	}
	if i > len(tb.array) {
		tb.RawSetInt(i, value)
		return
	}
	if i <= 0 {
		tb.RawSet(LNumber(i), value)
		return
	}
	i -= 1
	c := cap(tb.array) // [mod2048] for grew
	tb.array = append(tb.array, LNil)
	copy(tb.array[i+1:], tb.array[i:])
	tb.array[i] = value
	tb.migrate() // [mod2048] see migrate
	tb.grew(c)   // [mod2048] metered
	tb.trim()    // [mod2048] see trim
}

// [mod2048] trim drops the nils at the end of the array part, so that its
// last slot always holds a value: the length (#) and Append then read one
// slot, where upstream scanned every nil back from the end, work that no
// budget counted (a list of a million nils made each # a million steps).
// Trimming a slot costs no more than growing over it did, and growth is
// metered.
func (tb *LTable) trim() {
	n := len(tb.array)
	for n > 0 && tb.array[n-1] == LNil {
		workcount.Step()
		n--
	}
	clear(tb.array[n:])
	tb.array = tb.array[:n]
}

// MaxN returns a maximum number key that nil value does not exist before it.
func (tb *LTable) MaxN() int {
	if tb.array == nil {
		return 0
	}
	for i := len(tb.array) - 1; i >= 0; i-- {
		workcount.Step()
		if tb.array[i] != LNil {
			return i + 1
		}
	}
	return 0
}

// Remove removes from this table the element at a given position.
func (tb *LTable) Remove(pos int) LValue {
	if tb.array == nil {
		return LNil
	}
	larray := len(tb.array)
	if larray == 0 {
		return LNil
	}
	i := pos - 1
	oldval := LNil
	switch {
	case i >= larray:
		// nothing to do
	case i == larray-1 || i < 0:
		oldval = tb.array[larray-1]
		tb.array = tb.array[:larray-1]
	default:
		oldval = tb.array[i]
		copy(tb.array[i:], tb.array[i+1:])
		tb.array[larray-1] = nil
		tb.array = tb.array[:larray-1]
	}
	tb.trim() // [mod2048] what is now the end may be a nil
	return oldval
}

// RawSet sets a given LValue to a given index without the __newindex metamethod.
// It is recommended to use `RawSetString` or `RawSetInt` for performance
// if you already know the given LValue is a string or number.
func (tb *LTable) RawSet(key LValue, value LValue) {
	switch v := key.(type) {
	case LNumber:
		if isArrayKey(v) {
			tb.RawSetInt(int(v), value) // [mod2048] one path for an integer key
			return
		}
	case LString:
		tb.RawSetString(string(v), value)
		return
	}

	tb.RawSetH(key, value)
}

// RawSetInt sets a given LValue at a position `key` without the __newindex metamethod.
func (tb *LTable) RawSetInt(key int, value LValue) {
	if key < 1 || key >= MaxArrayIndex {
		tb.RawSetH(LNumber(key), value)
		return
	}
	index := key - 1
	alen := len(tb.array)
	switch {
	case index < alen:
		tb.array[index] = value
		if value == LNil && index == alen-1 {
			tb.trim() // [mod2048] see trim
		}
	case index-alen > MaxArrayGap || tb.inHash(key):
		// [mod2048] A far key goes to the hash part, where it costs one
		// entry, not index-alen slots; so does one the hash part holds.
		tb.RawSetH(LNumber(key), value)
	case value == LNil:
		// [mod2048] Nothing to store, and nothing to grow the array for.
	default:
		c := cap(tb.array) // [mod2048] for grew
		if tb.array == nil {
			tb.array = make([]LValue, 0, defaultArrayCap)
		}
		// [mod2048] The keys between come from the hash part, if it holds
		// them, so that no key is in both parts.
		for k := alen + 1; k < key; k++ {
			workcount.Step()
			tb.array = append(tb.array, tb.takeH(k))
		}
		tb.array = append(tb.array, value)
		tb.migrate() // [mod2048] see migrate
		tb.grew(c)   // [mod2048] metered
	}
}

// [mod2048] MaxArrayGap is how far past the end of a table's array part an
// integer key may be set and still go in the array part, which then grows
// to it, the keys between holding nil. A key further out goes in the hash
// part. Upstream grows the array to any key below MaxArrayIndex, so that
// one instruction, t[67108863] = true, allocates 1 GiB of nils: with the
// gap, one assignment grows the array by at most MaxArrayGap slots.
const MaxArrayGap = 64

// [mod2048] inHash says whether the hash part holds the integer key.
func (tb *LTable) inHash(key int) bool {
	if len(tb.dict) == 0 {
		return false
	}
	_, ok := tb.dict[LNumber(key)]
	return ok
}

// [mod2048] takeH removes the integer key from the hash part and returns
// its value (nil if it held none).
func (tb *LTable) takeH(key int) LValue {
	if len(tb.dict) == 0 {
		return LNil
	}
	k := LNumber(key)
	v, ok := tb.dict[k]
	if !ok {
		return LNil
	}
	delete(tb.dict, k)
	tb.dead++
	return v
}

// [mod2048] migrate moves into the array part the keys that continue it
// from the hash part, so that the hash part never holds the key one past
// the array's end: the length (#) read from the array part is then a
// border of the whole table, and Append does not shadow a key.
func (tb *LTable) migrate() {
	if len(tb.dict) == 0 {
		return
	}
	for {
		workcount.Step()
		v := tb.takeH(len(tb.array) + 1)
		if v == LNil {
			return
		}
		tb.array = append(tb.array, v)
	}
}

// RawSetString sets a given LValue to a given string index without the __newindex metamethod.
func (tb *LTable) RawSetString(key string, value LValue) {
	tb.scanned(key) // [mod2048] hashing a long key is work
	if value == LNil {
		// [mod2048] The key stays in tb.keys, dead, until compactKeys.
		if _, ok := tb.strdict[key]; ok {
			delete(tb.strdict, key)
			tb.dead++
		}
		return
	}
	if tb.strdict == nil {
		// [mod2048] No room asked for: upstream's 32 made every table
		// with a string key set after its constructor 2 KiB.
		tb.strdict = make(map[string]LValue)
	}
	tb.strdict[key] = value
	tb.noteKey(LString(key)) // [mod2048] see noteKey
}

// [mod2048] noteKey adds a key just set to the keys that Next visits, if
// they lack it, and notes how many entries the hash maps have held.
func (tb *LTable) noteKey(key LValue) {
	if tb.keys == nil {
		tb.keys = []LValue{}
		tb.k2i = map[LValue]int{}
	}
	if s, ok := key.(LString); ok {
		tb.scanned(string(s)) // [mod2048] hashing a long key is work
	}
	if _, ok := tb.k2i[key]; ok {
		return
	}
	if tb.dead > compactAfter && tb.dead > len(tb.keys)/2 {
		tb.compactKeys()
	}
	tb.k2i[key] = len(tb.keys)
	tb.keys = append(tb.keys, key)
	// A new key takes a slot of its map; a Go map does not reuse the slots
	// of deleted keys for others before it grows.
	if _, ok := key.(LString); ok {
		tb.usedS++
	} else {
		tb.usedD++
	}
	if tb.meter != nil {
		tb.meter.Bytes += keyBytes
	}
}

// [mod2048] compactAfter is how many keys may be dead (deleted from the
// hash maps but still in tb.keys) before a new key compacts them.
const compactAfter = 32

// [mod2048] compactKeys drops the dead keys from tb.keys and tb.k2i, and
// remakes the hash maps if they hold a quarter of what they once held (a
// Go map never gives back its room): upstream kept every key ever set, so
// that a table whose keys come and go grew without bound. It runs only
// when a new key is set, which Lua's next forbids during a traversal, so
// no traversal loses its place.
func (tb *LTable) compactKeys() {
	live := tb.keys[:0]
	for _, k := range tb.keys {
		workcount.Step()
		if tb.RawGetH(k) != LNil {
			live = append(live, k)
		}
	}
	clear(tb.keys[len(live):])
	tb.keys = live
	tb.k2i = make(map[LValue]int, len(live))
	for i, k := range live {
		workcount.Step()
		tb.k2i[k] = i
	}
	if len(tb.strdict)*4 <= tb.usedS {
		tb.strdict, tb.usedS = remake(tb.strdict), len(tb.strdict)
	}
	if len(tb.dict)*4 <= tb.usedD {
		tb.dict, tb.usedD = remake(tb.dict), len(tb.dict)
	}
	if len(tb.keys)*4 <= cap(tb.keys) {
		tb.keys = append([]LValue(nil), tb.keys...)
	}
	tb.dead = 0
}

// [mod2048] remake returns a copy of m made for its size; nil stays nil.
// (compactKeys then counts its slots as used.)
func remake[K comparable, V any](m map[K]V) map[K]V {
	if m == nil {
		return nil
	}
	out := make(map[K]V, len(m))
	for k, v := range m {
		workcount.Step()
		out[k] = v
	}
	return out
}

// RawSetH sets a given LValue to a given index without the __newindex metamethod.
func (tb *LTable) RawSetH(key LValue, value LValue) {
	if s, ok := key.(LString); ok {
		tb.RawSetString(string(s), value)
		return
	}
	if value == LNil {
		// [mod2048] The key stays in tb.keys, dead, until compactKeys.
		if _, ok := tb.dict[key]; ok {
			delete(tb.dict, key)
			tb.dead++
		}
		return
	}
	if tb.dict == nil {
		// [mod2048] No room asked for: upstream asked for as many entries
		// as the string keys' map held.
		tb.dict = make(map[LValue]LValue)
	}
	tb.dict[key] = value
	tb.noteKey(key) // [mod2048] see noteKey
}

// RawGet returns an LValue associated with a given key without __index metamethod.
func (tb *LTable) RawGet(key LValue) LValue {
	switch v := key.(type) {
	case LNumber:
		if isArrayKey(v) {
			index := int(v) - 1
			if index >= len(tb.array) {
				return tb.getH(v) // [mod2048] a far key
			}
			return tb.array[index]
		}
	case LString:
		if tb.strdict == nil {
			return LNil
		}
		tb.scanned(string(v)) // [mod2048] hashing a long key is work
		if ret, ok := tb.strdict[string(v)]; ok {
			return ret
		}
		return LNil
	}
	if tb.dict == nil {
		return LNil
	}
	if v, ok := tb.dict[key]; ok {
		return v
	}
	return LNil
}

// RawGetInt returns an LValue at position `key` without __index metamethod.
func (tb *LTable) RawGetInt(key int) LValue {
	index := int(key) - 1
	if index >= len(tb.array) || index < 0 {
		return tb.getH(LNumber(key)) // [mod2048] a far key, or one out of the array's range
	}
	return tb.array[index]
}

// [mod2048] getH returns the value of a number key in the hash part.
func (tb *LTable) getH(key LNumber) LValue {
	if len(tb.dict) == 0 {
		return LNil
	}
	if v, ok := tb.dict[key]; ok {
		return v
	}
	return LNil
}

// RawGet returns an LValue associated with a given key without __index metamethod.
func (tb *LTable) RawGetH(key LValue) LValue {
	if s, sok := key.(LString); sok {
		if tb.strdict == nil {
			return LNil
		}
		tb.scanned(string(s)) // [mod2048] hashing a long key is work
		if v, vok := tb.strdict[string(s)]; vok {
			return v
		}
		return LNil
	}
	if tb.dict == nil {
		return LNil
	}
	if v, ok := tb.dict[key]; ok {
		return v
	}
	return LNil
}

// RawGetString returns an LValue associated with a given key without __index metamethod.
func (tb *LTable) RawGetString(key string) LValue {
	if tb.strdict == nil {
		return LNil
	}
	tb.scanned(key) // [mod2048] hashing a long key is work
	if v, vok := tb.strdict[string(key)]; vok {
		return v
	}
	return LNil
}

// ForEach iterates over this table of elements, yielding each in turn to a given function.
func (tb *LTable) ForEach(cb func(LValue, LValue)) {
	if tb.array != nil {
		for i, v := range tb.array {
			workcount.Step()
			if v != LNil {
				cb(LNumber(i+1), v)
			}
		}
	}
	if tb.strdict != nil {
		for k, v := range tb.strdict {
			workcount.Step()
			if v != LNil {
				cb(LString(k), v)
			}
		}
	}
	if tb.dict != nil {
		for k, v := range tb.dict {
			workcount.Step()
			if v != LNil {
				cb(k, v)
			}
		}
	}
}

// This function is equivalent to lua_next ( http://www.lua.org/manual/5.1/manual.html#lua_next ).
func (tb *LTable) Next(key LValue) (LValue, LValue) {
	init := false
	if key == LNil {
		key = LNumber(0)
		init = true
	}

	if init || key != LNumber(0) {
		// [mod2048] Only a key of the array part (or the start) goes on in
		// the array part: a far integer key is in the hash part, and goes
		// on from its place there (upstream went back to the hash part's
		// first key for any integer key past an empty array part).
		if kv, ok := key.(LNumber); ok && isInteger(kv) && kv >= 0 && kv <= LNumber(len(tb.array)) {
			index := int(kv)
			for ; index < len(tb.array); index++ {
				workcount.Step()
				if v := tb.array[index]; v != LNil {
					tb.skipped(0, index-int(kv)) // [mod2048] the holes skipped are work
					return LNumber(index + 1), v
				}
			}
			tb.skipped(0, index-int(kv)) // [mod2048] the holes skipped are work
			if len(tb.dict) == 0 && len(tb.strdict) == 0 {
				return LNil, LNil
			}
			key = tb.keys[0]
			if v := tb.RawGetH(key); v != LNil {
				return key, v
			}
			tb.skipped(1, 0) // [mod2048] a deleted key skipped is work
		}
	}

	if s, ok := key.(LString); ok {
		tb.scanned(string(s)) // [mod2048] hashing a long key is work
	}
	start := tb.k2i[key] + 1
	for i := start; i < len(tb.keys); i++ {
		workcount.Step()
		key := tb.keys[i]
		if v := tb.RawGetH(key); v != LNil {
			tb.skipped(i-start, 0) // [mod2048] the deleted keys skipped are work
			return key, v
		}
	}
	tb.skipped(len(tb.keys)-start, 0) // [mod2048] the deleted keys skipped are work
	return LNil, LNil
}
