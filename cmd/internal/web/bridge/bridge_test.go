package bridge_test

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/mod2048/mod2048/cmd/internal/web/bridge"
	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/session"
)

// ok fails the test on a reply's error and returns its view.
func ok(t testing.TB, r bridge.Reply) *bridge.View {
	t.Helper()
	if r.Error != nil {
		t.Fatalf("error %+v", r.Error)
	}
	return r.View
}

// rowsOf writes a view's board as rows of cells in the ruleset's notation
// (0 or . for an empty cell), as a session's board writes them.
func rowsOf(v *bridge.View, empty string) string {
	var b strings.Builder
	for i, c := range v.Cells {
		if i > 0 && i%v.Width == 0 {
			b.WriteByte('\n')
		} else if i > 0 {
			b.WriteByte(' ')
		}
		if c.Text == "" {
			b.WriteString(empty)
		} else {
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

func sessionRows(s *session.Session) string {
	board := s.Board()
	var b strings.Builder
	for i, c := range board.Cells {
		if i > 0 && i%board.Width == 0 {
			b.WriteByte('\n')
		} else if i > 0 {
			b.WriteByte(' ')
		}
		if c.IsEmpty() {
			b.WriteString(map[bool]string{true: "0", false: "."}[s.Rules().Name() == "classic"])
		} else {
			b.WriteString(s.Rules().FormatCell(c))
		}
	}
	return b.String()
}

// TestSameGameAsSession plays a seeded game through the bridge and through
// a session: the same board, score and status after every move, for both
// rulesets.
func TestSameGameAsSession(t *testing.T) {
	for _, tc := range []struct{ ruleset, difficulty, empty string }{{"classic", "", "0"}, {"cellular", "mid", "."}} {
		t.Run(tc.ruleset, func(t *testing.T) {
			b := bridge.New()
			defer b.Close()
			v := ok(t, b.NewGame(bridge.Options{Ruleset: tc.ruleset, Difficulty: tc.difficulty, Seed: "42"}, nil))
			c, err := config.Build(config.BuildOptions{Ruleset: tc.ruleset, Difficulty: tc.difficulty})
			if err != nil {
				t.Fatal(err)
			}
			s, err := session.New(session.Setup{Config: c}, session.Start{Seed: 42})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if got, want := rowsOf(v, tc.empty), sessionRows(s); got != want {
				t.Fatalf("start:\n%s\nwant\n%s", got, want)
			}
			dirs := []string{"left", "up", "right", "down"}
			for i := 0; i < 60; i++ {
				v = ok(t, b.Move(dirs[i*7%4]))
				res, err := s.Move(engine.Directions[[]int{0, 2, 1, 3}[i*7%4]])
				if err != nil {
					t.Fatal(err)
				}
				if got, want := rowsOf(v, tc.empty), sessionRows(s); got != want {
					t.Fatalf("move %d:\n%s\nwant\n%s", i, got, want)
				}
				if v.Score != engine.FormatScore(s.Rules(), s.Score()) || v.Changed != res.Changed {
					t.Fatalf("move %d: score %s changed %v, want %s %v", i, v.Score, v.Changed, s.Score(), res.Changed)
				}
				if res.Changed && (v.Motions == nil || len(v.Motions.Moves) == 0) {
					t.Fatalf("move %d changed the board without motions", i)
				}
				if v.Status == "lost" {
					break
				}
			}
		})
	}
}

// TestMotionsAndSpawns: a merge's motions and the spawn of a scripted
// game.
func TestMotionsAndSpawns(t *testing.T) {
	b := bridge.New()
	o := bridge.Options{Board: []string{"2 2 0 0", "4 0 0 0", "0 0 0 0", "0 0 0 0"}, Spawns: []string{"{1,1,2}"}, Scripted: true}
	key := ok(t, b.NewGame(o, nil)).Key
	v := ok(t, b.NewGame(o, map[string]string{key: "10", "other": "99"}))
	if v.Best != "10" || v.Score != "0" {
		t.Fatalf("score %s best %s, want 0 and 10", v.Score, v.Best)
	}
	// A move that changes nothing: no motions, no error.
	v = ok(t, b.Move("up"))
	if v.Changed || v.Motions != nil || v.Gained != "" {
		t.Fatalf("a no-op move changed %v with motions %v", v.Changed, v.Motions)
	}
	v = ok(t, b.Move("left"))
	if got := rowsOf(v, "0"); got != "4 0 0 0\n4 2 0 0\n0 0 0 0\n0 0 0 0" {
		t.Fatalf("board\n%s", got)
	}
	want := &bridge.Motions{
		Moves:  []bridge.Motion{{From: bridge.Pos{0, 0}, To: bridge.Pos{0, 0}}, {From: bridge.Pos{0, 1}, To: bridge.Pos{0, 0}}, {From: bridge.Pos{1, 0}, To: bridge.Pos{1, 0}}},
		Merged: []bridge.Merge{{Into: bridge.Pos{0, 0}, From: [2]bridge.Pos{{0, 0}, {0, 1}}}},
	}
	if g, w := fmt.Sprint(v.Motions), fmt.Sprint(want); g != w {
		t.Fatalf("motions %s, want %s", g, w)
	}
	if len(v.Spawns) != 1 || v.Spawns[0].At != (bridge.Pos{1, 1}) || v.Spawns[0].Cell != "2" {
		t.Fatalf("spawns %+v", v.Spawns)
	}
	if v.Gained != "4" || v.Score != "4" || v.Best != "10" || v.Undo != 1 {
		t.Fatalf("gained %s score %s best %s undo %d", v.Gained, v.Score, v.Best, v.Undo)
	}
	v = ok(t, b.Undo())
	if got := rowsOf(v, "0"); got != "2 2 0 0\n4 0 0 0\n0 0 0 0\n0 0 0 0" || v.Redo != 1 {
		t.Fatalf("after undo\n%s redo %d", got, v.Redo)
	}
	v = ok(t, b.Redo())
	if v.Score != "4" {
		t.Fatalf("after redo score %s", v.Score)
	}
	if r := b.Redo(); r.Error == nil || r.Error.Kind != bridge.KindGame {
		t.Fatalf("redo with nothing to redo: %+v", r)
	}
}

// TestSaveResume: a save resumes the same game under the same options, and
// is refused under others and when damaged.
func TestSaveResume(t *testing.T) {
	b := bridge.New()
	o := bridge.Options{Ruleset: "classic", Seed: "7", Sets: []string{"size=5"}}
	ok(t, b.NewGame(o, nil))
	for _, d := range []string{"left", "up", "right"} {
		ok(t, b.Move(d))
	}
	before := ok(t, b.View())
	save := b.Save().Save
	if save == "" {
		t.Fatal("empty save")
	}
	c := bridge.New()
	after := ok(t, c.Resume(o, save, map[string]string{before.Key: before.Best}))
	if rowsOf(after, "0") != rowsOf(before, "0") || after.Score != before.Score || after.Key != before.Key || after.Seed != "7" {
		t.Fatalf("resumed\n%s\n%+v\nwant\n%s\n%+v", rowsOf(after, "0"), after, rowsOf(before, "0"), before)
	}
	for name, tc := range map[string]struct {
		o    bridge.Options
		save string
	}{
		"damaged":     {o, save[:len(save)/2]},
		"not json":    {o, "hello"},
		"other setup": {bridge.Options{Ruleset: "classic"}, save},
	} {
		r := c.Resume(tc.o, tc.save, nil)
		if r.Error == nil || r.Error.Kind != bridge.KindSave {
			t.Errorf("%s: %+v, want a save error", name, r.Error)
		}
	}
	// The failed resumes kept the game.
	if v := ok(t, c.View()); rowsOf(v, "0") != rowsOf(before, "0") {
		t.Fatal("a failed resume changed the game")
	}
}

// TestConfigErrors: a pasted TOML's errors name its line and key.
func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		o          bridge.Options
		line       int
		key, inMsg string
	}{
		{bridge.Options{TOML: "size = 4\nwin_value = 3\n"}, 2, "win_value", "win_value"},
		{bridge.Options{TOML: "size = 4\n\nsize = 5\n"}, 3, "", "size"},
		{bridge.Options{TOML: "sise = 4\n"}, 1, "sise", "unknown key"},
		{bridge.Options{TOML: "size = \"big\"\n"}, 1, "size", "want"},
		{bridge.Options{Ruleset: "cellular", TOML: "ruleset = \"classic\"\n"}, 1, "ruleset", "cellular"},
		{bridge.Options{Difficulty: "hard"}, 0, "preset", "unknown preset"},
		{bridge.Options{Sets: []string{"size=99"}}, 0, "size", "size"},
	} {
		r := bridge.New().NewGame(tc.o, nil)
		e := r.Error
		if e == nil || e.Kind != bridge.KindConfig || e.Line != tc.line || (tc.key != "" && e.Key != tc.key) || !strings.Contains(e.Message, tc.inMsg) {
			t.Errorf("%+v: error %+v, want config line %d key %q message with %q", tc.o, e, tc.line, tc.key, tc.inMsg)
		}
	}
	v := ok(t, bridge.New().NewGame(bridge.Options{TOML: "size = 3\nwin_value = 64\n", Seed: "1"}, nil))
	if v.Width != 3 || v.WinValue != "64" {
		t.Fatalf("custom TOML: width %d win %s", v.Width, v.WinValue)
	}
}

func zipOf(t *testing.T, files map[string]string) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, src := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(src))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

