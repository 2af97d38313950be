package lua

// [mod2048] Tests of pattern.go's bracket classes (PATCHES.md, 17): each
// is compiled once per matching into a set, which must match what Lua
// 5.1's lstrlib.c reads the class to match, at every step.

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// refPanic is the reference matcher's error: a malformed pattern.
type refPanic string

// refMatcher is pattern.go's matcher as it was before bracket classes were
// compiled, with no steps: it reads a class anew at every step, as
// lstrlib.c does (classend, matchbracketclass, singlematch, do_match). It
// is the reference the differential tests hold the matcher to.
type refMatcher struct {
	src, pat string
	level    int
	capture  [maxCaptures]patternCapture
	depth    int
}

func (ms *refMatcher) classEnd(p int) int {
	pat := ms.pat
	c := pat[p]
	p++
	switch c {
	case '%':
		if p >= len(pat) {
			panic(refPanic("malformed pattern (ends with '%')"))
		}
		return p + 1
	case '[':
		if p < len(pat) && pat[p] == '^' {
			p++
		}
		for {
			if p >= len(pat) {
				panic(refPanic("malformed pattern (missing ']')"))
			}
			c := pat[p]
			p++
			if c == '%' && p < len(pat) {
				p++
			}
			if p < len(pat) && pat[p] == ']' {
				break
			}
		}
		return p + 1
	}
	return p
}

func (ms *refMatcher) matchBracketClass(c, p, ec int) bool {
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

func (ms *refMatcher) singleMatch(c, p, ep int) bool {
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

func (ms *refMatcher) match(s, p int) int {
	if ms.depth++; ms.depth > maxMatchDepth {
		panic(refPanic("pattern too complex"))
	}
	r := ms.doMatch(s, p)
	ms.depth--
	return r
}

func (ms *refMatcher) doMatch(s, p int) int {
	src, pat := ms.src, ms.pat
	for {
		if p == len(pat) {
			return s
		}
		switch pat[p] {
		case '(':
			what := capUnfinished
			if p+1 < len(pat) && pat[p+1] == ')' {
				what, p = capPosition, p+1
			}
			if ms.level >= maxCaptures {
				panic(refPanic("too many captures"))
			}
			ms.capture[ms.level] = patternCapture{init: s, len: what}
			ms.level++
			r := ms.match(s, p+1)
			if r == -1 {
				ms.level--
			}
			return r
		case ')':
			l := -1
			for i := ms.level - 1; i >= 0; i-- {
				if ms.capture[i].len == capUnfinished {
					l = i
					break
				}
			}
			if l < 0 {
				panic(refPanic("invalid pattern capture"))
			}
			ms.capture[l].len = s - ms.capture[l].init
			r := ms.match(s, p+1)
			if r == -1 {
				ms.capture[l].len = capUnfinished
			}
			return r
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
					if p+3 >= len(pat) {
						panic(refPanic("unbalanced pattern"))
					}
					if s >= len(src) || src[s] != pat[p+2] {
						return -1
					}
					b, e, cont := pat[p+2], pat[p+3], 1
					for s++; ; s++ {
						if s >= len(src) {
							return -1
						}
						if src[s] == e {
							if cont--; cont == 0 {
								break
							}
						} else if src[s] == b {
							cont++
						}
					}
					s++
					p += 4
					continue
				case c == 'f':
					p += 2
					if p >= len(pat) || pat[p] != '[' {
						panic(refPanic("missing '[' after '%f' in pattern"))
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
					l := int(c) - '1'
					if l < 0 || l >= ms.level || ms.capture[l].len == capUnfinished {
						panic(refPanic("invalid capture index"))
					}
					cp := ms.capture[l]
					if cp.len < 0 || len(src)-s < cp.len || src[cp.init:cp.init+cp.len] != src[s:s+cp.len] {
						return -1
					}
					s += cp.len
					p += 2
					continue
				}
			}
		}
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
			case '*', '+':
				i := 0
				if pat[ep] == '+' {
					if !m {
						return -1
					}
					s++
				}
				for s+i < len(src) && ms.singleMatch(int(src[s+i]), p, ep) {
					i++
				}
				for ; i >= 0; i-- {
					if r := ms.match(s+i, ep+1); r != -1 {
						return r
					}
				}
				return -1
			case '-':
				for {
					if r := ms.match(s, ep+1); r != -1 {
						return r
					}
					if s < len(src) && ms.singleMatch(int(src[s]), p, ep) {
						s++
					} else {
						return -1
					}
				}
			}
		}
		if !m {
			return -1
		}
		s++
		p = ep
	}
}

