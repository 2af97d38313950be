-- Hostile mod: keeps what storage cannot hold (plain data only): functions,
-- cyclic tables, NaN, infinity, table keys, too much, too deep.
local s = game.settings
local attacks = {}
function attacks.func() storage.f = print end
function attacks.cyclic() local t = {} t.self = t storage.t = t end
function attacks.nan() storage.n = 0/0 end
function attacks.inf() storage.n = -1/0 end
function attacks.table_key() storage[{}] = 1 end
function attacks.bool_key() storage[true] = 1 end
function attacks.replace() storage = 42 end
function attacks.huge() storage.s = string.rep("x", 2^18) storage.t = "more" end
function attacks.deep() local t = {} for i = 1, 20 do t = {t} end storage.t = t end
-- One 64 KiB string held 30,000 times (2 GB written out): the heap holds it once, but
-- writing every reference out asked for gigabytes before the limit was
-- applied (a 1 MB string took 2048 sim to "out of memory").
function attacks.shared()
  local long = string.rep("x", 2^16)
  local t = {}
  for i = 1, 30000 do t[i] = long end
  storage.t = t
end
function attacks.many()
  local row = {}
  for i = 1, 100 do row[i] = i end
  local rows = {}
  for i = 1, 1000 do rows[i] = row end -- 1000 entries and 100000 through them
  storage.rows = rows
end

local function attack()
  local f = attacks[s.variant] or error("unknown variant " .. s.variant)
  f()
end
if s.at == "load" then attack() end
game.on(s.at == "load" and "tick" or s.at, function() attack() end)
