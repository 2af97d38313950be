-- guide: corners
-- Corners: a merge that ends in a corner makes a tile twice as large.

local function corner(row, col)
  return (row == 0 or row == game.height - 1) and (col == 0 or col == game.width - 1)
end

---@param ev mod2048.AfterMergeEvent
game.on("after_merge", function(ev)
  if corner(ev.row, ev.col) then
    return { result = ev.result * 2 }
  end
end)
