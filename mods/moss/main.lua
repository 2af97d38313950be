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
  -- The board through game.cells: this mod's patches, and every marked
  -- cell (moss or another mod's), as cell numbers (grid.key).
  local patches = game.cells { hazard = MOSS }
  local marked = {}
  for _, k in ipairs(game.cells { marked = true }) do
    marked[k] = true
  end
  local count = #patches
  local taken = {} -- cells taken this turn, by grid.key
  local marks = {} -- the mark requests of this turn

  local function take(r, c)
    taken[grid.key(r, c)] = true
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
    local pr, pc = grid.cell(p)
    for _, d in ipairs(grid.DIRS) do
      local r, c = pr + d[1], pc + d[2]
      local k = grid.key(r, c)
      if grid.on_board(r, c) and not marked[k] and not taken[k] and game.cell(r, c) == "." then
        take(r, c)
        break
      end
    end
  end

  -- Take root: every `interval` turns, on a random free cell: empty,
  -- unmarked (game.cells) and not taken this turn. With no free cell (or
  -- at the cap) moss waits and tries again next turn.
  storage.since = (storage.since or 0) + 1
  if storage.since >= game.settings.interval and count < cap then
    local cells = {}
    for _, k in ipairs(game.cells { cell = "^%.$", marked = false }) do
      if not taken[k] then
        cells[#cells + 1] = k
      end
    end
    if #cells > 0 then
      local r, c = grid.cell(cells[game.random(#cells)])
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
