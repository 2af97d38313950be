-- grid.lua: how the Moss mod reads the board. `require("grid")` returns this
-- table. Cells are numbered as game.cells numbers them, row * width + col.
-- The board's size is read once, when the mod loads. The functions that
-- run every turn use numeric for loops and arithmetic rather than ipairs
-- and helper calls: in gopher-lua each call costs as much as a dozen
-- instructions.

local grid = {}

local W, H = game.width, game.height
local floor = math.floor

-- STEPS are the orthogonal neighbours of a cell, as {row step, col step},
-- in the order moss tries them: up, right, down, left.
grid.STEPS = { { -1, 0 }, { 0, 1 }, { 1, 0 }, { 0, -1 } }

-- key numbers the cell (r, c); cell is the row and column of a number.
function grid.key(r, c)
  return r * W + c
end

function grid.cell(k)
  return floor(k / W), k % W
end

-- on_board reports whether (r, c) is a cell of the board.
function grid.on_board(r, c)
  return r >= 0 and r < H and c >= 0 and c < W
end

return grid
