-- costsearch: by hand: a table read with a key of 1 MiB, a string equal
-- to the table's key but made apart (one instruction, a hash and a
-- compare of the whole key).
local k = string.rep("k", 1048576) .. "1"
local k2 = string.rep("k", 1048576) .. "1"
local t = {[k] = 1}
game.on("tick", function()
  local r
  for i = 1, 5000 do r = t[k2] end
end)
