-- Hostile mod: requires Lua's system libraries and native modules. require
-- finds only this mod's own .lua files, and this mod has none of these.
local s = game.settings
local attacks = {}
function attacks.os() require("os").execute("touch " .. s.path) end -- attack:os
function attacks.io() require("io").open(s.path, "w") end -- attack:io
function attacks.debug() require("debug").sethook() end -- attack:debug
function attacks.ffi() require("ffi").C.system("touch " .. s.path) end -- attack:ffi
function attacks.package() package.loadlib("libc.so.6", "system")("touch " .. s.path) end -- attack:package

local function attack()
  local f = attacks[s.variant] or error("unknown variant " .. s.variant)
  f()
end
if s.at == "load" then attack() end
game.on(s.at == "load" and "tick" or s.at, function() attack() end)
