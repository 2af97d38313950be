package scripting_test

import (
	"bytes"
	"testing"

	"pgregory.net/rapid"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
)

// churnSrc changes its storage every turn in every way a table can change
// (keys set and removed and set again, numbers of every kind, a list grown
// and shrunk and left with a nil at its end, a table twice, a metatable)
// and writes down what the table looks like from inside: the order pairs
// visits, the list's length, what table.remove takes, whether two names
// are one table.
const churnSrc = `
local keys = {"a", "b", "c", "zz", "m", 1, 2, 3, 5, 8, -1, 0, 2.5, 100000000}
local function pick() return keys[math.random(#keys)] end
game.on("tick", function(ev)
  storage.t = storage.t or {}
  storage.list = storage.list or {}
  local t, list = storage.t, storage.list
  local seen = {}
  for k, v in pairs(t) do seen[#seen + 1] = tostring(k) .. "=" .. tostring(v) end
  local before = table.concat(seen, ",") .. " #" .. #list .. " alias " .. tostring(storage.alias == t) .. " meta " .. tostring(getmetatable(t) ~= nil)
  for i = 1, math.random(1, 8) do
    local op = math.random(1, 10)
    if op <= 3 then t[pick()] = math.random(100)
    elseif op == 4 then t[pick()] = nil
    elseif op == 5 then table.insert(list, math.random(9))
    elseif op == 6 then storage.removed = table.remove(list) or "none"
    elseif op == 7 then list[#list] = nil; list[#list + 2] = 1; list[#list] = nil
    elseif op == 8 then storage.alias = t
    elseif op == 9 then storage.alias = nil
    else setmetatable(t, {})
    end
  end
  seen = {}
  for k, v in pairs(t) do seen[#seen + 1] = tostring(k) .. "=" .. tostring(v) end
  storage.seen = before .. " | " .. table.concat(seen, ",") .. " #" .. #list
end)
`

// TestLiveStorageIsTheRecord: the storage table a game plays on with
// (kept in the Lua state from turn to turn) behaves as the one decoded from
// the state's record: at every turn, a game loaded from the save made just
// before plays the turn to the same bytes, what the mod saw of its tables
// included.
func TestLiveStorageIsTheRecord(t *testing.T) {
	churn := luaMod(t, "churn", churnSrc)
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint64().Draw(t, "seed")
		moves := drawMoves(t, 40)
		g := seededGame(t, seed)
		h := chaosHost(t, g, churn)
		defer h.Close()
		for i, d := range moves {
			before := marshal(t, g)
			play(t, h, g, d)
			after := marshal(t, g)
			r, err := engine.Unmarshal(before)
			if err != nil {
				t.Fatal(err)
			}
			rh := chaosHost(t, r, churn)
			play(t, rh, r, d)
			rh.Close()
			if got := marshal(t, r); !bytes.Equal(got, after) {
				t.Fatalf("move %d: the game loaded from its save played it otherwise:\n%s\nwant\n%s", i, got, after)
			}
		}
	})
}

var _ = scripting.MaxStorage
