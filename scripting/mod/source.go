package mod

import (
	"fmt"
	"strings"
)

// Limits on a Lua file before it is compiled: gopher-lua's parser and
// compiler run in one Go call that no budget stops, and they take time in
// proportion to the file's size and to how deep it nests. Lua 5.1's own
// parser allows 200 nested levels. The sandbox bounds the rest of the
// depth, operator chains included (sandbox.MaxDepth).
const (
	MaxSource  = 256 << 10 // bytes of one Lua file
	MaxNesting = 200       // nested blocks, brackets and table constructors
)

// CheckSource refuses a Lua file too large or nested too deep to compile
// within a mod's budget.
func CheckSource(src string) error {
	if len(src) > MaxSource {
		return fmt.Errorf("the file has %d bytes, more than the %d a mod's file may have", len(src), MaxSource)
	}
	if d := nesting(src); d > MaxNesting {
		return fmt.Errorf("the file nests blocks or brackets %d deep, more than %d", d, MaxNesting)
	}
	return nil
}

// nesting returns the deepest nesting of blocks (function, if, do, repeat
// … end, until), brackets and table constructors in Lua source, skipping
// strings and comments.
func nesting(src string) int {
	depth, deepest := 0, 0
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '-' && strings.HasPrefix(src[i:], "--"):
			i += 2
			if level, ok := longOpen(src[i:]); ok {
				i += skipLong(src[i:], level)
			} else if nl := strings.IndexByte(src[i:], '\n'); nl >= 0 {
				i += nl + 1
			} else {
				i = len(src)
			}
			continue
		case c == '"' || c == '\'':
			i++
			for i < len(src) && src[i] != c && src[i] != '\n' {
				if src[i] == '\\' {
					i++
				}
				i++
			}
			i++
			continue
		case c == '[':
			if level, ok := longOpen(src[i:]); ok {
				i += skipLong(src[i:], level)
				continue
			}
			depth++
		case c == '(' || c == '{':
			depth++
		case c == ')' || c == '}' || c == ']':
			depth--
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(src) && (src[j] == '_' || src[j] >= 'a' && src[j] <= 'z' || src[j] >= 'A' && src[j] <= 'Z' || src[j] >= '0' && src[j] <= '9') {
				j++
			}
			switch src[i:j] {
			case "function", "if", "do", "repeat":
				depth++
			case "end", "until":
				depth--
			}
			i = j
			deepest = max(deepest, depth)
			continue
		}
		deepest = max(deepest, depth)
		i++
	}
	return deepest
}

// longOpen reports whether s starts a long bracket [[ or [==[, and its level.
func longOpen(s string) (int, bool) {
	if len(s) < 2 || s[0] != '[' {
		return 0, false
	}
	level := 1
	for level < len(s) && s[level] == '=' {
		level++
	}
	if level < len(s) && s[level] == '[' {
		return level - 1, true
	}
	return 0, false
}

// skipLong returns the length of the long string or comment s starts,
// through its closing bracket (or to the end of s).
func skipLong(s string, level int) int {
	closing := "]" + strings.Repeat("=", level) + "]"
	if k := strings.Index(s[level+2:], closing); k >= 0 {
		return level + 2 + k + len(closing)
	}
	return len(s)
}
