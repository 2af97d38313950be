-- Hostile mod: fills tables without end, and sorts a huge one (huge for
-- the test, which lowers Limits.MaxItems: building a table of more than the
-- default 65536 elements takes longer than the test's instruction budget).
local s = game.settings
local attacks = {}
function attacks.ints() local t, i = {}, 0 while true do i = i + 1 t[i] = i end end -- attack:ints
function attacks.strings() local t = {} while true do t[#t + 1] = "entry " .. #t end end -- attack:strings
function attacks.keys() local t = {} while true do t[{}] = true end end -- attack:keys
function attacks.nested() local t = {} while true do t = {t, t} end end -- attack:nested
function attacks.global() big = big or {} while true do big[#big + 1] = {} end end -- attack:global
function attacks.sort()
  local t = {}
  for i = 1, 1500 do t[i] = i end
  table.sort(t) -- attack:sort
end

local function attack()
  local f = attacks[s.variant] or error("unknown variant " .. s.variant)
  f()
end
if s.at == "load" then attack() end
game.on(s.at == "load" and "tick" or s.at, function() attack() end)
