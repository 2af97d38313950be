-- costsearch: by hand: tostring of many closures that are kept: each name
-- is kept by the host, in a map the memory budget does not weigh.
K = {}
game.on("tick", function()
  for i = 1, 150000 do
    local f = function() return i end
    K[#K + 1] = f
    tostring(f)
  end
end)
