-- grid.lua: how the Moss mod reads the board. `require("grid")` returns this
-- table. Cells are numbered as game.cells numbers them, row * width + col.
-- The board's size is read once, when the mod loads. The functions that
-- run every turn use numeric for loops and arithmetic rather than ipairs
-- and helper calls: in gopher-lua each call costs as much as a dozen
-- instructions.

local grid = {}

local W = game.width
local floor = math.floor

-- DR and DC are the steps to the orthogonal neighbours of a cell, rows
-- and columns, in the order moss tries them: up, right, down, left. Two
-- flat lists: DR[j] costs one table read where {{-1, 0}, ...}[j][1] costs
-- two.
grid.DR = { -1, 0, 1, 0 }
grid.DC = { 0, 1, 0, -1 }

-- cell is the row and column of a cell number (a handler that runs often
-- does the arithmetic itself: a call costs more).
function grid.cell(k)
  return floor(k / W), k % W
end

return grid
