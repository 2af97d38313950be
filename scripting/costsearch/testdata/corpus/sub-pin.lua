-- costsearch: by hand: string.sub(s, 1, 1) of a new 16 MiB string, kept:
-- 3 a call, in 4 tick handlers, 12 a turn. The byte kept pins its parent.
local big = string.rep("p", 1048576)
big = big .. big big = big .. big big = big .. big big = big .. big
K = {}
for h = 1, 4 do
  game.on("tick", function()
    for i = 1, 3 do K[#K + 1] = string.sub(big .. i, 1, 1) end
  end)
end
