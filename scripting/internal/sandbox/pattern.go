package sandbox

import (
	"strings"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"
)

// Lua Patterns, after Lua 5.1's lstrlib.c. gopher-lua's own matcher
// backtracks without bound inside one Go call (string.find(s, ".-.-.-x")
// on a few kilobytes runs for minutes), which the VM's Budget check cannot
// stop, and its gsub copies the whole result once per match (seconds on 64
// KiB). This one charges the mod's Budget an instruction a step, bounds
// its recursion, and builds gsub's result once, within Limits.MaxString.

const (
	patternSpecials  = "^$*+?.([%-"
	maxCaptures      = 32
	maxMatchDepth    = 200
	capUnfinished    = -1
	capPosition      = -2
	matchCheckPeriod = 4096
)

// Patterns holds what the pattern functions of one sandbox share.
type Patterns struct {
	l     Limits
	b     *Budget
	spare *matcher // find and match reuse one matcher (see take)
}

type patternCapture struct{ init, len int }

// matcher is one matching of pat against src.
type matcher struct {
	L       *lua.LState
	b       *Budget
	src     string
	pat     string
	level   int
	capture [maxCaptures]patternCapture
	depth   int
	steps   int
}

func (p *Patterns) matcher(L *lua.LState, src, pat string, what string) *matcher {
	p.check(L, src, pat, what)
	return &matcher{L: L, b: p.b, src: src, pat: pat}
}

// check refuses a subject or pattern over the mod's limit.
func (p *Patterns) check(L *lua.LState, src, pat string, what string) {
	if len(src) > p.l.MaxPattern {
		L.RaiseError("string.%s: a subject of %d bytes exceeds the mod limit of %d", what, len(src), p.l.MaxPattern)
	}
	if len(pat) > p.l.MaxPattern {
		L.RaiseError("string.%s: a pattern of %d bytes exceeds the mod limit of %d", what, len(pat), p.l.MaxPattern)
	}
}

// take is matcher for find and match, which call no Lua while they match:
// it hands out the spare matcher, and put gives it back. A matching that
// raises an error never gives it back, and the next take makes a new one.
func (p *Patterns) take(L *lua.LState, src, pat string, what string) *matcher {
	ms := p.spare
	if ms == nil {
		return p.matcher(L, src, pat, what)
	}
	p.check(L, src, pat, what)
	p.spare = nil
	ms.L, ms.src, ms.pat, ms.level, ms.depth, ms.steps = L, src, pat, 0, 0, 0
	return ms
}

func (p *Patterns) put(ms *matcher) { p.spare = ms }

// Contains reports whether pat matches somewhere in src, as string.find
// finds it (game.cells), charging the steps as find does; it returns them
// too.
func (p *Patterns) Contains(L *lua.LState, src, pat string) (bool, int) {
	ms := p.take(L, src, pat, "cells")
	defer p.put(ms)
	start, anchor := 0, len(pat) > 0 && pat[0] == '^'
	if anchor {
		start = 1
	}
	for s1 := 0; ; s1++ {
		ms.level = 0
		if ms.match(s1, start) != -1 {
			return true, ms.steps
		}
		if anchor || s1 >= len(src) {
			return false, ms.steps
		}
	}
}

// step charges a step of the matching to the mod's Budget (one
// instruction) and stops the matching when the call is out of Budget; every
// matchCheckPeriod steps it also looks whether the failsafe stopped the call.
func (ms *matcher) step() {
	ms.steps++
	if ms.b.left--; ms.b.left < 0 || ms.steps%matchCheckPeriod == 0 {
		ms.b.Spend(ms.L, 0)
	}
}

func (ms *matcher) classEnd(p int) int {
	pat := ms.pat
	c := pat[p]
	p++
	switch c {
	case '%':
		if p >= len(pat) {
			ms.L.RaiseError("malformed pattern (ends with '%%')")
		}
		return p + 1
	case '[':
		if p < len(pat) && pat[p] == '^' {
			p++
		}
		for { // look for a ']'
			if p >= len(pat) {
				ms.L.RaiseError("malformed pattern (missing ']')")
			}
			c := pat[p]
			p++
			if c == '%' && p < len(pat) {
				p++ // skip escapes (e.g. '%]')
			}
			if p < len(pat) && pat[p] == ']' {
				break
			}
		}
		return p + 1
	}
	return p
}

