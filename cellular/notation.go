package cellular

import (
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/mod2048/mod2048/engine"
)

// The cell notation (RULES.md, "Notation"), extending seeds/004 §11's:
//
//	.        empty
//	aE       alive with energy E;   aE/k: with k turns without a merge
//	dE       dormant with energy E
//	C        a catalyst on an empty cell; aE+C, dE+C: an occupant on one
//	B, Bn    an active blight token with 1 or n charges
//	b, bn    an incoming (telegraphed) blight token with 1 or n charges
var cellPattern = regexp.MustCompile(`^(?:(\.)|([ad])([0-9]+)(?:/([0-9]+))?(\+C)?|(C)|([Bb])([0-9]+)?)$`)

// ParseCell reads one cell in the notation.
func (r *Rules) ParseCell(text string) (engine.Cell, error) {
	m := cellPattern.FindStringSubmatch(text)
	if m == nil {
		return engine.Cell{}, fmt.Errorf("%q is not a cellular cell (., aE, aE/k, dE, C, aE+C, B, Bn, b, bn)", text)
	}
	var c engine.Cell
	switch {
	case m[1] != "":
	case m[2] != "":
		c.Kind = KindAlive
		if m[2] == "d" {
			c.Kind = KindDormant
		}
		e, err := strconv.Atoi(m[3])
		if err != nil || e > 0xffff {
			return engine.Cell{}, fmt.Errorf("%q: energy %s is out of range", text, m[3])
		}
		c.Level = uint16(e)
		if m[4] != "" {
			k, err := strconv.Atoi(m[4])
			if err != nil || k > 0xffff {
				return engine.Cell{}, fmt.Errorf("%q: count %s is out of range", text, m[4])
			}
			c.Counter = uint16(k)
		}
		if m[5] != "" {
			c.Token = TokenCatalyst
		}
	case m[6] != "":
		c.Token = TokenCatalyst
	default:
		c.Token, c.Charges = TokenBlight, 1
		if m[7] == "b" {
			c.Token = TokenIncoming
		}
		if m[8] != "" {
			n, err := strconv.Atoi(m[8])
			if err != nil || n > 0xffff {
				return engine.Cell{}, fmt.Errorf("%q: charges %s are out of range", text, m[8])
			}
			c.Charges = uint16(n)
		}
	}
	if err := r.CheckCell(c); err != nil {
		return engine.Cell{}, fmt.Errorf("%q: %w", text, err)
	}
	return c, nil
}

// FormatCell writes a cell in the notation.
func (r *Rules) FormatCell(c engine.Cell) string {
	var sb strings.Builder
	switch c.Kind {
	case KindAlive:
		fmt.Fprintf(&sb, "a%d", c.Level)
		if c.Counter != 0 {
			fmt.Fprintf(&sb, "/%d", c.Counter)
		}
	case KindDormant:
		fmt.Fprintf(&sb, "d%d", c.Level)
	case engine.KindEmpty:
	default:
		return fmt.Sprintf("?kind%d", c.Kind)
	}
	switch c.Token {
	case 0:
		if c.Kind == engine.KindEmpty {
			return "."
		}
	case TokenCatalyst:
		if c.Kind != engine.KindEmpty {
			sb.WriteString("+")
		}
		sb.WriteString("C")
	case TokenBlight, TokenIncoming:
		letter := "B"
		if c.Token == TokenIncoming {
			letter = "b"
		}
		sb.WriteString(letter)
		if c.Charges != 1 {
			fmt.Fprintf(&sb, "%d", c.Charges)
		}
	default:
		fmt.Fprintf(&sb, "?token%d", c.Token)
	}
	return sb.String()
}

var errBadCell = errors.New("not a cellular cell")

// CheckCell accepts the cells the rules can produce: empty; alive or
// dormant with energy 1 to e_cap (an alive cell of energy 1 with a count
// below dormancy.ticks); a catalyst, alone or under an occupant; a blight
// token, active or incoming, alone, with 1 to 65535 charges.
func (r *Rules) CheckCell(c engine.Cell) error {
	switch c.Kind {
	case engine.KindEmpty:
		if c.Level != 0 || c.Counter != 0 {
			return errBadCell
		}
	case KindAlive, KindDormant:
		if c.Level < 1 || int(c.Level) > r.s.ECap {
			return fmt.Errorf("energy %d is outside 1 to e_cap (%d)", c.Level, r.s.ECap)
		}
		if c.Counter != 0 {
			if c.Kind != KindAlive || c.Level != 1 {
				return fmt.Errorf("only an alive cell of energy 1 counts turns without a merge")
			}
			if int(c.Counter) >= r.s.Dormancy.Ticks {
				return fmt.Errorf("count %d: a cell goes dormant after %d turns without a merge", c.Counter, r.s.Dormancy.Ticks)
			}
		}
	default:
		return errBadCell
	}
	switch c.Token {
	case 0:
		if c.Charges != 0 {
			return errBadCell
		}
	case TokenCatalyst:
		if c.Charges != 0 {
			return errBadCell
		}
	case TokenBlight, TokenIncoming:
		if c.Kind != engine.KindEmpty {
			return fmt.Errorf("a blight token stands alone on its cell")
		}
		if c.Charges < 1 {
			return fmt.Errorf("a blight token needs at least 1 charge")
		}
	default:
		return errBadCell
	}
	return nil
}

// FormatScore writes a score kept in quarter points as points: "12",
// "12.25", "12.5", "12.75".
func (r *Rules) FormatScore(s engine.Score) string {
	q := s.Big()
	whole, frac := new(big.Int).QuoRem(q, big.NewInt(4), new(big.Int))
	switch frac.Int64() {
	case 1:
		return whole.String() + ".25"
	case 2:
		return whole.String() + ".5"
	case 3:
		return whole.String() + ".75"
	}
	return whole.String()
}

// ParseScore reads a score in points, with a fraction of .25, .5 or .75 at
// most, into quarter points.
func (r *Rules) ParseScore(text string) (engine.Score, error) {
	t := strings.TrimSpace(text)
	whole, frac, _ := strings.Cut(t, ".")
	quarters := map[string]int64{"": 0, "0": 0, "00": 0, "25": 1, "5": 2, "50": 2, "75": 3}
	q, ok := quarters[frac]
	if !ok || whole == "" || strings.TrimLeft(whole, "0123456789") != "" {
		return engine.Score{}, fmt.Errorf("score %q is not a number of quarter points (like 12, 12.25, 12.5 or 12.75)", text)
	}
	n, ok := new(big.Int).SetString(whole, 10)
	if !ok {
		return engine.Score{}, fmt.Errorf("score %q is not a number", text)
	}
	n.Mul(n, big.NewInt(4)).Add(n, big.NewInt(q))
	s, err := engine.ScoreFromBig(n)
	if err != nil {
		return engine.Score{}, fmt.Errorf("score %q: %w", text, err)
	}
	return s, nil
}
