-- costsearch: by hand: tonumber of a string of 1 MiB of digits.
local s = string.rep("7", 1048576)
game.on("tick", function()
  local r
  for i = 1, 30 do r = tonumber(s) end
end)
