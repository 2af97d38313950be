package sandbox

import (
	"fmt"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"weak"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"
	"github.com/mod2048/mod2048/scripting/internal/workcount"
)

// What a mod sees of its values as text. gopher-lua writes a table, a
// function, a userdata or a thread with its memory address ("table:
// 0xc000123450"), which changes from run to run: a mod that printed,
// compared or keyed on it could make two runs of the same game differ. In
// the sandbox, tostring and string.format's %s name such a value by its
// kind and a number, "table: 1", "function: 2": the values of one mod's Lua
// state are numbered from 1 in the order the mod first turns them into
// text, so the same mod playing the same game names them alike on every
// run. print and game.log write "(table)" (they run no metamethod), and an
// error message that gopher-lua wrote with an address has it replaced by
// the kind in brackets ("attempt to index a non-table object(nil) with key
// '(table)'").

// names numbers the values of one Lua state. It holds them weakly: a value
// the mod has dropped is forgotten (its number is not given again), so
// naming values costs no memory that lasts.
//
// What it keeps is the mod's, though: a name costs the map's entry, the
// weak pointer and the cleanup that forgets it, about NameBytes, for as
// long as the value lives. So a new name is metered as a table's new key
// is (it counts NameBytes on the state's meter: charged, and capped as
// what the call builds), and the host's weighing counts NameBytes for each
// name held (Box.Weigh). A mod that named a million closures it kept held
// some 100 MB that no budget saw.
//
// The numbers are kept apart (nameIDs), in an object that holds nothing of
// the state: a value's cleanup, which forgets its number, holds that object
// alone. When it held the names themselves, it held the sandbox, and so
// the state and every value the mod held: a value named and still held
// when the host closed was never freed, nor the state with it.
//
// What they hold is weighed by count, never by the map's size: a cleanup
// runs when the collector gets to it, which no count can tell. count is
// the names given since the last weighing and those it found held; a
// weighing forgets the names of the values it did not reach (prune).
type names struct {
	next  uint64
	count int64 // the names held, as the weighings and the names since tell
	ids   *nameIDs
	meter *lua.Meter // the state's: each new name is counted on it
}

// nameIDs are the numbers of the values named: weak.Pointer → number.
type nameIDs struct {
	mu   sync.Mutex
	m    map[any]uint64
	peak int // the most entries m has held since it was made
}

// NameBytes is what one name keeps on the heap, measured: the map's entry
// (a weak pointer in an interface and a number), the weak pointer's handle
// and the cleanup's record and closure. NameWork is the work of making
// and, once its value is gone, running its cleanup (a weak pointer, a
// cleanup, a map's entry, and the collector's work for each), in
// lua.Meter.Work's unit: some 2 to 3 µs in all, 24 instructions' worth
// (the cost search found tostring of closures a mod drops at once at 4 to
// 6 times the time of an instruction when it was charged less).
const (
	NameBytes = 104
	NameWork  = 24 * BytesPerInstruction
)

func nameOf[T any](n *names, kind string, p *T) string {
	wp := weak.Make(p)
	ids := n.ids
	ids.mu.Lock()
	id, ok := ids.m[wp]
	if !ok {
		n.next++
		n.count++
		id = n.next
		ids.m[wp] = id
		ids.peak = max(ids.peak, len(ids.m))
		if n.meter != nil {
			n.meter.Bytes += NameBytes
			n.meter.Work += NameWork
		}
		runtime.AddCleanup(p, func(k weak.Pointer[T]) {
			ids.mu.Lock()
			delete(ids.m, k)
			ids.mu.Unlock()
		}, wp)
	}
	ids.mu.Unlock()
	return kind + ": " + strconv.FormatUint(id, 10)
}

// held is what the names keep: NameBytes for each value named that has
// not been forgotten.
func (n *names) held() int64 { return n.count * NameBytes }

