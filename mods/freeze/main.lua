-- Freeze: every `interval` turns the largest tile freezes for `turns` turns.
-- A frozen tile carries the blocking hazard "freeze:ice": it neither moves
-- nor merges, and nothing slides through it.
--
-- What the handler reads every time is read once, when the mod loads (the
-- settings and the board's size), and it marks the tile with a call,
-- game.mark, which costs far less than a request table.

local ice = game.hazard{
  name = "ice",
  glyph = "*",
  color = "cyan",
  blocks = true,
  description = "A frozen tile: it neither moves nor merges until it thaws.",
}

local W, H = game.width, game.height
local INTERVAL, TURNS = game.settings.interval, game.settings.turns
local cell = game.cell

-- largest returns the row and column of the largest tile (the first one in
-- reading order when several tie), or nil on an empty board.
local function largest()
  local best, br, bc = 0, nil, nil
  for r = 0, H - 1 do
    for c = 0, W - 1 do
      local v = cell(r, c)
      if v > best then best, br, bc = v, r, c end
    end
  end
  return br, bc
end

-- The handler runs after every `interval`-th turn only: the filter
-- {every = INTERVAL} asks the host to skip the others, which then cost
-- nothing at all.
---@param ev mod2048.TickEvent
game.on("tick", function(ev)
  local r, c = largest()
  if r == nil then return end
  storage.freezes = (storage.freezes or 0) + 1
  game.mark(r, c, ice, TURNS)
end, { every = INTERVAL })
