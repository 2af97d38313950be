package scripting_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
)

const chaosDir = "testdata/mods/chaos"

var directions = []engine.Direction{engine.Left, engine.Right, engine.Up, engine.Down}

// chaosHost attaches a fresh host with the chaos mod to g.
func chaosHost(t tb, g *engine.Game, mods ...*mod.Mod) *scripting.Host {
	t.Helper()
	if mods == nil {
		mods = []*mod.Mod{loadMod(t, chaosDir)}
	}
	h, err := scripting.NewHost(mods, g.Rules(), g.Options(), testLimits)
	if err != nil {
		t.Fatalf("NewHost: %v", err)
	}
	g.SetHooks(h)
	return h
}

// play plays d through h and returns whether the game changed. A refusal
// (or a move in a finished game, ignored) is a move like another: it must be as deterministic. A
// mod's report fails the test: chaos makes only valid requests, so a report
// is a host bug.
func play(t tb, h *scripting.Host, g *engine.Game, d engine.Direction) bool {
	t.Helper()
	res, err := h.Move(g, d)
	if err != nil && !errors.As(err, new(*engine.Refusal)) {
		t.Fatalf("Move(%v): %v", d, err)
	}
	if r := h.TakeReports(); len(r) > 0 {
		t.Fatalf("Move(%v): reports %v", d, r)
	}
	return res.Changed
}

// withoutFuture is a save without its redo states: what a game that only
// moved forward to the same state writes.
func withoutFuture(t tb, g *engine.Game) []byte {
	t.Helper()
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(marshal(t, g), &doc); err != nil {
		t.Fatal(err)
	}
	delete(doc, "future")
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func drawMoves(t *rapid.T, max int) []engine.Direction {
	return rapid.SliceOfN(rapid.SampledFrom(directions), 1, max).Draw(t, "moves")
}

// run plays moves on a new game of seed with the chaos mod and returns the
// game's bytes after each move.
func run(t tb, seed uint64, moves []engine.Direction) [][]byte {
	g := seededGame(t, seed)
	h := chaosHost(t, g)
	defer h.Close()
	var out [][]byte
	for _, d := range moves {
		play(t, h, g, d)
		out = append(out, marshal(t, g))
	}
	return out
}

// TestDeterminismSameSeed: the same seed and moves give the same bytes,
// move by move.
func TestDeterminismSameSeed(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint64().Draw(t, "seed")
		moves := drawMoves(t, 40)
		a, b := run(t, seed, moves), run(t, seed, moves)
		for i := range a {
			if !bytes.Equal(a[i], b[i]) {
				t.Fatalf("move %d: the same seed and moves gave different games:\n%s\n%s", i, a[i], b[i])
			}
		}
		// Once a turn is played the mod keeps something, or the test
		// tests nothing.
		if !bytes.Contains(a[len(a)-1], []byte(`"turn": 0,`)) && !bytes.Contains(a[len(a)-1], []byte(`"mod:chaos"`)) {
			t.Fatalf("the mod kept no data:\n%s", a[len(a)-1])
		}
	})
}

// TestDeterminismSaveRestore: a game saved, loaded and given a new host
// continues exactly as the game that was not interrupted: the mod's storage
// and random stream come from the save.
func TestDeterminismSaveRestore(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint64().Draw(t, "seed")
		moves := drawMoves(t, 40)
		split := rapid.IntRange(0, len(moves)).Draw(t, "split")
		want := run(t, seed, moves)

		g := seededGame(t, seed)
		h := chaosHost(t, g)
		for _, d := range moves[:split] {
			play(t, h, g, d)
		}
		h.Close()
		g, err := engine.Unmarshal(marshal(t, g))
		if err != nil {
			t.Fatal(err)
		}
		h = chaosHost(t, g)
		defer h.Close()
		for i, d := range moves[split:] {
			play(t, h, g, d)
			if got := marshal(t, g); !bytes.Equal(got, want[split+i]) {
				t.Fatalf("move %d, %d after the restore: the restored game differs:\n%s\nwant\n%s", split+i, i, got, want[split+i])
			}
		}
	})
}

