-- grid.lua: how the Moss mod reads the board. `require("grid")` returns this
-- table. The board's size is read once, when the mod loads; next_to reads
-- the current state through the game API, so it works only inside an event
-- handler.

local grid = {}

local W, H = game.width, game.height

-- DIRS are the orthogonal neighbours of a cell, as {row step, col step}, in
-- the order moss tries them: up, right, down, left.
grid.DIRS = { { -1, 0 }, { 0, 1 }, { 1, 0 }, { 0, -1 } }

-- on_board reports whether (r, c) is a cell of the board.
function grid.on_board(r, c)
  return r >= 0 and r < H and c >= 0 and c < W
end

-- key numbers a cell, as game.cells does: row * width + col.
function grid.key(r, c)
  return r * W + c
end

-- cell returns the row and column of a cell's number.
function grid.cell(k)
  return math.floor(k / W), k % W
end

-- next_to reports whether one of the orthogonal neighbours of (r, c)
-- carries a mark of this mod's hazard called name.
function grid.next_to(r, c, name)
  for _, k in ipairs(game.cells { hazard = name }) do
    local mr, mc = grid.cell(k)
    if math.abs(mr - r) + math.abs(mc - c) == 1 then
      return true
    end
  end
  return false
end

return grid
