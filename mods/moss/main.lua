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
  local w, h = game.width, game.height
  -- One look at the marks: this mod's patches, and every marked cell (moss
  -- or another mod's), by grid.key. Asking each cell would build a table
  -- for every cell.
  local patches, marked = {}, {}
  for _, m in ipairs(game.marks()) do
    marked[m.row * w + m.col] = true
    if m.name == MOSS then
      patches[#patches + 1] = m
    end
  end
  local count = #patches
  local taken = {} -- cells taken this turn, by grid.key
  local marks = {} -- the mark requests of this turn

  local function take(r, c)
    taken[r * w + c] = true
    marks[#marks + 1] = { row = r, col = c, name = "moss" }
    count = count + 1
  end

  -- Spread: the patches that stood before this turn, in reading order,
  -- each to the first of its neighbours that is on the board, empty ("."
  -- in the cellular notation), unmarked and not taken this turn.
  for _, p in ipairs(patches) do
    if count >= cap then
      break
    end
    for _, d in ipairs(grid.DIRS) do
      local r, c = p.row + d[1], p.col + d[2]
      local k = r * w + c
      if grid.on_board(r, c) and not marked[k] and not taken[k] and game.cell(r, c) == "." then
        take(r, c)
        break
      end
    end
  end

  -- Take root: every `interval` turns, on a random free cell. With no free
  -- cell (or at the cap) moss waits and tries again next turn. The
  -- candidates are cell numbers, not a table each.
  storage.since = (storage.since or 0) + 1
  if storage.since >= game.settings.interval and count < cap then
    local cells = {}
    for r = 0, h - 1 do
      for c = 0, w - 1 do
        local k = r * w + c
        if not marked[k] and not taken[k] and game.cell(r, c) == "." then
          cells[#cells + 1] = k
        end
      end
    end
    if #cells > 0 then
      local k = cells[game.random(#cells)]
      local r, c = math.floor(k / w), k % w
      take(r, c)
      storage.since = 0
      storage.rooted = (storage.rooted or 0) + 1
      game.log(string.format("turn %d: moss takes root at (%d, %d)", ev.turn, r, c))
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
