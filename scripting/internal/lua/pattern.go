package lua

import (
	"github.com/mod2048/mod2048/scripting/internal/workcount" // [mod2048] the work count (PATCHES.md, 19)
	"strings"
)

// [mod2048] Lua Patterns, after Lua 5.1's lstrlib.c: string.find, match,
// gmatch and gsub, in place of upstream's pm package (PATCHES.md, 17).
// Upstream's matcher backtracked without bound inside one Go call
// (string.find(s, ".-.-.-x") on a few kilobytes ran for minutes), where
// no context could stop it, lacked %f, and its gsub copied the whole result
// once per match. This one counts each step of a matching as an
// instruction of the state's context (step), as the VM counts each
// instruction: a state run under a budget has every step charged to it and
// is stopped inside the matching when the budget is spent. A bracket class
// is read once a matching, into a set of bytes, and charged for its length
// (bracket): a step reads no class anew. It bounds its recursion, and builds
// gsub's result once, within LState.Patterns.
// Lua 5.1 is Copyright (C) 1994-2012 Lua.org, PUC-Rio, under the MIT
// licence in LICENSE-lua.

const (
	patternSpecials = "^$*+?.([%-"
	maxCaptures     = 32
	maxMatchDepth   = 200
	capUnfinished   = -1
	capPosition     = -2
	// instructionWork is an instruction's worth of Meter.Work: the host
	// charges one instruction for every 64.
	instructionWork = 64
)

// PatternLimits bound a state's pattern functions (LState.Patterns); a
// zero bounds nothing.
type PatternLimits struct {
	Subject int // bytes of subject, and of pattern, find, match, gmatch and gsub take
	Result  int // bytes of gsub's result
}

type patternCapture struct{ init, len int }

// matcher is one matching of pat against src.
type matcher struct {
	L       *LState
	src     string
	pat     string
	level   int
	capture [maxCaptures]patternCapture
	depth   int
	steps   int
	// The bracket classes the matching has reached, each compiled once
	// (bracket): the first inlineBrackets in brackets, the rest in more.
	brackets [inlineBrackets]bracket
	nbracket int
	more     map[int]*bracket
}

// inlineBrackets is how many bracket classes a matcher keeps in itself;
// a pattern of more keeps the others in a map.
const inlineBrackets = 4

// bracket is a bracket class of the pattern compiled: the class from at
// (its '[') to end (past its ']'), and the bytes it matches.
type bracket struct {
	at, end int
	set     byteSet
}

// byteSet is a set of bytes, a bit for each.
type byteSet [4]uint64

func (s *byteSet) has(c int) bool { return s[c>>6]&(1<<(c&63)) != 0 }

func (s *byteSet) add(c byte) { s[c>>6] |= 1 << (c & 63) }

// addRange adds the bytes from lo to hi (none if lo > hi), a word at a
// time.
func (s *byteSet) addRange(lo, hi int) {
	for w := lo >> 6; w <= hi>>6 && lo <= hi; w++ {
		workcount.Step()
		first, last := max(lo, w<<6), min(hi, w<<6+63)
		s[w] |= (^uint64(0) >> (63 - (last - first))) << (first & 63)
	}
}

func (s *byteSet) union(o *byteSet) {
	for i := range s {
		workcount.Step()
		s[i] |= o[i]
	}
}

// classSets are the sets of the class letters (%a, %d, ...), by the
// letter's offset from 'a'; a letter that names no class has none.
var classSets = func() (t [26]byteSet) {
	for _, cl := range "acdlpsuwxz" {
		workcount.Step()
		for c := range 256 {
			workcount.Step()
			if patternClass(c, byte(cl)) {
				t[cl-'a'][c>>6] |= 1 << (c & 63)
			}
		}
	}
	return t
}()

// addClass adds the bytes %cl matches (patternClass) to s.
func (s *byteSet) addClass(cl byte) {
	lower := cl | 0x20
	if !asciiLower(lower) || !strings.ContainsRune("acdlpsuwxz", rune(lower)) {
		s.add(cl)
		return
	}
	set := classSets[lower-'a']
	if asciiUpper(cl) {
		for i := range set {
			workcount.Step()
			set[i] = ^set[i]
		}
	}
	s.union(&set)
}

// bracketWork is how many bytes of a bracket class one step of the
// matching pays for reading: compiling a class charges a step for every
// bracketWork bytes of it, past the step that reached it. Compiling reads
// each byte twice (classEnd, compileBracket), a few branches each, some
// 4 ns a byte: 16 bytes take about what a plain instruction takes.
const bracketWork = 16

