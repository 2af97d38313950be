package bridge_test

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/mod2048/mod2048/cmd/internal/web/bridge"
	"github.com/mod2048/mod2048/scripting/modapi"
)

// burnLua is a hazard that burns a tile after a countdown
// (testdata/burn.lua, which the browser tests type into the workshop).
var burnLua = func() string {
	data, err := os.ReadFile("../testdata/burn.lua")
	if err != nil {
		panic(err)
	}
	return string(data)
}()

// newMod is the files of a new mod id, as the workshop starts one.
func newMod(t *testing.T, id string) map[string]string {
	t.Helper()
	r := bridge.NewMod(id, "")
	if r.Error != nil {
		t.Fatal(r.Error)
	}
	return r.Files
}

func TestNewMod(t *testing.T) {
	files := newMod(t, "burn")
	for _, p := range []string{"mod.toml", "main.lua", "README.md", "burn.cases", ".luarc.json", ".luals/mod2048.lua"} {
		if files[p] == "" {
			t.Errorf("no %s", p)
		}
	}
	if !strings.Contains(files["mod.toml"], `id = "burn"`) {
		t.Errorf("mod.toml: %s", files["mod.toml"])
	}
	// The new mod's fixtures pass as written, as mod new's do: a case any
	// mod keeps, and one of the template's turn limit.
	r := bridge.RunCases(bridge.ModSource{Name: "burn", Files: files})
	if r.Error != nil || len(r.Cases) != 2 || !r.Cases[0].OK || !r.Cases[1].OK || r.Cases[0].ID != "BURN-1" || r.Cases[1].ID != "BURN-TEMPLATE" || r.Cases[0].File != "burn.cases" {
		t.Fatalf("the new mod's cases: %+v %+v", r.Cases, r.Error)
	}
	// Its code replaced, the first still passes; the template's case fails
	// and says it was recorded for the template's main.lua, at the line of
	// its failing assertion, the step named without another line.
	replaced := map[string]string{}
	for k, v := range files {
		replaced[k] = v
	}
	replaced["main.lua"] = "game.on(\"tick\", function(ev) end)\n"
	r = bridge.RunCases(bridge.ModSource{Name: "burn", Files: replaced})
	legal := 1 + strings.Count(files["burn.cases"][:strings.Index(files["burn.cases"], "Legal: none")], "\n")
	if len(r.Cases) != 2 || !r.Cases[0].OK || r.Cases[1].OK {
		t.Fatalf("the new mod's cases, its code replaced: %+v", r.Cases)
	}
	if c := r.Cases[1]; c.FailLine != legal || c.Step != "3 (Move: Left)" || c.Message != "Legal: expected none, actual Right Up Down" || c.Stale != "main.lua has changed" {
		t.Errorf("the template's case, its code replaced: line %d (want %d), step %q, %q, stale %q", c.FailLine, legal, c.Step, c.Message, c.Stale)
	}
	for _, bad := range [][2]string{{"Burn", ""}, {"", ""}, {"burn", "hex"}} {
		if r := bridge.NewMod(bad[0], bad[1]); r.Error == nil || r.Error.Kind != bridge.KindInput {
			t.Errorf("NewMod(%q, %q) = %+v, want an input error", bad[0], bad[1], r.Error)
		}
	}
	if files := newMod(t, "life"); !strings.Contains(files["mod.toml"], "classic") {
		t.Error("a new mod is classic unless asked")
	}
	if r := bridge.NewMod("life", "cellular"); r.Error != nil || !strings.Contains(r.Files["mod.toml"], `rulesets = ["cellular"]`) {
		t.Errorf("a cellular mod: %+v", r)
	}
}

