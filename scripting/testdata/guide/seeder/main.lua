-- guide: seeder
-- Seeder (cellular): every third turn, the turn's new alive cell comes as a
-- catalyst instead. The log tells the alive cells' total energy each turn.

---@param ev mod2048.SpawnEvent
game.on("spawn", function(ev)
  local turn = game.turn() + 1 -- game.turn() counts the turns finished
  if turn % 3 == 0 and ev.cell == "a1" then
    return { cell = "C" }
  end
end)

---@param ev mod2048.TickEvent
game.on("tick", function(ev)
  local energy = 0
  for r = 0, game.height - 1 do
    for c = 0, game.width - 1 do
      local e = string.match(game.cell(r, c), "^a(%d+)")
      if e then
        energy = energy + tonumber(e)
      end
    end
  end
  game.log("turn " .. ev.turn .. ": alive energy " .. energy)
end)
