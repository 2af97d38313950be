-- costsearch: by hand: 16 references to one string of 1 MB in storage,
-- which the turn's save encodes 16 times before it finds the record
-- too large.
local s = string.rep("s", 1000000)
game.on("tick", function()
  local l = {}
  for i = 1, 16 do l[i] = s end
  storage.refs = l
end)