// TestNewModCases: for both rulesets, the new mod's two cases pass as
// written; its code replaced, the case any mod keeps still passes, and the
// template's case fails saying that it was recorded for other code.
func TestNewModCases(t *testing.T) {
	for _, rs := range []string{"classic", "cellular"} {
		r := bridge.NewMod("my_mod", rs)
		if r.Error != nil {
			t.Fatal(r.Error)
		}
		res := bridge.RunCases(bridge.ModSource{Name: "my_mod", Files: r.Files})
		if len(res.Cases) != 2 || res.Cases[0].ID != "MY_MOD-1" || res.Cases[1].ID != "MY_MOD-TEMPLATE" || !strings.Contains(res.Cases[1].Title, "template") || !res.Cases[0].OK || !res.Cases[1].OK {
			t.Fatalf("%s: the new mod's cases: %+v", rs, res.Cases)
		}
		r.Files["main.lua"] = "game.on(\"tick\", function(ev) end)\n"
		res = bridge.RunCases(bridge.ModSource{Name: "my_mod", Files: r.Files})
		if !res.Cases[0].OK {
			t.Errorf("%s: the case any mod keeps fails on other code: %s", rs, res.Cases[0].Text)
		}
		if c := res.Cases[1]; c.OK || c.Stale != "main.lua has changed" {
			t.Errorf("%s: the template's case on other code: %+v", rs, c)
		}
	}
}

// TestReloadMods: a reload keeps the game where it is and runs the new
// code; a broken edit is refused at its file and line, the game keeping
// the last good code.
func TestReloadMods(t *testing.T) {
	files := newMod(t, "burn")
	b := bridge.New()
	defer b.Close()
	src := func() []bridge.ModSource { return []bridge.ModSource{{Name: "burn", Files: files}} }
	ok(t, b.NewGame(bridge.Options{Seed: "5", Mods: src(), Record: true}, nil))
	for _, d := range []string{"left", "up"} {
		ok(t, b.Move(d))
	}
	before := ok(t, b.View())
	files["main.lua"] = burnLua
	after := ok(t, b.ReloadMods(src(), nil))
	if rowsOf(after, "0") != rowsOf(before, "0") || after.Undo != before.Undo {
		t.Fatalf("the reload changed the game:\n%s\nturn %d, was\n%s\nturn %d", rowsOf(after, "0"), after.Undo, rowsOf(before, "0"), before.Undo)
	}
	// Turn 3 marks a tile; turn 6 burns it.
	var v *bridge.View
	burned := false
	for i := 0; i < 40 && !burned; i++ {
		v = ok(t, b.Move([]string{"right", "down", "left", "up"}[i%4]))
		for _, n := range v.Notices {
			burned = burned || n.Text == "a tile burned"
		}
	}
	if !burned {
		t.Fatal("no tile burned in 40 moves")
	}
	turn := v.Undo

	for _, c := range []struct {
		file, text string
		line       int
	}{
		{"main.lua", burnLua + "\ngame.on(\"tick\", function(ev)\n", strings.Count(burnLua, "\n") + 2}, // at EOF: the last line
		{"main.lua", "local x = 1\nerror('boom')\n", 2},
		{"mod.toml", files["mod.toml"] + "\nbogus = 1\n", strings.Count(files["mod.toml"], "\n") + 2},
		{"main.lua", "require('lib')\n", 1},
	} {
		broken := map[string]string{}
		for k, v := range files {
			broken[k] = v
		}
		broken[c.file] = c.text
		r := b.ReloadMods([]bridge.ModSource{{Name: "burn", Files: broken}}, nil)
		if r.Error == nil || r.Error.Kind != bridge.KindMod || r.Error.File != c.file || r.Error.Line != c.line {
			t.Errorf("broken %s: %+v, want a mod error at %s:%d", c.file, r.Error, c.file, c.line)
		}
	}
	// A required file's own error is located in it.
	broken := map[string]string{"mod.toml": files["mod.toml"], "main.lua": "require('lib')\n", "lib.lua": "\nx = = 1\n"}
	if r := b.ReloadMods([]bridge.ModSource{{Name: "burn", Files: broken}}, nil); r.Error == nil || r.Error.File != "lib.lua" || r.Error.Line != 2 {
		t.Errorf("an error in a required file: %+v", r.Error)
	}
	// The game goes on with the last good code.
	v = ok(t, b.View())
	if v.Undo != turn {
		t.Fatalf("a refused reload moved the game to turn %d from %d", v.Undo, turn)
	}
	if r := b.ReloadMods(nil, nil); r.Error == nil {
		t.Error("a reload with no mod")
	}
	// Its settings change as it runs.
	if r := b.ReloadMods(src(), []string{"burn.max_turns=0"}); r.Error != nil {
		t.Fatal(r.Error)
	}
	if r := b.ReloadMods(src(), []string{"burn.max_turns=-1"}); r.Error == nil {
		t.Error("a setting out of bounds reloads")
	}
}

