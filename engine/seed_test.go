package engine

// Tests of the seed specification's cases (seeds/000 §6, §11–§16) that a
// text fixture cannot express: exact history sizes, internal state after a
// save round trip, distributions of the random source, and save files.
//
// Helpers shared with engine_test.go and fuzz_test.go are prefixed with t
// (tBoard, tGame, ...) so they do not collide with other test files.

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var updateSaves = flag.Bool("update-saves", false, "rewrite the save files in ../testdata/saves from the games TestSaveFiles builds")

// savesDir holds save files written by Marshal (the golden saves) and, in
// bad/, deliberately broken ones.
const savesDir = "../testdata/saves"

// tBoard reads a board in classic notation, one string per row.
func tBoard(t testing.TB, rows ...string) Board {
	t.Helper()
	b, err := ParseRows(NewClassic(), rows, len(strings.Fields(rows[0])), len(rows))
	if err != nil {
		t.Fatalf("board %q: %v", rows, err)
	}
	return b
}

// tCell returns the classic tile of value v (a power of two), or empty for 0.
func tCell(v uint64) Cell {
	if v == 0 {
		return Cell{}
	}
	return Cell{Kind: KindTile, Level: uint16(bits.TrailingZeros64(v))}
}

// tSpawn returns the spawn-queue entry {row,col,v}.
func tSpawn(row, col int, v uint64) SpawnEntry {
	return SpawnEntry{Pos: Pos{row, col}, Cell: tCell(v)}
}

// tScripted starts a game from rows that spawns only from its queue, with
// every move kept for undo.
func tScripted(t testing.TB, rules *Classic, rows []string, queue ...SpawnEntry) *Game {
	t.Helper()
	return tFromBoard(t, rules, Options{ScriptedOnly: true, UndoLimit: -1}, tBoard(t, rows...), queue...)
}

// tFromBoard starts a game from board with opt (its size taken from board).
func tFromBoard(t testing.TB, rules *Classic, opt Options, board Board, queue ...SpawnEntry) *Game {
	t.Helper()
	opt.Width, opt.Height = board.Width, board.Height
	g, err := NewFromBoard(rules, opt, board)
	if err != nil {
		t.Fatalf("NewFromBoard: %v", err)
	}
	g.AddSpawns(queue...)
	return g
}

// tNew starts a new seeded game.
func tNew(t testing.TB, rules *Classic, opt Options) *Game {
	t.Helper()
	g, err := New(rules, opt)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return g
}

// tRules returns the classic rules with changes applied.
func tRules(change func(*Classic)) *Classic {
	c := NewClassic()
	if change != nil {
		change(c)
	}
	return c
}

// tRows writes the current board in classic notation.
func tRows(g *Game) []string { return FormatRows(g.rules, &g.cur.Board) }

