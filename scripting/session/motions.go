package session

import "github.com/mod2048/mod2048/engine"

// TrackMotions makes the session's games record the motions of their
// moves (engine.Game.TrackMotions), for a frontend that animates slides
// and merges; new games keep tracking.
func (s *Session) TrackMotions() {
	s.tracking = true
	s.g.TrackMotions(true)
}

// LastMotions returns what the last move that changed the board did to
// the tiles, while the session tracks motions.
func (s *Session) LastMotions() engine.Motions { return s.g.Motions() }