// TestRecordCase: the game so far, recorded as a case, passes the fixture
// runner with the mod's files, also after edits during the game; a
// broken case fails at its line with the boards side by side.
func TestRecordCase(t *testing.T) {
	files := newMod(t, "burn")
	files["main.lua"] = burnLua
	b := bridge.New()
	defer b.Close()
	src := []bridge.ModSource{{Name: "burn", Files: files}}
	ok(t, b.NewGame(bridge.Options{Seed: "9", Mods: src, Record: true}, nil))
	for i := 0; i < 4; i++ {
		ok(t, b.Move([]string{"left", "down", "right", "up"}[i%4]))
	}
	// An edit mid-game: the fuse is two turns now.
	edited := map[string]string{}
	for k, v := range files {
		edited[k] = v
	}
	edited["main.lua"] = strings.Replace(burnLua, `"fire", 3)`, `"fire", 2)`, 1)
	ok(t, b.ReloadMods([]bridge.ModSource{{Name: "burn", Files: edited}}, nil))
	for i := 0; i < 8; i++ {
		ok(t, b.Move([]string{"left", "down", "right", "up"}[i%4]))
	}
	ok(t, b.Undo())
	r := b.RecordCase("BURN-2", "")
	if r.Error != nil {
		t.Fatal(r.Error)
	}
	if !strings.Contains(r.Text, "Case: BURN-2 written from play") || !strings.Contains(r.Text, "Mods: .") || !strings.Contains(r.Text, "Notice: burn: a tile burned") {
		t.Fatalf("the case:\n%s", r.Text)
	}
	edited["burn.cases"] = r.Text // the scaffold's case is of the scaffold's code
	res := bridge.RunCases(bridge.ModSource{Name: "burn", Files: edited})
	if len(res.Cases) != 1 || !res.Cases[0].OK {
		t.Fatalf("the recorded case fails: %+v", res.Cases)
	}
	// The same case against the first fuse fails, with its boards.
	edited["main.lua"] = burnLua
	res = bridge.RunCases(bridge.ModSource{Name: "burn", Files: edited})
	if len(res.Cases) != 1 || res.Cases[0].OK || res.Cases[0].FailLine == 0 || res.Cases[0].Step == "" || res.Cases[0].Text == "" {
		t.Fatalf("the recorded case passes with other code: %+v", res.Cases)
	}
	if f := res.Cases[0]; (f.Expect == nil) != (f.Actual == nil) || !strings.HasPrefix(f.Text, "burn.cases:") {
		t.Errorf("the failure: %+v", f)
	}
	// It names the code it was recorded for, and says that main.lua has
	// changed since: its .luals copy of the API is no code of the mod.
	if !regexp.MustCompile(`(?m)^# Recorded for: main\.lua@[0-9a-f]{12} mod\.toml@[0-9a-f]{12}$`).MatchString(r.Text) {
		t.Errorf("the case does not name its code:\n%s", r.Text)
	}
	if f := res.Cases[0]; f.Stale != "main.lua has changed" || !strings.Contains(f.Text, "This case was recorded for other code: main.lua has changed since.") {
		t.Errorf("the failure does not say the case was recorded for other code: %q\n%s", f.Stale, f.Text)
	}
	// A file that does not parse is one failure at its line.
	edited["more.cases"] = "Case: X-1\nMove: Sideways\n"
	res = bridge.RunCases(bridge.ModSource{Name: "burn", Files: edited})
	last := res.Cases[len(res.Cases)-1]
	if last.File != "more.cases" || last.OK || last.FailLine != 2 {
		t.Errorf("a file that does not parse: %+v", last)
	}
	// A game not recorded has no case.
	b2 := bridge.New()
	defer b2.Close()
	ok(t, b2.NewGame(bridge.Options{Seed: "9", Mods: src}, nil))
	if r := b2.RecordCase("X-1", ""); r.Error == nil {
		t.Error("a case from a game not recorded")
	}
	if r := b.RecordCase("two words", ""); r.Error == nil {
		t.Error("a case id of two words")
	}
}