const ownManifest = "id = \"mine\"\nname = \"Mine\"\nversion = \"0.1.0\"\napi_version = 2\n"

// TestMods: shipped mods, a player's mod by files and by zip, their
// hazards on the board, their errors as reports, and the mods that cannot
// load as errors of kind mod.
func TestMods(t *testing.T) {
	b := bridge.New()
	v := ok(t, b.NewGame(bridge.Options{Mods: []bridge.ModSource{{Builtin: "freeze"}}, ModSets: []string{"freeze.interval=1"}, Seed: "3"}, nil))
	if len(v.Mods) != 1 || v.Mods[0].ID != "freeze" || len(v.Hazards) != 1 || v.Hazards[0].Glyph != "*" {
		t.Fatalf("mods %+v hazards %+v", v.Mods, v.Hazards)
	}
	v = ok(t, b.Move(v.Legal[0]))
	if len(v.Marks) != 1 || v.Marks[0].Name != "freeze:ice" || v.Marks[0].Glyph != "*" || v.Marks[0].Color != "cyan" {
		t.Fatalf("marks %+v", v.Marks)
	}
	plain := ok(t, bridge.New().NewGame(bridge.Options{Seed: "3"}, nil))
	if plain.Key == v.Key {
		t.Fatal("a modded setup has the key of the plain one")
	}

	failing := `game.on("tick", function() error("boom") end)`
	for name, src := range map[string]bridge.ModSource{
		"files":        {Name: "mine", Files: map[string]string{"mine/mod.toml": ownManifest, "mine/main.lua": failing}},
		"zip":          {Name: "mine.zip", Zip: zipOf(t, map[string]string{"mod.toml": ownManifest, "main.lua": failing})},
		"zip a folder": {Name: "mine.zip", Zip: zipOf(t, map[string]string{"mine/mod.toml": ownManifest, "mine/main.lua": failing})},
	} {
		b := bridge.New()
		v := ok(t, b.NewGame(bridge.Options{Mods: []bridge.ModSource{src}, Seed: "1"}, nil))
		v = ok(t, b.Move(v.Legal[0]))
		if len(v.Reports) != 1 || !strings.Contains(v.Reports[0].Message, "boom") || v.Reports[0].Mod != "mine" {
			t.Errorf("%s: reports %+v", name, v.Reports)
		}
		if !v.Changed {
			t.Errorf("%s: the failing mod stopped the move", name)
		}
	}

	for name, tc := range map[string]struct {
		o    bridge.Options
		want string
	}{
		"unknown builtin": {bridge.Options{Mods: []bridge.ModSource{{Builtin: "nope"}}}, "no shipped mod"},
		"two sources":     {bridge.Options{Mods: []bridge.ModSource{{Builtin: "freeze", Zip: "x"}}}, "one of"},
		"no manifest":     {bridge.Options{Mods: []bridge.ModSource{{Files: map[string]string{"main.lua": ""}}}}, "no mod.toml"},
		"bad manifest":    {bridge.Options{Mods: []bridge.ModSource{{Name: "m", Files: map[string]string{"mod.toml": ownManifest + "x = 1\n", "main.lua": ""}}}}, "m/mod.toml:5:1: x: unknown key"},
		"escaping path":   {bridge.Options{Mods: []bridge.ModSource{{Files: map[string]string{"../mod.toml": ""}}}}, "not a path"},
		"not a zip":       {bridge.Options{Mods: []bridge.ModSource{{Zip: "aGVsbG8="}}}, "not a zip"},
		"zip escape":      {bridge.Options{Mods: []bridge.ModSource{{Zip: zipOf(t, map[string]string{"../mod.toml": ownManifest})}}}, "outside"},
		"lua error":       {bridge.Options{Mods: []bridge.ModSource{{Files: map[string]string{"mod.toml": ownManifest, "main.lua": "error('at load')"}}}}, "at load"},
		"wrong ruleset":   {bridge.Options{Ruleset: "cellular", Mods: []bridge.ModSource{{Builtin: "freeze"}}}, "classic"},
		"bad setting":     {bridge.Options{Mods: []bridge.ModSource{{Builtin: "freeze"}}, ModSets: []string{"freeze.interval=0"}}, "below the minimum"},
		"setting no mod":  {bridge.Options{ModSets: []string{"freeze.interval=2"}}, "no mod freeze"},
	} {
		r := bridge.New().NewGame(tc.o, nil)
		if r.Error == nil || r.Error.Kind != bridge.KindMod || !strings.Contains(r.Error.Message, tc.want) {
			t.Errorf("%s: %+v, want a mod error with %q", name, r.Error, tc.want)
		}
	}
}

