package engine

// Fork returns a new game at g's current state, for search: the same
// rules, options, board, score, status, marks, counters, storage and spawn
// queue, with no history and no hooks. Playing the fork never touches g.
// seed reseeds the fork's random source, so that a search can sample what
// the spawns may bring; the same seed gives the same fork.
func (g *Game) Fork(seed uint64) *Game {
	f := &Game{rules: g.rules, opt: g.opt}
	f.opt.UndoLimit = 0
	f.cur, f.next = &f.bufs[0], &f.bufs[1]
	g.sync()
	f.cur.copyFrom(g.cur)
	f.cur.RNG = NewRNG(seed)
	f.queue = g.queue[:len(g.queue):len(g.queue)] // an append copies: the game's queue stays its own
	return f
}