// TestZipMod: the zip of a mod's files unpacks to the same files, loads
// as a player's mod, and refuses a mod that does not load.
func TestZipMod(t *testing.T) {
	files := newMod(t, "burn")
	files["main.lua"] = burnLua
	r := bridge.ZipMod(bridge.ModSource{Name: "burn", Files: files})
	if r.Error != nil {
		t.Fatal(r.Error)
	}
	data, err := base64.StdEncoding.DecodeString(r.Zip)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "burn/mod.toml") {
		t.Error("the zip's files are not in the folder burn")
	}
	// Each entry has a valid date (unzip -l shows 01-01-1980 00:00), the
	// same each time: the same files make the same zip.
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		if month := f.ModifiedDate >> 5 & 0xf; month < 1 || month > 12 || f.ModifiedDate&0x1f < 1 || !f.Modified.Equal(time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)) {
			t.Errorf("%s is dated %v (DOS date %#x)", f.Name, f.Modified, f.ModifiedDate)
		}
	}
	if again := bridge.ZipMod(bridge.ModSource{Name: "burn", Files: files}); again.Zip != r.Zip {
		t.Error("the same files make another zip")
	}
	u := bridge.UnpackMod(bridge.ModSource{Name: "burn.zip", Zip: r.Zip})
	if u.Error != nil || u.Name != "burn" || len(u.Files) != len(files) {
		t.Fatalf("unpacked: %+v", u)
	}
	for p, text := range files {
		if u.Files[p] != text {
			t.Errorf("%s differs after the round trip", p)
		}
	}
	b := bridge.New()
	defer b.Close()
	ok(t, b.NewGame(bridge.Options{Seed: "1", Mods: []bridge.ModSource{{Name: "burn.zip", Zip: r.Zip}}}, nil))
	files["main.lua"] = "error('no')"
	if r := bridge.ZipMod(bridge.ModSource{Name: "burn", Files: files}); r.Error == nil || r.Error.File != "main.lua" || r.Error.Line != 1 {
		t.Errorf("a zip of a mod that does not load: %+v", r.Error)
	}
	// A folder picked a level up unpacks to the mod's own files; one that
	// does not load keeps its manifest's id.
	u = bridge.UnpackMod(bridge.ModSource{Name: "picked", Files: map[string]string{"burn/mod.toml": files["mod.toml"], "burn/main.lua": files["main.lua"]}})
	if u.Error != nil || u.Name != "burn" || u.Files["main.lua"] != "error('no')" {
		t.Errorf("a picked folder: %+v", u)
	}
	if u := bridge.UnpackMod(bridge.ModSource{Name: "x", Zip: "AAAA"}); u.Error == nil {
		t.Error("a zip that is not one")
	}
}

func TestCompletionsCall(t *testing.T) {
	r := bridge.LuaCompletions()
	a := modapi.Spec()
	if r.Completions == nil || len(r.Completions.Members["game"]) != len(a.Functions)+len(a.Game.Fields) {
		t.Fatalf("%+v", r.Completions)
	}
}

