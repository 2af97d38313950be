-- One Way: moves in the closed direction are refused. The before_move
-- handler returns {refuse = reason}; the engine then leaves the game exactly
-- as it was (no turn, no spawn, nothing to undo) and the player reads
-- "One Way: <reason>".

-- TITLES maps the direction names of before_move's ev.dir to how the
-- refusal writes them.
local TITLES = { left = "Left", right = "Right", up = "Up", down = "Down" }

-- closed is the refused direction, checked once, when the mod loads: a bad
-- setting stops the mod from loading, with this message and its line.
local closed = string.lower(game.settings.direction)
if TITLES[closed] == nil then
  error("setting direction: " .. string.format("%q", game.settings.direction) .. " is not left, right, up or down", 0)
end

local reason = TITLES[closed] .. " is closed on this board"

game.on("before_move", function(ev)
  if ev.dir == closed then
    return { refuse = reason }
  end
end)
