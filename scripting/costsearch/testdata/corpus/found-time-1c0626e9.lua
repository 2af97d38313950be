-- costsearch: found by the search for the most ns/instruction, at 3 turns:
-- 150 ns per charged instruction (2000000 instructions in 300.9ms); held/weighed 1.00 (held 128143672 bytes, weighed 127604216)
-- costsearch: 256 × [tostring of a closure N=1 M=8 kept; string.upper N=661060 M=111 kept; string.char N=13 M=967; tostring of a closure N=1 M=819 kept; tostring of a closure N=1 M=8; __lt on strings N=1152 M=2]
K = {}
game.hazard{name = "h", glyph = "h"}
local g1
do
  local a, b, t, f
  g1 = function()
    local r
    for j = 1, 8 do r = tostring(function() end) K[#K + 1] = r end
    return r
  end
end
local g2
do
  local a, b, t, f
  a = string.rep("u", 661060)
  g2 = function()
    local r
    for j = 1, 111 do r = string.upper(a) K[#K + 1] = r end
    return r
  end
end
local g3
do
  local a, b, t, f
  t = {} for k = 1, 13 do t[k] = 65 end
  g3 = function()
    local r
    for j = 1, 967 do r = string.char(unpack(t)) end
    return r
  end
end
local g4
do
  local a, b, t, f
  g4 = function()
    local r
    for j = 1, 819 do r = tostring(function() end) K[#K + 1] = r end
    return r
  end
end
local g5
do
  local a, b, t, f
  g5 = function()
    local r
    for j = 1, 8 do r = tostring(function() end) end
    return r
  end
end
local g6
do
  local a, b, t, f
  local mt = {__lt = function(x, y) return x[1] < y[1] end} a = setmetatable({string.rep("m", 1152) .. "x"}, mt) b = setmetatable({string.rep("m", 1152) .. "y"}, mt)
  g6 = function()
    local r
    for j = 1, 2 do r = a < b end
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
