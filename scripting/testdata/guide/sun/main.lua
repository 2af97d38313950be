-- guide: sun
-- Sun: a wall that warms its neighbours. It appears at the end of the first
-- turn that leaves its cell empty; from then on, at the end of every turn,
-- each 2 next to it (above, below, left or right) becomes a 4.

local sun = game.hazard{
  name = "sun",
  glyph = "o",
  color = "yellow",
  blocks = true,
  description = "A wall that turns the 2s next to it into 4s.",
}

local row, col = game.settings.row, game.settings.col
local sides = { { -1, 0 }, { 1, 0 }, { 0, -1 }, { 0, 1 } }

---@param ev mod2048.TickEvent
game.on("tick", function(ev)
  if not storage.placed then
    if game.cell(row, col) ~= 0 then
      return -- wait for a turn that leaves the cell empty
    end
    storage.placed = true
    return { mark = { { row = row, col = col, name = sun } } }
  end
  local warmed = {}
  for _, d in ipairs(sides) do
    local r, c = row + d[1], col + d[2]
    if r >= 0 and r < game.height and c >= 0 and c < game.width and game.cell(r, c) == 2 then
      warmed[#warmed + 1] = { row = r, col = c, cell = 4 }
    end
  end
  return { set = warmed }
end)
