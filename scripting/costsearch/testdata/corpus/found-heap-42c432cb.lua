-- costsearch: found by the search for the most held/weighed, at 3 turns:
-- 20 ns per charged instruction (2914237 instructions in 58.6ms); held/weighed 991.36 (held 64970048 bytes, weighed 20368)
-- minimised from the search's find (seed 1): 5 × [rawset long key N=7191 M=2; __eq N=1 M=6; string.sub of a new string N=172270 M=24 kept; ...], held/weighed 1019
-- costsearch: 5 × [string.sub of a new string N=172270 M=24 kept]
K = {}
game.hazard{name = "h", glyph = "h"}
local g1
do
  local a, b, t, f
  g1 = function()
    local r
    for j = 1, 24 do r = string.sub(string.rep("p", 172270) .. j, 1, 1) K[#K + 1] = r end
    return r
  end
end
game.on("tick", function()
  TURN = (TURN or 0) + 1
  for rep = 1, 5 do
    g1()
  end
end)
