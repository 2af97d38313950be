-- Hostile mod: error objects that are not strings, whose __tostring itself
-- errors, and messages too long to show.
local s = game.settings
local evil = setmetatable({}, {__tostring = function() error("__tostring failed") end}) -- attack:tostring
local loop = setmetatable({}, {__tostring = function(self) return tostring(self) end})
local attacks = {}
function attacks.error_object() error(evil) end -- attack:error_object
function attacks.error_level() error(evil, 2) end -- attack:error_level
function attacks.tostring() return tostring(evil) end
function attacks.print_object() print(evil) game.log(evil, loop) error(loop) end -- attack:print_object
function attacks.huge_message() error(string.rep("x", 2^17)) end -- attack:huge_message
function attacks.nil_error() error() end -- attack:nil_error
function attacks.error_function() error(print) end -- attack:error_function

local function attack()
  local f = attacks[s.variant] or error("unknown variant " .. s.variant)
  f()
end
if s.at == "load" then attack() end
game.on(s.at == "load" and "tick" or s.at, function() attack() end)
