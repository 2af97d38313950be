-- guide: api
-- API Tour: every function and field of the game table, used once. Every
-- third turn it puts a `bonus` tile on a random empty cell and marks the cell
-- with mud, which stays until the next bonus; nothing spawns on mud.

if game.api_version ~= 1 or not game.features.markers then
  error("this mod needs version 1 of the mod API, with markers")
end

game.log(game.mod_id .. " runs on " .. game.ruleset .. ", " .. game.width .. "x" .. game.height)

local grid = require("grid")

local mud = game.hazard{
  name = "mud",
  glyph = "~",
  color = "#8b5a2b",
  description = "Mud: nothing spawns here.",
}

---@param ev mod2048.SpawnEvent
game.on("spawn", function(ev)
  if #game.marks(ev.row, ev.col) > 0 then
    return { cancel = true }
  end
end)

---@param ev mod2048.TickEvent
game.on("tick", function(ev)
  print("turn " .. game.turn() .. ": score " .. game.score() .. ", " .. game.status())
  for _, m in ipairs(game.marks()) do
    game.log(m.name .. " at " .. m.row .. "," .. m.col)
  end
  if ev.turn % 3 ~= 0 then
    return
  end
  local empty = grid.empty_cells()
  if #empty == 0 then
    return
  end
  local pick = empty[game.random(#empty)]
  local req = {
    set = { { row = pick.row, col = pick.col, cell = game.settings.bonus } },
    mark = { { row = pick.row, col = pick.col, name = mud } },
  }
  if storage.mud then
    req.unmark = { { row = storage.mud.row, col = storage.mud.col, name = mud } }
  end
  storage.mud = pick
  return req
end)
