-- guide: freeze
-- Frost: the largest tile a turn's merges make freezes for `turns` turns. A
-- frozen tile neither moves nor merges, and nothing slides through it.

local ice = game.hazard{
  name = "ice",
  glyph = "*",
  color = "cyan",
  blocks = true,
  description = "Frozen: this tile neither moves nor merges until it thaws.",
}

local best -- the largest merge of the turn being played: {row=, col=, value=}

game.on("before_move", function(ev)
  best = nil
end)

---@param ev mod2048.AfterMergeEvent
game.on("after_merge", function(ev)
  if best == nil or ev.result > best.value then
    best = { row = ev.row, col = ev.col, value = ev.result }
  end
end)

---@param ev mod2048.TickEvent
game.on("tick", function(ev)
  if best == nil then
    return
  end
  return { mark = { { row = best.row, col = best.col, name = ice, turns = game.settings.turns } } }
end)