func asciiLower(c byte) bool { return 'a' <= c && c <= 'z' }
func asciiUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
func asciiDigit(c byte) bool { return '0' <= c && c <= '9' }

func patternClass(c int, cl byte) bool {
	lower := cl
	if asciiUpper(cl) {
		lower = cl + 'a' - 'A'
	}
	var res bool
	switch lower {
	case 'a':
		res = c < 256 && (asciiLower(byte(c)) || asciiUpper(byte(c)))
	case 'c':
		res = c < 32 || c == 127
	case 'd':
		res = c < 256 && asciiDigit(byte(c))
	case 'l':
		res = c < 256 && asciiLower(byte(c))
	case 'p':
		res = (33 <= c && c <= 47) || (58 <= c && c <= 64) || (91 <= c && c <= 96) || (123 <= c && c <= 126)
	case 's':
		res = c == ' ' || ('\t' <= c && c <= '\r')
	case 'u':
		res = c < 256 && asciiUpper(byte(c))
	case 'w':
		res = c < 256 && (asciiLower(byte(c)) || asciiUpper(byte(c)) || asciiDigit(byte(c)))
	case 'x':
		res = c < 256 && (asciiDigit(byte(c)) || ('a' <= c|0x20 && c|0x20 <= 'f'))
	case 'z':
		res = c == 0
	default:
		return int(cl) == c
	}
	if asciiLower(cl) {
		return res
	}
	return !res
}

// matchBracketClass matches c against the set from p (its '[') to ec (its
// ']').
func (ms *matcher) matchBracketClass(c, p, ec int) bool {
	pat := ms.pat
	sig := true
	if pat[p+1] == '^' {
		sig = false
		p++
	}
	for p++; p < ec; p++ {
		switch {
		case pat[p] == '%':
			p++
			if patternClass(c, pat[p]) {
				return sig
			}
		case p+2 < ec && pat[p+1] == '-':
			p += 2
			if int(pat[p-2]) <= c && c <= int(pat[p]) {
				return sig
			}
		case int(pat[p]) == c:
			return sig
		}
	}
	return !sig
}

func (ms *matcher) singleMatch(c, p, ep int) bool {
	switch ms.pat[p] {
	case '.':
		return true
	case '%':
		return patternClass(c, ms.pat[p+1])
	case '[':
		return ms.matchBracketClass(c, p, ep-1)
	}
	return int(ms.pat[p]) == c
}

// match matches the pattern from p against the subject from s and returns
// where the match ends, or -1.
func (ms *matcher) match(s, p int) int {
	ms.depth++
	if ms.depth > maxMatchDepth {
		ms.L.RaiseError("pattern too complex")
	}
	r := ms.doMatch(s, p)
	ms.depth--
	return r
}