// TestDeterminismUndoRedo: undo and redo restore the mod's storage and
// random stream with the rest of the state: a move played again after undo
// gives the same bytes as the first time, redo gives back the undone state,
// and the game at the end is the game that played only the moves that
// stand.
func TestDeterminismUndoRedo(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint64().Draw(t, "seed")
		n := rapid.IntRange(1, 40).Draw(t, "ops")
		g := seededGame(t, seed)
		h := chaosHost(t, g)
		defer h.Close()
		var line []engine.Direction // the moves that stand
		snaps := [][]byte{withoutFuture(t, g)}
		var undone []engine.Direction // the redo stack's moves, last on top
		for i := 0; i < n; i++ {
			switch op := rapid.IntRange(0, 3).Draw(t, "op"); {
			case op <= 1 || (op == 2 && len(undone) > 0 && rapid.Bool().Draw(t, "replay")):
				// A move: the one on the redo stack's top (a replay) at
				// times, else any.
				d := rapid.SampledFrom(directions).Draw(t, "dir")
				if op == 2 {
					d = undone[len(undone)-1]
				}
				if !play(t, h, g, d) {
					if got := withoutFuture(t, g); !bytes.Equal(got, snaps[len(line)]) {
						t.Fatalf("op %d: a move that changed nothing changed the game", i)
					}
					continue
				}
				got := withoutFuture(t, g)
				if len(undone) > 0 && undone[len(undone)-1] == d && !bytes.Equal(got, snaps[len(line)+1]) {
					t.Fatalf("op %d: %v played again after undo differs from the first time:\n%s\nwant\n%s", i, d, got, snaps[len(line)+1])
				}
				line = append(line, d)
				snaps = append(snaps[:len(line)], got)
				undone = undone[:0]
			case op == 2:
				err := g.Undo()
				if len(line) == 0 {
					if !errors.Is(err, engine.ErrNothingToUndo) {
						t.Fatalf("op %d: Undo at the start: %v", i, err)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				undone = append(undone, line[len(line)-1])
				line = line[:len(line)-1]
				if got := withoutFuture(t, g); !bytes.Equal(got, snaps[len(line)]) {
					t.Fatalf("op %d: Undo did not give back the state before the move", i)
				}
			default:
				err := g.Redo()
				if len(undone) == 0 {
					if !errors.Is(err, engine.ErrNothingToRedo) {
						t.Fatalf("op %d: Redo with nothing undone: %v", i, err)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				line = append(line, undone[len(undone)-1])
				undone = undone[:len(undone)-1]
				if got := withoutFuture(t, g); !bytes.Equal(got, snaps[len(line)]) {
					t.Fatalf("op %d: Redo did not give back the undone state", i)
				}
			}
		}
		// One more move from where the sequence ended, then compare with a
		// game that played only the moves that stand.
		if g.Status() != engine.Lost {
			d := rapid.SampledFrom(directions).Draw(t, "last")
			if play(t, h, g, d) {
				line = append(line, d)
			}
		}
		straight := seededGame(t, seed)
		sh := chaosHost(t, straight)
		defer sh.Close()
		for _, d := range line {
			if !play(t, sh, straight, d) {
				t.Fatalf("the straight game: %v changed nothing", d)
			}
		}
		if got, want := withoutFuture(t, g), withoutFuture(t, straight); !bytes.Equal(got, want) {
			t.Fatalf("after undo and redo the game differs from the one that played %v:\n%s\nwant\n%s", line, got, want)
		}
	})
}

// streamMod logs draws of both random functions in every tick.
const streamMod = `game.on("tick", function(e)
  game.log(math.random(), game.random(1000000), math.random(5, 10), game.random())
end)`

// draws plays three moves on a game of seed with mods (all streamMod) and
// returns each mod's log.
func draws(t tb, seed uint64, mods ...*mod.Mod) map[string]string {
	g := seededGame(t, seed)
	h := chaosHost(t, g, mods...)
	defer h.Close()
	for i := 0; i < 3; i++ {
		play(t, h, g, legal(t, g, i))
	}
	out := map[string]string{}
	for _, m := range mods {
		out[m.ID()] = strings.Join(h.Log(m.ID()), "\n")
	}
	return out
}

// TestRandomStreams: each mod has its own stream, from the game's seed and
// the mod's id.
func TestRandomStreams(t *testing.T) {
	alpha, beta := luaMod(t, "alpha", streamMod), luaMod(t, "beta", streamMod)
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint64().Draw(t, "seed")
		other := rapid.Uint64().Filter(func(s uint64) bool { return s != seed }).Draw(t, "other")
		a := draws(t, seed, alpha, beta)
		if a["alpha"] == a["beta"] {
			t.Fatalf("mods alpha and beta drew the same numbers:\n%s", a["alpha"])
		}
		if strings.Count(a["alpha"], "\n") != 2 {
			t.Fatalf("log %q: want 3 lines", a["alpha"])
		}
		again := draws(t, seed, alpha)
		if again["alpha"] != a["alpha"] {
			t.Fatalf("the same seed and id drew different numbers (with and without another mod):\n%s\n%s", a["alpha"], again["alpha"])
		}
		b := draws(t, other, alpha)
		if b["alpha"] == a["alpha"] {
			t.Fatalf("seeds %d and %d gave mod alpha the same numbers:\n%s", seed, other, a["alpha"])
		}
	})
}

