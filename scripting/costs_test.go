package scripting_test

import (
	"fmt"
	"testing"
)

// The attacks of issue 38 on the sandbox's costs: each did work in
// proportion to a string's length, or to a table's deleted keys, for one
// instruction, so that only the wall-clock failsafe stopped it (after 2 s
// of a call whose million instructions would have run for half an hour).
// Each now stops with the instruction budget's error, on its first turn,
// the same on every run (wantBudgetStop plays each three times, under a
// failsafe no machine reaches).
var costAttacks = []struct{ name, src string }{
	{"long strings compared with <", `
local a = string.rep("a", 2^20)
local b = string.rep("a", 2^20 - 1) .. "b"
game.on("tick", function() local n = 0 while true do if a < b then n = n + 1 end end end)`},
	{"long strings compared with <=", `
local a = string.rep("a", 2^20)
local b = string.rep("a", 2^20 - 1) .. "b"
game.on("tick", function() local n = 0 while true do if a <= b then n = n + 1 end end end)`},
	{"long equal strings compared with ==", `
local a = string.rep("a", 2^20)
local b = string.rep("a", 2^20 - 1) .. "a"
game.on("tick", function() local n = 0 while true do if a == b then n = n + 1 end end end)`},
	{"long equal strings compared with rawequal", `
local a = string.rep("a", 2^20)
local b = string.rep("a", 2^20 - 1) .. "a"
game.on("tick", function() local n = 0 while true do if rawequal(a, b) then n = n + 1 end end end)`},
	{"long strings sorted", `
local t = {}
for i = 1, 64 do t[i] = string.rep("s", 2^14) .. (i % 7) end
game.on("tick", function() while true do table.sort(t) end end)`},
	{"a long table key", `
local t = {}
for i = 1, 16 do t["k" .. i] = i end
local k = string.rep("k", 2^20)
t[k] = 1
game.on("tick", function() local n = 0 while true do n = n + t[k] end end)`},
	{"a long global name", `
local k = string.rep("g", 2^20)
_G[k] = 1
game.on("tick", function() local n = 0 while true do n = n + _G[k] end end)`},
	{"a long key set and read with rawset and rawget", `
local t = {}
for i = 1, 16 do t["k" .. i] = i end
local k = string.rep("r", 2^20)
game.on("tick", function() while true do rawset(t, k, rawget(t, k) or 1) end end)`},
	{"tonumber of a long number", `
local s = "1." .. string.rep("0", 998)
game.on("tick", function() local n = 0 while true do n = n + tonumber(s) end end)`},
	{"arithmetic on a long number", `
local s = "1." .. string.rep("0", 998)
game.on("tick", function() local n = 0 while true do n = n + s end end)`},
	{"tonumber of a megabyte of digits", `
local s = string.rep("1", 2^20)
game.on("tick", function() local n = 0 while true do if tonumber(s) then n = n + 1 end end end)`},
	{"a long error caught by pcall", `
local big = string.rep("e", 2^20)
for i = 1, 4 do big = big .. big end
game.on("tick", function() while true do pcall(error, big) end end)`},
	{"a long key in an error caught by pcall", `
local k = string.rep("k", 2^20)
game.on("tick", function() while true do pcall(function() local x = nil return x[k] end) end end)`},
	{"next past deleted keys", `
t = {}
for i = 1, 150000 do t["k" .. i] = true end
for i = 1, 149999 do t["k" .. i] = nil end
game.on("tick", function() while true do next(t) end end)`},
	{"next past a list's holes", `
t = {}
for i = 1, 250000 do t[i] = i end
for i = 1, 249999 do t[i] = nil end
game.on("tick", function() while true do next(t) end end)`},
	{"pairs past deleted keys", `
t = {}
for i = 1, 150000 do t["k" .. i] = true end
for i = 1, 149999 do t["k" .. i] = nil end
game.on("tick", function() while true do for k in pairs(t) do end end end)`},
	{"a back reference over a long capture", `
local s = string.rep("a", 30000) .. string.rep("a", 30000)
game.on("tick", function() while true do s:find("^(a*)%1$") end end)`},
}

func TestCostAttacks(t *testing.T) {
	skipUnderRace(t)
	for _, a := range costAttacks {
		t.Run(a.name, func(t *testing.T) {
			wantBudgetStop(t, a.src, 2, 1, callBudget)
		})
	}
}

// TestCostNamesWeighed: a mod that names the closures it keeps
// (tostring) holds the names too: they are weighed as its own, so it stops
// at its memory budget, where it once held some 129 MB more than the
// budget saw.
func TestCostNamesWeighed(t *testing.T) {
	skipUnderRace(t)
	wantBudgetStop(t, `kept = {}
local function hoard()
  for i = 1, 20000 do local f = function() return i end kept[#kept + 1] = f tostring(f) end
end
game.on("tick", hoard)
game.on("tick", hoard)`, 8, 7, heldBudget)
}

var turnBudget = fmt.Sprintf("exceeded its instruction budget (%d a turn)", testLimits.TurnInstructions)

// closureHoard keeps 400,000 closures (some 50 MiB, within its memory
// budget) and replaces a tenth of them in each of its six tick handlers,
// so that the host weighs it after every call: each walk visited all its
// closures for nothing the mod paid, and its moves took 1.4 s natively,
// 5.9 s in the browser build, with no budget stopping it.
const closureHoard = `kept = {}
local n = 0
local function build()
  for i = 1, 40000 do
    n = n % 400000 + 1
    kept[n] = function() return i end
  end
end
for h = 1, 6 do game.on("tick", build) end`

// TestCostWeighingCharged: the host's walk of what a mod holds is charged
// to the mod's turn, an instruction for every 64 bytes weighed, so the
// closure hoard spends its turn's budget on its own weighings and stops.
func TestCostWeighingCharged(t *testing.T) {
	skipUnderRace(t)
	wantBudgetStop(t, closureHoard, 3, 2, turnBudget)
}
