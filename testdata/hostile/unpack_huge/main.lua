-- Hostile mod: unpacks huge ranges (plain gopher-lua pushes every value, for
-- seconds, inside one Go call), and spreads a big unpack again and again. The test of "full" lowers Limits.MaxItems.
local s = game.settings
local attacks = {}
function attacks.range() return unpack({}, 1, 1e8) end -- attack:range
function attacks.overflow() return unpack({}, -2^62, 2^62) end -- attack:overflow
function attacks.full()
  local t = {}
  for i = 1, 1500 do t[i] = i end
  return unpack(t) -- attack:full
end
function attacks.byte() return string.byte(string.rep("x", 2^18), 1, -1) end -- attack:byte
function attacks.select() return select("#", unpack({}, 1, 2^31)) end -- attack:select
-- spread: one unpack of 30000 values, charged once, then each {...} copies
-- them all again in one instruction of the VM, unless the host charges it.
function attacks.spread()
  local t = {}
  for i = 1, 30000 do t[i] = i end
  local function keep(...) local kept = {} for i = 1, 1e6 do kept[i] = {...} end end -- attack:spread
  keep(unpack(t))
end

local function attack()
  local f = attacks[s.variant] or error("unknown variant " .. s.variant)
  f()
end
if s.at == "load" then attack() end
game.on(s.at == "load" and "tick" or s.at, function() attack() end)
