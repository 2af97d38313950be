package scripting

import (
	"fmt"
	"time"

	"github.com/mod2048/mod2048/scripting/internal/sandbox"
)

// Limits bound what one mod, and all the mods of a game, may use. A
// handler that passes a limit stops with an error naming it, and the game
// goes on without its effects. The budgets are counts (instructions, and
// bytes weighed from the values), so a handler passes or fails alike on
// every machine and under any load; FailsafeTime, the one bound by a
// clock, stops only work no count saw, and in a Deterministic host ends
// the run with a *CostModelError instead of shaping a result. MODDING.md's
// "Limits" has the schedule, the reasons and the figures.
type Limits struct {
	HandlerInstructions int64 // one handler call
	TurnInstructions    int64 // all of one mod's handler calls in one turn, dry runs included (see BeforeMoveInstructions)
	// GameTurnInstructions bound all the mods of a game together in one
	// turn, shared equally: each mod's turn is the smaller of
	// TurnInstructions and GameTurnInstructions divided by the number of
	// mods the game loads, so that a move takes as long with nine mods
	// as with one, and a mod's share is known before any of them runs
	// (what another mod spends never changes it). 0 is no bound.
	GameTurnInstructions int64
	// BeforeMoveInstructions bound one evaluation of a mod's before_move
	// handlers: in a move, and in each dry run that asks whether a move is
	// refused (Refused), which the play session runs for up to four
	// directions before a move. Those four dry runs come out of the
	// turn's budget: a mod with before_move handlers has
	// TurnInstructions less 4 × BeforeMoveInstructions for its move, so
	// that a move and its dry runs together run at most TurnInstructions.
	// 0 is TurnInstructions / 8.
	BeforeMoveInstructions int64
	LoadInstructions       int64         // loading the mod: compiling its files (sandbox.CompileCost) and running their top level
	FailsafeTime           time.Duration // the time of one call, by its own clock (failsafe)
	CallStack              int           // Lua call frames (deep recursion ends in an error)
	Registry               int           // Lua data-stack slots
	MaxString              int           // bytes a builtin may produce (string.rep, upper, lower, reverse, format, gsub, table.concat)
	MaxPattern             int           // bytes of subject (and of pattern) string.gsub, gmatch, find and match may scan
	MaxItems               int           // values unpack and string.byte may return, elements table.concat may join and table.sort may sort
	MaxHandlers            int           // handlers one mod may register for one event
	MaxCallBuilt           int64         // bytes one call may build (tables, closures, numbers, strings), counted as it builds them; 0, the default, is no bound but the instruction budget's
	MaxMemory              int64         // bytes of the Lua values a mod holds from one call to the next, weighed (memory.go); 0 is no limit
	// MaxGameMemory bounds what all the mods of a game hold together,
	// weighed as MaxMemory is: the ceiling that lets many mods, each
	// within its own budget, share a browser page. 0 is no limit.
	MaxGameMemory int64
	MaxLog        int // bytes of print output kept per mod
}

// defaultLimits are the limits mods run under: MODDING.md's table, which
// TestGuideLimits holds to them.
var defaultLimits = Limits{
	HandlerInstructions:    1_000_000,
	TurnInstructions:       4_000_000,
	GameTurnInstructions:   500_000,
	BeforeMoveInstructions: 0, // an eighth of the mod's turn
	LoadInstructions:       4_000_000,
	FailsafeTime:           2 * time.Second,
	CallStack:              200,
	Registry:               64 * 1024,
	MaxString:              1 << 20,
	MaxPattern:             64 << 10,
	MaxItems:               1 << 16,
	MaxHandlers:            64,
	MaxMemory:              64 << 20,
	MaxGameMemory:          128 << 20,
	MaxLog:                 64 << 10,
}

// DefaultLimits returns the limits mods run under unless the embedder sets
// others: a copy, to change as it likes.
func DefaultLimits() Limits { return defaultLimits }

// sandboxLimits are the limits of l the sandbox's own functions keep.
func sandboxLimits(l Limits) sandbox.Limits {
	return sandbox.Limits{CallStack: l.CallStack, Registry: l.Registry, MaxString: l.MaxString, MaxPattern: l.MaxPattern, MaxItems: l.MaxItems}
}

// The errors of a spent budget.
func callReason(l Limits) string {
	return fmt.Sprintf("exceeded its instruction budget (%d a call)", l.HandlerInstructions)
}

func turnReason(l Limits, share string) string {
	return fmt.Sprintf("exceeded its instruction budget (%d a turn%s)", l.TurnInstructions, share)
}

// shareTurn returns l for each of mods mods of one game, its
// TurnInstructions at most the mod's equal share of GameTurnInstructions
// (at least one instruction), and, where the share is the lesser, what
// the errors add to name it (": the game's N shared by M mods").
func shareTurn(l Limits, mods int) (Limits, string) {
	if l.GameTurnInstructions <= 0 || mods <= 0 {
		return l, ""
	}
	own := l.TurnInstructions
	l.TurnInstructions = max(min(own, l.GameTurnInstructions/int64(mods)), 1)
	if mods == 1 || l.TurnInstructions >= own {
		return l, ""
	}
	return l, fmt.Sprintf(": the game's %d shared by %d mods", l.GameTurnInstructions, mods)
}

// beforeMoveBudget is Limits.BeforeMoveInstructions, its default worked
// out; dryRunsReserve what a mod with before_move handlers sets aside of
// its turn for the dry runs; at least one instruction is left to the turn.
func beforeMoveBudget(l Limits) int64 {
	if l.BeforeMoveInstructions > 0 {
		return l.BeforeMoveInstructions
	}
	return l.TurnInstructions / 8
}

func dryRunsReserve(l Limits) int64 {
	return min(4*beforeMoveBudget(l), max(l.TurnInstructions-1, 0))
}

func beforeMoveReason(l Limits) string {
	return fmt.Sprintf("exceeded its instruction budget (%d for before_move)", beforeMoveBudget(l))
}

func dryTurnReason(l Limits, share string) string {
	return fmt.Sprintf("exceeded its instruction budget (%d a turn%s, less %d kept for the dry runs of before_move)", l.TurnInstructions, share, dryRunsReserve(l))
}

func loadReason(l Limits) string {
	return fmt.Sprintf("exceeded its instruction budget (%d to load)", l.LoadInstructions)
}
