-- Hostile mod: nests coroutines without bound (each has its own stack, which
-- plain gopher-lua does not bound). The sandbox has no coroutine library.
local s = game.settings
local attacks = {}
function attacks.create()
  local function nest() coroutine.resume(coroutine.create(nest)) end -- attack:create
  nest()
end
function attacks.wrap()
  local function nest() coroutine.wrap(nest)() end -- attack:wrap
  nest()
end
function attacks.global()
  local co = rawget(_G, "coroutine") or _G["corou" .. "tine"]
  co.create(print) -- attack:global
end

local function attack()
  local f = attacks[s.variant] or error("unknown variant " .. s.variant)
  f()
end
if s.at == "load" then attack() end
game.on(s.at == "load" and "tick" or s.at, function() attack() end)
