-- Hostile mod: files through the io library, which the sandbox does not
-- have.
local s = game.settings
local attacks = {}
function attacks.write() local f = io.open(s.path, "w") f:write("pwned") f:close() end -- attack:write
function attacks.truncate() io.open(s.victim, "w"):close() end -- attack:truncate
function attacks.read() game.log(io.open("/etc/passwd"):read("*a")) end -- attack:read
function attacks.lines() for l in io.lines("/etc/passwd") do game.log(l) end end -- attack:lines
function attacks.output() io.output(s.path) io.write("pwned") end -- attack:output
function attacks.stdout() io.stdout:write("\27[2J pwned") end -- attack:stdout

local function attack()
  local f = attacks[s.variant] or error("unknown variant " .. s.variant)
  f()
end
if s.at == "load" then attack() end
game.on(s.at == "load" and "tick" or s.at, function() attack() end)
