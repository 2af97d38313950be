-- costsearch: found by the search for the most ns/instruction, at 3 turns:
-- 25625 ns per charged instruction (431 instructions in 76.9ms); held/weighed 0.00 (held 983544 bytes, weighed 910720)
-- minimised from the search's find (seed 1): 120 × [tonumber base N=908487 M=134 kept; pairs over holes N=2 M=5; rawset long key N=2727 M=22 kept], 240576 ns/instruction
-- costsearch: 1 × [tonumber base N=908487 M=20]
K = {}
game.hazard{name = "h", glyph = "h"}
local g1
do
  local a, b, t, f
  a = string.rep("z", 908487)
  g1 = function()
    local r
    for j = 1, 20 do r = tonumber(a, 36) end
    return r
  end
end
game.on("tick", function()
  TURN = (TURN or 0) + 1
  for rep = 1, 1 do
    g1()
  end
end)