// tWantRows fails the test unless the current board is rows.
func tWantRows(t testing.TB, g *Game, rows ...string) {
	t.Helper()
	got := tRows(g)
	want := FormatRows(g.rules, &Board{Width: g.opt.Width, Height: g.opt.Height, Cells: tBoard(t, rows...).Cells})
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("board:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// tMarshal saves g.
func tMarshal(t testing.TB, g *Game) []byte {
	t.Helper()
	b, err := g.Marshal()
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	return b
}

// tMove plays d, which must succeed and change the board.
func tMove(t testing.TB, g *Game, d Direction) Result {
	t.Helper()
	r, err := g.Move(d)
	if err != nil {
		t.Fatalf("Move(%v): %v", d, err)
	}
	if !r.Changed {
		t.Fatalf("Move(%v) changed nothing on\n%s", d, strings.Join(tRows(g), "\n"))
	}
	return r
}

// tPlay plays n moves that change the board, trying the directions in a
// fixed rotation, and returns the state after each move.
func tPlay(t testing.TB, g *Game, n int) []State {
	t.Helper()
	var states []State
	order := [4]Direction{Left, Down, Right, Up}
	k := 0
	for len(states) < n {
		if g.Status().Over() {
			t.Fatalf("game over (%v) after %d of %d moves", g.Status(), len(states), n)
		}
		for i := 0; i < 4; i, k = i+1, k+1 {
			if d := order[k%4]; g.Legal(d) {
				tMove(t, g, d)
				break
			}
		}
		states = append(states, g.State().Clone())
	}
	return states
}

// tHistoryLen fails the test unless the game can undo and redo exactly
// undo and redo moves.
func tHistoryLen(t testing.TB, g *Game, undo, redo int) {
	t.Helper()
	if u, r := g.HistoryLen(); u != undo || r != redo {
		t.Fatalf("HistoryLen() = %d, %d; want %d, %d", u, r, undo, redo)
	}
}

// tSnap is everything a game is, copied: what a save must carry exactly.
type tSnap struct {
	Opt     Options
	Rules   any
	Ruleset string
	Cur     State
	Queue   []SpawnEntry
	History []State
	Future  []State
}

func tSnapshot(g *Game) tSnap {
	s := tSnap{
		Opt:     g.opt,
		Rules:   g.rules.Config(),
		Ruleset: g.rules.Name(),
		Cur:     g.cur.Clone(),
		Queue:   append([]SpawnEntry{}, g.queue...),
		History: []State{},
		Future:  []State{},
	}
	for i := range g.history.len() {
		s.History = append(s.History, g.history.at(i).Clone())
	}
	for i := range g.future {
		s.Future = append(s.Future, g.future[i].Clone())
	}
	return s
}

// tSameGame fails the test unless got is exactly want, field by field.
func tSameGame(t testing.TB, got, want *Game) {
	t.Helper()
	a, b := tSnapshot(got), tSnapshot(want)
	av, bv := reflect.ValueOf(a), reflect.ValueOf(b)
	for i := 0; i < av.NumField(); i++ {
		if !reflect.DeepEqual(av.Field(i).Interface(), bv.Field(i).Interface()) {
			t.Errorf("%s differs:\n got %+v\nwant %+v", av.Type().Field(i).Name, av.Field(i).Interface(), bv.Field(i).Interface())
		}
	}
}

// tNamedGame is a game built for saves and round trips.
type tNamedGame struct {
	name string
	g    *Game
}

// tSaveGames builds the games of the golden save files: a fresh seeded
// game, a mid-game with undo history and redo future, a scripted queue
// half used, a lost game, a won game (stop on win) and a game with tiles
// far above 2^64.
func tSaveGames(t testing.TB) []tNamedGame {
	t.Helper()
	var games []tNamedGame
	add := func(name string, g *Game) { games = append(games, tNamedGame{name, g}) }

	add("fresh", tNew(t, NewClassic(), Options{Width: 4, Height: 4, Seed: 2048, UndoLimit: -1}))

	mid := tNew(t, NewClassic(), Options{Width: 4, Height: 4, Seed: 7, UndoLimit: 10})
	tPlay(t, mid, 30)
	for i := 0; i < 3; i++ {
		if err := mid.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	add("midgame", mid)

	scripted := tScripted(t, NewClassic(), []string{
		"2 0 2 4",
		"0 4 0 4",
		"0 0 0 0",
		"0 0 0 0",
	}, tSpawn(3, 3, 2), tSpawn(3, 0, 4), tSpawn(0, 0, 2), tSpawn(1, 1, 4), tSpawn(2, 2, 2))
	tMove(t, scripted, Left)
	tMove(t, scripted, Up)
	add("scripted", scripted)

	lost := tNew(t, NewClassic(), Options{Width: 4, Height: 4, Seed: 3, UndoLimit: 4})
	for !lost.Status().Over() {
		for _, d := range [4]Direction{Left, Down, Right, Up} {
			if lost.Legal(d) {
				tMove(t, lost, d)
				break
			}
		}
	}
	if lost.Status() != Lost {
		t.Fatalf("the lost game ended %v", lost.Status())
	}
	add("lost", lost)

	won := tFromBoard(t, NewClassic(), Options{Seed: 11, UndoLimit: 8}, tBoard(t,
		"1024 1024 0 0",
		"0 0 0 0",
		"0 0 0 0",
		"0 0 0 0",
	), tSpawn(3, 3, 2))
	tMove(t, won, Left)
	if won.Status() != Won {
		t.Fatalf("the won game is %v", won.Status())
	}
	add("won", won)

	huge := NewBoard(4, 4)
	huge.Cells[0] = Cell{Kind: KindTile, Level: 100}
	huge.Cells[1] = Cell{Kind: KindTile, Level: 100}
	huge.Cells[4] = Cell{Kind: KindTile, Level: 64}
	huge.Cells[5] = Cell{Kind: KindTile, Level: 65}
	huge.Cells[8] = Cell{Kind: KindTile, Level: MaxLevel}
	huge.Cells[9] = Cell{Kind: KindTile, Level: MaxLevel}
	hg := tFromBoard(t, tRules(func(c *Classic) { c.StopOnWin = false }), Options{Seed: 100, UndoLimit: -1}, huge)
	tMove(t, hg, Left)
	add("huge", hg)
	return games
}

// tSaveGame returns the game of tSaveGames called name, built afresh.
func tSaveGame(t testing.TB, name string) *Game {
	t.Helper()
	for _, ng := range tSaveGames(t) {
		if ng.name == name {
			return ng.g
		}
	}
	t.Fatalf("no save game %q", name)
	return nil
}

// tMoreGames are further games for round trips: other statuses, options
// and rules than the golden saves.
func tMoreGames(t testing.TB) []tNamedGame {
	t.Helper()
	var games []tNamedGame
	add := func(name string, g *Game) { games = append(games, tNamedGame{name, g}) }

	wc := tFromBoard(t, tRules(func(c *Classic) { c.StopOnWin = false }), Options{ScriptedOnly: true, UndoLimit: -1}, tBoard(t,
		"1024 1024 0 0",
		"0 0 0 0",
		"0 0 0 0",
		"0 0 0 0",
	), tSpawn(3, 3, 2), tSpawn(0, 3, 4))
	tMove(t, wc, Left)
	if wc.Status() != WonContinue {
		t.Fatalf("won-continue game is %v", wc.Status())
	}
	add("won-continue", wc)

	kp := tSaveGame(t, "won")
	if err := kp.KeepPlaying(); err != nil {
		t.Fatal(err)
	}
	add("keep-playing", kp)

	add("lost-board", tFromBoard(t, NewClassic(), Options{UndoLimit: 0}, tBoard(t,
		"2 4 2 4",
		"4 2 4 2",
		"2 4 2 4",
		"4 2 4 2",
	)))

	noUndo := tNew(t, NewClassic(), Options{Width: 4, Height: 4, Seed: ^uint64(0), UndoLimit: 0})
	tPlay(t, noUndo, 5)
	add("undo-disabled-max-seed", noUndo)

	custom := tNew(t, &Classic{WinValue: 1000, StopOnWin: false, InitialSpawns: 3, FourProbability: 0.25},
		Options{Width: 5, Height: 3, Seed: 99, UndoLimit: 2})
	tPlay(t, custom, 6)
	if err := custom.Undo(); err != nil {
		t.Fatal(err)
	}
	add("custom-rules-5x3", custom)

	// Vars are the ruleset's counters; classic keeps none, but the engine
	// saves them for any ruleset.
	vars := tNew(t, NewClassic(), Options{Width: 4, Height: 4, Seed: 5, UndoLimit: -1})
	vars.cur.Vars = map[string]int64{"hazards": 3, "negative": -7}
	tMove(t, vars, Left)
	vars.cur.Vars["hazards"] = 4
	add("vars", vars)

	one := tNew(t, tRules(func(c *Classic) { c.InitialSpawns = 1 }), Options{Width: 1, Height: 1, Seed: 1})
	add("one-cell", one)
	return games
}

// TestC17_SerializationRoundTrip is seeds/000 C17: the Given board,
// serialized and deserialized, deep-equals the original: board, score,
// status, rules, options (seed included), random source, spawn queue and
// cursor, history. It does so fresh, with spawn entries still queued, and
// after a move and an undo (history and future both held).
func TestC17_SerializationRoundTrip(t *testing.T) {
	rows := []string{
		"2 0 2 4",
		"0 4 0 4",
		"0 0 0 0",
		"0 0 0 0",
	}
	check := func(t *testing.T, g *Game) {
		t.Helper()
		data := tMarshal(t, g)
		got, err := Unmarshal(data)
		if err != nil {
			t.Fatalf("Unmarshal: %v\n%s", err, data)
		}
		tSameGame(t, got, g)
		if !reflect.DeepEqual(got.Queue(), g.Queue()) || got.Remaining() != g.Remaining() {
			t.Errorf("queue %v, want %v", got.Queue(), g.Queue())
		}
		if !bytes.Equal(tMarshal(t, got), data) {
			t.Error("the deserialized game serializes differently")
		}
	}
	t.Run("given", func(t *testing.T) {
		g := tFromBoard(t, NewClassic(), Options{Seed: 17, UndoLimit: -1}, tBoard(t, rows...), tSpawn(3, 3, 2))
		tWantRows(t, g, rows...)
		if g.Status() != Playing || !g.Score().IsZero() {
			t.Fatalf("status %v, score %v", g.Status(), g.Score())
		}
		check(t, g)
	})
	t.Run("after a move and an undo", func(t *testing.T) {
		g := tFromBoard(t, NewClassic(), Options{Seed: 17, UndoLimit: -1}, tBoard(t, rows...), tSpawn(3, 3, 2))
		tMove(t, g, Left) // 4 4 0 0 / 8 0 0 0, +12, spawn (3,3)
		tMove(t, g, Up)   // a random spawn
		if err := g.Undo(); err != nil {
			t.Fatal(err)
		}
		tHistoryLen(t, g, 1, 1)
		check(t, g)
	})
}

func TestSER1_RoundTrip(t *testing.T) {
	games := append(tSaveGames(t), tMoreGames(t)...)
	for _, ng := range games {
		t.Run(ng.name, func(t *testing.T) {
			g := ng.g
			data := tMarshal(t, g)
			got, err := Unmarshal(data)
			if err != nil {
				t.Fatalf("Unmarshal: %v\n%s", err, data)
			}
			if again := tMarshal(t, got); !bytes.Equal(again, data) {
				t.Fatalf("Marshal after the round trip differs:\n%s\nwant:\n%s", again, data)
			}
			tSameGame(t, got, g)
			if got.Remaining() != g.Remaining() || !reflect.DeepEqual(got.Queue(), g.Queue()) {
				t.Errorf("queue %v (remaining %d), want %v (remaining %d)", got.Queue(), got.Remaining(), g.Queue(), g.Remaining())
			}

			// The loaded game goes on exactly as the original would.
			for _, d := range [...]Direction{Left, Up, Right, Down, Left, Left, Down} {
				r1, err1 := g.Move(d)
				r2, err2 := got.Move(d)
				if r1 != r2 || fmt.Sprint(err1) != fmt.Sprint(err2) {
					t.Fatalf("Move(%v): loaded game gives %+v, %v; original %+v, %v", d, r2, err2, r1, err1)
				}
			}
			for i := 0; i < 3; i++ {
				e1, e2 := g.Undo(), got.Undo()
				if !errors.Is(e2, e1) && fmt.Sprint(e1) != fmt.Sprint(e2) {
					t.Fatalf("Undo: loaded game gives %v, original %v", e2, e1)
				}
			}
			if e1, e2 := g.Redo(), got.Redo(); fmt.Sprint(e1) != fmt.Sprint(e2) {
				t.Fatalf("Redo: loaded game gives %v, original %v", e2, e1)
			}
			tSameGame(t, got, g)
			if !bytes.Equal(tMarshal(t, got), tMarshal(t, g)) {
				t.Fatal("after the same moves, undos and redo the games save differently")
			}
		})
	}
}

// The huge game must really hold what the brief asks of it: a tile above
// 2^64 and a score that does not fit in 64 bits.
func TestSER1_HugeTileSave(t *testing.T) {
	g := tSaveGame(t, "huge")
	if _, ok := g.Score().Uint64(); ok {
		t.Fatalf("score %v fits in 64 bits", g.Score())
	}
	if got, want := g.Score().String(), "2535301200456458802993406410752"; got != want { // 2^101
		t.Fatalf("score %s, want 2^101 = %s", got, want)
	}
	data := tMarshal(t, g)
	for _, want := range []string{
		`"2535301200456458802993406410752 `,               // the merged 2^101
		`"18446744073709551616 36893488147419103232 0 0"`, // 2^64 2^65, slid left
		`"score": "2535301200456458802993406410752"`,
	} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("save lacks %s:\n%s", want, data)
		}
	}
	// 2^320 tiles do not merge.
	if c := g.cur.Board.At(Pos{2, 0}); c.Level != MaxLevel || g.cur.Board.At(Pos{2, 1}).Level != MaxLevel {
		t.Errorf("row 2 is %v, want two 2^%d tiles", tRows(g)[2], MaxLevel)
	}
}

// tAddUnknown adds fields no version of format 1 knows to every object of a
// decoded JSON document, except maps whose keys are data (vars).
func tAddUnknown(v any, depth int) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if k != "vars" {
				tAddUnknown(x, depth+1)
			}
		}
		v[fmt.Sprintf("zz_future_field_%d", depth)] = map[string]any{"nested": []any{1.5, "x", nil, true}}
		v["AAA_unknown"] = "text"
	case []any:
		for _, x := range v {
			tAddUnknown(x, depth+1)
		}
	}
}

