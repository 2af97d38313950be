package engine

import (
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"strings"
)

// scoreWords is the width of a Score in 64-bit words: 384 bits, room for any
// score a game can reach with tiles up to 2^MaxLevel, and far beyond.
const scoreWords = 6

// Score is an exact non-negative integer of 384 bits. It is a value type:
// copying it copies the score, and adding to it never allocates. A ruleset
// may keep its score in fractional units (see ScoreFormatter); the engine
// only adds and compares.
type Score struct {
	w [scoreWords]uint64 // little-endian words
}

// ScoreOf returns the score n.
func ScoreOf(n uint64) Score {
	var s Score
	s.w[0] = n
	return s
}

// IsZero reports whether the score is 0.
func (s Score) IsZero() bool { return s == Score{} }

// AddPow2 adds 2^e. A sum past the top saturates at the largest score.
func (s *Score) AddPow2(e int) {
	if e < 0 {
		return
	}
	i := e / 64
	if i >= scoreWords {
		s.saturate()
		return
	}
	s.carry(i, uint64(1)<<(e%64))
}

// AddUint64 adds n.
func (s *Score) AddUint64(n uint64) { s.carry(0, n) }

// Add adds t.
func (s *Score) Add(t Score) {
	var c uint64
	for i := range s.w {
		s.w[i], c = bits.Add64(s.w[i], t.w[i], c)
	}
	if c != 0 {
		s.saturate()
	}
}

func (s *Score) carry(i int, n uint64) {
	var c uint64
	s.w[i], c = bits.Add64(s.w[i], n, 0)
	for i++; c != 0 && i < scoreWords; i++ {
		s.w[i], c = bits.Add64(s.w[i], 0, c)
	}
	if c != 0 {
		s.saturate()
	}
}

func (s *Score) saturate() {
	for i := range s.w {
		s.w[i] = ^uint64(0)
	}
}

// Cmp returns -1, 0 or +1 as s is less than, equal to or greater than t.
func (s Score) Cmp(t Score) int {
	for i := scoreWords - 1; i >= 0; i-- {
		switch {
		case s.w[i] < t.w[i]:
			return -1
		case s.w[i] > t.w[i]:
			return 1
		}
	}
	return 0
}

// Uint64 returns the score as a uint64 and whether it fits.
func (s Score) Uint64() (uint64, bool) {
	for _, w := range s.w[1:] {
		if w != 0 {
			return 0, false
		}
	}
	return s.w[0], true
}

// Big returns the score as a big.Int.
func (s Score) Big() *big.Int {
	words := make([]big.Word, 0, scoreWords*64/bits.UintSize)
	for _, w := range s.w {
		if bits.UintSize == 64 {
			words = append(words, big.Word(w))
		} else {
			words = append(words, big.Word(uint32(w)), big.Word(w>>32))
		}
	}
	return new(big.Int).SetBits(words)
}

var errScoreRange = errors.New("score out of range")

// ScoreFromBig returns n as a Score; n must be non-negative and fit in 384 bits.
func ScoreFromBig(n *big.Int) (Score, error) {
	var s Score
	if n.Sign() < 0 || n.BitLen() > scoreWords*64 {
		return s, errScoreRange
	}
	for i := range s.w {
		var word big.Int
		word.Rsh(n, uint(64*i))
		s.w[i] = word.Uint64()
	}
	return s, nil
}

// String writes the score in decimal.
func (s Score) String() string {
	if u, ok := s.Uint64(); ok {
		return fmt.Sprint(u)
	}
	return s.Big().String()
}

// ParseScore reads a non-negative decimal integer.
func ParseScore(text string) (Score, error) {
	t := strings.TrimSpace(text)
	if t == "" || strings.TrimLeft(t, "0123456789") != "" {
		return Score{}, fmt.Errorf("score %q is not a non-negative whole number", text)
	}
	n, ok := new(big.Int).SetString(t, 10)
	if !ok {
		return Score{}, fmt.Errorf("score %q is not a non-negative whole number", text)
	}
	s, err := ScoreFromBig(n)
	if err != nil {
		return Score{}, fmt.Errorf("score %q: %w", text, err)
	}
	return s, nil
}

// MarshalText writes the score in decimal.
func (s Score) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a score written by MarshalText.
func (s *Score) UnmarshalText(b []byte) error {
	v, err := ParseScore(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}
