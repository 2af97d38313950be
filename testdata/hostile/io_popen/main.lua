-- Hostile mod: runs shell commands through io.popen, which the sandbox does
-- not have.
local s = game.settings
local attacks = {}
function attacks.popen() io.popen("touch " .. s.path):close() end -- attack:popen
function attacks.popen_rm() io.popen("rm -f " .. s.victim):read("*a") end -- attack:popen_rm

local function attack()
  local f = attacks[s.variant] or error("unknown variant " .. s.variant)
  f()
end
if s.at == "load" then attack() end
game.on(s.at == "load" and "tick" or s.at, function() attack() end)
