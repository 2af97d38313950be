-- Hostile mod: prints without end. The mod's log must stay within its limit
-- (Limits.MaxLog bytes, every line counted with its newline).
local s = game.settings
local attacks = {}
function attacks.flood() while true do print(string.rep("spam ", 100)) end end -- attack:flood
function attacks.empty() while true do print() end end -- attack:empty
function attacks.log() while true do game.log("spam", 1, true, nil, {}) end end -- attack:log
function attacks.long() local r = string.rep("x", 2^18) while true do print(r, r, r) end end -- attack:long

local function attack()
  local f = attacks[s.variant] or error("unknown variant " .. s.variant)
  f()
end
if s.at == "load" then attack() end
game.on(s.at == "load" and "tick" or s.at, function() attack() end)
