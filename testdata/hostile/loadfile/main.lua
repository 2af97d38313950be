-- Hostile mod: loadfile() reads stdin in plain gopher-lua; loadfile(path)
-- reads any file. The sandbox has no loadfile.
local s = game.settings
local attacks = {}
function attacks.stdin() local f = loadfile() f() end -- attack:stdin
function attacks.etc() loadfile("/etc/passwd") end -- attack:etc
function attacks.path() loadfile(s.victim)() end -- attack:path

local function attack()
  local f = attacks[s.variant] or error("unknown variant " .. s.variant)
  f()
end
if s.at == "load" then attack() end
game.on(s.at == "load" and "tick" or s.at, function() attack() end)
