package scripting

// A mod's storage table becomes its record in the game state and back
// (values.go's banner says what the values files hold).

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/internal/workcount"
)

// MaxStorage bounds a mod's storage, encoded.
const MaxStorage = 256 << 10

// record is what the game state keeps of a mod: its storage and random
// stream.
type record struct {
	Storage json.RawMessage `json:"storage,omitempty"`
	RNG     string          `json:"rng"`
}

// A mod's storage lives in its Lua state from turn to turn: the table the
// handlers change is the one the next turn starts from, as long as the
// game plays on. The game state keeps each turn's record (save), for undo,
// redo, saves and replays; only when the state changes underneath (undo,
// redo, a loaded save, a failed turn, a dry run or a fork) is the table
// made again from a record (ready).
//
// Every save leaves the live table laid out exactly as the table decoded
// from its record would be (tidy): keys in the canonical order, no slots
// of removed keys, no nils after an array's end, no metatables, no table
// twice. So pairs, next, # and the table library behave alike whether the
// game played on or got to its state by undo, redo or a loaded save, and a
// replay cannot differ.

// save encodes the mod's storage and random stream for the game state,
// and tidies the live storage table (see above).
func (m *modRun) save() (string, error) {
	rec, err := m.record()
	return string(rec), err
}

// record is save's encoding, in the encoder's buffer: valid until the
// next encoding. A turn that left storage as it was compares it with the
// state's record and makes no string.
func (m *modRun) record() ([]byte, error) {
	// Raw access: a mod's metamethods on _G must not run outside a budget.
	st, ok := m.L.G.Global.RawGetString("storage").(*lua.LTable)
	if !ok {
		return nil, errors.New("the global storage must stay a table")
	}
	e := &m.enc
	e.reset(m.L)
	e.buf = append(e.buf, `{"storage":`...)
	mark := len(e.buf)
	e.end = mark + MaxStorage
	tidy, err := e.table(st, 0)
	e.release()
	if err != nil {
		return nil, err
	}
	if tidy != nil {
		m.L.G.Global.RawSetString("storage", tidy)
	}
	if string(e.buf[mark:]) == "[]" {
		e.buf = append(e.buf[:0], '{')
	} else {
		e.buf = append(e.buf, ',')
	}
	e.buf = append(e.buf, `"rng":"`...)
	e.buf = strconv.AppendUint(e.buf, m.rng.State, 16)
	e.buf = append(e.buf, `"}`...)
	return e.buf, nil
}

// ready readies the mod's storage and random stream for a move from a
// state whose record is rec ("" for one the mod has kept nothing in: what
// loading left). dry is for a move whose effects are thrown away (a dry
// run, a fork's move): the table it starts from is kept unchanged, for the
// game's next move or the search's next fork, and the handlers get a copy.
func (m *modRun) ready(rec string, dry bool) {
	if rec == "" {
		rec = m.initial
	}
	if rec == m.loaded && !m.ran {
		// The live table and stream are rec's, untouched.
		if !dry && m.guard {
			m.kept.take(rec)
		}
		m.guard = dry && m.touches
		return
	}
	m.guard = false
	if !m.touches {
		// The mod cannot reach its storage: only the stream goes back.
		if rec == m.loaded {
			m.rng = m.rngFrom
		} else {
			m.rng = m.recordRNG(rec)
		}
		m.settled(rec)
		return
	}
	var st *lua.LTable
	if k := m.kept.find(rec); k != nil {
		st, m.rng = k.t, k.rng
		if !dry {
			m.kept.take(rec)
		}
		m.guard = dry
	} else {
		st, m.rng = m.decode(rec)
		m.guard = dry
	}
	m.L.G.Global.RawSetString("storage", st)
	m.settled(rec)
}

// settled records that the live storage table and random stream are
// record rec's, with no handler run since.
func (m *modRun) settled(rec string) {
	m.loaded, m.ran, m.rngUsed, m.rngFrom = rec, false, false, m.rng
}