// TestRunawayMod: a player's mod whose tick handler doubles a string 40
// times ended the whole Go runtime in the browser ("fatal error: out of
// memory"): no failsafe runs during a call under WebAssembly. The bytes a
// concatenation makes are charged to the instruction budget, so the move
// returns the mod's report of its budget, natively and under wasm
// (TestUnderWasm), and the bridge plays on.
func TestRunawayMod(t *testing.T) {
	b := bridge.New()
	runaway := "game.on(\"tick\", function()\n  local s = 'x' for i = 1, 40 do s = s .. s end\nend)\n"
	src := bridge.ModSource{Name: "mine", Files: map[string]string{"mine/mod.toml": ownManifest, "mine/main.lua": runaway}}
	v := ok(t, b.NewGame(bridge.Options{Mods: []bridge.ModSource{src}, Seed: "1"}, nil))
	// One mod: the game's turn is all its own, and the least of its budgets.
	want := fmt.Sprintf("exceeded its instruction budget (%d a turn)", scripting.DefaultLimits().GameTurnInstructions)
	for turn := 1; turn <= 2; turn++ {
		v = ok(t, b.Move(v.Legal[0]))
		if len(v.Reports) != 1 || v.Reports[0].Mod != "mine" || v.Reports[0].Message != want || v.Reports[0].File != "main.lua" || v.Reports[0].Line != 2 {
			t.Fatalf("turn %d: reports %+v, want the mod's instruction budget at main.lua:2", turn, v.Reports)
		}
		if !v.Changed || v.Undo != turn {
			t.Fatalf("turn %d: the move did not go on (changed %v, %d to undo)", turn, v.Changed, v.Undo)
		}
	}
	// The third failure in a row disables the mod; the bridge plays on.
	v = ok(t, b.Move(v.Legal[0]))
	if len(v.Reports) != 1 || !v.Reports[0].Disabled || !v.Changed {
		t.Fatalf("turn 3: reports %+v, changed %v: want the mod disabled and the move played", v.Reports, v.Changed)
	}
	v = ok(t, b.Move(v.Legal[0]))
	if len(v.Reports) != 0 || !v.Changed {
		t.Fatalf("turn 4: reports %+v, changed %v: want a plain move", v.Reports, v.Changed)
	}
}

