package engine

// Motion is where a tile went in a move: from its cell before the move to
// its cell after it (the same cell for a tile that stayed).
type Motion struct {
	From, To Pos
}

// MergeMotion is a merge of a move: the cell its result stands on, and
// the cells, before the move, of the two tiles it was made from (the one
// nearer the edge first).
type MergeMotion struct {
	Into Pos
	From [2]Pos
}

// Motions is what a move did to the tiles: each tile's motion (the two
// tiles of a merge both move into its cell), and each merge. The terminal
// and the browser animate from it; spawns are not in it.
type Motions struct {
	Moves  []Motion
	Merged []MergeMotion
}

// TrackMotions makes the game record the motions of its moves (Motions),
// or stops it. It costs a little on each move, and a 4×4 classic move
// leaves its table path for the one that knows where each tile came from:
// frontends that do not animate leave it off.
func (g *Game) TrackMotions(on bool) {
	g.tracking = on
	g.motions.Moves, g.motions.Merged = g.motions.Moves[:0], g.motions.Merged[:0]
}

// Motions returns the motions of the last move that changed the board,
// while the game tracks them; read them before the next move.
func (g *Game) Motions() Motions { return g.motions }

// Tracking reports whether the game records motions: rules that slide
// report each tile's motion (Moved) and each merge (Merged) then.
func (t *Turn) Tracking() bool { return t.g.tracking }

// Moved records that the tile at from (before the move) went to to.
func (t *Turn) Moved(from, to Pos) {
	if t.g.tracking {
		t.g.motions.Moves = append(t.g.motions.Moves, Motion{From: from, To: to})
	}
}

// Merged records a merge into into of the tiles from a and b (cells
// before the move).
func (t *Turn) Merged(into, a, b Pos) {
	if t.g.tracking {
		t.g.motions.Merged = append(t.g.motions.Merged, MergeMotion{Into: into, From: [2]Pos{a, b}})
	}
}