func TestSER2_Versioning(t *testing.T) {
	g := tSaveGame(t, "scripted") // has a queue, history and state
	tMove(t, g, Right)
	if err := g.Undo(); err != nil { // and a future
		t.Fatal(err)
	}
	data := tMarshal(t, g)

	t.Run("unknown fields ignored", func(t *testing.T) {
		var doc any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		tAddUnknown(doc, 0)
		extended, err := json.MarshalIndent(doc, "", "\t")
		if err != nil {
			t.Fatal(err)
		}
		for _, where := range []string{`"zz_future_field_0"`, `"zz_future_field_1"`, `"zz_future_field_2"`} {
			if !bytes.Contains(extended, []byte(where)) {
				t.Fatalf("extended document lacks %s", where)
			}
		}
		got, err := Unmarshal(extended)
		if err != nil {
			t.Fatalf("Unmarshal of a v1 document with unknown fields: %v\n%s", err, extended)
		}
		if again := tMarshal(t, got); !bytes.Equal(again, data) {
			t.Fatalf("loads to a different game:\n%s\nwant:\n%s", again, data)
		}
		tSameGame(t, got, g)
	})

	refused := []struct {
		name, old, new, want string
	}{
		{"version 2", `"version": 1,`, `"version": 2,`, "version 2"},
		{"version 0", `"version": 1,`, `"version": 0,`, "version 0"},
		{"version missing", `"version": 1,`, ``, "version 0"},
		{"version negative", `"version": 1,`, `"version": -1,`, "version -1"},
		{"version not a number", `"version": 1,`, `"version": "1",`, "version"},
		{"version fraction", `"version": 1,`, `"version": 1.5,`, "version"},
		{"wrong format", `"format": "2048-game"`, `"format": "2048-replay"`, `format is "2048-replay", want "2048-game"`},
		{"format missing", `"format": "2048-game",`, ``, `format is "", want "2048-game"`},
	}
	for _, c := range refused {
		t.Run(c.name, func(t *testing.T) {
			doc := tReplaceOnce(t, data, c.old, c.new)
			got, err := Unmarshal(doc)
			if err == nil {
				t.Fatalf("Unmarshal accepted the document")
			}
			if got != nil {
				t.Errorf("Unmarshal returned a game with the error %v", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not mention %q", err, c.want)
			}
		})
	}
	// The refusal of a later version says which versions this program reads.
	_, err := Unmarshal(tReplaceOnce(t, data, `"version": 1,`, `"version": 2,`))
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("versions 1 to %d", SaveVersion)) {
		t.Errorf("version 2: error %v does not say which versions are read", err)
	}
}

// tReplaceOnce replaces the first old in data, which must hold it.
func tReplaceOnce(t testing.TB, data []byte, old, new string) []byte {
	t.Helper()
	if !bytes.Contains(data, []byte(old)) {
		t.Fatalf("document lacks %q:\n%s", old, data)
	}
	return bytes.Replace(data, []byte(old), []byte(new), 1)
}

// TestSaveFiles keeps the golden saves in ../testdata/saves what Marshal
// writes for the games tSaveGames builds (-update-saves rewrites them), and
// checks that every save there loads and saves back to the same bytes.
func TestSaveFiles(t *testing.T) {
	for _, ng := range tSaveGames(t) {
		path := filepath.Join(savesDir, ng.name+".json")
		data := tMarshal(t, ng.g)
		if *updateSaves {
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -run TestSaveFiles -update-saves to write it)", err)
		}
		if !bytes.Equal(data, want) {
			t.Errorf("%s: Marshal of the %s game now writes\n%s\nthe file holds\n%s", path, ng.name, data, want)
		}
	}
	files, err := filepath.Glob(filepath.Join(savesDir, "*.json"))
	if err != nil || len(files) < 4 {
		t.Fatalf("saves %v, %v: want at least 4", files, err)
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		g, err := Unmarshal(data)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if again := tMarshal(t, g); !bytes.Equal(again, data) {
			t.Errorf("%s: Marshal of the loaded game differs from the file:\n%s", path, again)
		}
	}
}

