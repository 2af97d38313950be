package replay_test

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
	"github.com/mod2048/mod2048/scripting/session/replay"
)

func repo(t testing.TB, rel string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", filepath.FromSlash(rel))
}

// copyMod copies a shipped mod to a folder of the test's, to edit.
func copyMod(t *testing.T, name string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dir, os.DirFS(repo(t, "mods/"+name))); err != nil {
		t.Fatal(err)
	}
	return dir
}

func writeMod(t *testing.T, id, lua string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), id)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := "id = \"" + id + "\"\nname = \"" + id + "\"\nversion = \"1.0.0\"\napi_version = 1\nrulesets = [\"classic\"]\n"
	if err := os.WriteFile(filepath.Join(dir, "mod.toml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.lua"), []byte(lua), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func load(t *testing.T, dir string, settings ...string) *mod.Mod {
	t.Helper()
	m, err := mod.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range settings {
		k, v, _ := strings.Cut(kv, "=")
		if err := m.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// play plays a game with undo, redo and a new game in it, recording.
func play(t *testing.T, setup session.Setup) *session.Session {
	t.Helper()
	s, err := session.New(setup, session.Start{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	if err := s.Record(); err != nil {
		t.Fatal(err)
	}
	dirs := []engine.Direction{engine.Left, engine.Down, engine.Right, engine.Up}
	for i := 0; i < 60; i++ {
		switch {
		case i == 20 || i == 21:
			if err := s.Undo(); err != nil {
				t.Fatal(err)
			}
		case i == 22:
			if err := s.Redo(); err != nil {
				t.Fatal(err)
			}
		case i == 40:
			if err := s.NewGame(99); err != nil {
				t.Fatal(err)
			}
		default:
			for _, d := range dirs {
				if s.Legal().Has(d) {
					if _, err := s.Move(d); err != nil {
						t.Fatal(err)
					}
					break
				}
			}
		}
	}
	return s
}

// TestRoundTrip: a recorded game with mods, undo, redo and a new game
// writes a replay that reads back the same and plays back as recorded.
func TestRoundTrip(t *testing.T) {
	c, err := config.Build(config.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	setup := session.Setup{Config: c, Mods: []*mod.Mod{
		load(t, repo(t, "mods/freeze"), "interval=3"),
		load(t, repo(t, "mods/overdrive"), "threshold=16"),
	}}
	s := play(t, setup)
	f, err := replay.New(s, replay.Meta{Program: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Actions) < 50 || f.Seed != 7 || len(f.Mods) != 2 || f.Mods[0].Settings["interval"] != "3" {
		t.Fatalf("replay: %d actions, seed %d, mods %+v", len(f.Actions), f.Seed, f.Mods)
	}
	path := filepath.Join(t.TempDir(), "game.replay")
	if err := f.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	back, err := replay.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	again, err := back.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != string(again) {
		t.Error("the replay does not read back as written")
	}
	setup2, warnings, err := back.Setup(nil)
	if err != nil || len(warnings) != 0 {
		t.Fatalf("setup: %v, warnings %q", err, warnings)
	}
	if err := back.Check(setup2); err != nil {
		t.Fatalf("check: %v", err)
	}
	// The replay ends where the game did.
	r, err := back.Resume(setup2)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for i := range back.Actions {
		if err := back.Apply(r, i); err != nil {
			t.Fatal(err)
		}
	}
	want, _ := s.Save()
	got, _ := r.Save()
	if string(want) != string(got) {
		t.Error("the replayed game's save differs from the recorded game's")
	}
}

// TestDivergence: a replay whose moves or mods no longer give the recorded
// game names the first action that differs; other mod files are said
// plainly.
func TestDivergence(t *testing.T) {
	c, _ := config.Build(config.BuildOptions{})
	dir := copyMod(t, "overdrive")
	setup := session.Setup{Config: c, Mods: []*mod.Mod{load(t, dir, "threshold=8")}}
	f, err := replay.New(play(t, setup), replay.Meta{Program: "test"})
	if err != nil {
		t.Fatal(err)
	}

	// A move changed in the file.
	edited := *f
	edited.Actions = append([]replay.Step(nil), f.Actions...)
	for i, a := range edited.Actions {
		if i >= 5 && a.Action == "move" {
			other := map[string]string{"left": "right", "right": "left", "up": "down", "down": "up"}[a.Dir]
			edited.Actions[i].Dir = other
			setup2, _, err := edited.Setup(nil)
			if err != nil {
				t.Fatal(err)
			}
			var d *replay.Divergence
			if err := edited.Check(setup2); !errors.As(err, &d) || d.Action != i+1 {
				t.Fatalf("a changed move %d: %v", i+1, err)
			}
			break
		}
	}

	// The mod's files changed, and the folder is given to try against the
	// replay (which carries the files it was recorded with): said plainly,
	// and the check fails where the game first goes otherwise, saying what
	// differs.
	main := filepath.Join(dir, "main.lua")
	src, _ := os.ReadFile(main)
	if err := os.WriteFile(main, []byte(strings.Replace(string(src), "result = result * 2", "result = result * 4", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if setup, warnings, err := f.Setup(nil); err != nil || len(warnings) != 0 || f.Check(setup) != nil {
		t.Fatalf("the replay's own copy of the mod: %v %q", err, warnings)
	}
	setup3, warnings, err := f.Setup(map[string]string{"overdrive": dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "its files differ from the ones the replay was recorded with") {
		t.Fatalf("warnings %q", warnings)
	}
	var d *replay.Divergence
	if err := f.Check(setup3); !errors.As(err, &d) {
		t.Fatalf("a changed mod: %v", err)
	}
	if !strings.Contains(d.What, "the board differs:") || !strings.Contains(d.What, "recorded") || !strings.Contains(d.What, "<- differs") || !strings.Contains(d.What, "the score is") {
		t.Errorf("the divergence does not show what differs: %s", d.What)
	}
}

// TestReplayCarriesItsMods: a replay holds its mods' files, and a reload
// in the middle of the game (a mod edited under --watch) is an action with
// the new files: the replay checks with the mod's folder gone.
func TestReplayCarriesItsMods(t *testing.T) {
	c, _ := config.Build(config.BuildOptions{})
	dir := writeMod(t, "counter", `game.on("tick", function(e) storage.n = (storage.n or 0) + 1 end)`)
	s, err := session.New(session.Setup{Config: c, Mods: []*mod.Mod{load(t, dir)}}, session.Start{Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Record(); err != nil {
		t.Fatal(err)
	}
	moves := func(ds ...engine.Direction) {
		for _, d := range ds {
			if s.Legal().Has(d) {
				if _, err := s.Move(d); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	moves(engine.Left, engine.Up, engine.Right)
	// The edit: the tick now doubles the count, and a tile goes.
	os.WriteFile(filepath.Join(dir, "main.lua"), []byte(`game.on("tick", function(e)
  storage.n = (storage.n or 0) * 2 + 1
  if game.cell(0, 0) ~= 0 then return { set = { { row = 0, col = 0, cell = 0 } } } end
end)`), 0o644)
	if err := s.Reload([]*mod.Mod{load(t, dir)}); err != nil {
		t.Fatal(err)
	}
	moves(engine.Down, engine.Left, engine.Up, engine.Right)
	f, err := replay.New(s, replay.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	reloads := 0
	for _, a := range f.Actions {
		if a.Action == "reload" {
			reloads++
			if len(a.Mods) != 1 || !strings.Contains(a.Mods[0].Files["main.lua"], "* 2 + 1") {
				t.Fatalf("the reload's mods: %+v", a.Mods)
			}
		}
	}
	if reloads != 1 || !strings.Contains(f.Mods[0].Files["main.lua"], "storage.n = (storage.n or 0) + 1") {
		t.Fatalf("%d reloads; the first mods %+v", reloads, f.Mods)
	}
	path := filepath.Join(t.TempDir(), "game.replay")
	if err := f.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	back, err := replay.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	setup, warnings, err := back.Setup(nil)
	if err != nil || len(warnings) != 0 {
		t.Fatalf("setup without the mod's folder: %v %q", err, warnings)
	}
	if err := back.Check(setup); err != nil {
		t.Fatalf("the replay does not check without the mod's folder: %v", err)
	}
}

// TestFailsafeHonoured: a failsafe stop is the recording's word: played
// back, the mod it stopped is stopped again without running, so the turn
// goes as recorded even where the failsafe would not fire.
func TestFailsafeHonoured(t *testing.T) {
	c, _ := config.Build(config.BuildOptions{})
	// On turn 3 the mod loops until a failsafe stops it: with budgets no
	// loop can spend (what a mod builds is metered too), the wall clock's.
	hog := writeMod(t, "hog", `
game.on("tick", function(e)
  storage.n = (storage.n or 0) + 1
  if e.turn == 3 then local n = 0 while true do n = n + 1 end end
end)`)
	limits := scripting.DefaultLimits()
	limits.HandlerInstructions, limits.TurnInstructions = 1<<62, 1<<62
	limits.GameTurnInstructions = 0 // no game-wide share either
	limits.FailsafeTime = 200 * time.Millisecond
	setup := session.Setup{Config: c, Mods: []*mod.Mod{load(t, hog)}, Limits: limits}
	s, err := session.New(setup, session.Start{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Record(); err != nil {
		t.Fatal(err)
	}
	for _, d := range []engine.Direction{engine.Left, engine.Right, engine.Left, engine.Right, engine.Left, engine.Up, engine.Down} {
		if s.Legal().Has(d) {
			if _, err := s.Move(d); err != nil {
				t.Fatal(err)
			}
		}
	}
	f, err := replay.New(s, replay.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	for _, a := range f.Actions {
		for _, fault := range a.Faults {
			stopped = stopped || (fault.Kind == "failsafe" && fault.Turn == 3)
		}
	}
	if !stopped {
		t.Fatalf("no failsafe stop recorded on turn 3: %+v", f.Actions)
	}
	// The mod as it is now would not be stopped: it only counts. Honouring
	// the record, turn 3 goes without it all the same.
	calm := writeMod(t, "hog", `game.on("tick", function(e) storage.n = (storage.n or 0) + 1 end)`)
	setup2, warnings, err := f.Setup(map[string]string{"hog": calm})
	if err != nil || len(warnings) != 1 {
		t.Fatalf("setup: %v %q", err, warnings)
	}
	setup2.Limits = limits
	if err := f.Check(setup2); err != nil {
		t.Fatalf("the failsafe stop was not honoured: %v", err)
	}
}

// TestParseErrors: a damaged replay is refused with what is wrong.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ data, want string }{
		{`{`, "not a replay"},
		{`{"format":"other","version":1,"start":{}}`, `format is "other"`},
		{`{"format":"2048-replay","version":9,"start":{}}`, "version 9"},
		{`{"format":"2048-replay","version":1}`, "no start"},
		{`{"format":"2048-replay","version":1,"start":{},"actions":[{"a":"jump"}]}`, `action 1: unknown action "jump"`},
		{`{"format":"2048-replay","version":1,"start":{},"actions":[{"a":"move","dir":"sideways"}]}`, "action 1:"},
		{`{"format":"2048-replay","version":1,"start":{},"actions":[{"a":"new"}]}`, "without its seed"},
		{`{"format":"2048-replay","version":1,"start":{},"bogus":1}`, "unknown field"},
		// Records no recording makes: edited files.
		{`{"format":"2048-replay","version":1,"start":{},"actions":[{"a":"move","dir":"left","turn":1}]}`, "damaged: action 1: no digest"},
		{`{"format":"2048-replay","version":1,"start":{},"actions":[{"a":"move","dir":"left","turn":1,"digest":"0123456789abcdef"},{"a":"undo","turn":0,"digest":""}]}`, "damaged: action 2: no digest"},
		{`{"format":"2048-replay","version":1,"start":{},"actions":[{"a":"move","dir":"left","turn":1,"digest":"xyz"}]}`, `damaged: action 1: digest "xyz"`},
		{`{"format":"2048-replay","version":1,"start":{},"actions":[{"a":"move","dir":"left","turn":1,"digest":"0123456789abcdef","faults":[{"turn":1,"mod":"ghost","event":"tick","kind":"failsafe","message":"x"}]}]}`, `damaged: action 1: a fault of mod "ghost", which is not among the replay's mods`},
		{`{"format":"2048-replay","version":1,"start":{},"mods":[{"id":"m","version":"1","hash":"","path":"m"}],"actions":[{"a":"move","dir":"left","turn":1,"digest":"0123456789abcdef","faults":[{"turn":7,"mod":"m","event":"tick","kind":"failsafe","message":"x"}]}]}`, "a fault of mod m on turn 7, the move's turn is 1"},
		{`{"format":"2048-replay","version":1,"start":{},"mods":[{"id":"m","version":"1","hash":"","path":"m"}],"actions":[{"a":"undo","turn":1,"digest":"0123456789abcdef","faults":[{"turn":1,"mod":"m","event":"tick","kind":"failsafe","message":"x"}]}]}`, `faults on action "undo"`},
	} {
		if _, err := replay.Parse([]byte(c.data)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.data, err, c.want)
		}
	}
}

// TestHashOwnFiles: a mod's hash is that of its manifest and Lua files:
// fixtures, documents and a screenshot of any size change nothing, and
// a Lua file too large to load counts by its size.
func TestHashOwnFiles(t *testing.T) {
	dir := copyMod(t, "bomb")
	hash := func() string {
		t.Helper()
		m, err := mod.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		h, err := replay.Hash(m)
		if err != nil {
			t.Fatalf("Hash: %v", err)
		}
		return h
	}
	before := hash()
	write := func(name string, size int) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("new.cases", 10)
	write("NOTES.md", 10)
	write("screenshot.png", 3<<20)
	if h := hash(); h != before {
		t.Errorf("a fixture, a document and a screenshot change the hash")
	}
	write("unused.lua", mod.MaxSource+1)
	over := hash()
	if over == before {
		t.Error("a new Lua file does not change the hash")
	}
	write("unused.lua", mod.MaxSource+2)
	if hash() == over {
		t.Error("a Lua file over the limit that changes size does not change the hash")
	}
	os.Remove(filepath.Join(dir, "unused.lua"))
	if err := os.WriteFile(filepath.Join(dir, "main.lua"), []byte("-- edited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if hash() == before {
		t.Error("an edited main.lua does not change the hash")
	}
}

// recordCounter records a short game with a counting mod and returns the
// replay, written and read back, and the mod's folder.
func recordCounter(t *testing.T) (*replay.File, string) {
	t.Helper()
	c, _ := config.Build(config.BuildOptions{})
	dir := writeMod(t, "counter", `game.on("tick", function(e) storage.n = (storage.n or 0) + 1 end)`)
	s, err := session.New(session.Setup{Config: c, Mods: []*mod.Mod{load(t, dir)}}, session.Start{Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Record(); err != nil {
		t.Fatal(err)
	}
	for _, d := range []engine.Direction{engine.Left, engine.Up, engine.Right, engine.Down} {
		if s.Legal().Has(d) {
			if _, err := s.Move(d); err != nil {
				t.Fatal(err)
			}
		}
	}
	f, err := replay.New(s, replay.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	return f, dir
}

// TestTamperedReplayRefused: files a replay carries that its own hash
// does not name (main.lua edited, the hash kept) make the replay damaged:
// Setup refuses it and nothing runs.
func TestTamperedReplayRefused(t *testing.T) {
	f, _ := recordCounter(t)
	f.Mods[0].Files["main.lua"] = `game.on("tick", function(e) storage.n = 99 end)`
	_, _, err := f.Setup(nil)
	if err == nil || !strings.Contains(err.Error(), "the replay is damaged: the files it carries of mod counter") {
		t.Fatalf("Setup of a tampered replay: %v", err)
	}
}

// TestSourcelessReplay: a replay that carries no files of a mod (as
// replays did before they carried them) runs no folder it names by
// itself: it needs the folder given. Given one that differs from the
// recording, it plays with a warning.
func TestSourcelessReplay(t *testing.T) {
	f, dir := recordCounter(t)
	f.Mods[0].Files = nil
	if _, _, err := f.Setup(nil); err == nil || !strings.Contains(err.Error(), "carries no files of mod counter") {
		t.Fatalf("Setup without the folder: %v", err)
	}
	setup, warnings, err := f.Setup(map[string]string{"counter": dir})
	if err != nil || len(warnings) != 0 {
		t.Fatalf("Setup with the same folder: %v %q", err, warnings)
	}
	if err := f.Check(setup); err != nil {
		t.Fatalf("check with the same folder: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "main.lua"), []byte(`game.on("tick", function(e) storage.n = 7 end)`), 0o644)
	_, warnings, err = f.Setup(map[string]string{"counter": dir})
	if err != nil || len(warnings) != 1 || !strings.Contains(warnings[0], "its files differ") {
		t.Fatalf("Setup with an edited folder: %v %q", err, warnings)
	}
}
