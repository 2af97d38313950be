-- Hostile mod: registers a million handlers (at load, and from a handler,
-- where game.on is refused), handlers for made-up events, and a million
-- hazards.
local s = game.settings
local function nop() end
local attacks = {}
function attacks.load() for i = 1, 1e6 do game.on("tick", nop) end end -- attack:load
function attacks.handler() for i = 1, 1e6 do game.on("tick", nop) end end -- attack:handler
function attacks.events() for i = 1, 1e6 do game.on("event" .. i, nop) end end -- attack:events
function attacks.hazards() for i = 1, 1e6 do game.hazard{name = "h" .. i, glyph = "x"} end end -- attack:hazards

local function attack()
  local f = attacks[s.variant] or error("unknown variant " .. s.variant)
  f()
end
if s.at == "load" then attack() end
game.on(s.at == "load" and "tick" or s.at, function() attack() end)
