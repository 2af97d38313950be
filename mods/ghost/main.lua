-- Ghost (classic, API version 2): every `interval` turns, the turn's new
-- tile is a ghost. Its mark follows it as it slides (follow = true) and
-- counts its moves down; after `lifetime` moves the ghost fades away and
-- its cell is left empty. A merge makes a ghost solid: the merge takes the
-- mark away (on_merge = "drop"), so the merged tile stays.

local ghost = game.hazard{
  name = "ghost",
  glyph = "~",
  color = "gray",
  follow = true,
  on_merge = "drop",
  description = "A ghost: it fades away after a few moves, unless it merges first.",
}

local INTERVAL, LIFETIME = game.settings.interval, game.settings.lifetime
local MINE = { hazard = ghost } -- game.marks' filter, made once

-- The spawn handler sees where the new tile goes; the tick handler, which
-- may mark, reads it from storage.
---@param ev mod2048.SpawnEvent
game.on("spawn", function(ev)
  if (game.turn() + 1) % INTERVAL == 0 then
    storage.haunt = { row = ev.row, col = ev.col }
  end
end)

-- The tick handler asks for its own marks only, and changes the board with
-- calls (game.set, game.unmark, game.mark): no request table to build.
---@param ev mod2048.TickEvent
game.on("tick", function(ev)
  local marks = game.marks(MINE)
  for i = 1, #marks do
    local m = marks[i]
    -- A ghost's mark runs for lifetime + 1 turns: on the tick of its last
    -- move it has 1 turn left, and the ghost fades.
    if m.turns == 1 then
      game.set(m.row, m.col, 0)
      game.unmark(m.row, m.col, ghost)
      storage.faded = (storage.faded or 0) + 1
    end
  end
  local h = storage.haunt
  if h then
    storage.haunt = nil
    if game.cell(h.row, h.col) ~= 0 then
      game.mark(h.row, h.col, ghost, LIFETIME + 1)
    end
  end
end)
