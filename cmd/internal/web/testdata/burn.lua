-- A hazard that burns a tile after a countdown: every third turn a fire
-- mark with a three-turn countdown goes on the first tile of the board
-- without one, and when the countdown ends the tile burns (its cell is
-- emptied). The workshop's browser tests type it into a new mod's
-- main.lua; the bridge's tests reload it into a running game.

game.hazard{name = "fire", glyph = "*", color = "red", counter = "turns",
  description = "burns its tile when the countdown ends"}

game.on("tick", function(ev)
  if ev.turn % 3 == 0 then
    local cells = game.cells{cell = "^[1-9]", without = "fire"}
    if #cells > 0 then
      local c = cells[1]
      game.mark(math.floor(c / game.width), c % game.width, "fire", 3)
    end
  end
end)

game.on("expire", function(ev)
  game.set(ev.row, ev.col, 0)
  game.notify("a tile burned")
end)