// captures writes the captures of the match from s to e as string.find
// returns them after its two positions, or the whole match.
func (ms *refMatcher) captures(s, e int, whole bool) string {
	if ms.level == 0 && whole {
		return fmt.Sprintf(" %q", ms.src[s:e])
	}
	var b strings.Builder
	for i := range ms.level {
		switch cp := ms.capture[i]; cp.len {
		case capUnfinished:
			panic(refPanic("unfinished capture"))
		case capPosition:
			fmt.Fprintf(&b, " %d", cp.init+1)
		default:
			fmt.Fprintf(&b, " %q", ms.src[cp.init:cp.init+cp.len])
		}
	}
	return b.String()
}

// refFind is string.find(src, pat) by the reference, written as
// formatResults writes the matcher's, or the error's message.
func refFind(src, pat string) (out string) {
	defer func() {
		if r, ok := recover().(refPanic); ok {
			out = "error: " + string(r)
		}
	}()
	if !strings.ContainsAny(pat, patternSpecials) { // a plain find, as lstrlib.c's
		if i := strings.Index(src, pat); i >= 0 {
			return fmt.Sprintf("%d %d", i+1, i+len(pat))
		}
		return "nil"
	}
	ms := &refMatcher{src: src, pat: pat}
	p, anchor := 0, len(pat) > 0 && pat[0] == '^'
	if anchor {
		p = 1
	}
	for s1 := 0; ; s1++ {
		ms.level = 0
		if e := ms.match(s1, p); e != -1 {
			return fmt.Sprintf("%d %d", s1+1, e) + ms.captures(s1, e, false)
		}
		if anchor || s1 >= len(src) {
			return "nil"
		}
	}
}

// refGsub is string.gsub(src, pat, "<%0>") by the reference.
func refGsub(src, pat string) (out string) {
	defer func() {
		if r, ok := recover().(refPanic); ok {
			out = "error: " + string(r)
		}
	}()
	ms := &refMatcher{src: src, pat: pat}
	p, anchor := 0, len(pat) > 0 && pat[0] == '^'
	if anchor {
		p = 1
	}
	var b strings.Builder
	s, n := 0, 0
	for {
		ms.level = 0
		e := ms.match(s, p)
		if e != -1 {
			n++
			b.WriteString("<" + src[s:e] + ">")
		}
		switch {
		case e != -1 && e > s:
			s = e
		case s < len(src):
			b.WriteByte(src[s])
			s++
		default:
			s = len(src) + 1
		}
		if s > len(src) || anchor {
			break
		}
	}
	if s < len(src) {
		b.WriteString(src[s:])
	}
	return fmt.Sprintf("%q %d", b.String(), n)
}

// callPattern calls string.NAME(args...) on L and writes its results as
// refFind and refGsub write theirs, or its error's message.
func callPattern(L *LState, name string, args ...LValue) string {
	top := L.GetTop()
	fn := L.GetField(L.GetGlobal("string"), name)
	if err := L.CallByParam(P{Fn: fn, NRet: MultRet, Protect: true}, args...); err != nil {
		L.SetTop(top)
		msg := err.(*ApiError).Object.String()
		return "error: " + msg
	}
	var b strings.Builder
	for i := top + 1; i <= L.GetTop(); i++ {
		if i > top+1 {
			b.WriteByte(' ')
		}
		switch v := L.Get(i).(type) {
		case LString:
			fmt.Fprintf(&b, "%q", string(v))
		default:
			b.WriteString(v.String())
		}
	}
	L.SetTop(top)
	return b.String()
}

// sameResult reports whether the matcher's result is the reference's: the
// same values, or an error whose message holds the reference's.
func sameResult(got, want string) bool {
	if msg, ok := strings.CutPrefix(want, "error: "); ok {
		return strings.HasPrefix(got, "error: ") && strings.Contains(got, msg)
	}
	return got == want
}

// classPiece draws a piece of a bracket class's inside: a byte, a range,
// an escape or a %-class, ']' and '^' and '-' among them.
func classPiece(t *rapid.T) string {
	const bytes = "abcxyz019-^]%[.A_ \x00\xff"
	b := func(label string) string {
		return string(bytes[rapid.IntRange(0, len(bytes)-1).Draw(t, label)])
	}
	switch rapid.IntRange(0, 5).Draw(t, "piece") {
	case 0, 1:
		return b("byte")
	case 2:
		return b("lo") + "-" + b("hi")
	case 5: // a range to '%', which takes an escape's '%'
		return b("lo") + "-%"
	case 3:
		return "%" + b("escaped")
	default:
		return "%" + string("acdlpsuwxzACDLPSUWXZ"[rapid.IntRange(0, 19).Draw(t, "class")])
	}
}

