package engine

import (
	"errors"
	"fmt"
)

// Sentinel errors of the game. Tests and callers match them with errors.Is.
var (
	// ErrNothingToUndo is returned by Undo when there is no earlier state.
	ErrNothingToUndo = errors.New("nothing to undo")
	// ErrNothingToRedo is returned by Redo when there is no undone state.
	ErrNothingToRedo = errors.New("nothing to redo")
	// ErrUndoDisabled is returned by Undo and Redo when the undo limit is 0.
	ErrUndoDisabled = errors.New("undo is disabled")
	// ErrNoSpawn is returned by a step that needs a spawn when the spawn
	// queue is empty and the game spawns only from its queue.
	ErrNoSpawn = errors.New("spawn queue is empty and the game has no seed for random spawns")
	// ErrNotWon is returned by KeepPlaying when the game is not Won.
	ErrNotWon = errors.New("game is not won")
)

// SpawnError reports a spawn that the rules refuse: a cell off the board or
// occupied, or a value the ruleset cannot spawn. Entry is the spawn as the
// notation writes it, "{r,c,v}".
type SpawnError struct {
	Entry  string
	Reason string
}

func (e *SpawnError) Error() string { return "spawn " + e.Entry + ": " + e.Reason }

// Refusal is returned by a BeforeMove hook that refuses the move; Reason is
// shown to the player.
type Refusal struct {
	Reason string
	By     string // who refused (a mod's id), for the reports
}

func (r *Refusal) Error() string { return "move refused: " + r.Reason }

// HookError wraps an error returned by a hook (other than a Refusal), or an
// invalid request a hook made. The step it happened in is undone.
type HookError struct {
	Event string // "before move", "after merge", "on spawn" or "on tick"
	Err   error
}

func (e *HookError) Error() string { return fmt.Sprintf("%s hook: %v", e.Event, e.Err) }

func (e *HookError) Unwrap() error { return e.Err }
