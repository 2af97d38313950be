-- Hostile mod: recursion without end, plainly and through metamethods,
-- table.sort comparators, gsub callbacks and tostring.
local s = game.settings
local attacks = {}
function attacks.plain()
  local function f(n) return 1 + f(n + 1) end -- attack:plain
  f(1)
end
function attacks.index_fn()
  local t = setmetatable({}, {__index = function(t, k) return t[k .. "x"] end}) -- attack:index_fn
  return t.a
end
function attacks.index_loop()
  local a, b = {}, {}
  setmetatable(a, {__index = b})
  setmetatable(b, {__index = a})
  return a.missing -- attack:index_loop
end
function attacks.newindex()
  local t = setmetatable({}, {__newindex = function(t, k, v) t[k .. "x"] = v end}) -- attack:newindex
  t.a = 1
end
function attacks.call()
  local t = setmetatable({}, {__call = function(self) return self() + 1 end}) -- attack:call
  t()
end
function attacks.concat()
  local t = setmetatable({}, {__concat = function(a, b) return a .. b end}) -- attack:concat
  return t .. "x"
end
function attacks.lt()
  local mt = {__lt = function(a, b) return a < b end} -- attack:lt
  return setmetatable({}, mt) < setmetatable({}, mt)
end
function attacks.tostring()
  local t = setmetatable({}, {__tostring = function(self) return "<" .. tostring(self) .. ">" end}) -- attack:tostring
  return tostring(t)
end
function attacks.sort()
  local function less(a, b) table.sort({3, 1, 2}, less) return a < b end -- attack:sort
  table.sort({3, 1, 2}, less)
end
function attacks.gsub()
  local function f(c) return (string.gsub("ab", ".", f)) end -- attack:gsub
  f("x")
end
function attacks.gmatch()
  local function f() for w in string.gmatch("ab", ".") do f() end end -- attack:gmatch
  f()
end

local function attack()
  local f = attacks[s.variant] or error("unknown variant " .. s.variant)
  f()
end
if s.at == "load" then attack() end
game.on(s.at == "load" and "tick" or s.at, function() attack() end)
