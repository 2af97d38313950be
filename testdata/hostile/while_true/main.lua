-- Hostile mod: loops for ever, also inside pcall and xpcall, which must not
-- swallow the end of the mod's instruction budget.
local s = game.settings
local attacks = {}
function attacks.plain() while true do end end -- attack:plain
function attacks.repeat_until() repeat until false end -- attack:repeat_until
function attacks.numeric_for() for i = 1, math.huge do end end -- attack:numeric_for
function attacks.pcall() pcall(function() while true do end end) end -- attack:pcall
function attacks.pcall_loop() while true do pcall(error, "again") end end -- attack:pcall_loop
function attacks.xpcall() xpcall(function() while true do end end, function(e) while true do end end) end -- attack:xpcall
function attacks.pcall_fork() local function f() pcall(f) pcall(f) end f() end -- attack:pcall_fork

local function attack()
  local f = attacks[s.variant] or error("unknown variant " .. s.variant)
  f()
end
if s.at == "load" then attack() end
game.on(s.at == "load" and "tick" or s.at, function() attack() end)
