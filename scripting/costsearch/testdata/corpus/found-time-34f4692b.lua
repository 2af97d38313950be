-- costsearch: found by the search for the most ns/instruction, at 3 turns:
-- 1018 ns per charged instruction (1469621 instructions in 1.4964s); held/weighed 0.00 (held 1484480 bytes, weighed 2152)
-- found by TestCostSearchShort (seed 1, worst by both ratios): closures named by tostring and dropped. The heap it held there (14 MB for 2 KB weighed, 2 turns) was the backlog of the names' cleanups, gone once they ran
-- costsearch: 66 × [tostring of a closure N=1 M=1191]
K = {}
game.hazard{name = "h", glyph = "h"}
local g1
do
  local a, b, t, f
  g1 = function()
    local r
    for j = 1, 1191 do r = tostring(function() end) end
    return r
  end
end
game.on("tick", function()
  TURN = (TURN or 0) + 1
  for rep = 1, 66 do
    g1()
  end
end)
