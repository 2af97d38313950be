-- Hostile mod: turns tables and functions into text every way Lua can
-- (tostring, string.format, print, error messages caught by pcall and
-- xpcall, a table as an error), keeps the text in storage and refuses a
-- move by it. Where gopher-lua writes an address ("table: 0xc000123450"),
-- two runs of the same game would differ.
local seen = {}
local function note(s)
  s = tostring(s)
  seen[#seen + 1] = s
  print(s)
  game.log(s)
  return s
end

local kept = {}
local function texts(turn)
  local t, f = {}, function() end
  kept[#kept + 1] = t -- alive, so its name is not given again
  note(tostring(t))
  note(tostring(f))
  note(tostring(print))
  note(tostring(game))
  note(string.format("%s and %s", t, f))
  note(tostring(t) .. tostring(t)) -- the same name twice
  local ok, msg = pcall(function() local x = nil; return x[t] end)
  note(msg)
  local _, msg2 = xpcall(function() local x = nil; x[f] = 1 end, function(m) return "handled " .. m end)
  note(msg2)
  local _, obj = pcall(error, t)
  note(obj == t)
  print(t, f, print)
  local keyed = {}
  keyed[tostring(t)] = turn
  for k in pairs(keyed) do note(k) end
  return tostring(t)
end

texts(0)

game.on("before_move", function(ev)
  local name = texts(ev.turn)
  -- A refusal that depends on the text: with addresses it would come and
  -- go from run to run.
  local digits = name:gsub("%D", "")
  if tonumber(digits) % 3 == 0 then
    return { refuse = "the name " .. name .. " ends a multiple of 3" }
  end
end)

game.on("tick", function(ev)
  storage.names = storage.names or {}
  storage.names[#storage.names + 1] = texts(ev.turn)
  storage.all = table.concat(seen, "|", math.max(1, #seen - 20))
end)