// TestRefusal: a move a mod refuses is a notice, and the game goes on.
func TestRefusal(t *testing.T) {
	b := bridge.New()
	v := ok(t, b.NewGame(bridge.Options{Mods: []bridge.ModSource{{Builtin: "one_way"}}, Board: []string{"2 0 0 0", "0 0 0 0", "0 0 0 0", "0 0 0 0"}, Spawns: []string{"3,3,2"}, Scripted: true}, nil))
	for _, d := range v.Legal {
		if d == "down" {
			t.Fatalf("legal %v has the refused direction", v.Legal)
		}
	}
	v = ok(t, b.Move("down"))
	if v.Changed || !strings.Contains(v.Notice, "refused") {
		t.Fatalf("refused move: changed %v notice %q", v.Changed, v.Notice)
	}
}

// TestWinAndLose: a given board reaches the win and the loss.
func TestWinAndLose(t *testing.T) {
	b := bridge.New()
	v := ok(t, b.NewGame(bridge.Options{Board: []string{"1024 1024 0 0", "0 0 0 0", "0 0 0 0", "0 0 0 0"}, Spawns: []string{"3,3,2"}, Scripted: true}, nil))
	v = ok(t, b.Move("left"))
	if v.Status != "won" {
		t.Fatalf("status %s, want won", v.Status)
	}
	v = ok(t, b.KeepPlaying())
	if v.Status != "continuing" {
		t.Fatalf("status %s, want continuing", v.Status)
	}
	v = ok(t, b.NewGame(bridge.Options{Board: []string{"2 4 2 4", "4 2 4 2", "2 4 2 4", "4 2 8 8"}, Spawns: []string{"3,3,2"}, Scripted: true}, nil))
	v = ok(t, b.Move("left"))
	if v.Status != "lost" || len(v.Legal) != 0 {
		t.Fatalf("status %s legal %v, want lost", v.Status, v.Legal)
	}
}

