package scripting

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"unicode/utf8"

	lua "github.com/yuin/gopher-lua"

	"github.com/mod2048/mod2048/engine"
)

// MaxStorage bounds a mod's storage, encoded.
const MaxStorage = 256 << 10

// record is what the game state keeps of a mod: its storage and random
// stream.
type record struct {
	Storage json.RawMessage `json:"storage,omitempty"`
	RNG     string          `json:"rng"`
}

// save encodes the mod's storage and random stream for the game state.
func (m *modRun) save() (string, error) {
	// Raw access: a mod's metamethods on _G must not run outside a budget.
	st, ok := m.L.G.Global.RawGetString("storage").(*lua.LTable)
	if !ok {
		return "", errors.New("the global storage must stay a table")
	}
	enc, err := encodeTable(st, 0, new(int))
	if err != nil {
		return "", err
	}
	if len(enc) > MaxStorage {
		return "", fmt.Errorf("%d bytes, more than %d", len(enc), MaxStorage)
	}
	r := record{RNG: strconv.FormatUint(m.rng.State, 16)}
	if string(enc) != "[]" {
		r.Storage = enc
	}
	out, err := json.Marshal(r)
	return string(out), err
}

// restore sets the mod's storage and random stream from a record; "" (a
// game the mod has kept nothing in yet) means what they were when the mod
// had loaded.
func (m *modRun) restore(rec string) {
	m.loaded, m.ran, m.decoded = rec, false, true
	if rec == "" {
		rec = m.initial
	}
	m.rng = engine.DeriveRNG(m.host.opt.Seed, "mod:"+m.mod.ID())
	st := m.L.NewTable()
	if rec != "" {
		var r record
		if json.Unmarshal([]byte(rec), &r) == nil {
			if n, err := strconv.ParseUint(r.RNG, 16, 64); err == nil {
				m.rng = engine.RNG{State: n}
			}
			if len(r.Storage) > 0 {
				if t, err := decodeTable(m.L, r.Storage, 0); err == nil {
					st = t
				}
			}
		}
	}
	m.L.G.Global.RawSetString("storage", st)
	m.rngFrom, m.rngUsed = m.rng, false
}

// encodeTable writes a table of plain data as a JSON list of [key, value]
// pairs: integer keys in order, then string keys sorted, so the same data
// always gives the same bytes.
func encodeTable(t *lua.LTable, depth int, size *int) ([]byte, error) {
	if depth > 16 {
		return nil, errors.New("tables nested more than 16 deep (or a table holds itself)")
	}
	type pair struct {
		num   float64
		str   string
		isNum bool
		v     lua.LValue
	}
	var pairs []pair
	var bad error
	t.ForEach(func(k, v lua.LValue) {
		if bad != nil {
			return
		}
		*size++
		if *size > 100_000 {
			bad = errors.New("more than 100000 entries")
			return
		}
		switch k := k.(type) {
		case lua.LNumber:
			f := float64(k)
			if math.IsNaN(f) || math.IsInf(f, 0) {
				bad = fmt.Errorf("key %v is not a finite number", f)
				return
			}
			pairs = append(pairs, pair{num: f, isNum: true, v: v})
		case lua.LString:
			pairs = append(pairs, pair{str: string(k), v: v})
		default:
			bad = fmt.Errorf("a key is %s; keys are numbers or strings", describe(k))
		}
	})
	if bad != nil {
		return nil, bad
	}
	sort.Slice(pairs, func(i, j int) bool {
		a, b := pairs[i], pairs[j]
		if a.isNum != b.isNum {
			return a.isNum
		}
		if a.isNum {
			return a.num < b.num
		}
		return a.str < b.str
	})
	out := []byte{'['}
	for i, p := range pairs {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, '[')
		if p.isNum {
			out = strconv.AppendFloat(out, p.num, 'g', -1, 64)
		} else {
			out = append(out, encodeString(p.str)...)
		}
		out = append(out, ',')
		v, err := encodeValue(p.v, depth, size)
		if err != nil {
			return nil, err
		}
		out = append(out, v...)
		out = append(out, ']')
	}
	return append(out, ']'), nil
}

func encodeValue(v lua.LValue, depth int, size *int) ([]byte, error) {
	switch v := v.(type) {
	case lua.LBool:
		return strconv.AppendBool(nil, bool(v)), nil
	case lua.LNumber:
		f := float64(v)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("%v is not a finite number", f)
		}
		return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
	case lua.LString:
		return encodeString(string(v)), nil
	case *lua.LTable:
		t, err := encodeTable(v, depth+1, size)
		if err != nil {
			return nil, err
		}
		return append(append([]byte(`{"table":`), t...), '}'), nil
	}
	return nil, fmt.Errorf("storage keeps plain data (numbers, strings, booleans, tables), not %s", describe(v))
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
	if depth > 17 {
		return nil, errors.New("too deep")
	}
	var pairs [][2]json.RawMessage
	if err := json.Unmarshal(data, &pairs); err != nil {
		return nil, err
	}
	t := L.NewTable()
	for _, p := range pairs {
		var key lua.LValue
		var f float64
		if s, ok := decodeString(p[0]); ok {
			key = lua.LString(s)
		} else if json.Unmarshal(p[0], &f) == nil {
			key = lua.LNumber(f)
		} else {
			return nil, errors.New("bad key")
		}
		v, err := decodeValue(L, p[1], depth)
		if err != nil {
			return nil, err
		}
		t.RawSet(key, v)
	}
	return t, nil
}

func decodeValue(L *lua.LState, data json.RawMessage, depth int) (lua.LValue, error) {
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
