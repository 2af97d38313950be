-- guide: gravity
-- Gravity: a new tile falls to the lowest empty cell of its column. With the
-- setting fours = false, a 4 comes as a 2.

---@param ev mod2048.SpawnEvent
game.on("spawn", function(ev)
  local req = {}
  for r = game.height - 1, ev.row + 1, -1 do
    if game.cell(r, ev.col) == 0 then
      req.row = r
      break
    end
  end
  if ev.cell == 4 and not game.settings.fours then
    req.cell = 2
  end
  return req
end)
