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
-- Storage keeps `last` (the turn a patch last took root, 0 before the
-- first), `rooted` (how many patches took root) and `choked` (how many
-- spawns moss cancelled); undo and redo bring them back with the board.
-- Storage changes only on the turns something happens: the turns since a
-- patch took root are worked out from `last`, not counted in storage, so
-- the other turns write nothing.

local grid = require("grid")

-- MOSS is the hazard's full name, "moss:moss".
local MOSS = game.hazard {
  name = "moss",
  glyph = "%",
  color = "green",
  blocks = true,
  description = "Moss: nothing moves into it or through it, nothing spawns on it, and it spreads every turn.",
}

local DR, DC = grid.DR, grid.DC
local cell = game.cell
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
  -- cell (moss or another mod's), as cell numbers (row * W + col).
  local patches = game.cells(PATCHES)
  local count = #patches
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
  local taken = 0
  for i = 1, #patches do
    if count >= CAP then
      break
    end
    local k = patches[i]
    local pc = k % W
    local pr = (k - pc) / W
    for j = 1, 4 do
      local r, c = pr + DR[j], pc + DC[j]
      if r >= 0 and r < H and c >= 0 and c < W then
        local t = r * W + c
        if not blocked[t] and cell(r, c) == "." then
          blocked[t] = true
          game.mark(r, c, MOSS)
          count, taken = count + 1, taken + 1
          break
        end
      end
    end
  end

  -- Take root: every `interval` turns, on a random free cell: empty,
  -- unmarked (game.cells) and not taken this turn. With no free cell (or
  -- at the cap) moss waits and tries again next turn.
  if ev.turn - (storage.last or 0) >= INTERVAL and count < CAP then
    local cells = game.cells(FREE)
    if taken > 0 then
      -- The cells taken this turn are still free on the board as it
      -- stands (the marks apply after the handler): leave them out.
      local kept, n = {}, 0
      for i = 1, #cells do
        if not blocked[cells[i]] then
          n = n + 1
          kept[n] = cells[i]
        end
      end
      cells = kept
    end
    if #cells > 0 then
      local r, c = grid.cell(cells[game.random(#cells)])
      game.mark(r, c, MOSS)
      storage.last = ev.turn
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
