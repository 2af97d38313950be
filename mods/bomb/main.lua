-- Bomb (classic, API version 2): every `interval` turns a random tile gets
-- a bomb whose fuse burns for `fuse` turns. The bomb is one hazard, a mark
-- that follows its tile (follow = true): it slides with the tile, and a
-- merge keeps it on the merged tile (on_merge = "keep"). Its turns left
-- are the fuse, and the tile shows them (counter = "turns"). When they run
-- out, the expire event says so, and the bomb clears its tile and the
-- tiles next to it (up, down, left and right).

game.hazard{
  name = "fuse",
  glyph = "*",
  color = "red",
  follow = true,
  on_merge = "keep",
  counter = "turns",
  description = "A bomb: when its fuse runs out it clears this tile and the tiles next to it.",
}

local function key(r, c) return r * game.width + c end

-- storage.blasted holds the cells this turn's blasts clear, for the tick
-- handler, which runs after the expire handlers and before their edits
-- apply, and empties it. It is in storage, not a local, so that an undone
-- or failed turn leaves none behind.

---@param ev mod2048.ExpireEvent
game.on("expire", function(ev)
  storage.blasted = storage.blasted or {}
  local blasted = storage.blasted
  local set, unmark = {}, {}
  for _, d in ipairs({ { 0, 0 }, { -1, 0 }, { 1, 0 }, { 0, -1 }, { 0, 1 } }) do
    local r, c = ev.row + d[1], ev.col + d[2]
    if r >= 0 and r < game.height and c >= 0 and c < game.width and not blasted[key(r, c)] then
      blasted[key(r, c)] = true
      set[#set + 1] = { row = r, col = c, cell = 0 }
    end
  end
  -- A bomb whose tile the blast clears goes with it.
  for _, m in ipairs(game.marks{ hazard = "fuse" }) do
    if blasted[key(m.row, m.col)] then
      unmark[#unmark + 1] = { row = m.row, col = m.col, name = "fuse" }
    end
  end
  storage.explosions = (storage.explosions or 0) + 1
  game.log("turn " .. ev.turn .. ": a bomb clears (" .. ev.row .. "," .. ev.col .. ") and its neighbours")
  game.notify("A bomb went off at row " .. ev.row + 1 .. ", column " .. ev.col + 1 .. "!")
  return { set = set, unmark = unmark }
end)

---@param ev mod2048.TickEvent
game.on("tick", function(ev)
  local cleared = storage.blasted or {}
  if storage.blasted then storage.blasted = nil end
  if ev.turn % game.settings.interval ~= 0 then return end
  -- A new bomb, on a tile that has none and that no blast clears.
  local armed = {}
  for _, m in ipairs(game.marks{ hazard = "fuse" }) do armed[key(m.row, m.col)] = true end
  local tiles = {}
  for r = 0, game.height - 1 do
    for c = 0, game.width - 1 do
      if game.cell(r, c) ~= 0 and not cleared[key(r, c)] and not armed[key(r, c)] then
        tiles[#tiles + 1] = { row = r, col = c }
      end
    end
  end
  if #tiles > 0 then
    local t = tiles[game.random(#tiles)]
    return { mark = { { row = t.row, col = t.col, name = "fuse", turns = game.settings.fuse } } }
  end
end)
