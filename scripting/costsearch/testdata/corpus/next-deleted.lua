-- costsearch: by hand: next on a table whose 100,000 string keys were
-- deleted: each call walks past the deleted keys.
local t = {}
for i = 1, 100000 do t["k" .. i] = i end
for i = 1, 100000 do t["k" .. i] = nil end
game.on("tick", function()
  local r
  for i = 1, 2000 do r = next(t) end
end)