func TestSaveErrors(t *testing.T) {
	fresh := tMarshal(t, tSaveGame(t, "fresh"))
	mid := tMarshal(t, tSaveGame(t, "midgame"))

	type errCase struct {
		name string
		data []byte
		want []string // substrings of the error
	}
	var cases []errCase

	// The broken files: each must be listed here, so that none goes
	// unchecked.
	fileWants := map[string][]string{
		"short_row.json":       {"save: state: board: row 1 has 3 cells, want 4"},
		"unknown_ruleset.json": {`save: unknown ruleset "klassik"`, "classic"},
		"syntax.json":          {"save: line 13, column ", "invalid character"},
	}
	files, err := filepath.Glob(filepath.Join(savesDir, "bad", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no broken saves in %s/bad: %v", savesDir, err)
	}
	for _, path := range files {
		want, ok := fileWants[filepath.Base(path)]
		if !ok {
			t.Errorf("%s: broken save with no expected error in TestSaveErrors", path)
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, errCase{"bad/" + filepath.Base(path), data, want})
	}
	if len(cases) != len(fileWants) {
		t.Errorf("found %d broken saves, want the %d listed", len(cases), len(fileWants))
	}

	edit := func(name string, data []byte, old, new string, want ...string) {
		cases = append(cases, errCase{name, tReplaceOnce(t, data, old, new), want})
	}
	edit("rng too short", fresh, `"rng": "`, `"rng": "zz`, `save: state: rng "zz`, "not 16 hexadecimal digits")
	edit("rng not hex", fresh, `"rng": "78dde6e5fd29f854"`, `"rng": "78dde6e5fd29f85g"`, `save: state: rng "78dde6e5fd29f85g" is not 16 hexadecimal digits`)
	edit("rng with 0x", fresh, `"rng": "78dde6e5fd29f854"`, `"rng": "0x78dde6e5fd29f8"`, `save: state: rng "0x78dde6e5fd29f8" is not 16 hexadecimal digits`)
	edit("rng number", fresh, `"rng": "`, `"rng": 12, "x": "`, "save: line 27, column", "rng")
	edit("next past the queue", fresh, `"next": 0`, `"next": 5`, "save: state: next 5 is outside the spawn queue of 0 entries")
	edit("next negative", fresh, `"next": 0`, `"next": -1`, "save: state: next -1 is outside")
	edit("turn negative", fresh, `"turn": 0`, `"turn": -3`, "save: state: turn -3 is negative")
	edit("score negative", fresh, `"score": "0"`, `"score": "-5"`, `save: state: score "-5" is not a non-negative whole number`)
	edit("score above 384 bits", fresh, `"score": "0"`, `"score": "1`+strings.Repeat("0", 120)+`"`, "save: state: score", "out of range")
	edit("status unknown", fresh, `"status": "Playing"`, `"status": "Winning"`, `save: state: unknown status "Winning"`)
	edit("cell not a power of two", fresh, `"board": [`+"\n"+`      "0 `, `"board": [`+"\n"+`      "6 `, "save: state: board: row 0, column 0: tile 6 is not a power of two")
	edit("cell above 2^320", fresh, `"board": [`+"\n"+`      "0 `, `"board": [`+"\n"+`      "4271974071841820164790043412339104229205409044713305539894083215644439451561281100045924173873152 `, "save: state: board: row 0, column 0:", "above the largest tile")
	edit("too few rows", fresh, `"board": [`+"\n"+`      "0 0 2 0",`, `"board": [`, "save: state: board: board has 3 rows, want 4")
	edit("unknown ruleset", fresh, `"ruleset": "classic"`, `"ruleset": ""`, `save: unknown ruleset ""`)
	edit("bad rules", fresh, `"win_value": 2048`, `"win_value": 2`, "save: classic rules: win_value 2")
	edit("rules of the wrong type", fresh, `"stop_on_win": true`, `"stop_on_win": "yes"`, "save: classic rules:", "stop_on_win")
	edit("seed negative", fresh, `"seed": "2048"`, `"seed": "-1"`, `save: options.seed "-1" is not a whole number`)
	edit("seed above 2^64", fresh, `"seed": "2048"`, `"seed": "18446744073709551616"`, "save: options.seed")
	edit("width zero", fresh, `"width": 4`, `"width": 0`, "save: options: board size 0×4")
	edit("board too large", fresh, `"width": 4`, `"width": 100000`, "save: options: board size 100000×4: at most 65536 cells")
	edit("queue cell too long", tMarshal(t, tSaveGame(t, "scripted")), `"cell": "2"`, `"cell": "`+strings.Repeat("2", 65)+`"`, "save: queue[0]: a cell of 65 bytes")
	edit("history cell", mid, `"history": [`, `"history": [{"board": ["0 0 0 0", "0 0 0 0", "0 0 0 0", "0 0 0 x"], "score": "0", "status": "Playing", "turn": 0, "rng": "0000000000000000", "next": 0},`,
		"save: history[0]: board: row 3, column 3:", `"x"`)
	edit("history past the undo limit", mid, `"undo_limit": 10`, `"undo_limit": 3`, "save: history and future hold 10 states, more than undo_limit 3")
	edit("history with undo disabled", mid, `"undo_limit": 10`, `"undo_limit": 0`, "more than undo_limit 0")
	edit("future status", mid, `"future": [`, `"future": [{"board": ["0 0 0 0", "0 0 0 0", "0 0 0 0", "0 0 0 0"], "score": "0", "status": "over", "turn": 0, "rng": "0000000000000000", "next": 0},`,
		`save: future[0]: unknown status "over"`)
	cases = append(cases,
		errCase{"empty", nil, []string{"save: EOF"}},
		errCase{"truncated", mid[:len(mid)/2], []string{"save: unexpected EOF"}},
		errCase{"null", []byte("null"), []string{`save: format is ""`}},
		errCase{"array", []byte("[1, 2]"), []string{"save: line 1, column", "array"}},
		errCase{"future, undo disabled", tReplaceOnce(t, tReplaceOnce(t, mid, `"undo_limit": 10`, `"undo_limit": 0`), `"history": [`, `"history": [], "old_history": [`),
			[]string{"save: future holds states but undo is disabled"}},
	)

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var g *Game
			var err error
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("Unmarshal panicked: %v", p)
					}
				}()
				g, err = Unmarshal(c.data)
			}()
			if err == nil {
				t.Fatalf("Unmarshal accepted the save")
			}
			if g != nil {
				t.Errorf("Unmarshal returned a game with the error %v", err)
			}
			t.Log(err)
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

// A JSON syntax error names the line and column of the offending
// character, as compilers do (1-based).
func TestSaveSyntaxErrorColumn(t *testing.T) {
	data := []byte("{\n  \"format\": \"2048-game\",\n  \"version\": 1,, \"x\": 0\n}")
	// Line 3 is `  "version": 1,, "x": 0`: the second comma, at column 16,
	// is the error.
	_, err := Unmarshal(data)
	if err == nil {
		t.Fatal("Unmarshal accepted invalid JSON")
	}
	if !strings.Contains(err.Error(), "line 3, column 16:") {
		t.Errorf("the column of a JSON syntax error is one past the offending character: %v", err)
	}
}

// A save with something after its JSON document is not a save Marshal
// wrote: it is refused rather than loaded from its first document.
func TestSaveTrailingData(t *testing.T) {
	data := tMarshal(t, tSaveGame(t, "fresh"))
	for _, tail := range []string{"garbage", "{}", `{"format": "2048-game"}`} {
		if _, err := Unmarshal(append(append([]byte{}, data...), tail...)); err == nil {
			t.Errorf("Unmarshal ignores data after the document (%q) instead of refusing it", tail)
		}
	}
}

