-- guide: norepeat
-- No Repeat: the same direction may be played at most `max` times in a row.

---@param ev mod2048.BeforeMoveEvent
game.on("before_move", function(ev)
  local max = game.settings.max
  if ev.dir == storage.last and storage.count >= max then
    return { refuse = "no more than " .. max .. " moves " .. ev.dir .. " in a row" }
  end
end)

---@param ev mod2048.TickEvent
game.on("tick", function(ev)
  if ev.dir == storage.last then
    storage.count = storage.count + 1
  else
    storage.last, storage.count = ev.dir, 1
  end
end)
