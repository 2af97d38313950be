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

-- MOSS is the hazard's full name, "moss:moss", as game.marks() reports it.
local MOSS = game.hazard {
  name = "moss",
  glyph = "%",
  color = "green",
  blocks = true,
  description = "Moss: nothing moves into it or through it, nothing spawns on it, and it spreads every turn.",
}

game.on("tick", function(ev)
  local cap = game.settings.cap
  local patches = grid.all(MOSS)
  local count = #patches
  local taken = {} -- cells taken this turn, by grid.key
  local marks = {} -- the mark requests of this turn

  local function take(r, c)
    taken[grid.key(r, c)] = true
    marks[#marks + 1] = { row = r, col = c, name = "moss" }
    count = count + 1
  end

  local function open(r, c)
    return grid.free(r, c) and not taken[grid.key(r, c)]
  end

  -- Spread: the patches that stood before this turn, in reading order.
  for _, p in ipairs(patches) do
    if count >= cap then
      break
    end
    for _, d in ipairs(grid.DIRS) do
      local r, c = p.row + d[1], p.col + d[2]
      if open(r, c) then
        take(r, c)
        break
      end
    end
  end

  -- Take root: every `interval` turns, on a random free cell. With no free
  -- cell (or at the cap) moss waits and tries again next turn.
  storage.since = (storage.since or 0) + 1
  if storage.since >= game.settings.interval and count < cap then
    local cells = {}
    for r = 0, game.height - 1 do
      for c = 0, game.width - 1 do
        if open(r, c) then
          cells[#cells + 1] = { r, c }
        end
      end
    end
    if #cells > 0 then
      local cell = cells[game.random(#cells)]
      take(cell[1], cell[2])
      storage.since = 0
      storage.rooted = (storage.rooted or 0) + 1
      game.log(string.format("turn %d: moss takes root at (%d, %d)", ev.turn, cell[1], cell[2]))
    end
  end

  if #marks > 0 then
    return { mark = marks }
  end
end)

game.on("spawn", function(ev)
  if game.settings.choke and grid.next_to(ev.row, ev.col, MOSS) then
    storage.choked = (storage.choked or 0) + 1
    return { cancel = true }
  end
end)
