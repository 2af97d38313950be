-- Moss: a hazard that creeps over a Cellular 2048 board.
--
-- * Every `interval` turns a patch of moss takes root on an empty cell,
--   chosen with game.random (the mod's own seeded stream: replays and
--   fixtures see the same cell).
-- * After every turn each patch spreads to one free neighbour: the first
--   of up, right, down, left. Patches spread in reading order, and a cell
--   one patch took this turn is not free for the next.
-- * At `cap` patches moss stops: no spreading, no new patch.
-- * Moss is a blocking hazard: nothing moves into a patch or through it,
--   nothing spawns on it, nothing is born on it. With `choke` on, a spawn
--   on a cell next to moss is cancelled.
--
-- Storage keeps `since` (turns since a patch last took root), `rooted` (how
-- many patches took root) and `choked` (how many spawns moss cancelled);
-- undo and redo bring them back with the board.

local grid = require("grid")

-- MOSS is the hazard's full name, "moss:moss".
local MOSS = game.hazard {
  name = "moss",
  glyph = "%",
  color = "green",
  blocks = true,
  description = "Moss: nothing moves into it or through it, nothing spawns on it, and it spreads every turn.",
}

local STEPS = grid.STEPS
local W, H = game.width, game.height
-- The settings, read once: they stay the same for the whole game.
local CAP, INTERVAL, CHOKE = game.settings.cap, game.settings.interval, game.settings.choke

-- The filters of game.cells, made once: a table with string keys costs
-- about a microsecond to make, so a handler that runs every turn does not
-- make them again each time. For the same reason the handlers mark with a
-- call (game.mark), not with a request table.
local PATCHES = { hazard = MOSS }
local MARKED = { marked = true }
local FREE = { cell = "^%.$", marked = false }

game.on("tick", function(ev)
  -- The board through game.cells: this mod's patches, and every marked
  -- cell (moss or another mod's), as cell numbers (grid.key).
  local patches = game.cells(PATCHES)
  local count = #patches
  storage.since = (storage.since or 0) + 1
  if count >= CAP then
    return -- at the cap moss neither spreads nor takes root
  end
  local blocked = {} -- cells moss cannot take: marked, or taken this turn
  local list = game.cells(MARKED)
  for i = 1, #list do
    blocked[list[i]] = true
  end

  -- Spread: the patches that stood before this turn, in reading order,
  -- each to the first of its neighbours that is on the board, empty ("."
  -- in the cellular notation), unmarked and not taken this turn.
  for i = 1, #patches do
    if count >= CAP then
      break
    end
    local pr, pc = grid.cell(patches[i])
    for j = 1, 4 do
      local r, c = pr + STEPS[j][1], pc + STEPS[j][2]
      if r >= 0 and r < H and c >= 0 and c < W and not blocked[r * W + c] and game.cell(r, c) == "." then
        blocked[r * W + c] = true
        game.mark(r, c, MOSS)
        count = count + 1
        break
      end
    end
  end

  -- Take root: every `interval` turns, on a random free cell: empty,
  -- unmarked (game.cells) and not taken this turn. With no free cell (or
  -- at the cap) moss waits and tries again next turn.
  if storage.since >= INTERVAL and count < CAP then
    local cells = {}
    local free = game.cells(FREE)
    for i = 1, #free do
      if not blocked[free[i]] then
        cells[#cells + 1] = free[i]
      end
    end
    if #cells > 0 then
      local r, c = grid.cell(cells[game.random(#cells)])
      game.mark(r, c, MOSS)
      storage.since = 0
      storage.rooted = (storage.rooted or 0) + 1
      game.log(string.format("turn %d: moss takes root at (%d, %d)", ev.turn, r, c))
    end
  end
end)

-- Choking: the host runs this handler only for a spawn next to a patch
-- (game.on's filter {near = MOSS}), so the spawns elsewhere cost nothing.
local CANCEL = { cancel = true }
if CHOKE then
  game.on("spawn", function()
    storage.choked = (storage.choked or 0) + 1
    return CANCEL
  end, { near = MOSS })
end
