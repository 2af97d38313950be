-- Hostile mod: reaches files outside its folder through require. Only
-- names of this folder's own .lua files may load. The test adds outside.lua,
-- a symbolic link to a file outside the folder, to a copy of this mod.
local s = game.settings
local attacks = {}
function attacks.dotdot() require("../counter/main") end -- attack:dotdot
function attacks.nested() require("x/../../counter/main") end -- attack:nested
function attacks.absolute() require("/etc/passwd") end -- attack:absolute
function attacks.dots() require("..") end -- attack:dots
function attacks.backslash() require("..\\counter\\main") end -- attack:backslash
function attacks.nul() require("main\0/../../counter/main") end -- attack:nul
function attacks.path() require(s.path) end -- attack:path
function attacks.symlink() game.log("required a file outside the mod: " .. tostring(require("outside"))) end -- attack:symlink

local function attack()
  local f = attacks[s.variant] or error("unknown variant " .. s.variant)
  f()
end
if s.at == "load" then attack() end
game.on(s.at == "load" and "tick" or s.at, function() attack() end)
