-- A well-behaved mod, loaded next to hostile ones: it counts turns in
-- storage, draws from its random stream and uses the string library and
-- patterns, so that a test can show a hostile mod changes none of this.
game.on("before_move", function(ev)
  storage.asked = (storage.asked or 0) + 1
end)

game.on("tick", function(ev)
  storage.turns = (storage.turns or 0) + 1
  storage.roll = math.random(1000)
  storage.rep = ("ab"):rep(2)
  storage.upper = ("ab"):upper()
  storage.number = select(3, ("turn " .. ev.turn):find("(%d+)"))
  storage.words = (("one two three"):gsub("%a+", "<%0>"))
  print("turn " .. ev.turn)
end)
