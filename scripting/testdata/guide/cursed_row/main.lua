-- guide: cursed_row
-- Cursed Row: no tile ever appears in one row. Tiles slide into it; none is
-- placed there. Two handlers keep it so, one for each way a tile appears:
-- spawn for the tile each turn places, start for a new game's starting
-- tiles, which no spawn handler hears of.

local ROW = game.settings.row
if ROW >= game.height then
  error(string.format("setting row = %d: the board has rows 0 to %d", ROW, game.height - 1))
end
local W = game.width
local EMPTY = { cell = "^0$", marked = false }

-- free returns the empty cells outside the cursed row that taken does
-- not hold, as cell numbers (row * W + col).
local function free(taken)
  local out = {}
  local cells = game.cells(EMPTY)
  for i = 1, #cells do
    local k = cells[i]
    if math.floor(k / W) ~= ROW and not taken[k] then
      out[#out + 1] = k
    end
  end
  return out
end

-- spawn: a tile the turn would place in the row goes to a random empty
-- cell outside it, or nowhere when there is none.
---@param ev mod2048.SpawnEvent
game.on("spawn", function(ev)
  if ev.row ~= ROW then return end
  local cells = free({})
  if #cells == 0 then return { cancel = true } end
  local k = cells[game.random(#cells)]
  return { row = math.floor(k / W), col = k % W }
end)

-- start: each starting tile in the row moves to a random empty cell
-- outside it. The handler's sets apply once it returns, so the cells it
-- has chosen are kept in taken.
---@param ev mod2048.StartEvent
game.on("start", function(ev)
  local taken = {}
  for col = 0, W - 1 do
    local v = game.cell(ROW, col)
    if v ~= 0 then
      local cells = free(taken)
      if #cells > 0 then
        local k = cells[game.random(#cells)]
        taken[k] = true
        game.set(math.floor(k / W), k % W, v)
        game.set(ROW, col, 0)
      end
    end
  end
end)
