-- Hostile mod: asks string.rep (and upper, format) for more than the mod's
-- string limit (1 MiB by default, 256 KiB in the test), up to gigabytes,
-- which plain gopher-lua would make at once.
local s = game.settings
local attacks = {}
function attacks.huge() return string.rep("x", 2^33) end -- attack:huge
function attacks.method() return ("x"):rep(2^31) end -- attack:method
function attacks.sep() return string.rep("x", 2^20, string.rep("y", 2^10)) end -- attack:sep
function attacks.just_over() return string.rep("xy", 2^17 + 1) end -- attack:just_over
function attacks.chain() local r = "x" while true do r = r:rep(2) end end -- attack:chain
function attacks.upper() local r = string.rep("x", 2^18) return (r .. "y"):upper() end -- attack:upper
function attacks.format() local r = string.rep("x", 2^18) return string.format("%s%s", r, r) end -- attack:format

local function attack()
  local f = attacks[s.variant] or error("unknown variant " .. s.variant)
  f()
end
if s.at == "load" then attack() end
game.on(s.at == "load" and "tick" or s.at, function() attack() end)
