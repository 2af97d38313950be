package scripting_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/engine"
)

func TestGameStateClassic(t *testing.T) {
	g := classicGame(t, []string{"2 2", "0 4"}, "1,1,2")
	h := attach(t, g, luaMod(t, "look", stateMod))
	move(t, h, g, engine.Left)
	noReports(t, h)
	wantLog(t, h, "look",
		"1\tlook\tclassic\t2\t2\thooks=true,log=true,markers=true,random=true,require=true,settings=true,storage=true",
		"before_move\tnumber:2 number:2 number:0 number:4",
		"before_move\t0\tnumber\t0\tstring\tPlaying",
		"tick\tnumber:4 number:0 number:4 number:2",
		"tick\t1\tnumber\t4\tstring\tPlaying",
	)
}

func TestGameStatus(t *testing.T) {
	t.Run("lost", func(t *testing.T) {
		g := classicGame(t, []string{"2 4 2 4", "4 2 4 2", "2 4 2 4", "8 16 8 0"}, "3,0,4")
		h := attach(t, g, luaMod(t, "look", `
game.on("before_move", function(e) game.log("before", e.dir) end)
game.on("tick", function(e) game.log(game.status(), game.score()) end)
`))
		move(t, h, g, engine.Right)
		noReports(t, h)
		wantLog(t, h, "look", "before\tright", "Lost\t0")
		if g.Status() != engine.Lost {
			t.Errorf("status %v", g.Status())
		}
		// A move in a lost game is ignored: no error, no event, no change.
		before := marshal(t, g)
		for _, d := range engine.Directions {
			if res, err := h.Move(g, d); err != nil || res != (engine.Result{}) {
				t.Errorf("Move(%v) in a lost game: %+v, %v; want an ignored move", d, res, err)
			}
		}
		noReports(t, h)
		wantLog(t, h, "look", "before\tright", "Lost\t0")
		if !bytes.Equal(marshal(t, g), before) {
			t.Error("a move in a lost game changed it")
		}
	})
	t.Run("won", func(t *testing.T) {
		g := classicGame(t, []string{"1024 1024", "0 0"}, "1,1,2")
		h := attach(t, g, luaMod(t, "look", `
game.on("before_move", function(e) game.log(e.dir, game.status()) end)
game.on("tick", function(e) game.log(game.status(), game.score(), game.cell(0, 0)) end)
`))
		move(t, h, g, engine.Left)
		if err := g.KeepPlaying(); err != nil {
			t.Fatal(err)
		}
		move(t, h, g, engine.Down)
		noReports(t, h)
		wantLog(t, h, "look", "left\tPlaying", "Won\t2048\t2048", "down\tWon (continue)", "Won (continue)\t2048\t0")
	})
}

func TestGameStateCellular(t *testing.T) {
	g := cellularGame(t, false, []string{". a3 a1/2 d2", "C a2+C B2 b", ". . . a8", "d1 . . ."})
	// A score in quarter points, a later turn and a won game, as a save
	// holds them.
	save := string(marshal(t, g))
	for _, r := range [][2]string{{`"score": "0"`, `"score": "12.25"`}, {`"turn": 0`, `"turn": 7`}, {`"status": "Playing"`, `"status": "Won (continue)"`}} {
		if !strings.Contains(save, r[0]) {
			t.Fatalf("save has no %s:\n%s", r[0], save)
		}
		save = strings.Replace(save, r[0], r[1], 1)
	}
	g, err := engine.Unmarshal([]byte(save))
	if err != nil {
		t.Fatal(err)
	}
	h := attach(t, g, luaMod(t, "look", stateMod))
	if _, err := h.Move(g, engine.Up); !errors.As(err, new(*engine.Refusal)) {
		t.Fatalf("Move(Up) = %v, want the mod's refusal", err)
	}
	noReports(t, h)
	wantLog(t, h, "look",
		"1\tlook\tcellular\t4\t4\thooks=true,log=true,markers=true,random=true,require=true,settings=true,storage=true",
		"before_move\tstring:. string:a3 string:a1/2 string:d2 string:C string:a2+C string:B2 string:b string:. string:. string:. string:a8 string:d1 string:. string:. string:.",
		"before_move\t7\tnumber\t12.25\tstring\tWon (continue)",
	)
}

