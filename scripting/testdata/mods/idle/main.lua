-- Idle: one empty handler per event.
game.on("before_move", function(e) end)
game.on("after_merge", function(e) end)
game.on("spawn", function(e) end)
game.on("tick", function(e) end)
