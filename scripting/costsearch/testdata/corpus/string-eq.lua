-- costsearch: by hand: `==` on two equal strings of 1 MiB, made apart
-- (one instruction of the VM, a compare of the whole strings).
local a = string.rep("a", 1048576) .. "x"
local b = string.rep("a", 1048576) .. "x"
game.on("tick", function()
  local r
  for i = 1, 1000 do r = a == b end
end)