// beforeCall is called before a handler runs: a table that must stay as
// it is (ready's dry) is kept, and the handler gets a copy.
func (m *modRun) beforeCall() {
	if !m.guard {
		return
	}
	m.guard = false
	st, ok := m.L.G.Global.RawGetString("storage").(*lua.LTable)
	if !ok {
		return
	}
	if k := m.kept.find(m.loaded); k == nil || k.t != st {
		m.kept.add(m.loaded, st, m.rngFrom)
	}
	m.L.G.Global.RawSetString("storage", copyTable(m.L, st))
}

// recordRNG reads the random stream of a record; a record that cannot be
// read (a save edited by hand) gives the stream's start.
func (m *modRun) recordRNG(rec string) engine.RNG {
	const head = `{"rng":"`
	if len(rec) > len(head)+2 && rec[:len(head)] == head && rec[len(rec)-2:] == `"}` {
		if n, err := strconv.ParseUint(rec[len(head):len(rec)-2], 16, 64); err == nil {
			return engine.RNG{State: n}
		}
	}
	_, rng := m.decode(rec)
	return rng
}

// decode makes the storage table and random stream of a record; one that
// cannot be read gives an empty table and the stream's start.
func (m *modRun) decode(rec string) (*lua.LTable, engine.RNG) {
	rng := engine.DeriveRNG(m.host.opt.Seed, "mod:"+m.mod.ID())
	var r record
	if json.Unmarshal([]byte(rec), &r) != nil {
		return m.L.NewTable(), rng
	}
	if n, err := strconv.ParseUint(r.RNG, 16, 64); err == nil {
		rng = engine.RNG{State: n}
	}
	if len(r.Storage) > 0 && len(r.Storage) <= MaxStorage {
		if t, err := decodeTable(m.L, r.Storage, 0); err == nil {
			return t, rng
		}
	}
	return m.L.NewTable(), rng
}

// keptTables are the storage tables of recent records that no handler may
// change (ready's dry), most recently used last: a search's forks start
// from them again and again, and the game's next move takes its own back.
type keptTables struct {
	list  []keptTable
	bytes int
}

type keptTable struct {
	rec string
	t   *lua.LTable
	rng engine.RNG
}

// How much the kept tables hold at most: entries, and their records'
// bytes.
const (
	maxKept      = 16
	maxKeptBytes = 1 << 20
)

func (k *keptTables) find(rec string) *keptTable {
	for i := len(k.list) - 1; i >= 0; i-- {
		workcount.Step()
		if k.list[i].rec == rec {
			if i != len(k.list)-1 {
				e := k.list[i]
				copy(k.list[i:], k.list[i+1:])
				k.list[len(k.list)-1] = e
			}
			return &k.list[len(k.list)-1]
		}
	}
	return nil
}

func (k *keptTables) add(rec string, t *lua.LTable, rng engine.RNG) {
	if len(rec) > maxKeptBytes {
		return
	}
	k.take(rec)
	for len(k.list) > 0 && (len(k.list) >= maxKept || k.bytes+len(rec) > maxKeptBytes) {
		workcount.Step()
		k.bytes -= len(k.list[0].rec)
		k.list[0] = keptTable{}
		k.list = k.list[1:]
	}
	k.list = append(k.list, keptTable{rec: rec, t: t, rng: rng})
	k.bytes += len(rec)
}

// take drops rec's table from the kept ones: the game's move plays it.
func (k *keptTables) take(rec string) {
	for i := range k.list {
		workcount.Step()
		if k.list[i].rec == rec {
			k.bytes -= len(rec)
			k.list = append(k.list[:i], k.list[i+1:]...)
			return
		}
	}
}

// copyTable copies a tidy storage table (save), keys in its order, so the
// copy is laid out as the table is.
func copyTable(L *lua.LState, t *lua.LTable) *lua.LTable {
	workcount.Save()
	out := L.CreateTable(t.MaxN(), 0)
	for k, v := t.Next(lua.LNil); k != lua.LNil; k, v = t.Next(k) {
		workcount.Save()
		if sub, ok := v.(*lua.LTable); ok {
			v = copyTable(L, sub)
		}
		out.RawSet(k, v)
	}
	return out
}

