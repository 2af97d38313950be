-- costsearch: found by the search for the most held/weighed, at 3 turns:
-- 49 ns per charged instruction (3000000 instructions in 147ms); held/weighed 2.35 (held 20057272 bytes, weighed 8543656)
-- minimised from the search's find (seed 3, without the known attacks nor table.concat, varargs, select, unpack, long literal): 20 × [arithmetic N=1 M=2844 kept; 7 more], held/weighed 2.75: numbers kept, each the last of a few made by arithmetic
-- costsearch: 70 × [arithmetic N=1 M=2844 kept]
K = {}
game.hazard{name = "h", glyph = "h"}
local g1
do
  local a, b, t, f
  g1 = function()
    local r
    for j = 1, 2844 do r = (j * 3 + 1) % 7 - j / 2 K[#K + 1] = r end
    return r
  end
end
game.on("tick", function()
  TURN = (TURN or 0) + 1
  for rep = 1, 70 do
    g1()
  end
end)
