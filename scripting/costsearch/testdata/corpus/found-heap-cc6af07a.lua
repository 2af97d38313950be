-- costsearch: found by the search for the most held/weighed, at 3 turns:
-- 99 ns per charged instruction (3000000 instructions in 296.7ms); held/weighed 2.57 (held 6652272 bytes, weighed 2586104)
-- costsearch: 256 × [tostring of a closure N=1 M=4995; tostring of a number N=1 M=131; next past deleted keys N=15770 M=853; table.insert at the front N=3 M=15; __lt on strings N=1152 M=2; tostring of a closure N=1 M=4995]
K = {}
game.hazard{name = "h", glyph = "h"}
local g1
do
  local a, b, t, f
  g1 = function()
    local r
    for j = 1, 4995 do r = tostring(function() end) end
    return r
  end
end
local g2
do
  local a, b, t, f
  g2 = function()
    local r
    for j = 1, 131 do r = tostring(j + 0.25) end
    return r
  end
end
local g3
do
  local a, b, t, f
  t = {} for k = 1, 15770 do t["k" .. k] = k end for k = 1, 15770 do t["k" .. k] = nil end
  g3 = function()
    local r
    for j = 1, 853 do r = next(t) end
    return r
  end
end
local g4
do
  local a, b, t, f
  t = {} for k = 1, 3 do t[k] = k end
  g4 = function()
    local r
    for j = 1, 15 do table.insert(t, 1, j) table.remove(t, 1) end
    return r
  end
end
local g5
do
  local a, b, t, f
  local mt = {__lt = function(x, y) return x[1] < y[1] end} a = setmetatable({string.rep("m", 1152) .. "x"}, mt) b = setmetatable({string.rep("m", 1152) .. "y"}, mt)
  g5 = function()
    local r
    for j = 1, 2 do r = a < b end
    return r
  end
end
local g6
do
  local a, b, t, f
  g6 = function()
    local r
    for j = 1, 4995 do r = tostring(function() end) end
    return r
  end
end
game.on("tick", function()
  TURN = (TURN or 0) + 1
  for rep = 1, 256 do
    g1()
    g2()
    g3()
    g4()
    g5()
    g6()
  end
end)
