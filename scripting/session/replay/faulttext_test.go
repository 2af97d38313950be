package replay_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
	"github.com/mod2048/mod2048/scripting/session/replay"
)

// TestFaultTextReplay: a game recorded with a mod whose errors are
// control bytes and invalid UTF-8 (issue 50's 600 \1, and 1 MB) keeps
// its faults printable, writes a replay that reads back, checks and plays
// back to the same save, and its save loads.
func TestFaultTextReplay(t *testing.T) {
	c, err := config.Build(config.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// It fails on turns 2 to 4 of each game (and is disabled on the
	// fourth), then again after undo brings it back.
	dir := writeMod(t, "ctl", `game.on("tick", function(e)
  if e.turn % 2 == 0 then error(string.rep("\1", 600), 0) end
  if e.turn > 1 then error(string.rep("\27[2J\255", 200000)) end
end)`)
	s := play(t, session.Setup{Config: c, Mods: []*mod.Mod{load(t, dir)}})
	f, err := replay.New(s, replay.Meta{Program: "test"})
	if err != nil {
		t.Fatal(err)
	}
	faults := 0
	for _, a := range f.Actions {
		for _, fault := range a.Faults {
			faults++
			if !utf8.ValidString(fault.Message) || len(fault.Message) > 512 || strings.ContainsAny(fault.Message, "\x01\x1b") {
				t.Fatalf("a recorded fault's message %q (%d bytes)", fault.Message, len(fault.Message))
			}
		}
	}
	if faults == 0 {
		t.Fatal("no fault recorded")
	}
	path := filepath.Join(t.TempDir(), "game.replay")
	if err := f.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	back, err := replay.Read(path)
	if err != nil {
		t.Fatalf("the replay does not read back: %v", err)
	}
	if again, _ := back.Marshal(); string(again) != string(must(os.ReadFile(path))) {
		t.Error("the replay does not read back as written")
	}
	setup, warnings, err := back.Setup(nil)
	if err != nil || len(warnings) != 0 {
		t.Fatalf("setup: %v, warnings %q", err, warnings)
	}
	if err := back.Check(setup); err != nil {
		t.Fatalf("check: %v", err)
	}
	r, err := back.Resume(setup)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for i := range back.Actions {
		if err := back.Apply(r, i); err != nil {
			t.Fatal(err)
		}
	}
	want, err := s.Save()
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := r.Save(); string(want) != string(got) {
		t.Error("the replayed game's save differs from the recorded game's")
	}
	if _, err := engine.Unmarshal(want); err != nil {
		t.Errorf("the save does not load: %v", err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