// prune forgets the names of the values walk w did not visit, and counts
// those it did. A value the walk reached is alive, so its weak pointer
// still points to it; one it did not reach may be gone or not, as the
// collector has it, and is forgotten either way (a value no root reaches
// cannot be named again).
func (n *names) prune(w uint64) {
	ids := n.ids
	ids.mu.Lock()
	defer ids.mu.Unlock()
	for k := range ids.m {
		workcount.Step()
		if !visited(k, w) {
			delete(ids.m, k)
		}
	}
	n.count = int64(len(ids.m))
	// A Go map keeps the room it grew to: one that held a million names
	// of values the mod dropped at once is made again for what it holds.
	if ids.peak > 64 && len(ids.m)*4 <= ids.peak {
		m := make(map[any]uint64, len(ids.m))
		for k, v := range ids.m {
			workcount.Step()
			m[k] = v
		}
		ids.m, ids.peak = m, len(m)
	}
}

// visited says whether the value of weak pointer k was visited by walk w.
func visited(k any, w uint64) bool {
	switch k := k.(type) {
	case weak.Pointer[lua.LTable]:
		v := k.Value()
		return v != nil && v.Visited(w)
	case weak.Pointer[lua.LFunction]:
		v := k.Value()
		return v != nil && v.Visited(w)
	case weak.Pointer[lua.LUserData]:
		v := k.Value()
		return v != nil && v.Visited(w)
	}
	return false
}

// name writes v as tostring does without a __tostring metamethod.
func (n *names) name(v lua.LValue) string {
	switch v := v.(type) {
	case *lua.LTable:
		return nameOf(n, "table", v)
	case *lua.LFunction:
		return nameOf(n, "function", v)
	case *lua.LUserData:
		return nameOf(n, "userdata", v)
	case *lua.LState:
		return nameOf(n, "thread", v)
	case lua.LChannel:
		return "channel"
	}
	return v.String()
}

// tostring writes v as Lua's tostring: through its __tostring metamethod if
// it has one, else by its name.
func (n *names) tostring(L *lua.LState, v lua.LValue) lua.LValue {
	if fn, ok := L.GetMetaField(v, "__tostring").(*lua.LFunction); ok {
		L.Push(fn)
		L.Push(v)
		L.Call(1, 1)
		ret := L.Get(-1)
		L.Pop(1)
		return ret
	}
	if s, ok := v.(lua.LString); ok {
		return s
	}
	return lua.LString(n.name(v))
}

// luaAddress is a value written by gopher-lua with its address.
var luaAddress = regexp.MustCompile(`\b(table|function|userdata|thread|channel): 0x[0-9a-f]+`)

// Scrub replaces the addresses in a message gopher-lua wrote.
func Scrub(s string) string {
	if !strings.Contains(s, ": 0x") {
		return s
	}
	return luaAddress.ReplaceAllString(s, "($1)")
}

// formatter is string.format after Lua 5.1's (the options c, d, i, o, u,
// x, X, e, E, f, g, G, q, s and %%, with flags -+ #0 and a width and a
// precision of up to two digits), except that %s writes any value as
// tostring does (Lua 5.2's), by its name rather than its address.
// gopher-lua's own hands the format to Go's fmt, which writes a table's
// address for %p, %x or %v.
type formatter struct {
	l     Limits
	b     *Budget
	names *names
}

