-- Hostile mod: joins huge ranges and huge separators with table.concat. The
-- test of "items" lowers Limits.MaxItems.
local s = game.settings
local attacks = {}
function attacks.range() return table.concat({}, "", 1, 1e8) end -- attack:range
function attacks.overflow() return table.concat({}, "", -2^62, 2^62) end -- attack:overflow
function attacks.sep() return table.concat({1, 2, 3}, string.rep("x", 2^18)) end -- attack:sep
function attacks.items()
  local t = {}
  for i = 1, 1500 do t[i] = i end
  return table.concat(t) -- attack:items
end

local function attack()
  local f = attacks[s.variant] or error("unknown variant " .. s.variant)
  f()
end
if s.at == "load" then attack() end
game.on(s.at == "load" and "tick" or s.at, function() attack() end)