// newMatcher is a matcher of pat against src for string.what, which
// refuses a subject or pattern over the state's limit.
func newMatcher(L *LState, src, pat string, what string) matcher {
	if limit := L.Patterns.Subject; limit > 0 {
		if len(src) > limit {
			L.RaiseError("string.%s: a subject of %d bytes exceeds the mod limit of %d", what, len(src), limit)
		}
		if len(pat) > limit {
			L.RaiseError("string.%s: a pattern of %d bytes exceeds the mod limit of %d", what, len(pat), limit)
		}
	}
	return matcher{L: L, src: src, pat: pat}
}

// FindPattern reports whether pat matches somewhere in src, as string.find
// finds it, charging the steps as find does (the host's game.cells); it
// returns them too.
func FindPattern(L *LState, src, pat string) (bool, int) {
	ms := newMatcher(L, src, pat, "cells")
	start, anchor := 0, len(pat) > 0 && pat[0] == '^'
	if anchor {
		start = 1
	}
	for s1 := 0; ; s1++ {
		workcount.Step()
		ms.level = 0
		if ms.match(s1, start) != -1 {
			return true, ms.steps
		}
		if anchor || s1 >= len(src) {
			return false, ms.steps
		}
	}
}

// step counts a step of the matching, one instruction of the state's
// context, as the VM counts each instruction before it runs it (the host's
// Budget charges it in Done), and stops the matching when the context is
// done.
func (ms *matcher) step() {
	ms.steps++
	if ctx := ms.L.ctx; ctx != nil {
		if done := ctx.Done(); done != nil {
			select {
			case <-done:
				ms.L.RaiseError("%s", ctx.Err().Error())
			default:
			}
		}
	}
}

// work counts the bytes a pattern function copies or scans in one go, an
// instruction's worth (instructionWork) for every whole 64, on the state's
// meter; the next step, or the VM's next instruction, charges them.
func work(L *LState, n int) {
	if L.Meter != nil {
		L.Meter.Work += int64(n / instructionWork * instructionWork)
	}
}