func TestModLog(t *testing.T) {
	files := newMod(t, "counter")
	b := bridge.New()
	defer b.Close()
	if r := b.ModLog(); r.Error == nil {
		t.Error("a log with no game")
	}
	ok(t, b.NewGame(bridge.Options{Seed: "3", Mods: []bridge.ModSource{{Name: "counter", Files: files}}}, nil))
	for _, d := range []string{"left", "right", "up", "down"} {
		ok(t, b.Move(d))
	}
	r := b.ModLog()
	if r.Error != nil || len(r.Log["counter"]) == 0 || !strings.HasPrefix(r.Log["counter"][0], "turn 1: ") {
		t.Fatalf("the log: %+v", r)
	}
}

// TestRunCasesFiles: a case's Difficulty: file and Mods: folder are read
// from the mod's files, never from disk, and none outside them.
func TestRunCasesFiles(t *testing.T) {
	files := newMod(t, "small")
	files["small.toml"] = "size = 3\n"
	files["three.cases"] = "Case: S-1 a 3×3 board from the mod's file\nDifficulty: small.toml\nMods: .\nGiven:\n2 0 0\n0 0 0\n2 0 0\nSpawnScript: [{2,2,2}]\nMove: Up\nExpect:\n4 0 0\n0 0 0\n0 0 2\n"
	files["out.cases"] = "Case: O-1 a mod outside\nMods: ../bomb\nGiven:\n2 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n"
	files["disk.cases"] = "Case: D-1 a file on disk\nDifficulty: /etc/passwd\nGiven:\n2 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n"
	r := bridge.RunCases(bridge.ModSource{Name: "small", Files: files})
	got := map[string]bridge.CaseResult{}
	for _, c := range r.Cases {
		got[c.ID] = c
	}
	if c := got["S-1"]; !c.OK {
		t.Errorf("the 3×3 case: %+v", c)
	}
	// ../bomb would be a folder beside the mod's: outside its files.
	if c := got["O-1"]; c.OK || !strings.Contains(c.Message, "Mods: ../bomb lies outside the mod's files") {
		t.Errorf("a mod outside: %+v", c)
	}
	if c := got["D-1"]; c.OK || !strings.Contains(c.Message, "outside the mod's files") {
		t.Errorf("a file on disk: %+v", c)
	}
}

// TestZipRoundTrip: any mod's files, zipped by the workshop, unpack to the
// same files (a property over file sets: names, folders, contents).
func TestZipRoundTrip(t *testing.T) {
	manifest := "id = \"trip\"\nname = \"Trip\"\nversion = \"1.0.0\"\napi_version = 2\n"
	rapid.Check(t, func(t *rapid.T) {
		files := map[string]string{"mod.toml": manifest, "main.lua": "-- entry\n"}
		name := rapid.StringMatching(`[a-z][a-z0-9_]{0,6}(/[a-z][a-z0-9_]{0,6})?\.(lua|cases|md|txt)`)
		for _, p := range rapid.SliceOfN(name, 0, 6).Draw(t, "paths") {
			if p == "main.lua" {
				continue
			}
			files[p] = rapid.String().Draw(t, "content")
		}
		r := bridge.ZipMod(bridge.ModSource{Name: "whatever", Files: files})
		if r.Error != nil {
			t.Fatalf("zip: %v", r.Error)
		}
		u := bridge.UnpackMod(bridge.ModSource{Name: "trip.zip", Zip: r.Zip})
		if u.Error != nil || u.Name != "trip" || len(u.Files) != len(files) {
			t.Fatalf("unpacked %d files as %q (%v), zipped %d", len(u.Files), u.Name, u.Error, len(files))
		}
		for p, text := range files {
			if u.Files[p] != text {
				t.Fatalf("%s differs after the round trip", p)
			}
		}
	})
}

