-- costsearch: by hand: a mod of closures within its budget: each call
-- keeps as many closures, each with an upvalue of its own, as its
-- instructions let it.
K = {}
game.on("tick", function()
  for i = 1, 150000 do
    local x = i
    K[#K + 1] = function() return x end
  end
end)