func (ms *matcher) doMatch(s, p int) int {
	src, pat := ms.src, ms.pat
	for {
		ms.step()
		if p == len(pat) {
			return s
		}
		switch pat[p] {
		case '(':
			if p+1 < len(pat) && pat[p+1] == ')' {
				return ms.startCapture(s, p+2, capPosition)
			}
			return ms.startCapture(s, p+1, capUnfinished)
		case ')':
			return ms.endCapture(s, p+1)
		case '$':
			if p+1 == len(pat) {
				if s == len(src) {
					return s
				}
				return -1
			}
		case '%':
			if p+1 < len(pat) {
				switch c := pat[p+1]; {
				case c == 'b':
					if s = ms.matchBalance(s, p+2); s == -1 {
						return -1
					}
					p += 4
					continue
				case c == 'f':
					p += 2
					if p >= len(pat) || pat[p] != '[' {
						ms.L.RaiseError("missing '[' after '%%f' in pattern")
					}
					ep := ms.classEnd(p)
					prev, cur := 0, 0
					if s > 0 {
						prev = int(src[s-1])
					}
					if s < len(src) {
						cur = int(src[s])
					}
					if ms.matchBracketClass(prev, p, ep-1) || !ms.matchBracketClass(cur, p, ep-1) {
						return -1
					}
					p = ep
					continue
				case asciiDigit(c):
					if s = ms.matchCapture(s, c); s == -1 {
						return -1
					}
					p += 2
					continue
				}
			}
		}
		// A single-character class, maybe with a repetition.
		ep := ms.classEnd(p)
		m := s < len(src) && ms.singleMatch(int(src[s]), p, ep)
		if ep < len(pat) {
			switch pat[ep] {
			case '?':
				if m {
					if r := ms.match(s+1, ep+1); r != -1 {
						return r
					}
				}
				p = ep + 1
				continue
			case '*':
				return ms.maxExpand(s, p, ep)
			case '+':
				if !m {
					return -1
				}
				return ms.maxExpand(s+1, p, ep)
			case '-':
				return ms.minExpand(s, p, ep)
			}
		}
		if !m {
			return -1
		}
		s++
		p = ep
	}
}

func (ms *matcher) matchBalance(s, p int) int {
	if p+1 >= len(ms.pat) {
		ms.L.RaiseError("unbalanced pattern")
	}
	src := ms.src
	if s >= len(src) || src[s] != ms.pat[p] {
		return -1
	}
	b, e := ms.pat[p], ms.pat[p+1]
	cont := 1
	for s++; s < len(src); s++ {
		ms.step()
		if src[s] == e {
			if cont--; cont == 0 {
				return s + 1
			}
		} else if src[s] == b {
			cont++
		}
	}
	return -1
}

func (ms *matcher) maxExpand(s, p, ep int) int {
	i := 0
	for s+i < len(ms.src) && ms.singleMatch(int(ms.src[s+i]), p, ep) {
		ms.step()
		i++
	}
	for ; i >= 0; i-- { // the longest repetition that lets the rest match
		if r := ms.match(s+i, ep+1); r != -1 {
			return r
		}
	}
	return -1
}

func (ms *matcher) minExpand(s, p, ep int) int {
	for {
		if r := ms.match(s, ep+1); r != -1 {
			return r
		}
		if s < len(ms.src) && ms.singleMatch(int(ms.src[s]), p, ep) {
			s++
		} else {
			return -1
		}
	}
}

func (ms *matcher) startCapture(s, p, what int) int {
	if ms.level >= maxCaptures {
		ms.L.RaiseError("too many captures")
	}
	ms.capture[ms.level] = patternCapture{init: s, len: what}
	ms.level++
	r := ms.match(s, p)
	if r == -1 {
		ms.level--
	}
	return r
}

func (ms *matcher) endCapture(s, p int) int {
	l := -1
	for i := ms.level - 1; i >= 0; i-- {
		if ms.capture[i].len == capUnfinished {
			l = i
			break
		}
	}
	if l < 0 {
		ms.L.RaiseError("invalid pattern capture")
	}
	ms.capture[l].len = s - ms.capture[l].init
	r := ms.match(s, p)
	if r == -1 {
		ms.capture[l].len = capUnfinished
	}
	return r
}

func (ms *matcher) matchCapture(s int, c byte) int {
	l := int(c) - '1'
	if l < 0 || l >= ms.level || ms.capture[l].len == capUnfinished {
		ms.L.RaiseError("invalid capture index")
	}
	cp := ms.capture[l]
	if cp.len < 0 || len(ms.src)-s < cp.len { // a position capture matches nothing
		return -1
	}
	ms.L.Meter.Scanned(cp.len) // a back reference compares its bytes
	if ms.src[cp.init:cp.init+cp.len] == ms.src[s:s+cp.len] {
		return s + cp.len
	}
	return -1
}

