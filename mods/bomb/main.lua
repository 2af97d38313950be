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

-- What the handlers read every time is read once, when the mod loads: the
-- board's size, the settings, the filter of game.marks and the blast's
-- steps. Cells are numbered row * W + col; the handlers change the board
-- with calls (game.set, game.unmark, game.mark), not request tables.
local W, H = game.width, game.height
local INTERVAL, FUSE = game.settings.interval, game.settings.fuse
local FUSES = { hazard = "fuse" }
local TILES = { cell = "^[1-9]" } -- the cells that hold a tile
-- BLAST: the steps, {row, col} in turn, from a bomb to the cells it clears:
-- its own, then up, down, left and right.
local BLAST = { 0, 0, -1, 0, 1, 0, 0, -1, 0, 1 }
local floor = math.floor

-- storage.blasted holds the cells this turn's blasts clear, for the tick
-- handler, which runs after the expire handlers and before their edits
-- apply, and empties it. It is in storage, not a local, so that an undone
-- or failed turn leaves none behind.

---@param ev mod2048.ExpireEvent
game.on("expire", function(ev)
  local blasted = storage.blasted
  if not blasted then
    blasted = {}
    storage.blasted = blasted
  end
  for j = 1, #BLAST, 2 do
    local r, c = ev.row + BLAST[j], ev.col + BLAST[j + 1]
    if r >= 0 and r < H and c >= 0 and c < W and not blasted[r * W + c] then
      blasted[r * W + c] = true
      game.set(r, c, 0)
    end
  end
  -- A bomb whose tile the blast clears goes with it.
  local fuses = game.marks(FUSES)
  for j = 1, #fuses do
    local m = fuses[j]
    if blasted[m.row * W + m.col] then
      game.unmark(m.row, m.col, "fuse")
    end
  end
  storage.explosions = (storage.explosions or 0) + 1
  game.log("turn " .. ev.turn .. ": a bomb clears (" .. ev.row .. "," .. ev.col .. ") and its neighbours")
  game.notify("A bomb went off at row " .. ev.row + 1 .. ", column " .. ev.col + 1 .. "!")
end)

---@param ev mod2048.TickEvent
game.on("tick", function(ev)
  local cleared = storage.blasted
  if cleared then storage.blasted = nil end
  if ev.turn % INTERVAL ~= 0 then return end
  -- A new bomb, on a tile that has none and that no blast clears.
  local armed = {}
  local fuses = game.marks(FUSES)
  for j = 1, #fuses do armed[fuses[j].row * W + fuses[j].col] = true end
  local tiles, n = game.cells(TILES), 0
  local free = {}
  for j = 1, #tiles do
    local k = tiles[j]
    if not (cleared and cleared[k]) and not armed[k] then
      n = n + 1
      free[n] = k
    end
  end
  if n > 0 then
    local k = free[game.random(n)]
    game.mark(floor(k / W), k % W, "fuse", FUSE)
  end
end)