func TestGameCellErrors(t *testing.T) {
	g := mergeGame(t)
	h := attach(t, g, luaMod(t, "look", `
game.on("tick", function(e)
  for _, args in ipairs({{4, 0}, {0, 4}, {-1, 0}, {0.5, 0}, {0/0, 0}, {1/0, 0}, {"x", 0}}) do
    local ok, err = pcall(game.cell, args[1], args[2])
    game.log(tostring(ok), err)
  end
  local ok, err = pcall(game.cell)
  game.log(tostring(ok), err ~= nil)
end)
`))
	move(t, h, g, engine.Left)
	noReports(t, h)
	log := h.Log("look")
	if len(log) != 8 {
		t.Fatalf("log %q", log)
	}
	for _, line := range log {
		if !strings.HasPrefix(line, "false\t") {
			t.Errorf("game.cell off the board or with bad arguments: %q, want an error", line)
		}
	}
	if !strings.Contains(log[0], "game.cell: (4, 0) is not a cell of the 4×4 board") {
		t.Errorf("game.cell(4, 0): %q", log[0])
	}
}

func TestSettings(t *testing.T) {
	dir := writeMod(t, "set", `
[settings.count]
type = "int"
default = 3
[settings.ratio]
type = "number"
default = 0.25
[settings.on]
type = "bool"
default = false
[settings.label]
type = "string"
default = "hi"
`, map[string]string{"main.lua": `
local names = {}
for k in pairs(game.settings) do names[#names + 1] = k end
table.sort(names)
for _, k in ipairs(names) do
  local v = game.settings[k]
  game.log(k, type(v), tostring(v))
end
`})
	g := mergeGame(t)
	h := attach(t, g, loadMod(t, dir))
	wantLog(t, h, "set", "count\tnumber\t3", "label\tstring\thi", "on\tboolean\tfalse", "ratio\tnumber\t0.25")

	// Values set on the Mod (a player's overrides) are what the mod sees.
	m := loadMod(t, dir)
	m.Values["count"] = int64(7)
	m.Values["on"] = true
	h = attach(t, mergeGame(t), m)
	wantLog(t, h, "set", "count\tnumber\t7", "label\tstring\thi", "on\tboolean\ttrue", "ratio\tnumber\t0.25")
}

// TestSettingsOrder: pairs visits game.settings in the settings' name
// order, in every host of every process (a Go map's order would change
// from one host to the next, and a mod that relied on it would not replay).
func TestSettingsOrder(t *testing.T) {
	var manifest strings.Builder
	for _, name := range []string{"kilo", "alpha", "zulu", "echo", "mike", "bravo", "yankee", "delta"} {
		fmt.Fprintf(&manifest, "[settings.%s]\ntype = \"int\"\ndefault = 1\n", name)
	}
	dir := writeMod(t, "order", manifest.String(), map[string]string{"main.lua": `
local names = {}
for k in pairs(game.settings) do names[#names + 1] = k end
game.log(table.concat(names, " "))
`})
	for range 20 {
		h := attach(t, mergeGame(t), loadMod(t, dir))
		wantLog(t, h, "order", "alpha bravo delta echo kilo mike yankee zulu")
	}
}

// TestGameCellHugeTile: classic cells are numbers, as the API says, large
// tiles too.
func TestGameCellHugeTile(t *testing.T) {
	g := classicGame(t, []string{"1125899906842624 0", "2 2"}, "1,1,2")
	h := attach(t, g, luaMod(t, "big", `game.on("tick", function(e) game.log(type(game.cell(0, 0))) end)`))
	move(t, h, g, engine.Left)
	wantLog(t, h, "big", "number")
}