func (ms *matcher) classEnd(p int) int {
	pat := ms.pat
	c := pat[p]
	p++
	switch c {
	case '%':
		if p >= len(pat) {
			ms.L.RaiseError("%s", "malformed pattern (ends with '%')")
		}
		return p + 1
	case '[':
		if p < len(pat) && pat[p] == '^' {
			p++
		}
		for { // look for a ']'
			workcount.Step()
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

// compileBracket is the set of the bracket class from p (its '[') to ec
// (its ']'), as lstrlib.c's matchbracketclass reads it: a byte matches
// when an item of the class holds it (a %-class, a range lo-hi, a byte),
// or, after a '^', when none does. As there, a range may take the '%'
// that classEnd read as an escape, and the '%' after it then escapes the
// class's ']' (`[a-%%]` holds ']').
func compileBracket(pat string, p, ec int) byteSet {
	var set byteSet
	negate := pat[p+1] == '^'
	if negate {
		p++
	}
	for p++; p < ec; p++ {
		workcount.Step()
		switch c := pat[p]; {
		case c == '%':
			p++
			set.addClass(pat[p])
		case p+2 < ec && pat[p+1] == '-':
			set.addRange(int(c), int(pat[p+2]))
			p += 2
		default:
			set.add(c)
		}
	}
	if negate {
		for i := range set {
			workcount.Step()
			set[i] = ^set[i]
		}
	}
	return set
}

// bracket reads the bracket class at p (its '['): where it ends, and its
// set. It is compiled the first time the matching reaches it, which
// charges a step for every bracketWork bytes of it, and looked up after:
// a step reads no class anew, however long.
func (ms *matcher) bracket(p int) (int, *byteSet) {
	for i := range ms.nbracket {
		workcount.Step()
		if b := &ms.brackets[i]; b.at == p {
			return b.end, &b.set
		}
	}
	if b, ok := ms.more[p]; ok {
		return b.end, &b.set
	}
	ep := ms.classEnd(p)
	for range (ep - p) / bracketWork {
		workcount.Step()
		ms.step()
	}
	set := compileBracket(ms.pat, p, ep-1)
	if ms.nbracket < inlineBrackets {
		b := &ms.brackets[ms.nbracket]
		ms.nbracket++
		*b = bracket{at: p, end: ep, set: set}
		return ep, &b.set
	}
	if ms.more == nil {
		ms.more = map[int]*bracket{}
	}
	b := &bracket{at: p, end: ep, set: set}
	ms.more[p] = b
	return ep, &b.set
}

// singleMatch matches c against the single-character class at p (set:
// its set, for a bracket class).
func (ms *matcher) singleMatch(c, p int, set *byteSet) bool {
	switch ms.pat[p] {
	case '.':
		return true
	case '%':
		return patternClass(c, ms.pat[p+1])
	case '[':
		return set.has(c)
	}
	return int(ms.pat[p]) == c
}

// match matches the pattern from p against the subject from s and returns
// where the match ends, or -1.
func (ms *matcher) match(s, p int) int {
	workcount.Step()
	ms.depth++
	if ms.depth > maxMatchDepth {
		ms.L.RaiseError("pattern too complex")
	}
	r := ms.doMatch(s, p)
	ms.depth--
	return r
}

func (ms *matcher) doMatch(s, p int) int {
	workcount.Step()
	src, pat := ms.src, ms.pat
	for {
		workcount.Step()
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
						ms.L.RaiseError("%s", "missing '[' after '%f' in pattern")
					}
					ep, set := ms.bracket(p)
					prev, cur := 0, 0
					if s > 0 {
						prev = int(src[s-1])
					}
					if s < len(src) {
						cur = int(src[s])
					}
					if set.has(prev) || !set.has(cur) {
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
		var ep int
		var set *byteSet // a bracket class's
		if pat[p] == '[' {
			ep, set = ms.bracket(p)
		} else {
			ep = ms.classEnd(p)
		}
		m := s < len(src) && ms.singleMatch(int(src[s]), p, set)
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
				return ms.maxExpand(s, p, ep, set)
			case '+':
				if !m {
					return -1
				}
				return ms.maxExpand(s+1, p, ep, set)
			case '-':
				return ms.minExpand(s, p, ep, set)
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
		workcount.Step()
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

func (ms *matcher) maxExpand(s, p, ep int, set *byteSet) int {
	workcount.Step()
	i := 0
	for s+i < len(ms.src) && ms.singleMatch(int(ms.src[s+i]), p, set) {
		workcount.Step()
		ms.step()
		i++
	}
	for ; i >= 0; i-- { // the longest repetition that lets the rest match
		workcount.Step()
		if r := ms.match(s+i, ep+1); r != -1 {
			return r
		}
	}
	return -1
}

func (ms *matcher) minExpand(s, p, ep int, set *byteSet) int {
	workcount.Step()
	for {
		workcount.Step()
		if r := ms.match(s, ep+1); r != -1 {
			return r
		}
		if s < len(ms.src) && ms.singleMatch(int(ms.src[s]), p, set) {
			s++
		} else {
			return -1
		}
	}
}

func (ms *matcher) startCapture(s, p, what int) int {
	workcount.Step()
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
	workcount.Step()
	l := -1
	for i := ms.level - 1; i >= 0; i-- {
		workcount.Step()
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
func (ms *matcher) get(i, s, e int) LValue {
	if i >= ms.level {
		if i == 0 {
			return LString(Piece(ms.L, ms.src, ms.src[s:e]))
		}
		ms.L.RaiseError("invalid capture index")
	}
	cp := ms.capture[i]
	switch cp.len {
	case capUnfinished:
		ms.L.RaiseError("unfinished capture")
	case capPosition:
		return LNumber(cp.init + 1)
	}
	return LString(Piece(ms.L, ms.src, ms.src[cp.init:cp.init+cp.len]))
}

// push pushes the captures of the match from s to e (with whole, the whole
// match if the pattern has none) and returns how many it pushed.
func (ms *matcher) push(s, e int, whole bool) int {
	n := ms.level
	if n == 0 && whole {
		n = 1
	}
	for i := 0; i < n; i++ {
		workcount.Step()
		ms.L.Push(ms.get(i, s, e))
	}
	return n
}

// patternInit reads the init argument of find and match: where in src to
// start.
func patternInit(L *LState, n int, src string) int {
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
func strFind(L *LState) int {
	src, pat := L.CheckString(1), L.CheckString(2)
	ms := newMatcher(L, src, pat, "find")
	init := patternInit(L, 3, src)
	if LVAsBool(L.Get(4)) || !strings.ContainsAny(pat, patternSpecials) {
		work(L, len(src)-init)
		ms.step()
		if i := strings.Index(src[init:], pat); i >= 0 {
			L.Push(LNumber(init + i + 1))
			L.Push(LNumber(init + i + len(pat)))
			return 2
		}
		L.Push(LNil)
		return 1
	}
	return ms.find(init, true)
}

// string.match(s, pattern [, init])
func strMatch(L *LState) int {
	src, pat := L.CheckString(1), L.CheckString(2)
	ms := newMatcher(L, src, pat, "match")
	return ms.find(patternInit(L, 3, src), false)
}

func (ms *matcher) find(s1 int, find bool) int {
	p := 0
	anchor := len(ms.pat) > 0 && ms.pat[0] == '^'
	if anchor {
		p = 1
	}
	for {
		workcount.Step()
		ms.level = 0
		if e := ms.match(s1, p); e != -1 {
			if find {
				ms.L.Push(LNumber(s1 + 1))
				ms.L.Push(LNumber(e))
				return ms.push(-1, -1, false) + 2
			}
			return ms.push(s1, e, true)
		}
		if anchor || s1 >= len(ms.src) {
			break
		}
		s1++
	}
	ms.L.Push(LNil)
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
func strGmatch(L *LState) int {
	src, pat := L.CheckString(1), L.CheckString(2)
	newMatcher(L, src, pat, "gmatch") // checks the sizes
	if L.Meter != nil {
		L.Meter.Bytes += ClosureBytes + 3*UpvalueBytes
	}
	L.Push(L.NewClosure(gmatchStep, LString(src), LString(pat), LNumber(0)))
	return 1
}

// gmatchStep is a gmatch iterator's step: the next match of its
// subject (upvalue 1) and pattern (2) from its position (3).
func gmatchStep(L *LState) int {
	src := string(L.Get(UpvalueIndex(1)).(LString))
	pat := string(L.Get(UpvalueIndex(2)).(LString))
	pos := int(L.Get(UpvalueIndex(3)).(LNumber))
	ms := newMatcher(L, src, pat, "gmatch")
	for s := pos; s <= len(src); s++ {
		workcount.Step()
		ms.level = 0
		if e := ms.match(s, 0); e != -1 {
			next := e
			if e == s {
				next++ // an empty match: go on at the next position
			}
			L.Replace(UpvalueIndex(3), LNumber(next))
			return ms.push(s, e, true)
		}
	}
	L.Replace(UpvalueIndex(3), LNumber(len(src)+1))
	return 0
}

// string.gsub(s, pattern, repl [, n])
func strGsub(L *LState) int {
	src, pat := L.CheckString(1), L.CheckString(2)
	repl := L.Get(3)
	switch repl.Type() {
	case LTNumber, LTString, LTFunction, LTTable:
	default:
		L.ArgError(3, "string/function/table expected")
	}
	maxN := L.OptInt(4, len(src)+1)
	ms := newMatcher(L, src, pat, "gsub")
	pi := 0
	anchor := len(pat) > 0 && pat[0] == '^'
	if anchor {
		pi = 1
	}
	out := &gsubBuffer{L: L, max: L.Patterns.Result}
	s, n := 0, 0
	for n < maxN {
		workcount.Step()
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
	L.Push(LString(out.buf.String()))
	L.Push(LNumber(n))
	return 2
}

// gsubBuffer is gsub's result, kept within the state's limit (max, if
// above 0).
type gsubBuffer struct {
	L   *LState
	buf strings.Builder
	max int
}

func (b *gsubBuffer) add(s string) {
	if b.max > 0 && b.buf.Len()+len(s) > b.max {
		b.L.RaiseError("string.gsub: the result exceeds the mod limit of %d bytes", b.max)
	}
	work(b.L, len(s))
	b.buf.WriteString(s)
}

func (ms *matcher) addValue(out *gsubBuffer, s, e int, repl LValue) {
	L := ms.L
	var v LValue
	switch r := repl.(type) {
	case LString, LNumber:
		news := LVAsString(r)
		for {
			workcount.Step()
			ms.step()
			i := strings.IndexByte(news, '%')
			if i < 0 || i+1 == len(news) {
				out.add(news)
				return
			}
			out.add(news[:i])
			switch c := news[i+1]; {
			case c == '%':
				out.add(news[i+1 : i+2])
			case !asciiDigit(c): // as upstream's: kept ("%c" in Lua 5.1 is "c")
				out.add(news[i : i+2])
			case c == '0':
				out.add(ms.src[s:e])
			default:
				out.add(LVAsString(ms.get(int(c-'1'), s, e)))
			}
			news = news[i+2:]
		}
	case *LFunction:
		L.Push(r)
		n := ms.push(s, e, true)
		L.Call(n, 1)
		v = L.Get(-1)
		L.Pop(1)
	case *LTable:
		v = L.GetTable(r, ms.get(0, s, e))
	}
	switch v.(type) {
	case LString, LNumber:
		out.add(LVAsString(v))
	default:
		if LVAsBool(v) {
			L.RaiseError("invalid replacement value (a %s)", v.Type().String())
		}
		out.add(ms.src[s:e]) // nil or false: keep the match
	}
}
