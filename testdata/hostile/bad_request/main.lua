-- Hostile mod: returns what the host must refuse where it expects a request:
-- NaN, infinity, huge numbers, wrong types, off-board coordinates, unknown
-- keys. The setting "variant" picks one; each variant names its event.
local s = game.settings
local nan, inf = 0/0, 1/0
game.hazard{name = "wall", glyph = "#", blocks = true}

local function set(cell, row, col)
  return {set = {{row = row or 0, col = col or 0, cell = cell}}}
end

local function occupied()
  for r = 0, game.height - 1 do
    for c = 0, game.width - 1 do
      if game.cell(r, c) ~= 0 then return r, c end
    end
  end
end

local requests = {
  -- tick
  nan_cell = {"tick", function() return set(nan) end},
  inf_cell = {"tick", function() return set(inf) end},
  huge_cell = {"tick", function() return set(2^1000) end},
  big_cell = {"tick", function() return set(2^60 + 2^59) end},
  neg_cell = {"tick", function() return set(-2) end},
  odd_cell = {"tick", function() return set(3) end},
  word_cell = {"tick", function() return set("two") end},
  table_cell = {"tick", function() return set({}) end},
  bool_cell = {"tick", function() return set(true) end},
  nan_row = {"tick", function() return set(2, nan) end},
  inf_row = {"tick", function() return set(2, -inf) end},
  huge_row = {"tick", function() return set(2, 2^63) end},
  off_row = {"tick", function() return set(2, game.height) end},
  neg_col = {"tick", function() return set(2, 0, -1) end},
  frac_col = {"tick", function() return set(2, 0, 0.5) end},
  word_row = {"tick", function() return set(2, "0") end},
  unknown_key = {"tick", function() return {sett = {}} end},
  unknown_item_key = {"tick", function() return {set = {{row = 0, col = 0, cell = 2, color = "red"}}} end},
  numeric_key = {"tick", function() return {2, 4} end},
  set_string = {"tick", function() return {set = "everything"} end},
  set_item_number = {"tick", function() return {set = {42}} end},
  too_many = {"tick", function()
    local list = {}
    for i = 1, 100 do list[i] = {row = 0, col = 0, cell = 2} end
    return {set = list}
  end},
  cyclic = {"tick", function() local t = {} t.set = {t} return t end},
  mark_unknown = {"tick", function() return {mark = {{row = 0, col = 0, name = "lava"}}} end},
  mark_foreign = {"tick", function() return {mark = {{row = 0, col = 0, name = "freeze:ice"}}} end},
  mark_turns = {"tick", function() return {mark = {{row = 0, col = 0, name = "wall", turns = -1}}} end},
  mark_turns_nan = {"tick", function() return {mark = {{row = 0, col = 0, name = "wall", turns = nan}}} end},
  unmark_turns = {"tick", function() return {unmark = {{row = 0, col = 0, name = "wall", turns = 1}}} end},
  return_string = {"tick", function() return "set" end},
  return_nan = {"tick", function() return nan end},
  return_true = {"tick", function() return true end},
  return_function = {"tick", function() return print end},
  -- before_move
  refuse_number = {"before_move", function() return {refuse = 42} end},
  refuse_empty = {"before_move", function() return {refuse = ""} end},
  refuse_long = {"before_move", function() return {refuse = string.rep("x", 1000)} end},
  refuse_table = {"before_move", function() return {refuse = {}} end},
  cancel_move = {"before_move", function() return {cancel = true} end},
  -- after_merge
  merge_empty = {"after_merge", function() return {result = 0} end},
  merge_nan = {"after_merge", function() return {result = nan} end},
  merge_odd = {"after_merge", function() return {result = 3} end},
  merge_key = {"after_merge", function() return {set = {}} end},
  -- spawn
  spawn_off = {"spawn", function() return {row = game.height} end},
  spawn_nan = {"spawn", function() return {col = nan} end},
  spawn_cancel = {"spawn", function() return {cancel = "yes"} end},
  spawn_cell = {"spawn", function() return {cell = 8} end},
  spawn_occupied = {"spawn", function() local r, c = occupied() return {row = r, col = c} end},
}

local r = requests[s.variant] or error("unknown variant " .. s.variant)
game.on(r[1], r[2])
