-- costsearch: by hand: issue 50's long bracket class: string.find of a
-- class of 64000 bytes in 8000 bytes (one step a byte, each of which read
-- the whole class, 125 µs an instruction), with a frontier of it, gsub
-- and gmatch with one that matches every byte (a class compiled at each
-- of the iterator's calls), and game.cells with one.
local a = string.rep("a", 8000)
local class = string.rep("b", 64000)
local find, frontier = "[" .. class .. "]", "%f[" .. class .. "]"
local every, cells = "[" .. class .. "a]", "[" .. class .. "0]"
local short = string.rep("a", 40)
game.on("tick", function()
  local r
  for i = 1, 10 do r = string.find(a, find) end
  for i = 1, 10 do r = string.find(a, frontier) end
  r = string.gsub(short, every, "")
  for w in string.gmatch(short, every) do r = w end
  for i = 1, 2 do r = game.cells{cell = cells} end
end)
