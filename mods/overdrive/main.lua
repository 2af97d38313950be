-- Overdrive: a merge that makes a tile at or above `threshold` doubles it
-- once more. With the default 64: 32 + 32 makes 64, which doubles to 128;
-- 64 + 64 makes 128, which doubles to 256. Smaller merges are left alone.
--
-- The after_merge handler replaces the merge's result; the engine scores
-- the result that stands, so 64 + 64 scores 256. A doubled tile is still a
-- merged tile: it does not merge again in the same move. A result that
-- reaches the win value wins, as any merge does.
--
-- Storage keeps `overdrives`, the number of merges that went into
-- overdrive (game.log prints each one to the mod's log).

game.on("after_merge", function(ev)
  local result = ev.result
  -- Classic tiles come as numbers while they are small enough for a Lua
  -- number to hold exactly (up to 2^49); the giants beyond come as strings
  -- and are left as they are.
  if type(result) ~= "number" or result < game.settings.threshold then
    return
  end
  storage.overdrives = (storage.overdrives or 0) + 1
  game.log(string.format("overdrive at (%d, %d): %d becomes %d", ev.row, ev.col, result, result * 2))
  return { result = result * 2 }
end)