// get returns capture i of the match from s to e (the whole match for
// capture 0 of a pattern without captures).
func (ms *matcher) get(i, s, e int) lua.LValue {
	if i >= ms.level {
		if i == 0 {
			return lua.LString(lua.Piece(ms.L, ms.src, ms.src[s:e]))
		}
		ms.L.RaiseError("invalid capture index")
	}
	cp := ms.capture[i]
	switch cp.len {
	case capUnfinished:
		ms.L.RaiseError("unfinished capture")
	case capPosition:
		return lua.LNumber(cp.init + 1)
	}
	return lua.LString(lua.Piece(ms.L, ms.src, ms.src[cp.init:cp.init+cp.len]))
}

// push pushes the captures of the match from s to e (with whole, the whole
// match if the pattern has none) and returns how many it pushed.
func (ms *matcher) push(s, e int, whole bool) int {
	n := ms.level
	if n == 0 && whole {
		n = 1
	}
	for i := 0; i < n; i++ {
		ms.L.Push(ms.get(i, s, e))
	}
	return n
}

// start reads the init argument of find and match: where in src to start.
func patternInit(L *lua.LState, n int, src string) int {
	init := L.OptInt(n, 1)
	if init < 0 {
		init += len(src) + 1
	}
	init--
	if init < 0 {
		return 0
	}
	return min(init, len(src))
}

// string.find(s, pattern [, init [, plain]])
func (p *Patterns) find(L *lua.LState) int {
	src, pat := L.CheckString(1), L.CheckString(2)
	ms := p.take(L, src, pat, "find")
	defer p.put(ms)
	init := patternInit(L, 3, src)
	if lua.LVAsBool(L.Get(4)) || !strings.ContainsAny(pat, patternSpecials) {
		p.b.Spend(L, 1+(len(src)-init)/BytesPerInstruction)
		if i := strings.Index(src[init:], pat); i >= 0 {
			L.Push(lua.LNumber(init + i + 1))
			L.Push(lua.LNumber(init + i + len(pat)))
			return 2
		}
		L.Push(lua.LNil)
		return 1
	}
	return ms.find(init, true)
}

// string.match(s, pattern [, init])
func (p *Patterns) match(L *lua.LState) int {
	src, pat := L.CheckString(1), L.CheckString(2)
	ms := p.take(L, src, pat, "match")
	n := ms.find(patternInit(L, 3, src), false)
	p.put(ms)
	return n
}

func (ms *matcher) find(s1 int, find bool) int {
	p := 0
	anchor := len(ms.pat) > 0 && ms.pat[0] == '^'
	if anchor {
		p = 1
	}
	for {
		ms.level = 0
		if e := ms.match(s1, p); e != -1 {
			if find {
				ms.L.Push(lua.LNumber(s1 + 1))
				ms.L.Push(lua.LNumber(e))
				return ms.push(-1, -1, false) + 2
			}
			return ms.push(s1, e, true)
		}
		if anchor || s1 >= len(ms.src) {
			break
		}
		s1++
	}
	ms.L.Push(lua.LNil)
	return 1
}

// string.gmatch(s, pattern): an iterator over the matches. As in Lua 5.1,
// a leading '^' is no anchor here.
//
// The iterator is a closure of one shared Go function whose state, the
// subject, the pattern and the position, is in its upvalues, which the
// host's weighing sees: an iterator a mod keeps keeps its subject, and
// weighs it (a Go closure over them held 64 KiB for each kept iterator
// while the weighing counted 64 bytes). Making it is metered as a Lua
// closure of three upvalues is.
func (p *Patterns) gmatch(L *lua.LState) int {
	src, pat := L.CheckString(1), L.CheckString(2)
	p.matcher(L, src, pat, "gmatch") // checks the sizes
	L.Meter.Bytes += lua.ClosureBytes + 3*lua.UpvalueBytes
	L.Push(L.NewClosure(gmatchStep, lua.LString(src), lua.LString(pat), lua.LNumber(0)))
	return 1
}

