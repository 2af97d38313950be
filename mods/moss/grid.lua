-- grid.lua: how the Moss mod reads the board. `require("grid")` returns this
-- table; the functions read the current state through the game API, so they
-- work only inside an event handler.

local grid = {}

-- DIRS are the orthogonal neighbours of a cell, as {row step, col step}, in
-- the order moss tries them: up, right, down, left.
grid.DIRS = { { -1, 0 }, { 0, 1 }, { 1, 0 }, { 0, -1 } }

-- on_board reports whether (r, c) is a cell of the board.
function grid.on_board(r, c)
  return r >= 0 and r < game.height and c >= 0 and c < game.width
end

-- key numbers a cell, for sets of cells.
function grid.key(r, c)
  return r * game.width + c
end

-- free reports whether moss can take the cell (r, c): on the board, empty
-- (no occupant and no token: "." in the cellular notation) and carrying no
-- mark, neither moss nor another mod's.
function grid.free(r, c)
  return grid.on_board(r, c) and game.cell(r, c) == "." and #game.marks(r, c) == 0
end

-- has reports whether the cell (r, c) carries the mark called name.
function grid.has(r, c, name)
  for _, m in ipairs(game.marks(r, c)) do
    if m.name == name then
      return true
    end
  end
  return false
end

-- next_to reports whether one of the orthogonal neighbours of (r, c)
-- carries the mark called name.
function grid.next_to(r, c, name)
  for _, d in ipairs(grid.DIRS) do
    local nr, nc = r + d[1], c + d[2]
    if grid.on_board(nr, nc) and grid.has(nr, nc, name) then
      return true
    end
  end
  return false
end

-- all returns the marks of the mod's hazard called name, in reading order
-- (top row first, each row from the left).
function grid.all(name)
  return game.marks { hazard = name }
end

return grid