// keeperMod stores VALUES in storage.v on turn 1 and logs, in every
// before_move, an exact dump of storage.v (every string byte by byte, every
// number to 17 digits); at load it logs the dump of VALUES, to compare.
const keeperMod = `
local function dump(v)
  local t = type(v)
  if t == "string" then
    local out = {}
    for i = 1, #v do out[#out + 1] = string.format("%02x", string.byte(v, i)) end
    return "s" .. table.concat(out)
  elseif t == "number" then
    return "n" .. string.format("%.17g", v)
  elseif t == "boolean" then
    return "b" .. tostring(v)
  elseif t == "table" then
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = k end
    table.sort(keys, function(a, b)
      if type(a) ~= type(b) then return type(a) < type(b) end
      return a < b
    end)
    local out = {}
    for _, k in ipairs(keys) do out[#out + 1] = dump(k) .. "=" .. dump(v[k]) end
    return "{" .. table.concat(out, ",") .. "}"
  end
  return "?" .. t
end
local function values() return VALUES end
game.log(dump(values()))
game.on("tick", function(e)
  storage.turn = e.turn -- so that every turn's record differs and undo restores
  if e.turn == 1 then storage.v = values() end
end)
game.on("before_move", function(e) if storage.v ~= nil then game.log(dump(storage.v)) end end)
`

// checkKept stores values (a Lua expression) and checks that a restored
// storage holds exactly them: after loading a save into a new host, and
// after undo.
func checkKept(t *testing.T, values string) {
	t.Helper()
	src := strings.Replace(keeperMod, "VALUES", values, 1)
	m := luaMod(t, "keeper", src)
	g := seededGame(t, 11)
	h := chaosHost(t, g, m)
	defer h.Close()
	play(t, h, g, legal(t, g, 0))
	want := h.Log("keeper")[0]

	// Through a save and a new host.
	g2, err := engine.Unmarshal(marshal(t, g))
	if err != nil {
		t.Fatal(err)
	}
	h2 := chaosHost(t, g2, m)
	defer h2.Close()
	play(t, h2, g2, legal(t, g2, 1))
	if log := h2.Log("keeper"); len(log) != 2 || log[1] != want {
		t.Errorf("storage after loading a save:\n%s\nwant\n%s", log[len(log)-1], want)
	}

	// Through undo: play on, undo, and play again.
	play(t, h, g, legal(t, g, 1))
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	play(t, h, g, legal(t, g, 2))
	if log := h.Log("keeper"); len(log) != 3 || log[2] != want {
		t.Errorf("storage after undo:\n%s\nwant\n%s", log[len(log)-1], want)
	}
	if log := h.Log("keeper"); log[1] != want {
		t.Errorf("storage as kept:\n%s\nwant\n%s", log[1], want)
	}
}

