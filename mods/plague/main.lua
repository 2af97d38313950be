-- Plague (cellular, API version 2): an infection that travels with its
-- cell (follow = true). An infected alive cell loses 1 energy each turn;
-- at energy 1 it falls dormant, and the infection ends with it. A merge
-- that involves an infected cell spreads it (on_merge = "spread"): the
-- merged cell and every cell next to it catch it. A new game starts with
-- one infected cell (the start event), and another is infected every
-- `interval` turns.

local plague = game.hazard{
  name = "plague",
  glyph = "%",
  color = "green",
  follow = true,
  on_merge = "spread",
  description = "Infected: loses 1 energy a turn until it falls dormant; a merge spreads it to the cells around.",
}

-- The filters of game.cells, made once: a table with string keys costs
-- about a microsecond to make, so a handler that runs every turn does not
-- make them again each time.
local INFECTED = { hazard = plague }
local HEALTHY = { cell = "^a", without = plague }

-- infect returns a mark request for a random alive cell that is not
-- infected yet, or nil when there is none. game.cells gives the candidates
-- as cell numbers (row * width + col), in reading order.
local function infect()
  local cells = game.cells(HEALTHY)
  if #cells == 0 then return nil end
  local i = cells[game.random(#cells)]
  return { row = math.floor(i / game.width), col = i % game.width, name = "plague" }
end

---@param ev mod2048.StartEvent
game.on("start", function(ev)
  local m = infect()
  if m then return { mark = { m } } end
end)

---@param ev mod2048.TickEvent
game.on("tick", function(ev)
  local set, mark, unmark = {}, {}, {}
  local w = game.width
  for _, i in ipairs(game.cells(INFECTED)) do
    local r, c = math.floor(i / w), i % w
    -- "a3", "a1/2" (turns without a merge), "a2+C" (on a catalyst)...
    local e, catalyst = string.match(game.cell(r, c), "^a(%d+)/?%d*(.*)$")
    e = tonumber(e)
    if e and e > 1 then
      set[#set + 1] = { row = r, col = c, cell = "a" .. (e - 1) .. catalyst }
    elseif e then
      set[#set + 1] = { row = r, col = c, cell = "d1" .. catalyst }
      unmark[#unmark + 1] = { row = r, col = c, name = "plague" }
    else
      -- a dormant cell: the infection ends with it
      unmark[#unmark + 1] = { row = r, col = c, name = "plague" }
    end
  end
  if ev.turn % game.settings.interval == 0 then
    local m = infect()
    if m then mark[#mark + 1] = m end
  end
  storage.infected = (storage.infected or 0) + #mark
  if #set + #mark + #unmark > 0 then
    return { set = set, mark = mark, unmark = unmark }
  end
end)