// encoder writes storage tables (save), reusing its buffers.
type encoder struct {
	L    *lua.LState
	buf  []byte
	size int
	// end is where the encoding must stop, in buf (0: nowhere): it is
	// checked as the encoding grows, so that a table holding one long
	// string many times fails at the limit rather than after writing
	// every copy out (99,990 references to a 1 MB string asked for
	// 528 MB).
	end   int
	seen  map[*lua.LTable]struct{}
	pairs [][]pair // a list per depth
}

type pair struct {
	k     lua.LValue
	num   float64
	str   string
	isNum bool
	class int8 // the order of iteration: 0 array keys, 1 other numbers, 2 strings
	v     lua.LValue
}

func (e *encoder) reset(L *lua.LState) {
	e.L, e.buf, e.size, e.end = L, e.buf[:0], 0, 0
	if len(e.seen) > 0 {
		clear(e.seen)
	}
}

// table writes a table of plain data as a JSON list of [key, value] pairs:
// numbers in order, then strings sorted, so the same data always gives the
// same bytes. It returns the table tidied (save) when t is not tidy, nil
// when t is.
func (e *encoder) table(t *lua.LTable, depth int) (*lua.LTable, error) {
	workcount.Save()
	if depth > 16 {
		return nil, errors.New("tables nested more than 16 deep (or a table holds itself)")
	}
	for len(e.pairs) <= depth {
		workcount.Save()
		e.pairs = append(e.pairs, nil)
	}
	pairs := e.pairs[depth][:0]
	inOrder, hashed, numbers := true, 0, false
	var list listShape
	for k, v := t.Next(lua.LNil); k != lua.LNil; k, v = t.Next(k) {
		workcount.Save()
		e.size++
		if e.size > 100_000 {
			return nil, errors.New("more than 100000 entries")
		}
		p := pair{k: k, v: v}
		switch k := k.(type) {
		case lua.LNumber:
			f := float64(k)
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, fmt.Errorf("key %v is not a finite number", f)
			}
			p.num, p.isNum, p.class = f, true, 1
			if list.add(f) {
				p.class = 0
			} else {
				numbers = true
			}
		case lua.LString:
			p.str, p.class = string(k), 2
		default:
			return nil, fmt.Errorf("a key is %s; keys are numbers or strings", describe(k))
		}
		if p.class > 0 {
			hashed++
		}
		if n := len(pairs); n > 0 && inOrder {
			inOrder = iterates(pairs[n-1], p)
		}
		pairs = append(pairs, p)
	}
	e.pairs[depth] = pairs
	// The tables below the top one are remembered, to tell one held twice
	// (the top one is met once: a table that holds it nests without end).
	twice := false
	if depth > 0 {
		if e.seen == nil {
			e.seen = map[*lua.LTable]struct{}{}
		}
		_, twice = e.seen[t]
		e.seen[t] = struct{}{}
	}
	tidy := inOrder && !twice && t.Metatable == lua.LNil && laidOut(t, hashed)
	if !inOrder || numbers {
		// The encoding's order: every number before the strings.
		slices.SortFunc(pairs, func(a, b pair) int {
			if a.isNum != b.isNum {
				if a.isNum {
					return -1
				}
				return 1
			}
			if a.isNum {
				return cmp.Compare(a.num, b.num)
			}
			return strings.Compare(a.str, b.str)
		})
	}
	// What loading will make of the list: its keys set in this order.
	var loaded listShape
	for _, p := range pairs {
		workcount.Save()
		if p.isNum {
			loaded.add(p.num)
		}
	}
	if err := loaded.check(); err != nil {
		return nil, err
	}
	e.buf = append(e.buf, '[')
	for i := range pairs {
		workcount.Save()
		p := &e.pairs[depth][i]
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.buf = append(e.buf, '[')
		if p.isNum {
			e.buf = strconv.AppendFloat(e.buf, p.num, 'g', -1, 64)
		} else {
			e.buf = appendString(e.buf, p.str)
		}
		e.buf = append(e.buf, ',')
		if err := e.room(0); err != nil {
			return nil, err
		}
		sub, err := e.value(p.v, depth)
		if err != nil {
			return nil, err
		}
		if sub != nil {
			p.v = sub
			if tidy {
				t.RawSet(p.k, sub) // a key that is there: the layout stays
			}
		}
		e.buf = append(e.buf, ']')
	}
	e.buf = append(e.buf, ']')
	if tidy {
		return nil, nil
	}
	// Made again, as decoding the record would: keys in the encoding's
	// order.
	pairs = e.pairs[depth]
	out := e.L.CreateTable(t.MaxN(), hashed)
	for _, p := range pairs {
		workcount.Save()
		out.RawSet(p.k, p.v)
	}
	return out, nil
}

