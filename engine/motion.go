package engine

// Motion is where a tile went in a move: from its cell before the move to
// its cell after it (the same cell for a tile that stayed).
type Motion struct {
	From, To Pos
	// Tile is the identity of the tile that moved (State.Tiles).
	Tile uint32
}

// MergeMotion is a merge of a move: the cell its result stands on, and
// the cells, before the move, of the two tiles it was made from (the one
// nearer the edge first).
type MergeMotion struct {
	Into Pos
	From [2]Pos
	// Tile is the identity of the merged tile: a new one, as the original
	// game makes a new tile of a merge (its mergedFrom). Tiles holds the
	// identities of the two tiles it was made from, in From's order.
	Tile  uint32
	Tiles [2]uint32
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
//
// While it tracks them, the game's tiles have identities (State.Tiles):
// the ones on the board get theirs when tracking starts, unless they have
// them already (a save keeps them).
func (g *Game) TrackMotions(on bool) {
	g.sync()
	g.tracking, g.packedOK = on, false
	g.motions.Moves, g.motions.Merged = g.motions.Moves[:0], g.motions.Merged[:0]
	if on && g.cur.Tiles == nil {
		g.cur.identify(nil, nil)
	}
}

// Motions returns the motions of the last move that changed the board,
// while the game tracks them; read them before the next move.
func (g *Game) Motions() Motions { return g.motions }

// Moved records that the tile at from (before the move) went to to.
func (t *Turn) Moved(from, to Pos) {
	if t.g.recording {
		t.g.motions.Moves = append(t.g.motions.Moves, Motion{From: from, To: to})
	}
}

// Merged records a merge into into of the tiles from a and b (cells
// before the move).
func (t *Turn) Merged(into, a, b Pos) {
	if t.g.recording {
		t.g.motions.Merged = append(t.g.motions.Merged, MergeMotion{Into: into, From: [2]Pos{a, b}})
	}
}

// identify gives s's tiles their identities (Tiles): a tile that moved
// keeps the identity it had in prev (by motions), and every other tile (a
// merge's result, a spawn, a birth, a tile a mod put) gets a new one, in
// cell order; a cell without a tile has 0. With no prev, every tile gets a
// new one. It fills in the motions' identities.
func (s *State) identify(prev *State, mo *Motions) {
	n := len(s.Board.Cells)
	ids := s.Tiles[:0]
	if cap(ids) < n {
		ids = make([]uint32, n)
	}
	ids = ids[:n]
	clear(ids)
	next := s.NextTile
	if next == 0 {
		next = 1
	}
	w := s.Board.Width
	if prev != nil && prev.Tiles != nil && mo != nil {
		next = max(next, prev.NextTile)
		into := make(map[Pos]bool, len(mo.Merged))
		for i := range mo.Merged {
			m := &mo.Merged[i]
			into[m.Into] = true
			m.Tiles = [2]uint32{prev.Tiles[m.From[0].Row*w+m.From[0].Col], prev.Tiles[m.From[1].Row*w+m.From[1].Col]}
		}
		for i := range mo.Moves {
			m := &mo.Moves[i]
			m.Tile = prev.Tiles[m.From.Row*w+m.From.Col]
			if !into[m.To] {
				ids[m.To.Row*w+m.To.Col] = m.Tile
			}
		}
		for i := range mo.Merged {
			m := &mo.Merged[i]
			m.Tile = next
			ids[m.Into.Row*w+m.Into.Col] = next
			next++
		}
	}
	for i, c := range s.Board.Cells {
		switch {
		case c.Kind == KindEmpty:
			ids[i] = 0
		case ids[i] == 0:
			ids[i] = next
			next++
		}
	}
	s.Tiles, s.NextTile = ids, next
}
