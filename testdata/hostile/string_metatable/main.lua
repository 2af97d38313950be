-- Hostile mod: rewrites the string metatable and the string library. The
-- metatable is hidden (getmetatable("") is a string); what the mod can
-- rewrite is its own state's string table, which no other mod sees: the
-- variants "rep" and "methods" check that their own strings changed and
-- fail, while the counter mod next to them goes on unchanged.
local s = game.settings
local attacks = {}
function attacks.index() getmetatable("").__index = function() return "pwned" end end -- attack:index
function attacks.rawset() rawset(getmetatable(""), "__index", {}) end -- attack:rawset
function attacks.setmetatable() setmetatable("", {__index = {}}) end -- attack:setmetatable
function attacks.rep()
  local r = ("ab"):rep(2)
  if r ~= "abab" then error("string.rep now returns " .. r) end -- attack:rep
end
function attacks.methods()
  local r = ("ab"):upper()
  if r ~= "AB" then error("string methods now return " .. r) end -- attack:methods
end
if s.variant == "rep" then
  string.rep = function() return "pwned" end
elseif s.variant == "methods" then
  string.__index = function() return function() return "pwned" end end
end

local function attack()
  local f = attacks[s.variant] or error("unknown variant " .. s.variant)
  f()
end
if s.at == "load" then attack() end
game.on(s.at == "load" and "tick" or s.at, function() attack() end)
