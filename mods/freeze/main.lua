-- Freeze: every `interval` turns the largest tile freezes for `turns` turns.
-- A frozen tile carries the blocking hazard "freeze:ice": it neither moves
-- nor merges, and nothing slides through it.

local ice = game.hazard{
  name = "ice",
  glyph = "*",
  color = "cyan",
  blocks = true,
  description = "A frozen tile: it neither moves nor merges until it thaws.",
}

-- largest returns the row and column of the largest tile (the first one in
-- reading order when several tie), or nil on an empty board.
local function largest()
  local best, br, bc = 0, nil, nil
  for r = 0, game.height - 1 do
    for c = 0, game.width - 1 do
      local v = game.cell(r, c)
      if v > best then best, br, bc = v, r, c end
    end
  end
  return br, bc
end

game.on("tick", function(ev)
  if ev.turn % game.settings.interval ~= 0 then return end
  local r, c = largest()
  if r == nil then return end
  storage.freezes = (storage.freezes or 0) + 1
  return { mark = { { row = r, col = c, name = "ice", turns = game.settings.turns } } }
end)
