package scripting

import (
	"fmt"
	"math"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"
	"github.com/mod2048/mod2048/scripting/internal/sandbox"
	"github.com/mod2048/mod2048/scripting/internal/workcount"
)

// A mod's memory budget (Limits.MaxMemory) bounds what its Lua state holds
// from one call to the next: the values reachable from its globals, its
// handlers, its modules and its string table, its functions' compiled code
// among them. The instruction budget bounds what one call or one turn
// builds (every byte a concatenation, a builtin or a table makes is
// charged, every value a ... passes on, and every byte of source compiled),
// but what a mod keeps adds up over turns. The host measures it by walking
// the values, with sizes worked out from their lengths, counts and
// capacities (a table's from lua.LTable.Footprint, which counts its array
// part, its maps and its key list as Go lays them out; a closure's code
// from lua.FunctionProto.Footprint, each prototype once), never read from
// the process's heap: the same values give the same figure on every
// machine, natively and in the browser. TestWeighedIsHeld and
// TestWeighedCodeIsHeld hold the figure to within 1.5× of what the heap
// holds, shape by shape.
//
// A walk costs as much as the values it visits, so the host walks only
// when the instructions run since the last walk could have built more
// than the room left under the limit (at bytesPerInstruction bytes an
// instruction, the rate at which builds are charged), or half of what the
// mod held then. A call that leaves the mod holding more than the limit
// fails with the memory budget's error, and so does every later call until
// the mod holds less: it does not run.

// heldReason is the memory budget's error.
func heldReason(l Limits) string {
	return fmt.Sprintf("exceeded its memory budget (%d MiB of Lua values)", l.MaxMemory>>20)
}

// gameReason is the error of the game's memory ceiling.
func gameReason(l Limits) string {
	return fmt.Sprintf("exceeded the game's memory budget (%d MiB of Lua values, all mods together)", l.MaxGameMemory>>20)
}

// builtReason is the error of a call that built more than MaxCallBuilt.
func builtReason(l Limits) string {
	return fmt.Sprintf("exceeded its build limit (%d MiB built in one call)", l.MaxCallBuilt>>20)
}

// callCap returns what a call may build, and the error past it: the
// game's room (gameCap), or MaxCallBuilt where that is less (0: no cap).
func (h *Host) callCap() (int64, string) {
	n, why := h.gameCap(), h.gameReason
	if l := h.limits.MaxCallBuilt; l > 0 && (n == 0 || l < n) {
		n, why = l, h.builtReason
	}
	return n, why
}

// heldByAll is what the mods of the host held at their last weighing and,
// with built, what they may have built since (their calls' builds, and
// unmeteredBytes for each instruction).
func (h *Host) heldByAll(built bool) int64 {
	var n int64
	for _, m := range h.mods {
		workcount.Step()
		n += m.held.bytes
		if built {
			n += m.held.built + m.held.since*unmeteredBytes
		}
	}
	return n
}

// minCallBuild is what a call may always build, however near the game's
// ceiling the mods are: 1 MiB. So the mods of a game hold at most the
// ceiling plus about 1 MiB for each mod.
const minCallBuild = 1 << 20

// unmeteredBytes is what an instruction may allocate that no meter counts
// (a short string, an upvalue's cell), at the most: the room of the game
// counts it for every instruction a mod ran since its last weighing.
const unmeteredBytes = 8

// gameCap returns the bytes a call may build under the game's ceiling: the
// room left, at least minCallBuild (0 without a ceiling: no cap). The room
// counts what each mod built since its last weighing; when it is less
// than minCallBuild, the mods that ran since are weighed again, for the
// true figure (without blame: weigh blames).
func (h *Host) gameCap() int64 {
	if h.limits.MaxGameMemory <= 0 {
		return 0
	}
	room := h.limits.MaxGameMemory - h.heldByAll(true)
	if room < minCallBuild {
		for _, m := range h.mods {
			workcount.Step()
			if m.held.since > 0 || m.held.built > 0 {
				m.held.bytes, m.held.since, m.held.built = m.measureCharged(), 0, 0
			}
		}
		room = h.limits.MaxGameMemory - h.heldByAll(true)
	}
	return max(room, minCallBuild)
}

