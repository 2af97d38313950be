-- Hostile mod: the debug library (hooks, the registry, hidden metatables,
-- upvalues), which the sandbox does not have.
local s = game.settings
local attacks = {}
function attacks.sethook() debug.sethook(function() end, "", 1) end -- attack:sethook
function attacks.getregistry() debug.getregistry()._LOADED = nil end -- attack:getregistry
function attacks.getmetatable() debug.getmetatable("").__index = {} end -- attack:getmetatable
function attacks.getinfo() game.log(debug.getinfo(1).source) end -- attack:getinfo
function attacks.setupvalue() debug.setupvalue(game.on, 1, nil) end -- attack:setupvalue
function attacks.rawget() rawget(_G, "debug").traceback() end -- attack:rawget

local function attack()
  local f = attacks[s.variant] or error("unknown variant " .. s.variant)
  f()
end
if s.at == "load" then attack() end
game.on(s.at == "load" and "tick" or s.at, function() attack() end)