// TestStorageKeptExactly: storage's plain data comes back exactly.
func TestStorageKeptExactly(t *testing.T) {
	for name, values := range map[string]string{
		"numbers":  `{0, 1, -7, 0.1, 1/3, 2^53, 2^63, 1e300, -1e-300, 5e-324, -0.0}`,
		"strings":  `{"", "hello", "a\0b", "tab\tnew\nline", "quote \" ' \\", "é€😀", "<&>", "\127", string.rep("x", 1000)}`,
		"booleans": `{t = true, f = false}`,
		"keys": `{[1] = "one", ["1"] = "string one", [2.5] = "two and a half", [-3] = "minus three", [0] = "zero",
			[1e20] = "big", [""] = "empty", ["with space"] = 1, ["é"] = 2}`,
		"nested": `{list = {1, 2, 3, {4, {5}}}, empty = {}, deep = {{{{{{{{{{{{{{{1}}}}}}}}}}}}}}}, sparse = {[1] = 1, [3] = 3, [10] = 10}}`,
	} {
		t.Run(name, func(t *testing.T) { checkKept(t, values) })
	}
}

// TestStorageBinaryStrings: storage keeps strings, whatever their bytes.
func TestStorageBinaryStrings(t *testing.T) {
	checkKept(t, `{string.char(255, 0, 65), string.char(192, 128)}`)
}

// TestStorageKeysAnyString: a string key of storage may hold any bytes, as
// a value may.
func TestStorageKeysAnyString(t *testing.T) {
	checkKept(t, `{[string.char(1)] = 1, [string.char(7)] = 2, [string.char(255)] = 3}`)
}

// TestStorageWrittenAtLoad: storage the main chunk fills is the mod's
// storage from the start, whatever the main chunk did besides; undo back to
// the start gives it back, and a move played again after that undo gives
// the same bytes.
func TestStorageWrittenAtLoad(t *testing.T) {
	for name, src := range map[string]string{
		"plain":       `storage.count = 10`,
		"with random": `storage.count = 10; local r = math.random(5)`,
	} {
		t.Run(name, func(t *testing.T) {
			m := luaMod(t, "init", src+`
game.on("tick", function(e) storage.count = storage.count + 1 end)`)
			g := seededGame(t, 5)
			h := chaosHost(t, g, m)
			defer h.Close()
			d := legal(t, g, 0)
			play(t, h, g, d)
			first := marshal(t, g)
			if !bytes.Contains(first, []byte(`[\"count\",11]`)) {
				t.Errorf("after the first move: %s, want count 11", first)
			}
			if err := g.Undo(); err != nil {
				t.Fatal(err)
			}
			play(t, h, g, d)
			if again := marshal(t, g); !bytes.Equal(again, first) {
				t.Errorf("the first move played again after undo:\n%s\nwant\n%s", again, first)
			}
		})
	}
}

// TestRandomArguments: math.random and game.random take Lua 5.1's
// arguments: whole numbers by floor, an empty interval or NaN an error.
func TestRandomArguments(t *testing.T) {
	g := mergeGame(t)
	h := attach(t, g, luaMod(t, "args", `
game.on("tick", function(e)
  for _, f in ipairs({math.random, game.random}) do
    local v = f(5)
    game.log(v >= 1 and v <= 5 and v == math.floor(v))
    v = f(-2, 2)
    game.log(v >= -2 and v <= 2 and v == math.floor(v))
    v = f()
    game.log(v >= 0 and v < 1)
    game.log(f(7, 7) == 7, (pcall(f, 0)), (pcall(f, 3, 2)))
  end
end)
`))
	move(t, h, g, engine.Left)
	noReports(t, h)
	want := []string{"true", "true", "true", "true\tfalse\tfalse"}
	wantLog(t, h, "args", append(want, want...)...)
}

// TestRandomBoundsMustBeWhole: NaN, infinite and fractional bounds are errors (Lua
// 5.1 would truncate a fraction silently; the host says what is wrong).
func TestRandomBoundsMustBeWhole(t *testing.T) {
	g := mergeGame(t)
	h := attach(t, g, luaMod(t, "args", `
game.on("tick", function(e)
  local ok, err = pcall(math.random, -3.5, -3.2)
  game.log((pcall(math.random, 0/0)), (pcall(math.random, 0/0, 0/0)), (pcall(math.random, 1, 1/0)), ok, err)
end)
`))
	move(t, h, g, engine.Left)
	wantLog(t, h, "args", "false\tfalse\tfalse\tfalse\tmain.lua:3: random: bound #1 is -3.5; want a whole number")
}
