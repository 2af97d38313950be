package sandbox

import (
	"unsafe"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"
	"github.com/mod2048/mod2048/scripting/internal/workcount"
)

// Weigh returns what the state's values reachable from roots hold, each
// counted once, as Go allocates them: a string its length and a header, a
// number its box, a closure and its upvalues and its compiled code (its
// prototype's Footprint and those of the prototypes nested in it, each
// prototype once however many closures share it), a table its Footprint
// (its parts as Go lays them out, deleted keys and their slots included); and
// what the sandbox keeps for them: the names tostring gave them
// (NameBytes each). It depends only on the values, never on the process's
// heap, so it is the same on every machine; the host's TestWeighedIsHeld
// holds it within 1.5× of the heap, shape by shape. The names of values
// the walk did not reach are forgotten here, so that the figure never
// depends on when the collector ran the cleanups that forget a dropped
// value's name.
//
// A prototype is weighed to every state that can reach it, though the
// process compiles a file once and its games share the prototype
// (CompileCached): each mod could keep it alive alone, so each is charged
// for all of it, and what the process holds is at most what its mods are
// weighed at, plus what the compile cache holds (compiledMaxBytes).
func (s *Box) Weigh(roots ...lua.LValue) int64 {
	w := walker{walk: lua.NewWalk(), strings: map[stringKey]struct{}{}}
	for _, v := range roots {
		workcount.Step()
		w.push(v)
	}
	total := w.run()
	s.names.prune(w.walk)
	return total + s.names.held()
}

// The sizes of the values a walk visits, as Go allocates them (a table's
// is its Footprint).
const (
	heldString  = 16               // a string's header (an LString in an interface), plus its bytes
	heldNumber  = 16               // a number in an interface (the state makes them 2 to a block of 16 bytes), but for the small integers every state shares
	heldFunc    = lua.ClosureBytes // a closure (a userdata weighs as much)
	heldUpvalue = lua.UpvalueBytes // an upvalue: its pointer in the closure and its cell
	heldShared  = 256
)

// stringKey names a string's bytes, so that one string held in many
// places counts once.
type stringKey struct {
	data *byte
	n    int
}

// walker adds up the estimated sizes of the values reachable from what it
// is given, each counted once.
//
// It marks the tables, functions and userdata it has visited (Visit, with
// a number of its own, walk) rather than keeping a map of them: the map's
// inserts took most of a walk's time, about a microsecond a value, and
// the host charges the mod for its walks by the bytes weighed.
//
// Prototypes are shared by every game of the process, which may walk at
// once, so a walk marks none of them: it keeps those it has counted in a
// map (protos), and the last one it met (last), which the closures of one
// function, often many together, meet again.
type walker struct {
	stack   []lua.LValue
	walk    uint64
	strings map[stringKey]struct{}
	total   int64
	protos  map[*lua.FunctionProto]struct{}
	last    *lua.FunctionProto
	pending []*lua.FunctionProto
}

func (w *walker) push(v lua.LValue) {
	switch v := v.(type) {
	case lua.LNumber:
		if v < 0 || v >= 128 || v != lua.LNumber(int(v)) {
			w.total += heldNumber
		}
	case lua.LString:
		if len(v) >= heldShared {
			k := stringKey{unsafe.StringData(string(v)), len(v)}
			if _, ok := w.strings[k]; ok {
				return
			}
			w.strings[k] = struct{}{}
		}
		w.total += heldString + stringBytes(len(v))
	case *lua.LTable:
		if v.Visit(w.walk) {
			w.stack = append(w.stack, v)
		}
	case *lua.LFunction:
		if v.Visit(w.walk) {
			w.stack = append(w.stack, v)
		}
	case *lua.LUserData:
		if v.Visit(w.walk) {
			w.stack = append(w.stack, v)
		}
	}
}

// stringBytes is what Go allocates for a string's n bytes: small ones
// rounded up to 8 bytes (the collector packs the smallest together), the
// rest to 16.
func stringBytes(n int) int64 {
	if n <= 16 {
		return int64(n+7) &^ 7
	}
	return int64(n+15) &^ 15
}

func (w *walker) run() int64 {
	for len(w.stack) > 0 {
		workcount.Step()
		v := w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
		switch v := v.(type) {
		case *lua.LTable:
			w.total += v.Footprint()
			w.push(v.Metatable)
			v.ForEachHeld(w.push)
		case *lua.LFunction:
			w.total += heldFunc
			if v.Proto != nil && v.Proto != w.last {
				w.last = v.Proto
				w.proto(v.Proto)
			}
			w.push(v.Env)
			for _, uv := range v.Upvalues {
				workcount.Step()
				if uv != nil {
					w.total += heldUpvalue
					w.push(uv.Value())
				}
			}
		case *lua.LUserData:
			w.total += heldFunc
			w.push(v.Metatable)
		}
	}
	return w.total
}

// proto counts p's Footprint and those of the prototypes nested in it,
// each once a walk.
func (w *walker) proto(p *lua.FunctionProto) {
	if w.protos == nil {
		w.protos = map[*lua.FunctionProto]struct{}{}
	}
	w.pending = append(w.pending[:0], p)
	for len(w.pending) > 0 {
		workcount.Step()
		p := w.pending[len(w.pending)-1]
		w.pending = w.pending[:len(w.pending)-1]
		if _, ok := w.protos[p]; ok {
			continue
		}
		w.protos[p] = struct{}{}
		w.total += p.Footprint()
		w.pending = append(w.pending, p.FunctionPrototypes...)
	}
}

// ProtoFootprint returns what p and the prototypes nested in it hold, each
// counted once, as Weigh counts a closure's code.
func ProtoFootprint(p *lua.FunctionProto) int64 {
	var w walker
	w.proto(p)
	return w.total
}