// TestRecordCaseAnyStart: a case is recorded from any game the page can
// start: a new game, a new game after an edit or a changed setting, a
// reload mid-game, and it passes the fixture runner as written.
func TestRecordCaseAnyStart(t *testing.T) {
	files := newMod(t, "burn")
	files["main.lua"] = burnLua
	src := []bridge.ModSource{{Name: "burn", Files: files}}
	dirs := []string{"left", "down", "right", "up"}
	edited := map[string]string{}
	for k, v := range files {
		edited[k] = v
	}
	edited["main.lua"] = strings.Replace(burnLua, `"fire", 3)`, `"fire", 2)`, 1)
	for _, tc := range []struct {
		name string
		play func(b *bridge.Bridge)
		last map[string]string // the mod's files at the end
	}{
		{"new game", func(b *bridge.Bridge) { ok(t, b.Restart("4")) }, files},
		{"two new games", func(b *bridge.Bridge) { ok(t, b.Restart("4")); ok(t, b.Move("left")); ok(t, b.Restart("5")) }, files},
		{"an edit, then a new game", func(b *bridge.Bridge) {
			ok(t, b.ReloadMods([]bridge.ModSource{{Name: "burn", Files: edited}}, nil))
			ok(t, b.Restart("6"))
		}, edited},
		{"a changed setting, then a new game", func(b *bridge.Bridge) {
			ok(t, b.ReloadMods(src, []string{"burn.max_turns=50"}))
			ok(t, b.Restart("7"))
		}, files},
		{"a new game, then an edit", func(b *bridge.Bridge) {
			ok(t, b.Restart("6"))
			ok(t, b.Move("up"))
			ok(t, b.ReloadMods([]bridge.ModSource{{Name: "burn", Files: edited}}, nil))
		}, edited},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := bridge.New()
			defer b.Close()
			ok(t, b.NewGame(bridge.Options{Seed: "9", Mods: src, Record: true}, nil))
			ok(t, b.Move("left"))
			tc.play(b)
			for i := 0; i < 6; i++ {
				ok(t, b.Move(dirs[i%4]))
			}
			r := b.RecordCase("BURN-2", "")
			if r.Error != nil {
				t.Fatal(r.Error)
			}
			with := map[string]string{}
			for k, v := range tc.last {
				with[k] = v
			}
			with["burn.cases"] = r.Text
			if strings.Contains(tc.name, "setting") && !strings.Contains(r.Text, "ModSet: burn.max_turns=50") {
				t.Errorf("the case has not the setting:\n%s", r.Text)
			}
			res := bridge.RunCases(bridge.ModSource{Name: "burn", Files: with})
			if len(res.Cases) != 1 || !res.Cases[0].OK {
				t.Fatalf("the recorded case fails: %+v\n%s", res.Cases, r.Text)
			}
		})
	}
}

// TestRecordCaseRefused: a move the mod as it stands refuses cannot be
// written, and the message says which move and what to do.
func TestRecordCaseRefused(t *testing.T) {
	files := newMod(t, "cap")
	src := []bridge.ModSource{{Name: "cap", Files: files}}
	b := bridge.New()
	defer b.Close()
	ok(t, b.NewGame(bridge.Options{Seed: "9", Mods: src, Record: true}, nil))
	ok(t, b.Restart("3"))
	for _, d := range []string{"left", "down"} {
		ok(t, b.Move(d))
	}
	ok(t, b.ReloadMods(src, []string{"cap.max_turns=1"}))
	r := b.RecordCase("CAP-2", "")
	if r.Error == nil || !strings.Contains(r.Error.Message, "move down cannot be played again under the mods as they stand") || !strings.Contains(r.Error.Message, "start a new game and record it again") {
		t.Fatalf("recording a move the mod now refuses: %+v", r.Error)
	}
}

