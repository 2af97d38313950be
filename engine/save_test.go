package engine

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// tEditSave decodes a save into generic JSON, lets edit change it and
// encodes it again.
func tEditSave(t *testing.T, g *Game, edit func(doc map[string]any)) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(tMarshal(t, g), &doc); err != nil {
		t.Fatal(err)
	}
	edit(doc)
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func tDocState(doc map[string]any, path ...any) map[string]any {
	var v any = doc
	for _, p := range path {
		switch k := p.(type) {
		case string:
			v = v.(map[string]any)[k]
		case int:
			v = v.([]any)[k]
		}
	}
	return v.(map[string]any)
}

// badSave is a save of one of tSaveGame's games with an edit Unmarshal
// must refuse, with an error that contains want.
type badSave struct {
	name string
	game string
	edit func(map[string]any)
	want string
}

func checkBadSaves(t *testing.T, cases []badSave) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := tEditSave(t, tSaveGame(t, c.game), c.edit)
			g, err := Unmarshal(data)
			if err == nil || g != nil {
				t.Fatalf("Unmarshal accepted the save (%v)", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q, want %q", err, c.want)
			}
		})
	}
}

// TestSaveStatusFitsBoard: Unmarshal refuses a status that does not fit the
// board, in the state and in the history and future: Lost on a board with a
// move left, Playing on a lost board or with a winning tile, Won or Won
// (continue) with no winning tile, Won without stop_on_win.
func TestSaveStatusFitsBoard(t *testing.T) {
	status := func(path []any, st string) func(map[string]any) {
		return func(doc map[string]any) { tDocState(doc, path...)["status"] = st }
	}
	cases := []badSave{
		{"Lost on a playable board", "fresh", status([]any{"state"}, "Lost"),
			"save: state: status Lost does not fit the board: the rules make it Playing"},
		{"Playing on a lost board", "lost", status([]any{"state"}, "Playing"),
			"save: state: status Playing does not fit the board: the rules make it Lost"},
		{"Lost in the history", "midgame", status([]any{"history", 2}, "Lost"),
			"save: history[2]: status Lost does not fit the board"},
		{"Lost in the future", "midgame", status([]any{"future", 0}, "Lost"),
			"save: future[0]: status Lost does not fit the board"},
		{"Won with no winning tile", "fresh", status([]any{"state"}, "Won"),
			"save: state: status Won, but no tile reaches the win value 2048"},
		{"Won (continue) with no winning tile", "midgame", status([]any{"state"}, "Won (continue)"),
			"save: state: status Won (continue), but no tile reaches the win value 2048 and the score"},
		{"Won without stop_on_win", "won", func(doc map[string]any) {
			doc["rules"].(map[string]any)["stop_on_win"] = false
		}, "save: state: status Won, but stop_on_win is false"},
		{"Playing with a winning tile", "won", func(doc map[string]any) {
			doc["history"] = []any{}
			doc["state"].(map[string]any)["status"] = "Playing"
		}, "save: state: status Playing does not fit the board: the rules make it Won (continue)"},
	}
	checkBadSaves(t, cases)
	// Every status that fits loads: Won and Won (continue) with their
	// winning tile, Lost on a lost board, Playing on an empty board.
	for _, name := range []string{"won", "lost"} {
		if _, err := Unmarshal(tMarshal(t, tSaveGame(t, name))); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	kp := tSaveGame(t, "won")
	if err := kp.KeepPlaying(); err != nil {
		t.Fatal(err)
	}
	empty := tFromBoard(t, NewClassic(), Options{Seed: 1}, tBoard(t, "0 0", "0 0"))
	given := tFromBoard(t, NewClassic(), Options{Seed: 1}, tBoard(t, "2048 0", "0 0"))
	for _, g := range []*Game{kp, empty, given} {
		if _, err := Unmarshal(tMarshal(t, g)); err != nil {
			t.Errorf("%v game: %v", g.Status(), err)
		}
	}
}

// TestSaveHistoryLeadsToState: Unmarshal refuses a history whose turns do
// not count up by one to the state and on through the future (next redo
// first), or whose spawn-queue cursor goes back.
func TestSaveHistoryLeadsToState(t *testing.T) {
	cases := []badSave{
		{"a state from another game first", "midgame", func(doc map[string]any) {
			h := doc["history"].([]any)
			other := tDocState(doc, "history", 0)
			clone := map[string]any{}
			for k, v := range other {
				clone[k] = v
			}
			clone["turn"] = float64(0)
			doc["history"] = append([]any{clone}, h[1:]...)
		}, "save: history[1]: turn 21 does not follow history[0]'s turn 0: the history does not lead to the state"},
		{"the state's turn", "midgame", func(doc map[string]any) {
			tDocState(doc, "state")["turn"] = float64(99)
		}, "save: state: turn 99 does not follow history[6]'s turn 26"},
		{"the future in the wrong order", "midgame", func(doc map[string]any) {
			f := doc["future"].([]any)
			f[0], f[2] = f[2], f[0]
		}, "save: future[2]: turn 30 does not follow state's turn 27"},
		{"a history entry dropped", "midgame", func(doc map[string]any) {
			h := doc["history"].([]any)
			doc["history"] = append(h[:3:3], h[4:]...)
		}, "save: history[3]: turn 24 does not follow history[2]'s turn 22"},
		{"the queue cursor goes back", "scripted", func(doc map[string]any) {
			tDocState(doc, "history", 0)["next"] = float64(2)
		}, "save: history[1]: next 1 is before history[0]'s next 2"},
	}
	checkBadSaves(t, cases)
}

// otherRules is classic under another name: a ruleset that is not classic.
type otherRules struct{ *Classic }

func (otherRules) Name() string { return "other" }

// TestCheckConfig: a loaded game must be a game of the configuration it is
// loaded under; a 256×256 board under the 4×4 classic configuration is a
// *ConfigError naming the board size.
func TestCheckConfig(t *testing.T) {
	classic4 := Options{Width: 4, Height: 4, Seed: 1, UndoLimit: 100}
	huge, err := New(NewClassic(), Options{Width: 256, Height: 256, Seed: 1, UndoLimit: 100})
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := Unmarshal(tMarshal(t, huge))
	if err != nil {
		t.Fatal(err)
	}
	var ce *ConfigError
	if err := loaded.CheckConfig(NewClassic(), classic4); !errors.As(err, &ce) || ce.Field != "board size" ||
		err.Error() != "board size: the game has 256×256, the configuration 4×4" {
		t.Fatalf("256×256 under 4×4: %v", err)
	}

	g := tNew(t, NewClassic(), Options{Width: 4, Height: 4, Seed: 77, UndoLimit: 100})
	if err := g.CheckConfig(NewClassic(), classic4); err != nil {
		t.Fatalf("the game's own configuration (another seed): %v", err)
	}
	cases := []struct {
		name  string
		rules Rules
		opt   Options
		field string
	}{
		{"ruleset", otherRules{NewClassic()}, classic4, "ruleset"},
		{"win value", tRules(func(c *Classic) { c.WinValue = 1024 }), classic4, "rules"},
		{"stop on win", tRules(func(c *Classic) { c.StopOnWin = false }), classic4, "rules"},
		{"width", NewClassic(), Options{Width: 5, Height: 4, UndoLimit: 100}, "board size"},
		{"height", NewClassic(), Options{Width: 4, Height: 3, UndoLimit: 100}, "board size"},
		{"undo limit", NewClassic(), Options{Width: 4, Height: 4, UndoLimit: 10}, "undo limit"},
		{"scripted", NewClassic(), Options{Width: 4, Height: 4, UndoLimit: 100, ScriptedOnly: true}, "scripted-only spawns"},
	}
	for _, c := range cases {
		err := g.CheckConfig(c.rules, c.opt)
		if !errors.As(err, &ce) || ce.Field != c.field {
			t.Errorf("%s: %v, want a *ConfigError on %s", c.name, err, c.field)
		}
	}
	if err := g.CheckConfig(nil, classic4); err == nil {
		t.Error("nil rules accepted")
	}
}

// TestHookEditKeepsWinningTile: a tick hook may not take the winning tile
// away from a won game (its save would not load): the step fails and the
// game stays as it was.
func TestHookEditKeepsWinningTile(t *testing.T) {
	g := tFromBoard(t, NewClassic(), Options{ScriptedOnly: true, UndoLimit: -1}, tBoard(t,
		"1024 1024 0 0",
		"0 0 0 0",
		"0 0 0 0",
		"0 0 0 0",
	), tSpawn(3, 3, 2))
	before := tMarshal(t, g)
	g.SetHooks(HookFuncs{OnTickFunc: func(e *TickEvent) error {
		e.Edits = append(e.Edits, Edit{Pos: Pos{0, 0}, Cell: tCell(2)})
		return nil
	}})
	_, err := g.Move(Left)
	var he *HookError
	if !errors.As(err, &he) || !strings.Contains(err.Error(), "no tile reaches the win value") {
		t.Fatalf("edit that removes the winning tile: %v", err)
	}
	if string(tMarshal(t, g)) != string(before) {
		t.Fatal("the failed step changed the game")
	}
	// An edit elsewhere is fine.
	g.SetHooks(HookFuncs{OnTickFunc: func(e *TickEvent) error {
		e.Edits = append(e.Edits, Edit{Pos: Pos{2, 2}, Cell: tCell(2)})
		return nil
	}})
	if _, err := g.Move(Left); err != nil || g.Status() != Won {
		t.Fatalf("edit beside the winning tile: %v, status %v", err, g.Status())
	}
	if _, err := Unmarshal(tMarshal(t, g)); err != nil {
		t.Fatal(err)
	}
}
