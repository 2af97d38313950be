-- Hostile mod: puts metamethods on its globals table, then drops storage
-- from it. The host reads and writes storage around the mod's handlers,
-- outside any budget: it must not run the mod's code there (a
-- "while true do end" in these metamethods would hang the game). They only
-- log, so that a test can see whether they ran.
setmetatable(_G, {
  __index = function(t, k)
    if k == "storage" then
      game.log("hijack: the host read storage through _G.__index")
      return {hijacked = true}
    end
  end,
  __newindex = function(t, k, v)
    if k == "storage" then
      game.log("hijack: the host wrote storage through _G.__newindex")
    end
    rawset(t, k, v)
  end,
})

game.on("tick", function()
  rawset(_G, "storage", nil) -- attack:index
end)
