-- grid.lua: how the Moss mod reads the board. `require("grid")` returns this
-- table. The board's size is read once, when the mod loads; the other
-- functions read the current state through the game API, so they work only
-- inside an event handler.

local grid = {}

local W, H = game.width, game.height

-- DIRS are the orthogonal neighbours of a cell, as {row step, col step}, in
-- the order moss tries them: up, right, down, left.
grid.DIRS = { { -1, 0 }, { 0, 1 }, { 1, 0 }, { 0, -1 } }

-- on_board reports whether (r, c) is a cell of the board.
function grid.on_board(r, c)
  return r >= 0 and r < H and c >= 0 and c < W
end

-- key numbers a cell, for sets of cells: row * width + col.
function grid.key(r, c)
  return r * W + c
end

-- has reports whether (r, c) is a cell of the board that carries the mark
-- called name. game.marks(r, c) of a cell without marks is an empty list,
-- which costs little.
function grid.has(r, c, name)
  if r < 0 or r >= H or c < 0 or c >= W then
    return false
  end
  local marks = game.marks(r, c)
  for i = 1, #marks do
    if marks[i].name == name then
      return true
    end
  end
  return false
end

-- next_to reports whether one of the orthogonal neighbours of (r, c)
-- carries the mark called name.
function grid.next_to(r, c, name)
  return grid.has(r - 1, c, name) or grid.has(r, c + 1, name)
    or grid.has(r + 1, c, name) or grid.has(r, c - 1, name)
end

return grid