// TestInputErrors: what a page could send wrong is an error value.
func TestInputErrors(t *testing.T) {
	b := bridge.New()
	if r := b.Move("left"); r.Error == nil {
		t.Fatal("a move without a game succeeded")
	}
	for name, o := range map[string]bridge.Options{
		"seed":      {Seed: "-1"},
		"board":     {Board: []string{"2 2"}},
		"cell":      {Board: []string{"3 0 0 0", "0 0 0 0", "0 0 0 0", "0 0 0 0"}},
		"spawn":     {Spawns: []string{"1,2"}},
		"spawn row": {Spawns: []string{"a,2,2"}},
	} {
		if r := b.NewGame(o, nil); r.Error == nil || r.Error.Kind != bridge.KindInput {
			t.Errorf("%s: %+v, want an input error", name, r.Error)
		}
	}
	ok(t, b.NewGame(bridge.Options{Seed: "1"}, map[string]string{"x": "not a score"}))
	key := ok(t, b.View()).Key
	if v := ok(t, b.NewGame(bridge.Options{Seed: "1"}, map[string]string{key: "not a score"})); v.Best != "0" {
		t.Fatalf("a bad best score gave %s", v.Best)
	}
	if r := b.Move("sideways"); r.Error == nil || r.Error.Kind != bridge.KindInput {
		t.Fatalf("a bad direction: %+v", r.Error)
	}
}

