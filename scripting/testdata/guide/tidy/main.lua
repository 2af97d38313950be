-- guide: tidy
-- Tidy: every `every` turns, the smallest tile on the board goes away (the
-- first one in reading order when several tie).

---@param ev mod2048.TickEvent
game.on("tick", function(ev)
  if ev.turn % game.settings.every ~= 0 then
    return
  end
  local best
  for r = 0, game.height - 1 do
    for c = 0, game.width - 1 do
      local v = game.cell(r, c)
      if v > 0 and (best == nil or v < best.value) then
        best = { row = r, col = c, value = v }
      end
    end
  end
  if best then
    game.log("turn " .. ev.turn .. ": tidied a " .. best.value)
    return { set = { { row = best.row, col = best.col, cell = 0 } } }
  end
end)
