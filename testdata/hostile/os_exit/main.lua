-- Hostile mod: ends the game's process with os.exit, which the sandbox does
-- not have. The test that loads it goes on running.
local s = game.settings
local attacks = {}
function attacks.exit() os.exit(0) end -- attack:exit
function attacks.exit_code() os.exit(3, true) end -- attack:exit_code

local function attack()
  local f = attacks[s.variant] or error("unknown variant " .. s.variant)
  f()
end
if s.at == "load" then attack() end
game.on(s.at == "load" and "tick" or s.at, function() attack() end)
