package scripting_test

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/mod2048/mod2048/engine"
)

// cellsMod marks cells when the game starts, then logs game.cells with each
// filter of its queries and refuses the move (so the board stays put).
const cellsMod = `
game.hazard{ name = "h1", glyph = "1" }
game.hazard{ name = "h2", glyph = "2" }
game.on("start", function()
  return { mark = {
    { row = 0, col = 1, name = "h1" },
    { row = 1, col = 1, name = "h1" }, { row = 1, col = 1, name = "h2" },
    { row = 3, col = 3, name = "h2" },
  } }
end)
game.on("before_move", function()
  for _, q in ipairs(QUERIES) do
    game.log(table.concat(game.cells(q), ","))
  end
  return { refuse = "just looking" }
end)
`

// TestGameCells: game.cells answers each filter, and every combination of
// them, with the cells' numbers in reading order.
func TestGameCells(t *testing.T) {
	t.Run("classic", func(t *testing.T) {
		g := classicGame(t, []string{"2 0 4 0", "0 8 0 0", "0 0 0 0", "16 0 0 2"})
		h := attach(t, g, writeModVersion(t, "look", "2", `QUERIES = {
  {},
  { cell = "^0$" },
  { cell = "^%d%d$" },
  { cell = "4" },
  { marked = true },
  { marked = false, cell = "^0$" },
  { hazard = "h1" },
  { without = "h1", marked = true },
  { hazard = "look:h2", without = "h1" },
  { hazard = "h1", marked = false },
}`+cellsMod))
		if err := h.Start(g); err != nil {
			t.Fatal(err)
		}
		if _, err := h.Move(g, engine.Left); !errors.As(err, new(*engine.Refusal)) {
			t.Fatalf("Move = %v, want the refusal", err)
		}
		noReports(t, h)
		wantLog(t, h, "look",
			"0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15",
			"1,3,4,6,7,8,9,10,11,13,14",
			"12",
			"2",
			"1,5,15",
			"3,4,6,7,8,9,10,11,13,14",
			"1,5",
			"15",
			"15",
			"",
		)
	})
	t.Run("cellular", func(t *testing.T) {
		g := cellularGame(t, false, []string{". a3 a1/2 d2", "C a2+C B2 b", ". . . a8", "d1 . . ."})
		h := attach(t, g, writeModVersion(t, "look", "2", `QUERIES = {
  { cell = "^a" },
  { cell = "^%.$" },
  { cell = "^%.$", marked = false },
  { cell = "+C$" },
  { cell = "^[dD]" },
}`+cellsMod))
		if err := h.Start(g); err != nil {
			t.Fatal(err)
		}
		if _, err := h.Move(g, engine.Left); !errors.As(err, new(*engine.Refusal)) {
			t.Fatalf("Move = %v, want the refusal", err)
		}
		noReports(t, h)
		wantLog(t, h, "look", "1,2,5,11", "0,8,9,10,13,14,15", "0,8,9,10,13,14", "5", "3,12")
	})
}

// TestGameCellsErrors: a filter game.cells does not know, or of the wrong
// type, or another mod's hazard, is an error that says which; a version-1
// mod has no game.cells.
func TestGameCellsErrors(t *testing.T) {
	g := mergeGame(t)
	h := attach(t, g, writeModVersion(t, "look", "2", `
game.hazard{ name = "h1", glyph = "1" }
game.on("tick", function()
  for _, q in ipairs({ {colour = 1}, {cell = 5}, {marked = "yes"}, {hazard = "other:x"}, {without = 3}, "x", {[1] = true} }) do
    local ok, err = pcall(game.cells, q)
    game.log(tostring(ok), err)
  end
  local ok, err = pcall(game.cells)
  game.log(tostring(ok), err)
  local ok2, err2 = pcall(game.cells, {cell = "[a"})
  game.log(tostring(ok2), err2)
end)
`), writeModVersion(t, "old", "1", `game.on("tick", function() game.log(type(game.cells), tostring(game.features.cells)) end)`))
	move(t, h, g, engine.Left)
	noReports(t, h)
	want := []string{
		`unknown key the string "colour" (allowed: cell, marked, hazard, without)`,
		"cell: want a pattern string, got the number 5",
		"marked: want true or false, got",
		`hazard: "other:x" is not a hazard this mod defined`,
		"without: want a hazard's name, got the number 3",
		"want one table of filters",
		"unknown key the number 1",
		"want one table of filters",
		"malformed pattern",
	}
	wantPcallErrors(t, h, "look", want)
	wantLog(t, h, "old", "nil\tnil")
}

// TestGameCellsFilterReused: a filter table passed again is read again
// when its values changed (the host keeps the ones it read), in this game
// and in the next, whose answers the first one's kept.
func TestGameCellsFilterReused(t *testing.T) {
	src := `
game.hazard{ name = "h1", glyph = "1" }
local F = { cell = "^0$" }
game.on("tick", function()
  game.log(table.concat(game.cells(F), ","))
  F.cell = "^2$"
  game.log(table.concat(game.cells(F), ","))
  F.cell, F.marked = nil, true
  game.log(table.concat(game.cells(F), ","))
  F.marked, F.cell = nil, "^0$"
end)
`
	for range 2 {
		g := classicGame(t, []string{"2 0 4 0", "0 8 0 0", "0 0 0 0", "16 0 0 2"}, "0,1,2")
		h := attach(t, g, writeModVersion(t, "reuse", "2", src))
		move(t, h, g, engine.Down)
		noReports(t, h)
		// After Down and the spawn at (0,1): 0 2 0 0 / 0 0 0 0 / 2 0 0 0 /
		// 16 8 4 2.
		wantLog(t, h, "reuse", "0,2,3,4,5,6,7,9,10,11", "1,8,15", "")
	}
}

// TestHostsShareSafely: games on two goroutines at once share what the
// process keeps for every game (game.cells' pattern answers, the compiled
// code, the standard library's functions) and play exactly as alone: `go
// test -race` (make test) checks the sharing.
func TestHostsShareSafely(t *testing.T) {
	src := `
local FREE = { cell = "^0$", marked = false }
game.on("tick", function(ev)
  local free = game.cells(FREE)
  game.log(#free, string.format("%d", ev.turn), math.floor(ev.turn / 2), table.concat({ "a", "b" }))
end)
`
	play := func() []string {
		g := seededGame(t, 5)
		h := attach(t, g, writeModVersion(t, "share", "2", src))
		for i := 0; i < 30 && !g.Status().Over(); i++ {
			move(t, h, g, legal(t, g, i))
		}
		noReports(t, h)
		return h.Log("share")
	}
	alone := play()
	var wg sync.WaitGroup
	logs := make([][]string, 4)
	for i := range logs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			logs[i] = play()
		}()
	}
	wg.Wait()
	for i, l := range logs {
		if strings.Join(l, "|") != strings.Join(alone, "|") {
			t.Errorf("game %d on its own goroutine logged %q, alone %q", i, l, alone)
		}
	}
}