// gmatchStep is a gmatch iterator's step: the next match of its
// subject (upvalue 1) and pattern (2) from its position (3).
func gmatchStep(L *lua.LState) int {
	src := string(L.Get(lua.UpvalueIndex(1)).(lua.LString))
	pat := string(L.Get(lua.UpvalueIndex(2)).(lua.LString))
	pos := int(L.Get(lua.UpvalueIndex(3)).(lua.LNumber))
	ms := Of(L).pat.matcher(L, src, pat, "gmatch")
	for s := pos; s <= len(src); s++ {
		ms.level = 0
		if e := ms.match(s, 0); e != -1 {
			next := e
			if e == s {
				next++ // an empty match: go on at the next position
			}
			L.Replace(lua.UpvalueIndex(3), lua.LNumber(next))
			return ms.push(s, e, true)
		}
	}
	L.Replace(lua.UpvalueIndex(3), lua.LNumber(len(src)+1))
	return 0
}

// string.gsub(s, pattern, repl [, n])
func (p *Patterns) gsub(L *lua.LState) int {
	src, pat := L.CheckString(1), L.CheckString(2)
	repl := L.Get(3)
	switch repl.Type() {
	case lua.LTNumber, lua.LTString, lua.LTFunction, lua.LTTable:
	default:
		L.ArgError(3, "string/function/table expected")
	}
	maxN := L.OptInt(4, len(src)+1)
	ms := p.matcher(L, src, pat, "gsub")
	pi := 0
	anchor := len(pat) > 0 && pat[0] == '^'
	if anchor {
		pi = 1
	}
	out := &gsubBuffer{L: L, b: p.b, max: p.l.MaxString}
	s, n := 0, 0
	for n < maxN {
		ms.level = 0
		e := ms.match(s, pi)
		if e != -1 {
			n++
			ms.addValue(out, s, e, repl)
		}
		switch {
		case e != -1 && e > s: // a non-empty match: go on after it
			s = e
		case s < len(src):
			out.add(src[s : s+1])
			s++
		default:
			s = len(src) + 1
		}
		if s > len(src) || anchor {
			break
		}
	}
	if s < len(src) {
		out.add(src[s:])
	}
	L.Push(lua.LString(out.buf.String()))
	L.Push(lua.LNumber(n))
	return 2
}

// gsubBuffer is gsub's result, kept within the mod's string limit.
type gsubBuffer struct {
	L   *lua.LState
	b   *Budget
	buf strings.Builder
	max int
}

func (b *gsubBuffer) add(s string) {
	if b.buf.Len()+len(s) > b.max {
		b.L.RaiseError("string.gsub: the result exceeds the mod limit of %d bytes", b.max)
	}
	if len(s) >= BytesPerInstruction {
		b.b.Spend(b.L, len(s)/BytesPerInstruction)
	}
	b.buf.WriteString(s)
}

func (ms *matcher) addValue(out *gsubBuffer, s, e int, repl lua.LValue) {
	L := ms.L
	var v lua.LValue
	switch r := repl.(type) {
	case lua.LString, lua.LNumber:
		news := lua.LVAsString(r)
		for {
			ms.step()
			i := strings.IndexByte(news, '%')
			if i < 0 || i+1 == len(news) {
				out.add(news)
				return
			}
			out.add(news[:i])
			switch c := news[i+1]; {
			case !asciiDigit(c):
				out.add(news[i+1 : i+2])
			case c == '0':
				out.add(ms.src[s:e])
			default:
				out.add(lua.LVAsString(ms.get(int(c-'1'), s, e)))
			}
			news = news[i+2:]
		}
	case *lua.LFunction:
		L.Push(r)
		n := ms.push(s, e, true)
		L.Call(n, 1)
		v = L.Get(-1)
		L.Pop(1)
	case *lua.LTable:
		v = L.GetTable(r, ms.get(0, s, e))
	}
	switch v.(type) {
	case lua.LString, lua.LNumber:
		out.add(lua.LVAsString(v))
	default:
		if lua.LVAsBool(v) {
			L.RaiseError("invalid replacement value (a %s)", v.Type().String())
		}
		out.add(ms.src[s:e]) // nil or false: keep the match
	}
}
