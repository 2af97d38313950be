-- Hostile mod: compiles code at run time with load and loadstring, from
-- source and from "\27Lua" bytecode. The sandbox has neither.
local s = game.settings
local bytecode = "\27LuaQ\0\1\4\8\4\8\0"
local attacks = {}
function attacks.load_source() load("os.execute('touch " .. s.path .. "')")() end -- attack:load_source
function attacks.loadstring_source() loadstring("os.execute('touch " .. s.path .. "')")() end -- attack:loadstring_source
function attacks.load_bytecode() load(bytecode)() end -- attack:load_bytecode
function attacks.loadstring_bytecode() loadstring(bytecode)() end -- attack:loadstring_bytecode
function attacks.load_reader() load(function() return nil end)() end -- attack:load_reader
function attacks.dump() loadstring(string.dump(print))() end -- attack:dump

local function attack()
  local f = attacks[s.variant] or error("unknown variant " .. s.variant)
  f()
end
if s.at == "load" then attack() end
game.on(s.at == "load" and "tick" or s.at, function() attack() end)