// roomInGame is how much more the mods may hold together before the
// game's ceiling (math.MaxInt64 without one).
func (h *Host) roomInGame() int64 {
	if h.limits.MaxGameMemory <= 0 {
		return math.MaxInt64
	}
	return h.limits.MaxGameMemory - h.heldByAll(false)
}

// held is what the host knows of a mod's memory.
type held struct {
	bytes int64 // what the last walk measured
	since int64 // instructions run since the last walk
	built int64 // bytes its calls built since the last walk (budget.built)
	// overGame: the mod's last walk took the game past its ceiling; it
	// runs again only once the mods hold less.
	overGame bool
}

// due says whether the mod may have passed limit since the last walk, or
// taken the game past its ceiling, gameRoom away at that walk.
func (h *held) due(limit, gameRoom int64) bool {
	room := min(max(limit-h.bytes, h.bytes/2), max(gameRoom, 0))
	return h.since*sandbox.BytesPerInstruction >= room || h.bytes > limit
}

// weigh measures what the mod holds and returns the error of the budget
// it passes, its own or the game's, if it passes one.
func (m *modRun) weigh() string {
	h := m.host
	m.held = held{bytes: m.measureCharged()}
	switch {
	case h.limits.MaxMemory > 0 && m.held.bytes > h.limits.MaxMemory:
		return h.heldReason
	case h.roomInGame() < 0:
		m.held.overGame = true
		return h.gameReason
	}
	return ""
}

// measure weighs the mod's values: what its state can reach (its globals,
// its registry, its strings' methods, its handlers and modules) and what
// the host keeps of the mod's (the game.cells filter tables it read last,
// which the mod may have dropped and the host still holds; the storage
// tables it keeps for the states it may go back to, keptTables; and the
// names tostring gave its values, which the sandbox keeps while they
// live).
func (m *modRun) measure() int64 {
	roots := make([]lua.LValue, 0, 8+len(m.modules))
	roots = append(roots, m.L.G.Global, m.L.Get(lua.RegistryIndex), m.L.GetMetaField(lua.LString(""), "__index"))
	for _, fns := range m.handlers {
		workcount.Step()
		for _, fn := range fns {
			workcount.Step()
			roots = append(roots, fn)
		}
	}
	for _, v := range m.modules {
		workcount.Step()
		roots = append(roots, v)
	}
	for _, f := range m.filters {
		workcount.Step()
		if f.spec != nil {
			roots = append(roots, f.spec)
		}
	}
	for _, k := range m.kept.list {
		workcount.Step()
		roots = append(roots, k.t)
	}
	return sandbox.Of(m.L).Weigh(roots...)
}

// measureCharged weighs the mod's values, as measure does, and charges the
// walk to the mod's turn: an instruction for every
// sandbox.BytesPerInstruction bytes weighed, about what the walk takes to
// visit them (a closure of 64 bytes, a map lookup, is an instruction's
// time). So the host's own work for a mod is paid for by the mod: a mod
// that holds 60 MiB and keeps building is weighed often (each time its
// calls could have built half of what it holds), and each walk costs a
// quarter of its turn, where it once cost it nothing and made a move of
// 1.4 s. The charge counts against the turn's budget from the next call
// on; the last walk of a turn is the turn's one unpaid walk, so a move
// costs at most its turn's budget and one walk (MODDING's worst case).
func (m *modRun) measureCharged() int64 {
	n := m.measure()
	m.spent += n / sandbox.BytesPerInstruction
	return n
}

// memoryLimit is a mod's memory budget, math.MaxInt64 without one.
func memoryLimit(l Limits) int64 {
	if l.MaxMemory <= 0 {
		return math.MaxInt64
	}
	return l.MaxMemory
}

// Weighed weighs now what the mod with the given id holds, as its memory
// budget does (Limits.MaxMemory), and returns the bytes, or -1 when the
// host has no such mod. Play never needs it (the budget weighs when it
// must); it is for tools that hold the weighing against the process's
// heap (costsearch). It changes nothing the budgets keep.
func (h *Host) Weighed(id string) int64 {
	for _, m := range h.mods {
		workcount.Step()
		if m.mod.ID() == id {
			return m.measure()
		}
	}
	return -1
}
