-- Hostile mod: runs files by path with dofile, which the sandbox does not
-- have.
local s = game.settings
local attacks = {}
function attacks.etc() dofile("/etc/passwd") end -- attack:etc
function attacks.own() dofile("main.lua") end -- attack:own
function attacks.path() dofile(s.victim) end -- attack:path

local function attack()
  local f = attacks[s.variant] or error("unknown variant " .. s.variant)
  f()
end
if s.at == "load" then attack() end
game.on(s.at == "load" and "tick" or s.at, function() attack() end)
