-- costsearch: by hand: error(16 MiB) under pcall: the error's position
-- is put before the message, a copy of it.
local a = string.rep("e", 1048576)
a = a .. a a = a .. a a = a .. a a = a .. a
local function fail() error(a) end
game.on("tick", function()
  local r
  for i = 1, 3 do local ok, e = pcall(fail) r = e end
end)