func (f *formatter) format(L *lua.LState) int {
	fs := L.CheckString(1)
	n := len(fs)
	for i := 2; i <= L.GetTop(); i++ {
		workcount.Step()
		if s, ok := L.Get(i).(lua.LString); ok {
			n += len(s)
		}
	}
	if n > f.l.MaxString {
		L.RaiseError("string.format: %d bytes exceed the mod limit of %d", n, f.l.MaxString)
	}
	var out strings.Builder
	write := func(s string) {
		if out.Len()+len(s) > f.l.MaxString {
			// What was built (and s, a %q's copy or a __tostring's
			// string) is charged before the error, as the output would
			// have been.
			f.b.Spend(L, (out.Len()+len(s))/BytesPerInstruction)
			L.RaiseError("string.format: %d bytes exceed the mod limit of %d", out.Len()+len(s), f.l.MaxString)
		}
		out.WriteString(s)
	}
	arg := 1
	for i := 0; i < len(fs); i++ {
		workcount.Step()
		c := fs[i]
		if c != '%' {
			j := strings.IndexByte(fs[i:], '%')
			if j < 0 {
				j = len(fs) - i
			}
			write(fs[i : i+j])
			i += j - 1
			continue
		}
		if i++; i < len(fs) && fs[i] == '%' {
			write("%")
			continue
		}
		spec, conv, next := f.spec(L, fs, i)
		i = next
		arg++
		f.b.Spend(L, 1)
		switch conv {
		case 'c':
			write(pad(string([]byte{byte(int64(L.CheckNumber(arg)))}), spec, -1))
		case 'd', 'i':
			write(fmt.Sprintf(spec+"d", int64(L.CheckNumber(arg))))
		case 'o', 'u', 'x', 'X':
			verb := string(conv)
			if conv == 'u' {
				verb = "d"
			}
			write(fmt.Sprintf(spec+verb, uint64(int64(L.CheckNumber(arg)))))
		case 'e', 'E', 'f', 'g', 'G':
			s := spec
			if !strings.Contains(s, ".") {
				s += ".6" // C's default; Go's %g would write the shortest form
			}
			write(fmt.Sprintf(s+string(conv), float64(L.CheckNumber(arg))))
		case 'q':
			// Quoting goes byte by byte and may double the string:
			// charged an instruction for every 16 bytes quoted.
			q := L.CheckString(arg)
			f.b.Spend(L, len(q)/16)
			write(quote(q))
		case 's':
			L.CheckAny(arg)
			v := f.names.tostring(L, L.Get(arg))
			s, ok := v.(lua.LString)
			if !ok {
				if num, isNum := v.(lua.LNumber); isNum {
					s = lua.LString(num.String())
				} else {
					L.RaiseError("'tostring' must return a string to 'format'")
				}
			}
			prec := -1
			if k := strings.IndexByte(spec, '.'); k >= 0 {
				prec, _ = strconv.Atoi(spec[k+1:])
			}
			write(pad(string(s), spec, prec))
		default:
			L.RaiseError("invalid option '%%%c' to 'format'", conv)
		}
	}
	f.b.Spend(L, 1+out.Len()/BytesPerInstruction)
	L.Push(lua.LString(out.String()))
	return 1
}

// spec reads a conversion's flags, width and precision from fs[i:] and
// returns them as a Go format ("%-5.2"), the conversion, and its index.
func (f *formatter) spec(L *lua.LState, fs string, i int) (string, byte, int) {
	start := i
	// Each run stops one past its limit: a run of a million flags is
	// refused for the price of six.
	for i < len(fs) && i-start <= 5 && strings.IndexByte("-+ #0", fs[i]) >= 0 {
		workcount.Step()
		i++
	}
	if i-start > 5 {
		L.RaiseError("invalid format (repeated flags)")
	}
	digits := func() {
		d := i
		for i < len(fs) && i-d <= 2 && '0' <= fs[i] && fs[i] <= '9' {
			workcount.Step()
			i++
		}
		if i-d > 2 {
			L.RaiseError("string.format: field widths and precisions above 99 are not allowed")
		}
	}
	digits()
	if i < len(fs) && fs[i] == '.' {
		i++
		digits()
	}
	if i >= len(fs) {
		L.RaiseError("invalid option '%%' to 'format' (the format ends)")
	}
	return "%" + fs[start:i], fs[i], i
}

// pad writes s cut to prec bytes (if prec ≥ 0) and padded to the spec's
// width in bytes, as C's %s does.
func pad(s, spec string, prec int) string {
	if prec >= 0 && len(s) > prec {
		s = s[:prec]
	}
	flags := strings.TrimLeft(spec[1:], "-+ #0")
	left := strings.Contains(spec[1:len(spec)-len(flags)], "-")
	if k := strings.IndexByte(flags, '.'); k >= 0 {
		flags = flags[:k]
	}
	width, _ := strconv.Atoi(flags)
	if len(s) >= width {
		return s
	}
	if left {
		return s + strings.Repeat(" ", width-len(s))
	}
	return strings.Repeat(" ", width-len(s)) + s
}

// quote writes s as Lua 5.1's %q: between double quotes, with ", \ and a
// newline escaped by a backslash, a carriage return as \r and a zero byte
// as \000.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		workcount.Step()
		switch c := s[i]; c {
		case '"', '\\', '\n':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\r':
			b.WriteString(`\r`)
		case 0:
			b.WriteString(`\000`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
