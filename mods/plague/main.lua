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
-- make them again each time. The same goes for the settings and the
-- board's width, read once when the mod loads, and for the requests: the
-- handlers make them with calls (game.set, game.mark, game.unmark), not
-- with request tables.
local INFECTED = { hazard = plague }
local HEALTHY = { cell = "^a", without = plague }
local W, INTERVAL = game.width, game.settings.interval
local floor, match = math.floor, string.match
local cell, set, unmark = game.cell, game.set, game.unmark

-- infect marks a random alive cell that is not infected yet, and reports
-- whether there was one. game.cells gives the candidates as cell numbers
-- (row * width + col), in reading order.
local function infect()
  local cells = game.cells(HEALTHY)
  if #cells == 0 then return false end
  local i = cells[game.random(#cells)]
  game.mark(floor(i / W), i % W, plague)
  return true
end

---@param ev mod2048.StartEvent
game.on("start", function(ev)
  infect()
end)

-- drain works out what a turn of infection makes of an infected cell,
-- given its text: the cell's new text ("a3" becomes "a2"; "a1" falls
-- dormant, "d1"), or false for a dormant one, and whether the infection
-- ends with it. A board holds few different cells, so each text is worked
-- out once (a pattern match and a concatenation) and kept in NEXT and
-- ENDS: a pure function's answers, the same in every game, so they need
-- no storage. The tick handler reads NEXT and ENDS itself and calls drain
-- only for a text it has not seen: a Lua call costs as much as a dozen
-- instructions.
local NEXT, ENDS = {}, {}
local function drain(text)
  -- "a3", "a1/2" (turns without a merge), "a2+C" (on a catalyst)...
  local e, catalyst = match(text, "^a(%d+)/?%d*(.*)$")
  e = tonumber(e)
  if e and e > 1 then
    NEXT[text], ENDS[text] = "a" .. (e - 1) .. catalyst, false
  elseif e then
    NEXT[text], ENDS[text] = "d1" .. catalyst, true
  else
    NEXT[text], ENDS[text] = false, true -- a dormant cell: the infection ends with it
  end
end

---@param ev mod2048.TickEvent
game.on("tick", function(ev)
  local infected = game.cells(INFECTED)
  for j = 1, #infected do
    local i = infected[j]
    local c = i % W
    local r = (i - c) / W
    local text = cell(r, c)
    local new = NEXT[text]
    if new == nil then
      drain(text)
      new = NEXT[text]
    end
    if new then
      set(r, c, new)
    end
    if ENDS[text] then
      unmark(r, c, plague)
    end
  end
  if ev.turn % INTERVAL == 0 and infect() then
    storage.infected = (storage.infected or 0) + 1
  end
end)
