-- costsearch: by hand: pairs over a list of 250,000 holes and one value:
-- one step of the loop walks the holes.
local t = {}
for i = 1, 250000 do t[i] = i end
for i = 1, 249999 do t[i] = nil end
game.on("tick", function()
  local r
  for i = 1, 30 do
    for k, v in pairs(t) do r = v end
  end
end)
