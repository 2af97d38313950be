-- costsearch: by hand: errors caught at the bottom of a deep stack. Each
-- error that pcall catches writes a traceback of the stack (150 frames),
-- for which the sandbox charges errorCost (1000 instructions): the time
-- per instruction of this program is held to the bounds only while
-- errorCost is charged (with errorCost 1 it runs at microseconds an
-- instruction).
local e = {}
local function down(n)
  if n > 0 then return 1 + down(n - 1) end
  local r
  for i = 1, 1e7 do r = pcall(error, e) end
  return r
end
game.on("tick", function() down(150) end)
