-- costsearch: found by the search for the most held/weighed, at 3 turns:
-- 549 ns per charged instruction (217667 instructions in 119.5ms); held/weighed 1.61 (held 4457416 bytes, weighed 2771232)
-- minimised from the search's find (seed 2, without the known attacks): 2 × [long literal N=52896 M=2 kept; table.concat N=48427 M=16 kept; 6 more], held/weighed 2.14, whose ratio Blame owed to table.concat (a list of short strings, and a registry overflow); the long literals (250 KB of source) left out
-- costsearch: 2 × [table.concat N=65536 M=16 kept]
K = {}
game.hazard{name = "h", glyph = "h"}
local g1
do
  local a, b, t, f
  t = {} for k = 1, 65536 do t[k] = "e" .. k end
  g1 = function()
    local r
    for j = 1, 16 do r = table.concat(t, ",") K[#K + 1] = r end
    return r
  end
end
game.on("tick", function()
  TURN = (TURN or 0) + 1
  for rep = 1, 2 do
    g1()
  end
end)
