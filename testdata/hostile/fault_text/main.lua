-- Hostile mod: raises errors no terminal, page or game record may take as
-- they are: control bytes (issue 50's 600 \1, which once stopped the lab),
-- escape codes and bytes that are not UTF-8 a quarter of a megabyte long,
-- and a file name as long. Its reports must be printable and within their
-- limits, the game's record and saves must keep them, and play goes on.
local s = game.settings
local attacks = {}
function attacks.control() error(string.rep("\1", 600), 0) end -- attack:control
function attacks.escapes() error(string.rep("\27[2J\255", 50000)) end -- attack:escapes
function attacks.fake_file() error(string.rep("a", 100000) .. ".lua:1: " .. string.rep("\155", 1000), 0) end -- attack:fake_file

local function attack()
  local f = attacks[s.variant] or error("unknown variant " .. s.variant)
  f()
end
if s.at == "load" then attack() end
game.on(s.at == "load" and "tick" or s.at, function() attack() end)
