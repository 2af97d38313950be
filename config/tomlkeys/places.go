package tomlkeys

import "strings"

// Pos is a place in a TOML text: a line and a column, in bytes, both from
// 1 (the text taken without a leading byte order mark, as the TOML
// decoder takes it). The zero Pos is no place.
type Pos struct{ Line, Column int }

// Place is where a key of a TOML text is defined first.
type Place struct {
	// Key is the key's last part: the name in [a.name] or in a.name = 1.
	Key Pos
	// Value is the value's first byte; no place for a table's header and
	// for a table that a dotted key or a header defines by the way.
	Value Pos
	// Elems are the places of an array value's elements, in order.
	Elems []Pos
}

// Places maps each key path (dotted, as Lines writes it) that the TOML
// text defines to where it is first defined: a header's table, a key =
// value pair's key, a key of an inline table, and each table a dotted
// key or a header defines by the way (a.b for [a.b.c]). It reads as much
// of a text that does not parse as it can, and never fails.
func Places(src []byte) map[string]Place {
	s := &scanner{src: strings.TrimPrefix(string(src), "\ufeff"), places: map[string]Place{}}
	s.lineStarts = append(s.lineStarts, 0)
	for i := 0; i < len(s.src); i++ {
		if s.src[i] == '\n' {
			s.lineStarts = append(s.lineStarts, i+1)
		}
	}
	s.document()
	return s.places
}

type scanner struct {
	src        string
	i          int
	lineStarts []int
	places     map[string]Place
}

// pos is the Pos of the byte at offset i.
func (s *scanner) pos(i int) Pos {
	lo, hi := 0, len(s.lineStarts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if s.lineStarts[mid] <= i {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return Pos{Line: lo + 1, Column: i - s.lineStarts[lo] + 1}
}

func (s *scanner) peek() byte {
	if s.i < len(s.src) {
		return s.src[s.i]
	}
	return 0
}

// space skips blanks; with newlines, line breaks and comments too.
func (s *scanner) space(newlines bool) {
	for s.i < len(s.src) {
		switch c := s.src[s.i]; {
		case c == ' ' || c == '\t' || c == '\r':
			s.i++
		case newlines && c == '\n':
			s.i++
		case newlines && c == '#':
			s.skipLine()
		default:
			return
		}
	}
}

// skipLine goes to the start of the next line.
func (s *scanner) skipLine() {
	if j := strings.IndexByte(s.src[s.i:], '\n'); j >= 0 {
		s.i += j + 1
	} else {
		s.i = len(s.src)
	}
}

// define records where path is, unless it is known.
func (s *scanner) define(path []string, p Place) {
	k := strings.Join(path, ".")
	if _, seen := s.places[k]; !seen {
		s.places[k] = p
	}
}

// document reads headers and key = value lines to the end.
func (s *scanner) document() {
	var table []string
	for {
		s.space(true)
		if s.i >= len(s.src) {
			return
		}
		start := s.i
		if s.peek() == '[' {
			s.i++
			if s.peek() == '[' {
				s.i++
			}
			parts, at := s.key(nil)
			if parts != nil {
				table = parts
				for n := 1; n <= len(parts); n++ {
					s.define(parts[:n], Place{Key: s.pos(at[n-1])})
				}
			}
			s.skipLine()
			continue
		}
		if !s.pair(table) || s.i == start {
			s.skipLine()
		}
	}
}

// pair reads key = value, its key under prefix, and reports whether it
// read one.
func (s *scanner) pair(prefix []string) bool {
	parts, at := s.key(prefix)
	if parts == nil {
		return false
	}
	s.space(false)
	if s.peek() != '=' {
		return false
	}
	s.i++
	s.space(false)
	n := len(prefix)
	for j := n + 1; j < len(parts); j++ {
		s.define(parts[:j], Place{Key: s.pos(at[j-n-1])})
	}
	v := Place{Key: s.pos(at[len(at)-1]), Value: s.pos(s.i)}
	path := parts
	elems := s.value(path)
	v.Elems = elems
	s.define(path, v)
	return true
}

// key reads a dotted key and returns prefix and its parts, and the
// offsets of its own parts; nil when there is no key here.
func (s *scanner) key(prefix []string) ([]string, []int) {
	parts := append([]string(nil), prefix...)
	var at []int
	for {
		s.space(false)
		at = append(at, s.i)
		part, ok := s.keyPart()
		if !ok {
			return nil, nil
		}
		parts = append(parts, part)
		s.space(false)
		if s.peek() != '.' {
			return parts, at
		}
		s.i++
	}
}

// keyPart reads a bare or quoted part of a key.
func (s *scanner) keyPart() (string, bool) {
	switch c := s.peek(); {
	case c == '"' || c == '\'':
		start := s.i
		s.i++
		var b strings.Builder
		for s.i < len(s.src) && s.src[s.i] != c && s.src[s.i] != '\n' {
			if c == '"' && s.src[s.i] == '\\' && s.i+1 < len(s.src) {
				s.i++
			}
			b.WriteByte(s.src[s.i])
			s.i++
		}
		if s.peek() != c {
			s.i = start
			return "", false
		}
		s.i++
		return b.String(), true
	case isBare(c):
		start := s.i
		for s.i < len(s.src) && isBare(s.src[s.i]) {
			s.i++
		}
		return s.src[start:s.i], true
	}
	return "", false
}

func isBare(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// value reads the value at path (an inline table's keys are defined
// under it) and returns an array's elements' places.
func (s *scanner) value(path []string) []Pos {
	switch c := s.peek(); c {
	case '"', '\'':
		s.str(c)
	case '[':
		s.i++
		elems := []Pos{}
		for {
			s.space(true)
			if s.i >= len(s.src) || s.peek() == ']' {
				s.i++
				return elems
			}
			start := s.i
			elems = append(elems, s.pos(s.i))
			s.value(nil)
			s.space(true)
			if s.peek() == ',' {
				s.i++
			} else if s.i == start {
				s.i++ // not a value: step over it
			}
		}
	case '{':
		s.i++
		for {
			s.space(false)
			if s.i >= len(s.src) || s.peek() == '}' || s.peek() == '\n' {
				s.i++
				return nil
			}
			start := s.i
			if path == nil || !s.pair(path) {
				s.i = max(s.i, start+1)
			}
			s.space(false)
			if s.peek() == ',' {
				s.i++
			}
		}
	default:
		for s.i < len(s.src) && !strings.ContainsRune(",]}\n#", rune(s.src[s.i])) {
			s.i++
		}
	}
	return nil
}

// str reads a string quoted by q, on one line or, tripled, on several.
func (s *scanner) str(q byte) {
	triple := strings.Repeat(string(q), 3)
	if strings.HasPrefix(s.src[s.i:], triple) {
		s.i += 3
		for s.i < len(s.src) {
			if q == '"' && s.src[s.i] == '\\' {
				s.i += 2
				continue
			}
			if strings.HasPrefix(s.src[s.i:], triple) {
				s.i += 3
				for s.i < len(s.src) && s.src[s.i] == q { // """a"""" ends in a quote
					s.i++
				}
				return
			}
			s.i++
		}
		s.i = min(s.i, len(s.src))
		return
	}
	s.i++
	for s.i < len(s.src) && s.src[s.i] != q && s.src[s.i] != '\n' {
		if q == '"' && s.src[s.i] == '\\' {
			s.i++
		}
		s.i++
	}
	if s.i < len(s.src) && s.src[s.i] == q {
		s.i++
	}
	s.i = min(s.i, len(s.src))
}
