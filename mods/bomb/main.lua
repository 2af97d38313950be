-- Bomb (classic, API version 2): every `interval` turns a random tile gets
-- a bomb whose fuse burns for `fuse` turns. The bomb is a mark that follows
-- its tile (follow = true): it slides with the tile, and a merge keeps it on
-- the merged tile (on_merge = "keep"). The tile shows the turns left. When
-- the fuse runs out, the bomb clears its tile and the tiles next to it (up,
-- down, left and right).

-- One hazard for each count, so that the glyph is the count: fuse1 .. fuse9.
for n = 1, 9 do
  game.hazard{
    name = "fuse" .. n,
    glyph = tostring(n),
    color = "red",
    follow = true,
    on_merge = "keep",
    description = "A bomb: in " .. n .. " turn(s) it clears this tile and the tiles next to it.",
  }
end

-- fuseOf returns the turns left of a bomb's mark, or nil for another mark.
local function fuseOf(mark)
  local n = string.match(mark.name, "^bomb:fuse(%d)$")
  return n and tonumber(n)
end

local function key(r, c) return r * game.width + c end

---@param ev mod2048.TickEvent
game.on("tick", function(ev)
  local set, mark, unmark = {}, {}, {}
  local bombs, cleared, armed = {}, {}, {}
  for _, m in ipairs(game.marks()) do
    local n = fuseOf(m)
    if n then bombs[#bombs + 1] = { mark = m, left = n } end
  end
  -- The bombs whose fuse runs out explode first.
  for _, b in ipairs(bombs) do
    if b.left == 1 then
      for _, d in ipairs({ { 0, 0 }, { -1, 0 }, { 1, 0 }, { 0, -1 }, { 0, 1 } }) do
        local r, c = b.mark.row + d[1], b.mark.col + d[2]
        if r >= 0 and r < game.height and c >= 0 and c < game.width and not cleared[key(r, c)] then
          cleared[key(r, c)] = true
          set[#set + 1] = { row = r, col = c, cell = 0 }
        end
      end
      storage.explosions = (storage.explosions or 0) + 1
      game.log("turn " .. ev.turn .. ": a bomb clears (" .. b.mark.row .. "," .. b.mark.col .. ") and its neighbours")
    end
  end
  -- The others burn one turn down, unless a blast cleared their tile.
  for _, b in ipairs(bombs) do
    local m = b.mark
    unmark[#unmark + 1] = { row = m.row, col = m.col, name = m.name }
    if b.left > 1 and not cleared[key(m.row, m.col)] then
      mark[#mark + 1] = { row = m.row, col = m.col, name = "fuse" .. (b.left - 1) }
      armed[key(m.row, m.col)] = true
    end
  end
  -- A new bomb, on a tile that has none.
  if ev.turn % game.settings.interval == 0 then
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
      mark[#mark + 1] = { row = t.row, col = t.col, name = "fuse" .. game.settings.fuse }
    end
  end
  return { set = set, mark = mark, unmark = unmark }
end)
