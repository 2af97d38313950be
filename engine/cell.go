package engine

import "fmt"

// Kind says what occupies a cell. KindEmpty (0) is nothing; what the other
// values mean is up to the ruleset. Classic uses KindTile.
type Kind uint8

// KindEmpty marks a cell with nothing in it.
const KindEmpty Kind = 0

// Token is an overlay a ruleset may place on a cell beside or instead of
// its occupant (cellular catalysts and blight). Zero is no token.
type Token uint8

// Cell is the content of one square of the board. The zero Cell is empty in
// every ruleset; the meaning of the other fields belongs to the ruleset:
// classic keeps a tile of value 2^Level, cellular keeps energy in Level and a
// per-cell counter in Counter.
type Cell struct {
	Kind    Kind   // what occupies the cell
	Token   Token  // an overlay on the cell, 0 for none
	Level   uint16 // classic: log2 of the tile value; cellular: energy
	Counter uint16 // a counter the ruleset keeps per cell
	Charges uint16 // the charges of the token
}

// IsEmpty reports whether nothing occupies the cell and no token lies on it.
func (c Cell) IsEmpty() bool { return c.Kind == KindEmpty && c.Token == 0 }

// Pos is a cell's position: Row from the top, Col from the left, both from 0.
type Pos struct {
	Row, Col int
}

// String writes the position as "(row,col)".
func (p Pos) String() string { return fmt.Sprintf("(%d,%d)", p.Row, p.Col) }