// keptPairs is the longest list of pairs the encoder keeps for the next
// encoding.
const keptPairs = 1024

// release lets go of the values the encoding's lists of pairs refer to,
// and of a list longer than keptPairs: the host keeps no more for a mod
// between turns than a small buffer (a storage of 100,000 entries left
// some 7 MB of pairs, and the values they named, that no weighing saw).
func (e *encoder) release() {
	for i, p := range e.pairs {
		workcount.Save()
		if cap(p) > keptPairs {
			e.pairs[i] = nil
			continue
		}
		clear(p[:cap(p)])
	}
}

// errStorageFull is the error of storage past MaxStorage, encoded.
var errStorageFull = fmt.Errorf("more than %d bytes", MaxStorage)

// room says whether n more bytes fit before the encoding's end.
func (e *encoder) room(n int) error {
	if e.end > 0 && len(e.buf)+n > e.end {
		return errStorageFull
	}
	return nil
}

// listShape follows the integer keys of a table, in ascending order, as
// a table made by setting them in that order lays them out: a key at most
// lua.MaxArrayGap past the end of the array part goes in it (the slots
// between hold nil), a key further out in the hash part.
type listShape struct {
	end     float64 // the array part's length
	entries int     // the keys in it
}

// add follows key f and says whether it goes in the array part.
func (l *listShape) add(f float64) bool {
	if f < 1 || f != math.Trunc(f) || f > l.end+lua.MaxArrayGap+1 {
		return false
	}
	l.entries++
	l.end = max(l.end, f)
	return true
}

// check refuses a list whose holes would cost far more to load than its
// entries take to store: more than one empty slot for each entry, plus
// lua.MaxArrayGap. Each key of [1] = 1, [66] = 1, [131] = 1 ... stores in
// 10 bytes and would load as 65 slots.
func (l *listShape) check() error {
	if int(l.end) > 2*l.entries+lua.MaxArrayGap {
		return fmt.Errorf("a list of %d entries spread over %d slots: a list may have at most as many holes as entries, plus %d (use string keys for a sparse table)",
			l.entries, int(l.end), lua.MaxArrayGap)
	}
	return nil
}

// iterates reports whether b comes after a in a tidy table's iteration:
// array keys in order, then other numbers in order, then strings sorted.
func iterates(a, b pair) bool {
	if a.class != b.class {
		return a.class < b.class
	}
	if a.isNum {
		return a.num < b.num
	}
	return a.str < b.str
}

// appendNumber writes f as strconv's shortest 'g' format does: a whole
// number below a million in magnitude (what storage mostly holds: counts,
// turns, cells) as its digits, the same text, without the float
// formatting's work.
func appendNumber(buf []byte, f float64) []byte {
	if f > -1e6 && f < 1e6 && f == math.Trunc(f) && (f != 0 || !math.Signbit(f)) {
		return strconv.AppendInt(buf, int64(f), 10)
	}
	return strconv.AppendFloat(buf, f, 'g', -1, 64)
}

