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

-- The spawn handler sees where the new tile goes; the tick handler, which
-- may mark, reads it from storage.
---@param ev mod2048.SpawnEvent
game.on("spawn", function(ev)
  if (game.turn() + 1) % game.settings.interval == 0 then
    storage.haunt = { row = ev.row, col = ev.col }
  end
end)

---@param ev mod2048.TickEvent
game.on("tick", function(ev)
  local set, mark, unmark = {}, {}, {}
  for _, m in ipairs(game.marks()) do
    -- A ghost's mark runs for lifetime + 1 turns: on the tick of its last
    -- move it has 1 turn left, and the ghost fades.
    if m.name == ghost and m.turns == 1 then
      set[#set + 1] = { row = m.row, col = m.col, cell = 0 }
      unmark[#unmark + 1] = { row = m.row, col = m.col, name = "ghost" }
      storage.faded = (storage.faded or 0) + 1
    end
  end
  local h = storage.haunt
  if h then
    storage.haunt = nil
    if game.cell(h.row, h.col) ~= 0 then
      mark[#mark + 1] = { row = h.row, col = h.col, name = "ghost", turns = game.settings.lifetime + 1 }
    end
  end
  return { set = set, mark = mark, unmark = unmark }
end)