// Every save Unmarshal accepts stays loadable whatever is played on it: a
// future longer than the undo limit allows, once redone, must not make a
// history that Unmarshal then refuses.
func TestSaveFutureWithinUndoLimit(t *testing.T) {
	g := tNew(t, NewClassic(), Options{Width: 4, Height: 4, Seed: 9, UndoLimit: 5})
	tPlay(t, g, 5)
	for i := 0; i < 3; i++ {
		if err := g.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	data := tMarshal(t, g) // history 2, future 3, limit 5: consistent
	tHistoryLen(t, g, 2, 3)
	hacked := tReplaceOnce(t, data, `"undo_limit": 5`, `"undo_limit": 3`) // history 2 ≤ 3 but 2+3 > 3
	h, err := Unmarshal(hacked)
	if err != nil {
		if !strings.Contains(err.Error(), "undo_limit") {
			t.Fatalf("refused with an error that does not name undo_limit: %v", err)
		}
		return // refused: fine
	}
	for h.Redo() == nil {
	}
	if _, err := Unmarshal(tMarshal(t, h)); err != nil {
		t.Errorf("Unmarshal accepts a future longer than undo_limit allows; after Redo the game saves a history it refuses: %v", err)
	}
}

// A turn counter loaded at its largest value must not wrap round to a
// negative turn that makes the next save unloadable.
func TestSaveTurnOverflow(t *testing.T) {
	data := tMarshal(t, tSaveGame(t, "fresh"))
	g, err := Unmarshal(tReplaceOnce(t, data, `"turn": 0`, `"turn": 9223372036854775807`))
	if err != nil {
		if !strings.Contains(err.Error(), "turn") {
			t.Fatalf("refused with an error that does not name the turn: %v", err)
		}
		return
	}
	if _, err := g.Move(Left); err != nil {
		if _, err = g.Move(Right); err != nil {
			t.Fatal(err)
		}
	}
	if g.State().Turn < 0 {
		t.Errorf("the turn counter wraps round to %d; the game then saves a file Unmarshal refuses", g.State().Turn)
	}
	if _, err := Unmarshal(tMarshal(t, g)); err != nil {
		t.Fatalf("save after the move does not load: %v", err)
	}
}

func TestE5_Restart(t *testing.T) {
	rules := tRules(func(c *Classic) { c.StopOnWin = false })
	opt := Options{Width: 4, Height: 4, Seed: 77, UndoLimit: -1}
	queue := []SpawnEntry{tSpawn(0, 0, 4), tSpawn(3, 3, 4)}
	// What a first game from these settings looks like, built before any
	// other game is played.
	pristine, err := New(rules, opt, queue...)
	if err != nil {
		t.Fatal(err)
	}
	pristineSave := tMarshal(t, pristine)
	pristineNoQueue := tMarshal(t, tNew(t, rules, opt))

	// Play a game from the same settings to its end.
	first, err := New(rules, opt, queue...)
	if err != nil {
		t.Fatal(err)
	}
	first.AddSpawns(tSpawn(1, 1, 2), tSpawn(2, 2, 2))
	for !first.Status().Over() {
		for _, d := range [4]Direction{Left, Down, Right, Up} {
			if first.Legal(d) {
				tMove(t, first, d)
				break
			}
		}
	}
	if first.Status() != Lost || first.State().Turn < 10 {
		t.Fatalf("first game ended %v after %d turns", first.Status(), first.State().Turn)
	}

	// A new game with the same settings is the pristine one: nothing of
	// the finished game's random source, queue or history leaks in.
	again, err := New(rules, opt, queue...)
	if err != nil {
		t.Fatal(err)
	}
	if got := tMarshal(t, again); !bytes.Equal(got, pristineSave) {
		t.Fatalf("new game after a finished one:\n%s\nwant:\n%s", got, pristineSave)
	}
	tSameGame(t, again, pristine)
	tHistoryLen(t, again, 0, 0)
	if again.Score() != (Score{}) || again.Status() != Playing || again.State().Turn != 0 {
		t.Fatalf("new game: score %v, status %v, turn %d", again.Score(), again.Status(), again.State().Turn)
	}
	// Without a queue, none of the old queue is used.
	fresh := tNew(t, rules, opt)
	if got := tMarshal(t, fresh); !bytes.Equal(got, pristineNoQueue) {
		t.Fatalf("new game without a queue:\n%s\nwant:\n%s", got, pristineNoQueue)
	}
	if fresh.Remaining() != 0 {
		t.Fatalf("new game without a queue has %d queued spawns", fresh.Remaining())
	}

	// The games share no memory: changing the old game, or the slice the
	// queue was given in, leaves the new one alone.
	before := tMarshal(t, again)
	for i := 0; i < 8; i++ {
		if err := first.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	tPlay(t, first, 2)
	first.AddSpawns(tSpawn(0, 1, 2))
	queue[0] = tSpawn(1, 2, 2)
	if got := tMarshal(t, again); !bytes.Equal(got, before) {
		t.Fatalf("changing the old game changed the new one:\n%s\nwant:\n%s", got, before)
	}
	tPlay(t, again, 3)
	tPlay(t, pristine, 3)
	if !bytes.Equal(tMarshal(t, again), tMarshal(t, pristine)) {
		t.Fatal("the new game plays differently from the pristine one")
	}
}

// tUDOGame is the game of C16: 2 2 in the top row, one spawn queued.
func tUDOGame(t *testing.T) *Game {
	return tScripted(t, NewClassic(), []string{
		"2 2 0 0",
		"0 0 0 0",
		"0 0 0 0",
		"0 0 0 0",
	}, tSpawn(0, 3, 2), tSpawn(1, 1, 2), tSpawn(2, 2, 4))
}

func TestUDO1_UndoAfterOneMove(t *testing.T) {
	g := tUDOGame(t)
	pre := g.State().Clone()
	tMove(t, g, Left)
	post := g.State().Clone()
	if reflect.DeepEqual(pre, post) {
		t.Fatal("the move changed nothing")
	}
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*g.State(), pre) {
		t.Fatalf("after Undo the state is %+v, want the pre-move %+v", *g.State(), pre)
	}
	tWantRows(t, g, "2 2 0 0", "0 0 0 0", "0 0 0 0", "0 0 0 0")
	if !g.Score().IsZero() || g.Status() != Playing || g.Remaining() != 3 {
		t.Fatalf("after Undo: score %v, status %v, remaining %d", g.Score(), g.Status(), g.Remaining())
	}
	tHistoryLen(t, g, 0, 1)
	if !reflect.DeepEqual(g.future[0], post) {
		t.Fatalf("future holds %+v, want the post-move %+v", g.future[0], post)
	}
}

func TestUDO2_RedoAfterUndo(t *testing.T) {
	g := tUDOGame(t)
	pre := g.State().Clone()
	tMove(t, g, Left)
	post := g.State().Clone()
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	if err := g.Redo(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*g.State(), post) {
		t.Fatalf("after Redo the state is %+v, want the post-move %+v", *g.State(), post)
	}
	tHistoryLen(t, g, 1, 0)
	if !reflect.DeepEqual(*g.history.at(0), pre) {
		t.Fatalf("history holds %+v, want the pre-move %+v", *g.history.at(0), pre)
	}
	if err := g.Redo(); !errors.Is(err, ErrNothingToRedo) {
		t.Fatalf("second Redo: %v, want ErrNothingToRedo", err)
	}
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	if err := g.Undo(); !errors.Is(err, ErrNothingToUndo) {
		t.Fatalf("Undo past the start: %v, want ErrNothingToUndo", err)
	}
	if !reflect.DeepEqual(*g.State(), pre) {
		t.Fatal("a failed Undo changed the state")
	}
	tHistoryLen(t, g, 0, 1)
}

func TestUDO3_NoOpKeepsHistory(t *testing.T) {
	g := tUDOGame(t)
	tMove(t, g, Left) // 4 0 0 2
	tMove(t, g, Down) // spawns (1,1)
	afterDown := g.State().Clone()
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	tWantRows(t, g, "4 0 0 2", "0 0 0 0", "0 0 0 0", "0 0 0 0")
	tHistoryLen(t, g, 1, 1)
	snap, save := tSnapshot(g), tMarshal(t, g)

	r, err := g.Move(Up) // nothing can move up
	if err != nil || r != (Result{}) {
		t.Fatalf("no-op Up: %+v, %v; want a zero Result and no error", r, err)
	}
	tHistoryLen(t, g, 1, 1)
	if got := tSnapshot(g); !reflect.DeepEqual(got, snap) {
		t.Fatalf("the no-op changed the game:\n got %+v\nwant %+v", got, snap)
	}
	if !bytes.Equal(tMarshal(t, g), save) {
		t.Fatal("the no-op changed the save")
	}
	if g.Remaining() != 2 {
		t.Fatalf("the no-op consumed a spawn: %d left, want 2", g.Remaining())
	}
	// The undone move can still be redone.
	if err := g.Redo(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*g.State(), afterDown) {
		t.Fatalf("Redo after the no-op gives %+v, want %+v", *g.State(), afterDown)
	}
}

func TestUDO4_NewMoveClearsRedo(t *testing.T) {
	g := tUDOGame(t)
	tMove(t, g, Left)
	tMove(t, g, Down)
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	tHistoryLen(t, g, 1, 1)
	preRight := g.State().Clone()
	tMove(t, g, Right) // not the undone Down
	tWantRows(t, g, "0 0 4 2", "0 2 0 0", "0 0 0 0", "0 0 0 0")
	tHistoryLen(t, g, 2, 0)
	if err := g.Redo(); !errors.Is(err, ErrNothingToRedo) {
		t.Fatalf("Redo after a new move: %v, want ErrNothingToRedo", err)
	}
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*g.State(), preRight) {
		t.Fatalf("Undo of the new move gives %+v, want %+v", *g.State(), preRight)
	}
}

