-- costsearch: found by the search for the most ns/instruction, at 3 turns:
-- 4904 ns per charged instruction (108611 instructions in 532.6ms); held/weighed 0.00 (held 2774200 bytes, weighed 1386784)
-- minimised from the search's find (seed 2, without the known attacks): 256 × [string.find plain N=1239 M=801 kept; string.find plain N=114 M=1; table.concat N=65536 M=1 kept; long literal N=13992 M=2 kept], 4800 ns/instruction; Blame named table.concat. It ends in a registry overflow
-- costsearch: 1 × [table.concat N=32768 M=1]
K = {}
game.hazard{name = "h", glyph = "h"}
local g1
do
  local a, b, t, f
  t = {} for k = 1, 32768 do t[k] = "e" .. k end
  g1 = function()
    local r
    for j = 1, 1 do r = table.concat(t, ",") end
    return r
  end
end
game.on("tick", function()
  TURN = (TURN or 0) + 1
  for rep = 1, 1 do
    g1()
  end
end)
