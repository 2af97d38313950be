package session

import "github.com/mod2048/mod2048/engine"

// spawnSpy sits between the game and its hooks (the mods' host, or none)
// and keeps the spawns of the last move, as placed: after the mods moved,
// changed or cancelled them. A move a hook's failure plays again starts
// over at BeforeMove, so only the attempt that stood is kept.
type spawnSpy struct {
	inner  engine.Hooks // nil without mods
	spawns []engine.SpawnEntry
}

func (w *spawnSpy) BeforeMove(e *engine.MoveEvent) error {
	w.spawns = w.spawns[:0]
	if w.inner == nil {
		return nil
	}
	return w.inner.BeforeMove(e)
}

func (w *spawnSpy) AfterMerge(e *engine.MergeEvent) error {
	if w.inner == nil {
		return nil
	}
	return w.inner.AfterMerge(e)
}

func (w *spawnSpy) OnSpawn(e *engine.SpawnEvent) error {
	if w.inner != nil {
		if err := w.inner.OnSpawn(e); err != nil {
			return err
		}
	}
	if !e.Cancel {
		w.spawns = append(w.spawns, engine.SpawnEntry{Pos: e.Pos, Cell: e.Cell})
	}
	return nil
}

func (w *spawnSpy) OnTick(e *engine.TickEvent) error {
	if w.inner == nil {
		return nil
	}
	return w.inner.OnTick(e)
}

// ForkHooks gives the forks of the game the mods' dry run
// (scripting.Host.ForkHooks); a fork keeps no spawns, and without mods it
// has no hooks.
func (w *spawnSpy) ForkHooks() engine.Hooks {
	if fk, ok := w.inner.(engine.Forker); ok {
		return fk.ForkHooks()
	}
	return nil
}

// WatchSpawns makes the session keep the spawns of each move, for
// LastSpawns (a fixture written from play scripts them). It costs a little
// on every move; frontends that do not write fixtures leave it off.
func (s *Session) WatchSpawns() {
	if s.spy != nil {
		return
	}
	s.spy = &spawnSpy{}
	s.hook(s.g)
}

// LastSpawns returns the spawns of the last move that made a turn, as
// placed, while WatchSpawns is on: read them before the next move.
func (s *Session) LastSpawns() []engine.SpawnEntry {
	if s.spy == nil {
		return nil
	}
	return s.spy.spawns
}

// hook attaches the session's hooks to g: the mods' host, behind the spawn
// spy when it watches.
func (s *Session) hook(g *engine.Game) {
	switch {
	case s.spy != nil && s.host != nil:
		s.spy.inner = s.host
		g.SetHooks(s.spy)
	case s.spy != nil:
		s.spy.inner = nil
		g.SetHooks(s.spy)
	case s.host != nil:
		g.SetHooks(s.host)
	}
}
