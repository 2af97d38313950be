-- Hostile mod: the os library, which the sandbox does not have. Every
-- attack must end in an error naming this mod, and nothing on disk, in the
-- environment or in the process may change.
local s = game.settings
local attacks = {}
function attacks.execute() os.execute("touch " .. s.path) end -- attack:execute
function attacks.remove() os.remove(s.victim) end -- attack:remove
function attacks.rename() os.rename(s.victim, s.path) end -- attack:rename
function attacks.tmpname() storage.name = os.tmpname() end -- attack:tmpname
function attacks.getenv() game.log(os.getenv("HOME")) end -- attack:getenv
function attacks.clock() storage.t = os.clock() + os.time() end -- attack:clock

local function attack()
  local f = attacks[s.variant] or error("unknown variant " .. s.variant)
  f()
end
if s.at == "load" then attack() end
game.on(s.at == "load" and "tick" or s.at, function() attack() end)
