-- costsearch: found by the search for the most ns/instruction, at 3 turns:
-- 157 ns per charged instruction (2000000 instructions in 314.4ms); held/weighed 1.00 (held 128140016 bytes, weighed 127604568)
-- costsearch: 256 × [string keys N=5233 M=42 kept; string.upper N=661060 M=111 kept; string.char N=13 M=967; tostring of a closure N=1 M=819 kept; tostring of a closure N=1 M=8]
K = {}
game.hazard{name = "h", glyph = "h"}
local g1
do
  local a, b, t, f
  t = {}
  g1 = function()
    local r
    for j = 1, 42 do t["k" .. (j % 5233)] = j K[#K + 1] = r end
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
game.on("tick", function()
  TURN = (TURN or 0) + 1
  for rep = 1, 256 do
    g1()
    g2()
    g3()
    g4()
    g5()
  end
end)