// TestDispatch: the JSON calls, as the page makes them.
func TestDispatch(t *testing.T) {
	b := bridge.New()
	call := func(name, args string) bridge.Reply {
		t.Helper()
		var r bridge.Reply
		if err := json.Unmarshal(b.Dispatch(name, []byte(args)), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	r := call("catalog", "")
	if r.Catalog == nil || len(r.Catalog.Presets) < 4 || len(r.Catalog.Mods) < 4 || len(r.Catalog.Rulesets) != 2 {
		t.Fatalf("catalog %+v", r.Catalog)
	}
	ok(t, call("newGame", `[{"ruleset":"classic","seed":"5"}]`))
	ok(t, call("move", `["up"]`))
	if r := call("save", "[]"); r.Save == "" {
		t.Fatal("no save")
	}
	for _, c := range []struct{ name, args string }{
		{"fly", "[]"}, {"move", "{"}, {"move", "[]"}, {"move", "[1]"}, {"move", `["up","down"]`}, {"newGame", `[{"seed":5}]`}, {"resume", `[{}]`},
	} {
		if r := call(c.name, c.args); r.Error == nil || r.Error.Kind != bridge.KindInput {
			t.Errorf("%s %s: %+v, want an input error", c.name, c.args, r.Error)
		}
	}
}

// TestDispatchNeverPanics: any sequence of calls with any arguments gives
// a reply, never a panic, and the game stays playable.
func TestDispatchNeverPanics(t *testing.T) {
	names := append(bridge.Calls(), "nope")
	rapid.Check(t, func(t *rapid.T) {
		b := bridge.New()
		defer b.Close()
		b.Dispatch("newGame", []byte(`[{"seed":"1","sets":["size=3"]}]`))
		for i := 0; i < rapid.IntRange(1, 20).Draw(t, "calls"); i++ {
			name := rapid.SampledFrom(names).Draw(t, "name")
			args := rapid.SampledFrom([]string{"", "[]", "null", `["left"]`, `["down"]`, `[{"ruleset":"cellular","seed":"2"}]`, `[{"board":["2 2 2","0 0 0","0 0 0"],"scripted":true}]`, `[{}, "garbage"]`, `[[1,2]]`, "[\"\xff\"]"}).Draw(t, "args")
			out := b.Dispatch(name, []byte(args))
			var r bridge.Reply
			if err := json.Unmarshal(out, &r); err != nil {
				t.Fatalf("%s %s: reply %s is not JSON: %v", name, args, out, err)
			}
		}
	})
}

// TestResumeEmptySaves: the null and empty variants of a save (of the
// whole, or of one of its parts) are refused as damaged, and the bridge
// keeps its game, as the terminal's save checks refuse them.
func TestResumeEmptySaves(t *testing.T) {
	b := bridge.New()
	o := bridge.Options{Ruleset: "classic", Seed: "7"}
	ok(t, b.NewGame(o, nil))
	ok(t, b.Move("left"))
	save := b.Save().Save
	var doc map[string]json.RawMessage
	if err := json.Unmarshal([]byte(save), &doc); err != nil {
		t.Fatal(err)
	}
	empties := []string{"null", "{}", `""`, "[]", "0", "false"}
	saves := map[string]string{}
	for _, e := range empties {
		saves[e] = e
		saves[`{"game":`+e+`}`] = `{"game":` + e + `}`
	}
	saves["empty text"] = ""
	saves["spaces"] = "  \n"
	for _, part := range []string{"format", "version", "ruleset", "rules", "options", "state", "queue", "history", "future"} {
		for _, e := range append(empties, "missing") {
			d := maps.Clone(doc)
			if e == "missing" {
				delete(d, part)
			} else {
				d[part] = json.RawMessage(e)
			}
			// A list part may be an empty list, a game's rules never.
			if e == "[]" && (part == "queue" || part == "history" || part == "future") {
				continue
			}
			if (e == "0" || e == "false") && (part == "queue" || part == "history" || part == "future") {
				continue // the engine's own type check refuses these
			}
			data, _ := json.Marshal(d)
			saves[part+"="+e] = string(data)
		}
	}
	for _, inner := range []string{"rules", "options", "state"} {
		var m map[string]json.RawMessage
		json.Unmarshal(doc[inner], &m)
		for k := range m {
			mm := maps.Clone(m)
			mm[k] = json.RawMessage("null")
			d := maps.Clone(doc)
			d[inner], _ = json.Marshal(mm)
			data, _ := json.Marshal(d)
			saves[inner+"."+k+"=null"] = string(data)
		}
	}
	if len(saves) < 40 {
		t.Fatalf("only %d variants", len(saves))
	}
	c := bridge.New()
	ok(t, c.Resume(o, save, nil))
	before := ok(t, c.View())
	for name, s := range saves {
		r := c.Resume(o, s, nil)
		if r.Error == nil || r.Error.Kind != bridge.KindSave {
			t.Errorf("%s: %+v, want a save error", name, r.Error)
		}
	}
	if v := ok(t, c.View()); rowsOf(v, "0") != rowsOf(before, "0") {
		t.Fatal("a refused save changed the game")
	}
}

// TestInspectMod: a player's mod is described by its manifest (its name,
// not its zip's or folder's), and one that cannot load is a mod error.
func TestInspectMod(t *testing.T) {
	r := bridge.InspectMod(bridge.ModSource{Name: "mine.zip", Zip: zipOf(t, map[string]string{"mine/mod.toml": ownManifest, "mine/main.lua": ""})})
	if r.Error != nil || r.Mod == nil || r.Mod.ID != "mine" || r.Mod.Name == "" || r.Mod.Name == "mine.zip" {
		t.Fatalf("inspect: %+v %+v", r.Error, r.Mod)
	}
	r = bridge.InspectMod(bridge.ModSource{Builtin: "freeze"})
	if r.Error != nil || r.Mod.Name != "Freeze" || len(r.Mod.Settings) == 0 {
		t.Fatalf("inspect freeze: %+v %+v", r.Error, r.Mod)
	}
	r = bridge.InspectMod(bridge.ModSource{Name: "m", Files: map[string]string{"mod.toml": ownManifest + "x = 1\n"}})
	if r.Error == nil || r.Error.Kind != bridge.KindMod || !strings.Contains(r.Error.Message, "m/mod.toml:5") {
		t.Fatalf("a bad manifest: %+v", r.Error)
	}
	var out bridge.Reply
	if err := json.Unmarshal(bridge.New().Dispatch("inspectMod", []byte(`[{"builtin":"ghost"}]`)), &out); err != nil || out.Mod == nil || out.Mod.ID != "ghost" {
		t.Fatalf("dispatch inspectMod: %v %+v", err, out)
	}
}

// TestNoticesAndCounters: a mod's game.notify reaches the view once, with
// the mod's name, and a hazard with a counter shows its number as the
// mark's glyph (the bomb's fuse).
func TestNoticesAndCounters(t *testing.T) {
	b := bridge.New()
	defer b.Close()
	v := ok(t, b.NewGame(bridge.Options{Mods: []bridge.ModSource{{Builtin: "bomb"}}, ModSets: []string{"bomb.interval=1", "bomb.fuse=2"}, Seed: "5"}, nil))
	if len(v.Hazards) != 1 || v.Hazards[0].Counter != "turns" {
		t.Fatalf("hazards %+v", v.Hazards)
	}
	fuse, notices := false, 0
	for i := 0; i < 12 && v.Status == "playing"; i++ {
		v = ok(t, b.Move(v.Legal[i%len(v.Legal)]))
		for _, m := range v.Marks {
			if m.Name == "bomb:fuse" {
				fuse = true
				if m.Glyph != strconv.Itoa(m.Turns) || m.Turns < 1 || m.Turns > 2 {
					t.Errorf("a fuse with %d turns left shows %q", m.Turns, m.Glyph)
				}
			}
		}
		for _, n := range v.Notices {
			notices++
			if n.Mod != "bomb" || n.Name != "Bomb" || !strings.HasPrefix(n.Text, "A bomb went off at row ") {
				t.Errorf("notice %+v", n)
			}
		}
	}
	if !fuse || notices == 0 {
		t.Fatalf("no fuse shown (%v) or no notice (%d) in 12 moves", fuse, notices)
	}
	if again := ok(t, b.View()); len(again.Notices) != 0 {
		t.Errorf("the notices came twice: %+v", again.Notices)
	}
}

// settingsManifest declares a setting of each type a manifest knows.
const settingsManifest = ownManifest + `
[settings.count]
type = "int"
default = 3
min = 1
max = 9
description = "How many."

[settings.rate]
type = "number"
default = 1
min = 0
max = 2.5
description = "How fast."

[settings.loud]
type = "bool"
default = false
description = "Whether it shouts."

[settings.word]
type = "string"
default = "hello"
description = "What it says."

[settings.way]
type = "choice"
choices = ["up", "down"]
default = "down"
description = "Which way."
`

// TestModSettingsListed: the settings panel's list of a mod's settings
// comes from its manifest: each setting's type, default, bounds and
// description, sorted by name, for a player's mod and a shipped one.
func TestModSettingsListed(t *testing.T) {
	r := bridge.InspectMod(bridge.ModSource{Name: "mine", Files: map[string]string{"mod.toml": settingsManifest, "main.lua": ""}})
	if r.Error != nil {
		t.Fatal(r.Error)
	}
	f := func(x float64) *float64 { return &x }
	want := []bridge.SettingInfo{
		{Name: "count", Type: "int", Default: "3", Min: f(1), Max: f(9), Description: "How many."},
		{Name: "loud", Type: "bool", Default: "false", Description: "Whether it shouts."},
		{Name: "rate", Type: "number", Default: "1", Min: f(0), Max: f(2.5), Description: "How fast."},
		{Name: "way", Type: "choice", Default: "down", Choices: []string{"up", "down"}, Description: "Which way."},
		{Name: "word", Type: "string", Default: "hello", Description: "What it says."},
	}
	got, _ := json.Marshal(r.Mod.Settings)
	wantJSON, _ := json.Marshal(want)
	if string(got) != string(wantJSON) {
		t.Errorf("settings\n%s\nwant\n%s", got, wantJSON)
	}
	c := bridge.ListCatalog().Catalog
	for _, m := range c.Mods {
		if m.ID != "bomb" {
			continue
		}
		got, _ := json.Marshal(m.Settings)
		const want = `[{"name":"fuse","type":"int","default":"5","min":1,"max":9,"description":"Turns a bomb's fuse burns before it explodes; the tile shows the turns left."},{"name":"interval","type":"int","default":"6","min":1,"max":100,"description":"Turns between two bombs."}]`
		if string(got) != want {
			t.Errorf("bomb's settings in the catalog\n%s\nwant\n%s", got, want)
		}
		return
	}
	t.Fatal("no bomb in the catalog")
}

// TestModSettingsApplied: a mod's settings (Options.ModSets, as the
// panel sends them) start the game with them, and are part of the setup
// key, so that the page keeps separate saves and bests for them; the same
// settings however written give the same key, and defaults the key of no
// settings.
func TestModSettingsApplied(t *testing.T) {
	bomb := []bridge.ModSource{{Builtin: "bomb"}}
	keyOf := func(sets ...string) string {
		b := bridge.New()
		defer b.Close()
		return ok(t, b.NewGame(bridge.Options{Mods: bomb, ModSets: sets, Seed: "5"}, nil)).Key
	}
	plain, one := keyOf(), keyOf("bomb.interval=1")
	if plain == one {
		t.Fatal("bomb with interval 1 has the key of bomb with its defaults")
	}
	if k := keyOf("bomb.interval=6", "bomb.fuse=5"); k != plain {
		t.Errorf("the defaults given: key %s, want the key of no settings %s", k, plain)
	}
	if k := keyOf("bomb.fuse=5", "bomb.interval=+1"); k != one {
		t.Errorf("interval +1 and the default fuse: key %s, want the key of interval=1 %s", k, one)
	}
	if a, b := keyOf("bomb.interval=2", "bomb.fuse=3"), keyOf("bomb.fuse=3", "bomb.interval=2"); a != b || a == plain || a == one {
		t.Errorf("the same settings in another order: keys %s and %s", a, b)
	}
	own := func(sets ...string) string {
		b := bridge.New()
		defer b.Close()
		src := bridge.ModSource{Name: "mine", Files: map[string]string{"mod.toml": settingsManifest, "main.lua": ""}}
		return ok(t, b.NewGame(bridge.Options{Mods: []bridge.ModSource{src}, ModSets: sets, Seed: "1"}, nil)).Key
	}
	if own("mine.rate=1.0", "mine.loud=false", `mine.word="hello"`) != own() || own("mine.rate=1.5") == own() || own("mine.word=bye") == own() || own("mine.loud=true") == own() {
		t.Error("the keys of a mod's number, bool and string settings do not follow their values")
	}

	// The game plays with the value: a bomb on the first move.
	b := bridge.New()
	defer b.Close()
	bests := map[string]string{plain: "7", one: "100"}
	v := ok(t, b.NewGame(bridge.Options{Mods: bomb, ModSets: []string{"bomb.interval=1"}, Seed: "5"}, bests))
	if v.Best != "100" {
		t.Errorf("best %s, want the best of its own key (100)", v.Best)
	}
	v = ok(t, b.Move(v.Legal[0]))
	if len(v.Marks) != 1 || v.Marks[0].Name != "bomb:fuse" || v.Marks[0].Turns != 5 {
		t.Fatalf("after a move with interval 1, marks %+v: want one bomb with the fuse's 5 turns", v.Marks)
	}
	d := bridge.New()
	defer d.Close()
	v = ok(t, d.NewGame(bridge.Options{Mods: bomb, Seed: "5"}, bests))
	if v.Best != "7" {
		t.Errorf("best %s with the defaults, want 7", v.Best)
	}
	if v = ok(t, d.Move(v.Legal[0])); len(v.Marks) != 0 {
		t.Errorf("with the defaults, a bomb on the first move: %+v", v.Marks)
	}
}

// TestModSettingRefused: a bad value is refused with the message the
// terminal's --mod-set gives (the mod's, from its manifest), and the
// bridge keeps the game it had, unchanged.
func TestModSettingRefused(t *testing.T) {
	b := bridge.New()
	defer b.Close()
	bomb := []bridge.ModSource{{Builtin: "bomb"}}
	v := ok(t, b.NewGame(bridge.Options{Mods: bomb, ModSets: []string{"bomb.interval=1"}, Seed: "5"}, nil))
	ok(t, b.Move(v.Legal[0]))
	before, _ := json.Marshal(ok(t, b.View()))
	for set, want := range map[string]string{
		"bomb.interval=0":    "mod bomb: setting interval: 0 is below the minimum 1",
		"bomb.interval=101":  "mod bomb: setting interval: 101 is above the maximum 100",
		"bomb.interval=2.5":  "mod bomb: setting interval: want an integer, got the float 2.5",
		"bomb.fuse=true":     "mod bomb: setting fuse: want an integer, got the boolean true",
		"bomb.interval=":     `mod bomb: setting interval: "" is not a value`,
		"bomb.range=2":       `mod bomb has no setting "range" (settings: fuse, interval)`,
		"freeze.interval=2":  `mod setting "freeze.interval=2": no mod freeze is loaded`,
		"bomb.interval=1=2":  "mod bomb: setting interval",
		"bomb.interval=1 ; ": "mod bomb: setting interval",
	} {
		var r bridge.Reply
		args, _ := json.Marshal([]any{bridge.Options{Mods: bomb, ModSets: []string{"bomb.fuse=2", set}, Seed: "9"}})
		if err := json.Unmarshal(b.Dispatch("newGame", args), &r); err != nil {
			t.Fatal(err)
		}
		if r.Error == nil || r.Error.Kind != bridge.KindMod || r.Error.Key != set || !strings.HasPrefix(r.Error.Message, want) {
			t.Errorf("%s: error %+v, want a mod error for it saying %q", set, r.Error, want)
		}
		if r.View != nil {
			t.Errorf("%s: a view with the error", set)
		}
		if after, _ := json.Marshal(ok(t, b.View())); string(after) != string(before) {
			t.Fatalf("%s: the game changed:\n%s\nwas\n%s", set, after, before)
		}
	}
}