func TestUDO5_UndoRestoresSpawnAndScore(t *testing.T) {
	t.Run("random", func(t *testing.T) {
		g := tNew(t, NewClassic(), Options{Width: 4, Height: 4, Seed: 123, UndoLimit: -1})
		tPlay(t, g, 6)
		var d Direction
		for _, d = range Directions {
			if g.Legal(d) {
				break
			}
		}
		pre := g.State().Clone()
		r := tMove(t, g, d)
		post := g.State().Clone()
		if r.Spawns != 1 {
			t.Fatalf("move spawned %d tiles, want 1", r.Spawns)
		}
		if err := g.Undo(); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(*g.State(), pre) {
			t.Fatalf("Undo gives %+v, want %+v", *g.State(), pre)
		}
		if g.cur.Board.EmptyCount() != pre.Board.EmptyCount() || g.Score() != pre.Score {
			t.Fatal("Undo kept the spawned tile or the score")
		}
		// The random source went back too: the same move spawns the same
		// tile in the same cell again.
		r2 := tMove(t, g, d)
		if r2 != r || !reflect.DeepEqual(*g.State(), post) {
			t.Fatalf("replayed move: %+v, state %+v; first time %+v, state %+v", r2, *g.State(), r, post)
		}
	})
	t.Run("scripted", func(t *testing.T) {
		g := tUDOGame(t)
		r := tMove(t, g, Left)
		if r.Gained != ScoreOf(4) || g.Score() != ScoreOf(4) || g.Remaining() != 2 {
			t.Fatalf("Left: %+v, score %v, remaining %d", r, g.Score(), g.Remaining())
		}
		if err := g.Undo(); err != nil {
			t.Fatal(err)
		}
		if !g.Score().IsZero() || g.Remaining() != 3 || g.State().Next != 0 {
			t.Fatalf("after Undo: score %v, remaining %d, next %d", g.Score(), g.Remaining(), g.State().Next)
		}
		tWantRows(t, g, "2 2 0 0", "0 0 0 0", "0 0 0 0", "0 0 0 0")
		// The queue entry the move used is used again.
		tMove(t, g, Left)
		tWantRows(t, g, "4 0 0 2", "0 0 0 0", "0 0 0 0", "0 0 0 0")
	})
}

func TestC16_UndoRedoCycle(t *testing.T) {
	g := tUDOGame(t)
	initial := []string{"2 2 0 0", "0 0 0 0", "0 0 0 0", "0 0 0 0"}
	boardA := []string{"4 0 0 2", "0 0 0 0", "0 0 0 0", "0 0 0 0"}
	tHistoryLen(t, g, 0, 0)

	r := tMove(t, g, Left)
	if r.Gained != ScoreOf(4) || r.Merges != 1 || r.Spawns != 1 {
		t.Fatalf("Left: %+v", r)
	}
	tWantRows(t, g, boardA...)
	want := func(score uint64, undo, redo int, rows []string) {
		t.Helper()
		tWantRows(t, g, rows...)
		if g.Score() != ScoreOf(score) || g.Status() != Playing {
			t.Fatalf("score %v, status %v; want %d, Playing", g.Score(), g.Status(), score)
		}
		tHistoryLen(t, g, undo, redo)
	}
	want(4, 1, 0, boardA)
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	want(0, 0, 1, initial)
	if err := g.Redo(); err != nil {
		t.Fatal(err)
	}
	want(4, 1, 0, boardA)
	// And round again: the cycle is stable.
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	want(0, 0, 1, initial)
	if err := g.Redo(); err != nil {
		t.Fatal(err)
	}
	want(4, 1, 0, boardA)
}

func TestC21_NoOpKeepsHistory(t *testing.T) {
	g := tScripted(t, NewClassic(), []string{
		"2 0 0 0",
		"0 0 0 0",
		"0 0 0 0",
		"0 0 0 0",
	}, tSpawn(1, 3, 4))
	r, err := g.Move(Up)
	if err != nil || r != (Result{}) {
		t.Fatalf("Up: %+v, %v; want a no-op", r, err)
	}
	tHistoryLen(t, g, 0, 0)
	if g.Remaining() != 1 {
		t.Fatalf("the no-op consumed a spawn: %d left", g.Remaining())
	}
	tWantRows(t, g, "2 0 0 0", "0 0 0 0", "0 0 0 0", "0 0 0 0")
	if g.State().Turn != 0 {
		t.Fatalf("the no-op counted as turn %d", g.State().Turn)
	}
	// With a history: the no-op leaves it as it is.
	tMove(t, g, Right) // 0 0 0 2, spawn (1,3)
	tHistoryLen(t, g, 1, 0)
	hist := tSnapshot(g).History
	if r, err := g.Move(Right); err != nil || r.Changed {
		t.Fatalf("second Right: %+v, %v; want a no-op", r, err)
	}
	tHistoryLen(t, g, 1, 0)
	if !reflect.DeepEqual(tSnapshot(g).History, hist) {
		t.Fatal("the no-op changed the history")
	}
}

