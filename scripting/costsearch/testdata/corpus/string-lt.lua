-- costsearch: by hand: `<` on two strings of 1 MiB that differ at the end
-- (one instruction of the VM, a compare of the whole strings).
local a = string.rep("a", 1048576) .. "x"
local b = string.rep("a", 1048576) .. "y"
game.on("tick", function()
  local r
  for i = 1, 50 do r = a < b end
end)