// bracketClass draws a bracket class, well formed or not, short or (long)
// some hundreds of pieces.
func bracketClass(t *rapid.T) string {
	var b strings.Builder
	b.WriteByte('[')
	if rapid.Bool().Draw(t, "negated") {
		b.WriteByte('^')
	}
	n := rapid.IntRange(0, 6).Draw(t, "pieces")
	if rapid.IntRange(0, 7).Draw(t, "long") == 0 {
		n = rapid.IntRange(50, 400).Draw(t, "long pieces")
	}
	for range n {
		b.WriteString(classPiece(t))
	}
	if rapid.IntRange(0, 15).Draw(t, "closed") > 0 {
		b.WriteByte(']')
	}
	return b.String()
}

// patternOf draws a pattern of bracket classes, %f frontiers, plain
// items, repetitions and captures.
func patternOf(t *rapid.T) string {
	var b strings.Builder
	if rapid.IntRange(0, 4).Draw(t, "anchored") == 0 {
		b.WriteByte('^')
	}
	for range rapid.IntRange(1, 7).Draw(t, "items") {
		switch rapid.IntRange(0, 9).Draw(t, "item") {
		case 0, 1, 2, 3:
			b.WriteString(bracketClass(t))
		case 4:
			b.WriteString("%f" + bracketClass(t))
		case 5:
			b.WriteString([]string{"a", ".", "%a", "%d", "x", "%%", "%]"}[rapid.IntRange(0, 6).Draw(t, "plain")])
		case 6:
			b.WriteString([]string{"(", ")", "()", "%1", "%b()", "$"}[rapid.IntRange(0, 5).Draw(t, "special")])
		default:
			b.WriteString([]string{"*", "+", "-", "?"}[rapid.IntRange(0, 3).Draw(t, "repeat")])
		}
	}
	return b.String()
}

// TestBracketSetIsTheClass: a compiled bracket class holds exactly the
// bytes lstrlib.c's reading of the class matches, for every byte, on
// generated classes (ranges, escapes, %-classes, '^', ']' first).
func TestBracketSetIsTheClass(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pat := bracketClass(t)
		ref := &refMatcher{pat: pat}
		ec := func() (ec int, err string) {
			defer func() {
				if r, ok := recover().(refPanic); ok {
					err = string(r)
				}
			}()
			return ref.classEnd(0) - 1, ""
		}
		end, err := ec()
		if err != "" {
			return
		}
		set := compileBracket(pat, 0, end)
		for c := range 256 {
			if got, want := set.has(c), ref.matchBracketClass(c, 0, end); got != want {
				t.Fatalf("%q: byte %d: compiled %v, read %v", pat, c, got, want)
			}
		}
	})
}

// TestPatternsMatchTheReference: string.find and string.gsub give what
// the reference (the matcher reading each class at each step) gives, on
// generated patterns of bracket classes and frontiers, errors included.
func TestPatternsMatchTheReference(t *testing.T) {
	L := NewState()
	defer L.Close()
	rapid.Check(t, func(t *rapid.T) {
		pat := patternOf(t)
		src := rapid.StringOfN(rapid.SampledFrom([]rune("abxz09-]^%( )A_.")), 0, 24, -1).Draw(t, "subject")
		if got, want := callPattern(L, "find", LString(src), LString(pat)), refFind(src, pat); !sameResult(got, want) {
			t.Fatalf("string.find(%q, %q) = %s, want %s", src, pat, got, want)
		}
		if got, want := callPattern(L, "gsub", LString(src), LString(pat), LString("<%0>")), refGsub(src, pat); !sameResult(got, want) {
			t.Fatalf("string.gsub(%q, %q, \"<%%0>\") = %s, want %s", src, pat, got, want)
		}
	})
}