func TestC25_RedoClearedByNewMove(t *testing.T) {
	g := tUDOGame(t)
	tMove(t, g, Left)
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	tHistoryLen(t, g, 0, 1)
	if r, err := g.Move(Up); err != nil || r.Changed { // C16's start cannot move up
		t.Fatalf("Up: %+v, %v; want a no-op", r, err)
	}
	tHistoryLen(t, g, 0, 1)
	tMove(t, g, Down)
	tWantRows(t, g, "0 0 0 2", "0 0 0 0", "0 0 0 0", "2 2 0 0")
	tHistoryLen(t, g, 1, 0)
	if err := g.Redo(); !errors.Is(err, ErrNothingToRedo) {
		t.Fatalf("Redo: %v, want ErrNothingToRedo", err)
	}
}

func TestUndoLimit(t *testing.T) {
	t.Run("0 disables", func(t *testing.T) {
		g := tNew(t, NewClassic(), Options{Width: 4, Height: 4, Seed: 1, UndoLimit: 0})
		tPlay(t, g, 4)
		tHistoryLen(t, g, 0, 0)
		before := tMarshal(t, g)
		if err := g.Undo(); !errors.Is(err, ErrUndoDisabled) {
			t.Fatalf("Undo: %v, want ErrUndoDisabled", err)
		}
		if err := g.Redo(); !errors.Is(err, ErrUndoDisabled) {
			t.Fatalf("Redo: %v, want ErrUndoDisabled", err)
		}
		if !bytes.Equal(tMarshal(t, g), before) {
			t.Fatal("a refused Undo changed the game")
		}
	})
	t.Run("3 keeps 3", func(t *testing.T) {
		g := tNew(t, NewClassic(), Options{Width: 4, Height: 4, Seed: 1, UndoLimit: 3})
		states := tPlay(t, g, 7) // states[i] is the state after move i+1
		tHistoryLen(t, g, 3, 0)
		for k := 1; k <= 3; k++ {
			if err := g.Undo(); err != nil {
				t.Fatal(err)
			}
			if want := states[6-k]; !reflect.DeepEqual(*g.State(), want) {
				t.Fatalf("after %d undos: %+v, want the state after move %d: %+v", k, *g.State(), 7-k, want)
			}
		}
		tHistoryLen(t, g, 0, 3)
		if err := g.Undo(); !errors.Is(err, ErrNothingToUndo) {
			t.Fatalf("fourth Undo: %v, want ErrNothingToUndo", err)
		}
		for k := 1; k <= 3; k++ {
			if err := g.Redo(); err != nil {
				t.Fatal(err)
			}
		}
		if !reflect.DeepEqual(*g.State(), states[6]) {
			t.Fatal("redoing the three moves does not return to the last state")
		}
		tHistoryLen(t, g, 3, 0)
	})
	t.Run("negative keeps all", func(t *testing.T) {
		g := tNew(t, NewClassic(), Options{Width: 8, Height: 8, Seed: 1, UndoLimit: -1})
		start := g.State().Clone()
		tPlay(t, g, 60)
		tHistoryLen(t, g, 60, 0)
		for g.Undo() == nil {
		}
		tHistoryLen(t, g, 0, 60)
		if !reflect.DeepEqual(*g.State(), start) {
			t.Fatal("undoing every move does not return to the start")
		}
	})
}

func TestKeepPlaying(t *testing.T) {
	g := tFromBoard(t, NewClassic(), Options{ScriptedOnly: true, UndoLimit: -1}, tBoard(t,
		"1024 1024 0 0",
		"0 0 0 0",
		"0 0 0 0",
		"0 0 0 0",
	), tSpawn(3, 3, 2), tSpawn(3, 0, 2))
	if err := g.KeepPlaying(); !errors.Is(err, ErrNotWon) || !strings.Contains(err.Error(), "Playing") {
		t.Fatalf("KeepPlaying while Playing: %v, want ErrNotWon naming the status", err)
	}
	tMove(t, g, Left)
	if g.Status() != Won || g.Remaining() != 2 {
		t.Fatalf("status %v, remaining %d; want Won with no spawn", g.Status(), g.Remaining())
	}
	if r, err := g.Move(Right); err != nil || r != (Result{}) || g.Remaining() != 2 {
		t.Fatalf("Move when Won: %+v, %v, remaining %d; want an ignored move", r, err, g.Remaining())
	}
	if g.LegalMoves() != 0 || g.CanMove() {
		t.Fatalf("a Won game has legal moves %v", g.LegalMoves())
	}
	if err := g.KeepPlaying(); err != nil {
		t.Fatal(err)
	}
	if g.Status() != WonContinue {
		t.Fatalf("status %v after KeepPlaying, want Won (continue)", g.Status())
	}
	tHistoryLen(t, g, 1, 0) // not a move
	if err := g.KeepPlaying(); !errors.Is(err, ErrNotWon) || !strings.Contains(err.Error(), "Won (continue)") {
		t.Fatalf("KeepPlaying twice: %v, want ErrNotWon naming Won (continue)", err)
	}
	tMove(t, g, Right) // uses the queued (3,3)
	tWantRows(t, g, "0 0 0 2048", "0 0 0 0", "0 0 0 0", "0 0 0 2")
	if g.Status() != WonContinue {
		t.Fatalf("status %v after a move, want Won (continue)", g.Status())
	}

	lost := tFromBoard(t, NewClassic(), Options{}, tBoard(t, "2 4", "4 2"))
	if err := lost.KeepPlaying(); !errors.Is(err, ErrNotWon) || lost.Status() != Lost {
		t.Fatalf("KeepPlaying when Lost: %v, status %v", err, lost.Status())
	}
}

