-- costsearch: found by the search for the most ns/instruction, at 3 turns:
-- 1218 ns per charged instruction (180089 instructions in 219.3ms); held/weighed 0.00 (held 3208248 bytes, weighed 2156576)
-- unpack of 60,000 values into a vararg function (the search's varargs gene, in the seed 2 search's first generations)
-- costsearch: 1 × [varargs N=60000 M=10]
K = {}
game.hazard{name = "h", glyph = "h"}
local g1
do
  local a, b, t, f
  t = {} for k = 1, 60000 do t[k] = k end f = function(...) return select("#", ...) end
  g1 = function()
    local r
    for j = 1, 10 do r = f(unpack(t)) end
    return r
  end
end
game.on("tick", function()
  TURN = (TURN or 0) + 1
  for rep = 1, 1 do
    g1()
  end
end)
