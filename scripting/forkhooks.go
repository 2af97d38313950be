package scripting

import (
	"errors"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/internal/workcount"
)

// ForkHooks returns the hooks of a fork of the host's game (engine.Forker):
// the mods' handlers run on the fork's moves as a dry run, so that a
// search (the lab's policies, the expert, the hint) sees the mods as the
// player does, and no more. Each fork move starts from the fork's own
// state (its storage and disabled mods, as Move starts from the game's);
// the mods' random streams come from the fork's random source, reseeded
// when it was made, never from the game's, which no player sees; and
// nothing it does reaches the game: the fork's storage goes
// to the fork's state, lines logged and notices are dropped, and an error
// is not reported. A mod that fails on a fork's move is left out of the
// rest of that move, its effects so far standing (Move plays the turn
// again without it; a search takes the cheaper guess). The next Move,
// Start or Refused loads the game's storage again, as always.
//
// The fork hooks share the host's Lua states: a fork is played while its
// game waits, never beside it.
func (h *Host) ForkHooks() engine.Hooks { return forkHooks{h} }

type forkHooks struct{ h *Host }

// ForkHooks makes forks of forks dry runs too.
func (f forkHooks) ForkHooks() engine.Hooks { return f }

func (f forkHooks) BeforeMove(e *engine.MoveEvent) error {
	h := f.h
	h.beginAt(e.State, true)
	for _, m := range h.mods {
		workcount.Step()
		m.muted = false
		// A search draws its own chance: the mods' random streams come
		// from the fork's random source (reseeded when it was made), never
		// from the game's, which a player cannot see. ran makes the next
		// move load its own stream again.
		m.rng = engine.DeriveRNG(e.State.RNG.State, "mod:"+m.mod.ID())
		m.ran = true
	}
	h.quiet(true)
	return f.dry(h.BeforeMove(e))
}

func (f forkHooks) AfterMerge(e *engine.MergeEvent) error {
	f.h.quiet(true)
	return f.dry(f.h.AfterMerge(e))
}

func (f forkHooks) OnSpawn(e *engine.SpawnEvent) error {
	f.h.quiet(true)
	return f.dry(f.h.OnSpawn(e))
}

func (f forkHooks) OnTick(e *engine.TickEvent) error {
	f.h.quiet(true)
	return f.dry(f.h.OnTick(e))
}

// dry ends a fork's hook call: the mod of an error is muted for the rest
// of the move and the error dropped (a refusal stands), and what the call
// logged, reported or showed the player is thrown away.
func (f forkHooks) dry(err error) error {
	h := f.h
	h.quiet(false)
	h.pending = h.pending[:0]
	h.state = nil
	if me := (*ModError)(nil); errors.As(err, &me) {
		for _, m := range h.mods {
			workcount.Step()
			if m.mod.ID() == me.Mod {
				m.muted = true
			}
		}
		return nil
	}
	return err
}

// quiet turns the mods' logs (and so their notices) off or on, for a call
// that must leave no trace.
func (h *Host) quiet(on bool) {
	for _, m := range h.mods {
		workcount.Step()
		m.log.SetDiscard(on)
	}
}