func TestP2_SpawnDistribution(t *testing.T) {
	const n = 20000
	count := func(p float64, seed uint64) (fours int) {
		c := tRules(func(c *Classic) { c.FourProbability = p })
		r := NewRNG(seed)
		for i := 0; i < n; i++ {
			switch cell := c.RandomSpawn(&r); cell {
			case tCell(4):
				fours++
			case tCell(2):
			default:
				t.Fatalf("random spawn %+v is neither 2 nor 4", cell)
			}
		}
		return fours
	}
	for _, seed := range []uint64{0, 42, 2048} {
		if share := float64(count(0.1, seed)) / n; share < 0.09 || share > 0.11 {
			t.Errorf("seed %d: %.4f of spawns are 4s, want 0.1 ± 0.01", seed, share)
		}
	}
	if got := count(0, 42); got != 0 {
		t.Errorf("FourProbability 0: %d 4s in %d spawns", got, n)
	}
	if got := count(1, 42); got != n {
		t.Errorf("FourProbability 1: %d 4s in %d spawns, want all", got, n)
	}
	if share := float64(count(0.5, 42)) / n; share < 0.49 || share > 0.51 {
		t.Errorf("FourProbability 0.5: %.4f of spawns are 4s", share)
	}

	// Through real games: the initial spawns of 5000 seeded games are 4s
	// one time in ten and land on every cell alike.
	var cells [16]int
	fours, tiles := 0, 0
	for seed := uint64(0); seed < 5000; seed++ {
		g := tNew(t, NewClassic(), Options{Width: 4, Height: 4, Seed: seed})
		for i, c := range g.cur.Board.Cells {
			if c.IsEmpty() {
				continue
			}
			tiles++
			cells[i]++
			if c == tCell(4) {
				fours++
			}
		}
	}
	if tiles != 10000 {
		t.Fatalf("%d initial tiles in 5000 games, want 10000", tiles)
	}
	if share := float64(fours) / float64(tiles); share < 0.09 || share > 0.11 {
		t.Errorf("%.4f of initial tiles are 4s, want 0.1 ± 0.01", share)
	}
	for i, k := range cells {
		if k < 625*85/100 || k > 625*115/100 {
			t.Errorf("cell %v got %d of 10000 spawns, want about 625", Pos{i / 4, i % 4}, k)
		}
	}

	// A spawn draws the same numbers whatever the probability: games with
	// the same seed put their tiles in the same cells.
	occupied := func(p float64) []bool {
		g := tNew(t, tRules(func(c *Classic) { c.FourProbability = p; c.InitialSpawns = 8 }), Options{Width: 4, Height: 4, Seed: 31})
		var occ []bool
		for _, c := range g.cur.Board.Cells {
			occ = append(occ, !c.IsEmpty())
		}
		return occ
	}
	if a, b := occupied(0), occupied(1); !reflect.DeepEqual(a, b) {
		t.Errorf("FourProbability changes where tiles spawn: %v vs %v", a, b)
	}
}

func TestE4_InitialSpawns(t *testing.T) {
	for _, n := range []int{0, 1, 2, 5, 16} {
		for seed := uint64(0); seed < 100; seed++ {
			rules := tRules(func(c *Classic) { c.InitialSpawns = n })
			g := tNew(t, rules, Options{Width: 4, Height: 4, Seed: seed, UndoLimit: -1})
			tiles := 0
			for _, c := range g.cur.Board.Cells {
				if c.IsEmpty() {
					continue
				}
				tiles++
				if c != tCell(2) && c != tCell(4) {
					t.Fatalf("initial_spawns %d, seed %d: initial tile %+v", n, seed, c)
				}
			}
			if tiles != n {
				t.Fatalf("initial_spawns %d, seed %d: %d tiles on\n%s", n, seed, tiles, strings.Join(tRows(g), "\n"))
			}
			if !g.Score().IsZero() || g.State().Turn != 0 {
				t.Fatalf("initial_spawns %d, seed %d: score %v, turn %d", n, seed, g.Score(), g.State().Turn)
			}
			tHistoryLen(t, g, 0, 0)
			// No initial tile: no move, yet Playing (an empty board is
			// not lost, seeds/000 §3.7).
			wantStatus := Playing
			if tiles > 0 && !rules.anyMove(&g.cur.Board) {
				wantStatus = Lost
			}
			if g.Status() != wantStatus {
				t.Fatalf("initial_spawns %d, seed %d: status %v, want %v", n, seed, g.Status(), wantStatus)
			}
		}
	}

	t.Run("more than the cells", func(t *testing.T) {
		_, err := New(tRules(func(c *Classic) { c.InitialSpawns = 17 }), Options{Width: 4, Height: 4, Seed: 1})
		if err == nil || !strings.Contains(err.Error(), "initial_spawns 17") || !strings.Contains(err.Error(), "16 cells") {
			t.Fatalf("initial_spawns 17 on 16 cells: %v", err)
		}
	})
	t.Run("one cell", func(t *testing.T) {
		g := tNew(t, tRules(func(c *Classic) { c.InitialSpawns = 1 }), Options{Width: 1, Height: 1, Seed: 4})
		if g.cur.Board.Cells[0].IsEmpty() || g.Status() != Lost {
			t.Fatalf("1×1 board: %v, status %v; want a tile and Lost", tRows(g), g.Status())
		}
	})
	t.Run("queue first", func(t *testing.T) {
		g, err := New(NewClassic(), Options{Width: 4, Height: 4, Seed: 8}, tSpawn(1, 2, 4))
		if err != nil {
			t.Fatal(err)
		}
		if g.cur.Board.At(Pos{1, 2}) != tCell(4) || g.cur.Board.EmptyCount() != 14 || g.Remaining() != 0 {
			t.Fatalf("board %v, remaining %d: want the queued 4 at (1,2) and one random tile", tRows(g), g.Remaining())
		}
	})
	t.Run("queue overlap", func(t *testing.T) {
		_, err := New(NewClassic(), Options{Width: 4, Height: 4, Seed: 8}, tSpawn(0, 0, 2), tSpawn(0, 0, 4))
		var se *SpawnError
		if !errors.As(err, &se) || se.Entry != "{0,0,4}" || !strings.Contains(se.Reason, "occupied by 2") {
			t.Fatalf("overlapping initial spawns: %v, want a *SpawnError for {0,0,4}", err)
		}
	})
	t.Run("scripted queue too short", func(t *testing.T) {
		_, err := New(NewClassic(), Options{Width: 4, Height: 4, ScriptedOnly: true}, tSpawn(0, 0, 2))
		if !errors.Is(err, ErrNoSpawn) {
			t.Fatalf("two initial spawns from a queue of one: %v, want ErrNoSpawn", err)
		}
	})
}

// TestSaveInvalidQueueEntry: a queue entry the ruleset cannot read loads as
// it was written, and the step that comes to it fails, leaving the game and
// the entry as they were (FIXTURES.md's rule for spawn-queue values).
func TestSaveInvalidQueueEntry(t *testing.T) {
	r := NewClassic()
	b, _ := ParseRows(r, []string{"2 0 0 0", "0 0 0 0", "0 0 0 0", "0 0 0 0"}, 4, 4)
	start, err := NewFromBoard(r, Options{Width: 4, Height: 4, ScriptedOnly: true, UndoLimit: 5}, b)
	if err != nil {
		t.Fatal(err)
	}
	start.AddSpawns(SpawnEntry{Pos: Pos{3, 3}, Cell: Cell{Kind: KindTile, Level: 1}})
	data := strings.Replace(string(tMarshal(t, start)), `"cell": "2"`, `"cell": "3"`, 1)
	g, err := Unmarshal([]byte(data))
	if err != nil {
		t.Fatalf("a save with an unreadable queue entry: %v", err)
	}
	if again := string(tMarshal(t, g)); again != data {
		t.Error("the unreadable entry does not round-trip as written")
	}
	before := g.Remaining()
	for _, d := range Directions {
		if !g.Legal(d) {
			continue
		}
		_, err := g.Move(d)
		var se *SpawnError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), "{") || !strings.Contains(err.Error(), "the ruleset cannot spawn it") {
			t.Fatalf("a move reaching the entry: %v", err)
		}
		break
	}
	if g.Remaining() != before || string(tMarshal(t, g)) != data {
		t.Error("the failed step changed the game")
	}
}