// TestBracketClasses: Lua 5.1's readings of a bracket class, and its
// errors, each where Lua 5.1 raises it (a class the matching never reaches
// is never read).
func TestBracketClasses(t *testing.T) {
	L := NewState()
	defer L.Close()
	for _, c := range []struct{ src, pat, want string }{
		{"a]b", "[]]", `2 2`},
		{"]ab", "[^]]", `2 2`},
		{"x]", "[%]]", `2 2`},
		{"b-", "[a-]", `2 2`},
		{"-", "[-a]", `1 1`},
		{"Q5", "[%a-z]+", `1 1`},
		{"a-", "[%a-z]+", `1 2`},
		{"ab5", "[^%a]", `3 3`},
		{"a%b", "[%%]", `2 2`},
		{"ZZ", "[%Z]+", `1 2`},
		{"a\x00", "[%z]", `2 2`},
		{"THE (quick) fox", "%f[%a][%a]+", `1 3`},
		{"THE (quick) fox", "%f[%l][%a]+", `6 10`},
		{"abc", "%f[%z]", `4 3`},
		{"ba", "[z-a]", `nil`},
		{"x]", "[a-%%]", `2 2`},
		{"x]%", "[^a-%%]+", `1 1`},
		{"a", "x[", `nil`},
		{"x", "x[", `error: malformed pattern (missing ']')`},
		{"x", "[]", `error: malformed pattern (missing ']')`},
		{"x", "[^]", `error: malformed pattern (missing ']')`},
		{"x", "[a%", `error: malformed pattern (missing ']')`},
		{"x", "%f", `error: missing '[' after '%f' in pattern`},
		{"a", "[a]%", `error: malformed pattern (ends with '%')`},
		// More classes than the matcher keeps in itself.
		{"abcdefgh", "[a][b][c][d][e][f][g]([h])", `1 8 "h"`},
		{"abcdefgh", "[^x]+[h]", `1 8`},
	} {
		got := callPattern(L, "find", LString(c.src), LString(c.pat))
		if !sameResult(got, c.want) || !sameResult(got, refFind(c.src, c.pat)) {
			t.Errorf("string.find(%q, %q) = %s, want %s (the reference: %s)", c.src, c.pat, got, c.want, refFind(c.src, c.pat))
		}
	}
}

// TestLongClassPaysOnce: a long bracket class is read once a matching,
// charged a step for every bracketWork bytes of it, and not read again at
// each of the matching's steps: the attack of issue 50 (a class of 64000
// bytes found in 8000 bytes) costs its steps and 4000 more, and is
// stopped at a budget's worth of steps like any matching.
func TestLongClassPaysOnce(t *testing.T) {
	const subject, class = 8000, 64000
	L := NewState()
	defer L.Close()
	steps := func(code string) int {
		ctx := &stepContext{Context: context.Background(), max: 1 << 30, done: make(chan struct{})}
		L.SetContext(ctx)
		defer L.RemoveContext()
		if err := L.DoString(code); err != nil {
			t.Fatal(err)
		}
		return ctx.calls
	}
	setup := fmt.Sprintf(`s = string.rep("a", %d) long = "[" .. string.rep("b", %d) .. "]" short = "[b]"`, subject, class)
	if err := L.DoString(setup); err != nil {
		t.Fatal(err)
	}
	short := steps(`assert(string.find(s, short) == nil)`)
	long := steps(`assert(string.find(s, long) == nil)`)
	if want := short + (class+2)/bracketWork; long != want {
		t.Errorf("the long class took %d steps, want %d: those of a short one (%d) and one for every %d bytes of it", long, want, short, bracketWork)
	}
	if short < subject || short > 2*subject+10 {
		t.Errorf("a class found in %d bytes took %d steps, want one or two a byte", subject, short)
	}
	// gmatch, gsub and a frontier compile it once a call too.
	for code, base := range map[string]string{
		`for w in string.gmatch(s, long) do end`: `for w in string.gmatch(s, short) do end`,
		`string.gsub(s, long, "")`:               `string.gsub(s, short, "")`,
		`string.find(s, "%f" .. long)`:           `string.find(s, "%f" .. short)`,
	} {
		if got, want := steps(code), steps(base)+(class+2)/bracketWork; got != want {
			t.Errorf("%s: %d steps, want %d", code, got, want)
		}
	}
	// A budget of steps stops it at that budget, as any matching.
	ctx := &stepContext{Context: context.Background(), max: 5000, done: make(chan struct{})}
	L.SetContext(ctx)
	defer L.RemoveContext()
	err := L.DoString(`string.find(s, long)`)
	if err == nil || !strings.Contains(err.Error(), "out of steps") || ctx.calls != ctx.max {
		t.Errorf("the long class under a budget of %d: %v after %d steps", ctx.max, err, ctx.calls)
	}
}
