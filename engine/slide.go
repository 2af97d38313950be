package engine

import "sync"

// pureGame is the game a pure slide's turn belongs to: no hooks, no
// spawns; only its fields the slide reads.
var pureGame = &Game{}

// slideScratch is the state and turn a pure slide works in, pooled: the
// rules' slide keeps its turn where the heap can see it (a hook's merge
// event), so a turn on the stack would cost an allocation a call.
type slideScratch struct {
	st State
	t  Turn
}

var slidePool = sync.Pool{New: func() any { return new(slideScratch) }}

// Slide plays direction d on board b in place, for search: the classic
// slide and merges of a move, with no spawn, no history, no hooks, no
// marks and no Game. It returns the score the merges gain and whether the
// board changed. It is the move the rules play (Play slides this way
// before it spawns), as a pure function of the board: an AI can search
// with it at a few nanoseconds a move without cloning a game.
func (c *Classic) Slide(b *Board, d Direction) (gain Score, changed bool) {
	sc := slidePool.Get().(*slideScratch)
	defer slidePool.Put(sc)
	sc.st = State{Board: *b}
	sc.t = Turn{Dir: d, State: &sc.st, g: pureGame}
	t := &sc.t
	win := c.winLevel()
	var small uint64
	n := lineCount(d, b.Width, b.Height)
	fast := len(b.Cells)/max(n, 1) == 4
	if fast {
		lineTableOnce.Do(buildLineTable)
	}
	empties := 0
	for k := 0; k < n; k++ {
		l := lineOf(d, k, b.Width, b.Height)
		if fast {
			if ch, _, ok := slide4(t, l, &small, &empties); ok {
				changed = changed || ch
				continue
			}
		}
		ch, _, _ := c.slide(t, l, win, &small) // no hook: no error
		changed = changed || ch
	}
	t.Gained.AddUint64(small)
	gain = t.Gained
	sc.st = State{}
	return gain, changed
}
