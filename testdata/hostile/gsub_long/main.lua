-- Hostile mod: long pattern matching inside one builtin call, where the VM
-- does not check the time: gsub with a callback (or a string) over 64 KiB
-- (plain gopher-lua rebuilds the result once per match: 10 s), replacements
-- that expand to gigabytes, and patterns that backtrack for ever; and a
-- bracket class of 64000 bytes, which each step of a matching read whole
-- (issue 50: 125 µs an instruction), found in 8000 bytes, and as a frontier.
local s = game.settings
local big = string.rep("x", 65536)
local subject, class = string.rep("a", 8000), "[" .. string.rep("b", 64000) .. "]"
local frontier = "%f" .. class
local attacks = {}
function attacks.callback() while true do string.gsub(big, "x", function() return "yy" end) end end -- attack:callback
function attacks.string() while true do string.gsub(big, "x", "yy") end end -- attack:string
function attacks.expand() return string.gsub(big, ".+", string.rep("%0", 1000)) end -- attack:expand
function attacks.table() return string.gsub(big, "x", {x = string.rep("y", 2^18)}) end -- attack:table
function attacks.find() return string.find(string.rep("a", 3000), ".-.-.-.-b") end -- attack:find
function attacks.match() return string.match(string.rep("a", 3000), "(.-)(.-)(.-)(.-)$b") end -- attack:match
function attacks.gmatch() for w in string.gmatch(string.rep("a", 3000), ".-.-.-b") do end end -- attack:gmatch
function attacks.gfind() for w in string.gfind(string.rep("x", 2^18), "x") do end end -- attack:gfind
function attacks.subject() return string.gsub(string.rep("x", 2^18), "x", "y") end -- attack:subject
function attacks.class() while true do string.find(subject, class) end end -- attack:class
function attacks.frontier() while true do string.find(subject, frontier) end end -- attack:frontier
function attacks.depth() return string.find(string.rep("a", 5000), string.rep("a?", 5000)) end -- attack:depth

local function attack()
  local f = attacks[s.variant] or error("unknown variant " .. s.variant)
  f()
end
if s.at == "load" then attack() end
game.on(s.at == "load" and "tick" or s.at, function() attack() end)
