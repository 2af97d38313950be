-- Chaos: every event draws from the mod's random stream and writes to
-- storage; the requests it makes depend on both. It keeps nothing in Lua
-- globals or upvalues between events (those are not saved with the game),
-- and it fills storage in its handlers, never while it loads.

local ice = game.hazard{name = "ice", glyph = "*", color = "cyan", blocks = true}
local dust = game.hazard{name = "dust", glyph = "~", color = "gray"}

-- init makes the tables storage needs, on first use.
local function init()
  storage.draws = storage.draws or {}
  storage.dirs = storage.dirs or {}
  storage.history = storage.history or {}
  storage.dust = storage.dust or {}
  return storage
end

-- keep appends v to list and drops the oldest entries past the setting.
local function keep(list, v)
  list[#list + 1] = v
  while #list > game.settings.keep do
    table.remove(list, 1)
  end
end

-- free lists the empty cells no blocking mark stands on, in reading order.
local function free()
  local out = {}
  for r = 0, game.height - 1 do
    for c = 0, game.width - 1 do
      if game.cell(r, c) == 0 then
        local blocked = false
        for _, m in ipairs(game.marks(r, c)) do
          if m.blocks then blocked = true end
        end
        if not blocked then out[#out + 1] = {r, c} end
      end
    end
  end
  return out
end

game.on("before_move", function(e)
  local s = init()
  s.dirs[e.dir] = (s.dirs[e.dir] or 0) + math.random(3)
  keep(s.draws, game.random())
  -- Refusing depends on the stream, but only up: a refused move draws the
  -- same numbers again next time, and the other directions stay open.
  if e.dir == "up" and game.random(1, 8) == 1 then
    return {refuse = "chaos says no"}
  end
end)

game.on("after_merge", function(e)
  local s = init()
  s.merges = (s.merges or 0) + 1
  s.last = {row = e.row, col = e.col, sources = {e.sources[1], e.sources[2]}}
  if math.random(5) == 1 then
    return {result = e.result * 2}
  end
end)

game.on("spawn", function(e)
  local s = init()
  s.spawns = (s.spawns or 0) + 1
  local roll = game.random(10)
  if roll == 1 then
    return {cancel = true}
  elseif roll <= 4 then
    local cells = free()
    if #cells > 0 then
      local pick = cells[math.random(#cells)]
      return {row = pick[1], col = pick[2], cell = (math.random() < 0.5) and 2 or 4}
    end
  elseif roll == 5 then
    return {cell = 4}
  end
end)

game.on("tick", function(e)
  local s = init()
  s.turns = (s.turns or 0) + 1
  s.sum = (s.sum or 0) + game.random() * 1000
  s.word = string.char(97 + math.random(0, 25), 97 + math.random(0, 25), 97 + math.random(0, 25))
  s.flag = math.random(2) == 1
  s[s.turns % 5] = e.gained
  keep(s.history, {turn = e.turn, dir = e.dir, gained = e.gained, merges = e.merges, spawns = e.spawns, score = game.score()})
  keep(s.draws, math.random(1000000))

  local req = {}
  local cells = free()
  if #cells > 0 and math.random(4) == 1 then
    local pick = cells[math.random(#cells)]
    req.mark = {{row = pick[1], col = pick[2], name = "ice", turns = game.random(1, 3)}}
  end
  if math.random(3) == 1 then
    local r, c = math.random(0, game.height - 1), math.random(0, game.width - 1)
    req.mark = req.mark or {}
    req.mark[#req.mark + 1] = {row = r, col = c, name = dust}
    s.dust[#s.dust + 1] = {r, c}
  elseif #s.dust > 0 and math.random(2) == 1 then
    local i = math.random(#s.dust)
    local p = table.remove(s.dust, i)
    req.unmark = {{row = p[1], col = p[2], name = "dust"}}
  end
  if #cells > 1 and math.random(6) == 1 then
    local pick = cells[math.random(#cells)]
    req.set = {{row = pick[1], col = pick[2], cell = 2}}
  end
  return req
end)