// TestLoadErrorsLocated: each kind of load error reaches the page with its
// place as values (mod.FileError's, read without parsing text), and
// its message names the place once.
func TestLoadErrorsLocated(t *testing.T) {
	base := newMod(t, "cursed_row")
	for _, tt := range []struct {
		name       string
		file, text string
		want       bridge.Error // File, Line, Column, Key, What, OpenLine
		lib        string       // a lib.lua beside
	}{
		{"syntax", "main.lua", "local x = 1\nlocal y = = 2\n", bridge.Error{File: "main.lua", Line: 2, Column: 11, What: "syntax error near '='"}, ""},
		{"runtime at load", "main.lua", "\n\nerror('boom')\n", bridge.Error{File: "main.lua", Line: 3, What: "boom"}, ""},
		{"manifest", "mod.toml", base["mod.toml"] + "\n[settings.max_turns]\ntype = \"int\"\n", bridge.Error{File: "mod.toml", Line: 24, Column: 2, Key: "settings.max_turns", What: "defined twice (first on line 17)"}, ""},
		{"manifest key", "mod.toml", strings.Replace(base["mod.toml"], `rulesets = ["classic"]`, `rulesets = ["hex"]`, 1), bridge.Error{File: "mod.toml", Line: 9, Column: 13, Key: "rulesets", What: `unknown ruleset "hex" (classic, cellular)`}, ""},
		{"a required file's error", "main.lua", "require('lib')\n", bridge.Error{File: "lib.lua", Line: 2, Column: 7, What: "syntax error near '='"}, "\nlocal = 3\n"},
		{"at the end of the file", "main.lua", "if true then\n  local x = 1\n", bridge.Error{File: "main.lua", Line: 2, OpenLine: 1, What: "'end' expected (to close 'if' at line 1) at the end of the file"}, ""},
		{"a block left open", "main.lua", "local n = 0\nlocal function f()\n  return n\n  local m = n\nend\n", bridge.Error{File: "main.lua", Line: 4, Column: 3, OpenLine: 2, What: "'end' expected (to close 'function' at line 2) near 'local'"}, ""},
		{"an end too many", "main.lua", "local function f()\nend\nend\n", bridge.Error{File: "main.lua", Line: 3, Column: 1, What: "'<eof>' expected near 'end'"}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{}
			for k, v := range base {
				files[k] = v
			}
			files[tt.file] = tt.text
			if tt.lib != "" {
				files["lib.lua"] = tt.lib
			}
			src := bridge.ModSource{Name: "cursed_row", Files: files}
			for call, r := range map[string]bridge.Reply{
				"zipMod":  bridge.ZipMod(src),
				"newGame": bridge.New().NewGame(bridge.Options{Seed: "1", Mods: []bridge.ModSource{src}}, nil),
			} {
				e := r.Error
				if e == nil {
					t.Fatalf("%s: no error", call)
				}
				got := bridge.Error{File: e.File, Line: e.Line, Column: e.Column, Key: e.Key, What: e.What, OpenLine: e.OpenLine}
				if got != tt.want || e.Kind != bridge.KindMod {
					t.Errorf("%s: %q\n got %+v\nwant %+v", call, e.Message, got, tt.want)
				}
				if n := strings.Count(e.Message, fmt.Sprintf("%s:%d", tt.want.File, tt.want.Line)); n != 1 {
					t.Errorf("%s: %q names its place %d times", call, e.Message, n)
				}
			}
		})
	}
}

// TestRecordCaseLost: a game the mod ends by refusing every move is
// written Lost, as the fixture runner finds it (the template's mod, whose
// game ends after three turns).
func TestRecordCaseLost(t *testing.T) {
	files := newMod(t, "cap")
	b := bridge.New()
	defer b.Close()
	ok(t, b.NewGame(bridge.Options{Seed: "9", Mods: []bridge.ModSource{{Name: "cap", Files: files}}, Record: true}, nil))
	ok(t, b.Restart("4"))
	for _, d := range []string{"left", "down", "right"} {
		ok(t, b.Move(d))
	}
	r := b.RecordCase("CAP-2", "")
	if r.Error != nil || !strings.HasSuffix(strings.SplitAfter(r.Text, "Status: ")[3], "Lost\nMarks: none\nNotice: none\n") {
		t.Fatalf("the case: %v\n%s", r.Error, r.Text)
	}
	files["cap.cases"] += "\n" + r.Text
	if res := bridge.RunCases(bridge.ModSource{Name: "cap", Files: files}); len(res.Cases) != 3 || !res.Cases[2].OK {
		t.Fatalf("the recorded case fails: %+v", res.Cases)
	}
}
