-- Hostile mod: builds what costs the host most to take in, as fast as its
-- budget lets it, and keeps it: a request with a giant list of edits,
-- storage nested 60000 deep, storage with 40000 entries, storage
-- with far integer keys, and tables of tables kept from turn to turn.
-- Every one must end in a budget's error, the same on every run, however
-- loaded the machine.
local s = game.settings
local kept = {}
local attacks = {}
function attacks.requests()
  local set = {}
  for i = 1, 40000 do set[i] = {row = 0, col = 0, cell = 2} end -- attack:requests
  return {set = set}
end
function attacks.deep()
  local t = {}
  for i = 1, 60000 do t = {t} end -- attack:deep
  storage.deep = t
end
function attacks.wide()
  local t = {}
  for i = 1, 40000 do t["k" .. i] = i end -- attack:wide
  storage.wide = t
end
function attacks.far()
  local t = {}
  for i = 1, 40000 do t[i * 67108] = i end -- attack:far
  storage.far = t
end
function attacks.keep()
  for i = 1, 20000 do kept[#kept + 1] = {a = i, b = {i}} end -- attack:keep
end

local function attack()
  local f = attacks[s.variant] or error("unknown variant " .. s.variant)
  return f()
end
if s.at == "load" then attack() end
game.on(s.at == "load" and "tick" or s.at, function() return attack() end)
