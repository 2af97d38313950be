package scripting

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"testing"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"
	"pgregory.net/rapid"

	"github.com/mod2048/mod2048/engine"
)

// The record as the host wrote it before storage stayed live (encoding/json
// throughout): saves and replays hold such records, so save must write the
// same bytes.
func referenceRecord(st *lua.LTable, rng engine.RNG) (string, error) {
	enc, err := referenceTable(st, 0)
	if err != nil {
		return "", err
	}
	r := record{RNG: strconv.FormatUint(rng.State, 16)}
	if string(enc) != "[]" {
		r.Storage = enc
	}
	out, err := json.Marshal(r)
	return string(out), err
}

func referenceTable(t *lua.LTable, depth int) ([]byte, error) {
	if depth > 16 {
		return nil, errors.New("too deep")
	}
	type pair struct {
		num   float64
		str   string
		isNum bool
		v     lua.LValue
	}
	var pairs []pair
	t.ForEach(func(k, v lua.LValue) {
		switch k := k.(type) {
		case lua.LNumber:
			pairs = append(pairs, pair{num: float64(k), isNum: true, v: v})
		case lua.LString:
			pairs = append(pairs, pair{str: string(k), v: v})
		}
	})
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
		switch v := p.v.(type) {
		case lua.LBool:
			out = strconv.AppendBool(out, bool(v))
		case lua.LNumber:
			out = strconv.AppendFloat(out, float64(v), 'g', -1, 64)
		case lua.LString:
			out = append(out, encodeString(string(v))...)
		case *lua.LTable:
			sub, err := referenceTable(v, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(append(append(out, `{"table":`...), sub...), '}')
		default:
			return nil, fmt.Errorf("not plain data")
		}
		out = append(out, ']')
	}
	return append(out, ']'), nil
}

// TestSaveWritesTheRecordAsBefore: save writes, for any storage, the bytes
// the encoding/json record did, and its tidied table encodes the same.
func TestSaveWritesTheRecordAsBefore(t *testing.T) {
	L := lua.NewState()
	defer L.Close()
	str := rapid.OneOf(rapid.StringMatching(`[a-z]{0,6}`), rapid.String(), rapid.SampledFrom([]string{"<b>", "a&b", "\u2028", "\x00\x1f", "\xff\xfe", `"\`, "é"}))
	num := rapid.OneOf(rapid.IntRange(-3, 12).AsAny(), rapid.Float64Range(-1e6, 1e6).AsAny(), rapid.SampledFrom([]any{1e300, 5e-324, 0.1, 67108864.0, 1 << 53}))
	var table func(t *rapid.T, depth int) *lua.LTable
	table = func(t *rapid.T, depth int) *lua.LTable {
		tb := L.NewTable()
		n := rapid.IntRange(0, 8).Draw(t, "n")
		for i := 0; i < n; i++ {
			var k lua.LValue
			if rapid.Bool().Draw(t, "numkey") {
				switch v := num.Draw(t, "k").(type) {
				case int:
					k = lua.LNumber(v)
				case float64:
					// -0 and 0 are one key, which the table's map and its
					// list of keys hold each with the sign it was first or
					// last set with; save writes the one pairs visits.
					k = lua.LNumber(v + 0)
				}
			} else {
				k = lua.LString(str.Draw(t, "k"))
			}
			var v lua.LValue
			switch rapid.IntRange(0, 4).Draw(t, "kind") {
			case 0:
				v = lua.LBool(rapid.Bool().Draw(t, "b"))
			case 1:
				v = lua.LNumber(rapid.Float64Range(-1e9, 1e9).Draw(t, "f"))
			case 2:
				v = lua.LString(str.Draw(t, "s"))
			case 3:
				if depth < 3 {
					v = table(t, depth+1)
				} else {
					v = lua.LNumber(depth)
				}
			default:
				v = lua.LNil // a key set and removed
				tb.RawSet(k, lua.LNumber(1))
			}
			tb.RawSet(k, v)
		}
		return tb
	}
	rapid.Check(t, func(t *rapid.T) {
		st := table(t, 0)
		rng := engine.RNG{State: rapid.Uint64().Draw(t, "rng")}
		want, err := referenceRecord(st, rng)
		if err != nil {
			t.Fatal(err)
		}
		m := &modRun{L: L, rng: rng}
		L.G.Global.RawSetString("storage", st)
		got, err := m.save()
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("save wrote\n%s\nwant\n%s", got, want)
		}
		again, err := m.save()
		if err != nil || again != want {
			t.Fatalf("the tidied table saves as\n%s (%v)\nwant\n%s", again, err, want)
		}
	})
}

// TestAppendNumber: appendNumber writes every number as strconv's
// shortest 'g' format does, around its fast path's edges too.
func TestAppendNumber(t *testing.T) {
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1, 7, 42, 999999, -999999, 1e6, -1e6, 123456.5, 0.5, 1e-5, 3e21, 100, 100000, 1 << 53, -12.25} {
		if got, want := string(appendNumber(nil, f)), strconv.FormatFloat(f, 'g', -1, 64); got != want {
			t.Errorf("%v: %q, want %q", f, got, want)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		f := float64(rapid.Int64Range(-2_000_000, 2_000_000).Draw(t, "n")) / float64(rapid.SampledFrom([]int64{1, 2, 4, 10}).Draw(t, "d"))
		if got, want := string(appendNumber(nil, f)), strconv.FormatFloat(f, 'g', -1, 64); got != want {
			t.Fatalf("%v: %q, want %q", f, got, want)
		}
	})
}

// TestSaveEntriesBounded: a save lists at most 100,000 entries of the
// mod's storage (a table holding more is refused while it is listed, before
// it is encoded), and the encoder keeps no list of pairs longer than
// keptPairs for the next save: what the allocation ledger's entries of
// (*encoder).table and release rest on.
func TestSaveEntriesBounded(t *testing.T) {
	L := lua.NewState()
	defer L.Close()
	for _, c := range []struct {
		n       int
		wantErr string
	}{
		{100_001, "more than 100000 entries"},
		{2 * keptPairs, ""},
	} {
		st := L.CreateTable(c.n, 0)
		for i := 1; i <= c.n; i++ {
			st.RawSetInt(i, lua.LTrue)
		}
		m := &modRun{L: L}
		L.G.Global.RawSetString("storage", st)
		_, err := m.record()
		switch {
		case c.wantErr == "" && err != nil:
			t.Errorf("%d entries: %v", c.n, err)
		case c.wantErr != "" && (err == nil || err.Error() != c.wantErr):
			t.Errorf("%d entries: error %v, want %q", c.n, err, c.wantErr)
		}
		for depth, p := range m.enc.pairs {
			if cap(p) > keptPairs {
				t.Errorf("%d entries: the encoder keeps a list of %d pairs at depth %d, more than keptPairs (%d)", c.n, cap(p), depth, keptPairs)
			}
		}
	}
}
