-- guide: oops
-- Oops: doubles every merge, and from turn 2 on its tick handler fails.

---@param ev mod2048.AfterMergeEvent
game.on("after_merge", function(ev)
  return { result = ev.result * 2 }
end)

---@param ev mod2048.TickEvent
game.on("tick", function(ev)
  if ev.turn >= 2 then
    game.cell(game.height, 0) -- row game.height is off the board: an error
  end
end)
