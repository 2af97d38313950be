-- Hostile mod: doubles a string without end (s = s .. s, and the like).
-- The host charges the bytes a concatenation makes to the instruction
-- budget, which must stop it at the same doubling on every machine.
-- Variant "capped" stops doubling at 2 GiB and then loops, so that a host
-- that did not charge them is not killed by it (the memory failsafe's
-- test runs it with budgets too large to matter).
local s = game.settings
local attacks = {}
function attacks.concat() local r = "x" while true do r = r .. r end end -- attack:concat
function attacks.capped() local r = "x" while #r < 2^31 do r = r .. r end while true do end end -- attack:capped
function attacks.append() local r = "" while true do r = r .. "0123456789abcdef" end end -- attack:append
function attacks.table() local t = {"x"} while true do t[1] = t[1] .. t[1] end end -- attack:table

local function attack()
  local f = attacks[s.variant] or error("unknown variant " .. s.variant)
  f()
end
if s.at == "load" then attack() end
game.on(s.at == "load" and "tick" or s.at, function() attack() end)
