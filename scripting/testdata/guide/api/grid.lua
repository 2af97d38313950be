-- guide: api/grid.lua
-- grid.lua: helpers of the API tour, loaded with require("grid").
local grid = {}

-- empty_cells returns the board's empty cells as a list of {row=, col=}.
function grid.empty_cells()
  local out = {}
  for r = 0, game.height - 1 do
    for c = 0, game.width - 1 do
      if game.cell(r, c) == 0 then
        out[#out + 1] = { row = r, col = c }
      end
    end
  end
  return out
end

return grid
