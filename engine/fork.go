package engine

// Forker is what hooks may implement to go with the forks of their game
// (Fork, ForkInto): ForkHooks returns the hooks a fork plays with, which
// must leave the game itself untouched (a dry run). Hooks that do not
// implement it are left out of forks.
type Forker interface {
	ForkHooks() Hooks
}

// Fork returns a new game at g's current state, for search: the same
// rules, options, board, score, status, marks, counters, storage and spawn
// queue, with no history. Its hooks are g's ForkHooks when g's hooks are a
// Forker (a mod host's dry run, so that a search sees the mods), and none
// otherwise. Playing the fork never touches g. seed reseeds the fork's
// random source, so that a search can sample what the spawns may bring;
// the same seed gives the same fork.
func (g *Game) Fork(seed uint64) *Game {
	return g.ForkInto(new(Game), seed)
}

// ForkInto is Fork made into dst, a game that a search keeps and plays
// into again and again: dst's buffers are reused, so that a search that
// forks into the same games allocates nothing once they have grown. dst
// must not be g; whatever dst held is dropped. It returns dst.
func (g *Game) ForkInto(dst *Game, seed uint64) *Game {
	b0, b1 := dst.bufs[0], dst.bufs[1]
	*dst = Game{rules: g.rules, opt: g.opt, moves: g.moves}
	dst.bufs[0], dst.bufs[1] = b0, b1
	dst.opt.UndoLimit = 0
	dst.cur, dst.next = &dst.bufs[0], &dst.bufs[1]
	g.sync()
	dst.cur.copyFrom(g.cur)
	dst.cur.RNG = NewRNG(seed)
	dst.queue = g.queue[:len(g.queue):len(g.queue)] // an append copies: the game's queue stays its own
	if fk, ok := g.hooks.(Forker); ok {
		dst.hooks = fk.ForkHooks()
		dst.tracking = g.tracking
	}
	return dst
}

// CountMoves makes every move this game plays from now on, and every move
// of the forks made of it (and of theirs), add one to *n; nil stops the
// count. A move that the game's state rules out (the game is over, the
// direction is not one) is not counted; one the hooks refuse is. The
// count is the work of a player's searches through the engine's rules, in
// moves, the same on every machine: the lab's budget (package sim). A
// game and its forks are played on one goroutine, which alone may read *n
// while they play.
func (g *Game) CountMoves(n *uint64) { g.moves = n }
