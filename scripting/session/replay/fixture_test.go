package replay_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
	"github.com/mod2048/mod2048/scripting/session/fixture"
	"github.com/mod2048/mod2048/scripting/session/replay"
)

// TestFixtureNotices: the fixture written from a recording pins the mods'
// messages to the player: a Notice: line for each message of a step, in
// order, and Notice: none for a step with none. The case passes as
// written, and fails when a message is edited.
func TestFixtureNotices(t *testing.T) {
	c, err := config.Default(engine.ClassicName)
	if err != nil {
		t.Fatal(err)
	}
	bomb := repo(t, "mods/bomb")
	mods := func() []*mod.Mod { return []*mod.Mod{load(t, bomb, "interval=1", "fuse=1")} }
	s, err := session.New(session.Setup{Config: c, Mods: mods()}, session.Start{Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	if err := s.Record(); err != nil {
		t.Fatal(err)
	}
	dirs := []engine.Direction{engine.Left, engine.Down, engine.Right, engine.Up}
	for i := 0; i < 12; i++ {
		for _, d := range dirs {
			if s.Legal().Has(d) {
				if _, err := s.Move(d); err != nil {
					t.Fatal(err)
				}
				break
			}
		}
	}
	f, err := replay.New(s, replay.Meta{Program: "test"})
	if err != nil {
		t.Fatal(err)
	}
	text, err := f.Fixture(session.Setup{Config: c, Mods: mods()}, replay.FixtureOptions{ID: "N", Mods: []string{filepath.ToSlash(bomb)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\nNotice: bomb: A bomb went off at row ", "\nNotice: none\n"} {
		if !bytes.Contains(text, []byte(want)) {
			t.Errorf("the fixture lacks %q:\n%s", want, text)
		}
	}
	if got, want := bytes.Count(text, []byte("\nMove: ")), bytes.Count(text, []byte("\nMarks: ")); got != want {
		t.Errorf("%d moves, %d Marks: lines", got, want)
	}
	dir := t.TempDir()
	run := func(text []byte) (string, fixture.Summary) {
		path := filepath.Join(dir, "n.cases")
		if err := os.WriteFile(path, text, 0o644); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		sum := fixture.RunPaths([]string{path}, &out, false)
		return out.String(), sum
	}
	if out, sum := run(text); sum.Passed != 1 || sum.Failed != 0 {
		t.Fatalf("the fixture as written: %+v\n%s\n%s", sum, out, text)
	}
	edited := bytes.Replace(text, []byte("Notice: bomb: A bomb went off"), []byte("Notice: bomb: A bomb went up"), 1)
	if out, sum := run(edited); sum.Failed != 1 || !strings.Contains(out, `Notice: expected "bomb: A bomb went up`) {
		t.Errorf("an edited Notice: line: %+v\n%s", sum, out)
	} else if strings.Contains(out, "recorded for other code") {
		// The case names the code it was written for, which has not
		// changed: its failure is the edit's, and says nothing more.
		t.Errorf("a case that fails on its own code says it was recorded for other code:\n%s", out)
	}
	if !bytes.Contains(text, []byte("\n# Recorded for: "+filepath.ToSlash(bomb)+"/main.lua@")) {
		t.Errorf("the fixture does not name the code it was recorded for:\n%s", text)
	}
}
