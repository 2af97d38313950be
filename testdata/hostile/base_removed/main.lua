-- Hostile mod: the base functions the sandbox removes, which run the Go
-- collector, reach other functions' environments or reseed random streams.
local s = game.settings
local attacks = {}
function attacks.collectgarbage() collectgarbage("collect") end -- attack:collectgarbage
function attacks.getfenv() getfenv(0).game = nil end -- attack:getfenv
function attacks.setfenv() setfenv(1, {}) end -- attack:setfenv
function attacks.newproxy() newproxy(true) end -- attack:newproxy
function attacks.module() module("evil") end -- attack:module
function attacks.string_dump() string.dump(print) end -- attack:string_dump
function attacks.randomseed() math.randomseed(42) end -- attack:randomseed
function attacks.printregs() _printregs() end -- attack:printregs

local function attack()
  local f = attacks[s.variant] or error("unknown variant " .. s.variant)
  f()
end
if s.at == "load" then attack() end
game.on(s.at == "load" and "tick" or s.at, function() attack() end)