// value writes one value; a table it returns replaces an untidy one.
func (e *encoder) value(v lua.LValue, depth int) (*lua.LTable, error) {
	workcount.Save()
	switch v := v.(type) {
	case lua.LBool:
		e.buf = strconv.AppendBool(e.buf, bool(v))
	case lua.LNumber:
		f := float64(v)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("%v is not a finite number", f)
		}
		e.buf = appendNumber(e.buf, f)
	case lua.LString:
		if err := e.room(len(v)); err != nil {
			return nil, err
		}
		e.buf = appendString(e.buf, string(v))
		if err := e.room(0); err != nil { // escapes may have made it longer
			return nil, err
		}
	case *lua.LTable:
		e.buf = append(e.buf, `{"table":`...)
		sub, err := e.table(v, depth+1)
		if err != nil {
			return nil, err
		}
		e.buf = append(e.buf, '}')
		return sub, nil
	default:
		return nil, fmt.Errorf("storage keeps plain data (numbers, strings, booleans, tables), not %s", describe(v))
	}
	return nil, nil
}

// laidOut reports whether t, whose entries iterate in order and hashed of
// which are not array keys, is laid out as a table made by setting its
// entries in order: no slot kept for a key that was removed (gopher-lua
// keeps one, and a key set again takes it back), no nil after the array's
// last element (table.remove would take the nil).
func laidOut(t *lua.LTable, hashed int) bool {
	list, keys := t.Layout()
	return keys == hashed && list == t.MaxN()
}

// appendString writes a Lua string as encoding/json would (HTML characters
// escaped) when it is valid UTF-8, else as {"b64": ...} of its bytes (Lua
// strings are bytes).
func appendString(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		workcount.Save()
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return append(buf, encodeString(s)...)
		}
	}
	buf = append(buf, '"')
	buf = append(buf, s...)
	return append(buf, '"')
}

// encodeString writes a Lua string exactly: as a JSON string when it is
// valid UTF-8, else as {"b64": ...} of its bytes (Lua strings are bytes).
func encodeString(s string) []byte {
	if utf8.ValidString(s) {
		b, _ := json.Marshal(s)
		return b
	}
	b, _ := json.Marshal(map[string]string{"b64": base64.StdEncoding.EncodeToString([]byte(s))})
	return b
}

// decodeString reads what encodeString wrote.
func decodeString(data json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(data, &s) == nil {
		return s, true
	}
	var obj struct {
		B64 *string `json:"b64"`
	}
	if json.Unmarshal(data, &obj) == nil && obj.B64 != nil {
		if b, err := base64.StdEncoding.DecodeString(*obj.B64); err == nil {
			return string(b), true
		}
	}
	return "", false
}

// decodeTable reads what encodeTable wrote.
func decodeTable(L *lua.LState, data []byte, depth int) (*lua.LTable, error) {
	workcount.Save()
	if depth > 17 {
		return nil, errors.New("too deep")
	}
	var pairs [][2]json.RawMessage
	if err := json.Unmarshal(data, &pairs); err != nil {
		return nil, err
	}
	// The keys first, so that a list that would cost far more to load
	// than its bytes is refused before its slots are made.
	keys := make([]lua.LValue, len(pairs))
	var list listShape
	for i, p := range pairs {
		workcount.Save()
		var f float64
		if s, ok := decodeString(p[0]); ok {
			keys[i] = lua.LString(s)
		} else if json.Unmarshal(p[0], &f) == nil {
			keys[i] = lua.LNumber(f)
			list.add(f)
		} else {
			return nil, errors.New("bad key")
		}
	}
	if err := list.check(); err != nil {
		return nil, err
	}
	t := L.NewTable()
	for i, p := range pairs {
		workcount.Save()
		v, err := decodeValue(L, p[1], depth)
		if err != nil {
			return nil, err
		}
		t.RawSet(keys[i], v)
	}
	return t, nil
}

func decodeValue(L *lua.LState, data json.RawMessage, depth int) (lua.LValue, error) {
	workcount.Save()
	var b bool
	var f float64
	var obj struct {
		Table json.RawMessage `json:"table"`
	}
	if json.Unmarshal(data, &b) == nil {
		return lua.LBool(b), nil
	}
	if json.Unmarshal(data, &f) == nil {
		return lua.LNumber(f), nil
	}
	if s, ok := decodeString(data); ok {
		return lua.LString(s), nil
	}
	if json.Unmarshal(data, &obj) == nil && obj.Table != nil {
		return decodeTable(L, obj.Table, depth+1)
	}
	return nil, errors.New("bad value")
}
