package saves

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mod2048/mod2048/engine"
)

func classicGame(t *testing.T, seed uint64) *engine.Game {
	t.Helper()
	g, err := engine.New(engine.NewClassic(), engine.Options{Width: 4, Height: 4, Seed: seed, UndoLimit: 100})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// saveGame saves g for k as the terminal game does: its bytes.
func saveGame(t testing.TB, s *Store, k Key, g *engine.Game) error {
	t.Helper()
	data, err := g.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return s.Save(k, data)
}

// loadGame loads the save for k as the engine's game, checked by check
// (nil for none): nil and no error when there is none.
func loadGame(s *Store, k Key, check func(*engine.Game) error) (*engine.Game, error) {
	var g *engine.Game
	_, err := s.Load(k, func(data []byte) error {
		var err error
		if g, err = engine.Unmarshal(data); err != nil {
			return err
		}
		if check != nil {
			return check(g)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return g, nil
}

func play(t *testing.T, g *engine.Game, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		for _, d := range engine.Directions {
			if g.Legal(d) {
				if _, err := g.Move(d); err != nil {
					t.Fatal(err)
				}
				break
			}
		}
	}
}

var testKey = Key{Ruleset: "classic", Difficulty: "classic", Config: "# a comment\nruleset = \"classic\"\nsize = 4\n"}

func testStore(t *testing.T) *Store {
	s := New(filepath.Join(t.TempDir(), "state"))
	s.Now = func() time.Time { return time.Unix(1700000000, 0) }
	return s
}

func files(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestKeyName(t *testing.T) {
	a := testKey
	b := testKey
	b.Config = "# other layers, other comments\n\nruleset = \"classic\"\n  size = 4\n"
	if a.Name() != b.Name() {
		t.Errorf("comments change the name: %s vs %s", a.Name(), b.Name())
	}
	c := testKey
	c.Config = strings.Replace(c.Config, "size = 4", "size = 5", 1)
	if a.Name() == c.Name() {
		t.Errorf("another size, same name %s", a.Name())
	}
	m1 := testKey
	m1.Mods = []ModRef{{ID: "freeze", Version: "1.0.0"}, {ID: "snow", Version: "0.1"}}
	m2 := testKey
	m2.Mods = []ModRef{{ID: "snow", Version: "0.1"}, {ID: "freeze", Version: "1.0.0"}}
	m3 := testKey
	m3.Mods = []ModRef{{ID: "snow", Version: "0.2"}, {ID: "freeze", Version: "1.0.0"}}
	if m1.Name() != m2.Name() || m1.Name() == m3.Name() || m1.Name() == a.Name() {
		t.Errorf("mod names: %s %s %s %s", m1.Name(), m2.Name(), m3.Name(), a.Name())
	}
	// Other settings of a mod (--mod-set), another save.
	m4 := testKey
	m4.Mods = []ModRef{{ID: "freeze", Version: "1.0.0", Settings: []string{"interval=2"}}, {ID: "snow", Version: "0.1"}}
	if m4.Name() == m1.Name() {
		t.Errorf("a mod's settings do not change the save's name %s", m4.Name())
	}
	if !strings.HasPrefix(a.Name(), "classic-classic-") || strings.Count(a.Name(), "-") != 2 || strings.Count(m1.Name(), "-") != 3 {
		t.Errorf("names %s, %s", a.Name(), m1.Name())
	}
	evil := Key{Ruleset: "../x", Difficulty: "a/b"}
	if strings.ContainsAny(evil.Name(), "/.") {
		t.Errorf("name %q could leave the folder", evil.Name())
	}
}

func TestSaveAndLoad(t *testing.T) {
	s := testStore(t)
	if g, err := loadGame(s, testKey, nil); g != nil || err != nil {
		t.Fatalf("no save: got %v, %v", g, err)
	}
	if _, err := os.Stat(s.Dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("loading created the folder: %v", err)
	}
	g := classicGame(t, 7)
	play(t, g, 5)
	g.Undo()
	if err := saveGame(t, s, testKey, g); err != nil {
		t.Fatal(err)
	}
	if got := files(t, s.Dir); len(got) != 1 || got[0] != testKey.Name()+".json" {
		t.Fatalf("files after saving: %v", got)
	}
	back, err := loadGame(s, testKey, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := g.Marshal()
	got, _ := back.Marshal()
	if string(got) != string(want) {
		t.Errorf("the loaded game differs:\n%s\nwant\n%s", got, want)
	}
	// The file is the documented JSON.
	data, _ := os.ReadFile(s.Path(testKey))
	var d map[string]json.RawMessage
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"format", "version", "ruleset", "difficulty", "mods", "config", "game"} {
		if _, ok := d[k]; !ok {
			t.Errorf("the save lacks %q", k)
		}
	}
	if string(d["mods"]) != "[]" || string(d["format"]) != `"`+Format+`"` {
		t.Errorf("mods %s, format %s", d["mods"], d["format"])
	}
}

func TestAtomicWrite(t *testing.T) {
	s := testStore(t)
	g := classicGame(t, 1)
	if err := saveGame(t, s, testKey, g); err != nil {
		t.Fatal(err)
	}
	good, _ := os.ReadFile(s.Path(testKey))

	// A crash between writing the temporary file and renaming it: the old
	// save stays whole, and no temporary file is left behind.
	rename = func(string, string) error { return errors.New("crash") }
	defer func() { rename = os.Rename }()
	play(t, g, 3)
	if err := saveGame(t, s, testKey, g); err == nil {
		t.Fatal("the save did not fail")
	}
	now, _ := os.ReadFile(s.Path(testKey))
	if string(now) != string(good) {
		t.Error("a failed save changed the last good one")
	}
	if got := files(t, s.Dir); len(got) != 1 {
		t.Errorf("files after a failed save: %v", got)
	}
	rename = os.Rename
	if err := saveGame(t, s, testKey, g); err != nil {
		t.Fatal(err)
	}
	back, err := loadGame(s, testKey, nil)
	if err != nil || back.State().Turn != g.State().Turn {
		t.Errorf("after the next save: %v, turn %d", err, back.State().Turn)
	}
}

func TestWriteFileCreatesFolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b", "f.json")
	if err := WriteFile(path, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "x" {
		t.Errorf("read %q", got)
	}
}

func TestCorruptSaves(t *testing.T) {
	g := classicGame(t, 3)
	otherMods := testKey
	otherMods.Mods = []ModRef{{ID: "freeze", Version: "1.0.0"}}
	tests := []struct {
		name  string
		write func(s *Store) error
		want  string
	}{
		{"bad JSON", func(s *Store) error { return WriteFile(s.Path(testKey), []byte("{not json")) }, "not a save"},
		{"engine refuses", func(s *Store) error {
			if err := saveGame(t, s, testKey, g); err != nil {
				return err
			}
			data, _ := os.ReadFile(s.Path(testKey))
			return WriteFile(s.Path(testKey), []byte(strings.Replace(string(data), `"score": "0"`, `"score": "-3"`, 1)))
		}, "score"},
		{"other format", func(s *Store) error {
			return WriteFile(s.Path(testKey), []byte(`{"format":"something","version":1}`))
		}, "format"},
		{"later version", func(s *Store) error {
			return WriteFile(s.Path(testKey), []byte(`{"format":"`+Format+`","version":99}`))
		}, "version 99"},
		{"other ruleset", func(s *Store) error {
			k := testKey
			k.Ruleset = "cellular"
			if err := saveGame(t, s, k, g); err != nil {
				return err
			}
			return os.Rename(s.Path(k), s.Path(testKey))
		}, "ruleset"},
		{"other mods", func(s *Store) error {
			if err := saveGame(t, s, otherMods, g); err != nil {
				return err
			}
			return os.Rename(s.Path(otherMods), s.Path(testKey))
		}, "mods"},
		{"other configuration", func(s *Store) error {
			k := testKey
			k.Config = "size = 5\n"
			if err := saveGame(t, s, k, g); err != nil {
				return err
			}
			return os.Rename(s.Path(k), s.Path(testKey))
		}, "configuration"},
		{"no game", func(s *Store) error {
			data, _ := json.Marshal(doc{Format: Format, Version: Version, Ruleset: "classic", Difficulty: "classic", Config: testKey.Config})
			return WriteFile(s.Path(testKey), data)
		}, "no game"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := testStore(t)
			if err := tt.write(s); err != nil {
				t.Fatal(err)
			}
			bad, _ := os.ReadFile(s.Path(testKey))
			got, err := loadGame(s, testKey, nil)
			var ce *CorruptError
			if got != nil || !errors.As(err, &ce) {
				t.Fatalf("got %v, %v; want a *CorruptError", got, err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q lacks %q", err, tt.want)
			}
			wantAside := s.Path(testKey) + ".corrupt-1700000000"
			if ce.KeptAs != wantAside || !strings.Contains(err.Error(), filepath.Base(wantAside)) {
				t.Errorf("kept as %q, want %q (%v)", ce.KeptAs, wantAside, err)
			}
			kept, err := os.ReadFile(wantAside)
			if err != nil || string(kept) != string(bad) {
				t.Errorf("the corrupt save was not kept as it was: %v", err)
			}
			if _, err := os.Stat(s.Path(testKey)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the corrupt save is still in place: %v", err)
			}
			// A second corrupt save in the same second does not replace the
			// first one kept aside.
			if err := tt.write(s); err != nil {
				t.Fatal(err)
			}
			_, err = loadGame(s, testKey, nil)
			if !errors.As(err, &ce) || ce.KeptAs != wantAside+"-1" {
				t.Errorf("second corrupt save: %v", err)
			}
		})
	}
}

func TestBest(t *testing.T) {
	s := testStore(t)
	r := engine.NewClassic()
	if b, err := s.Best(testKey, r); err != nil || !b.IsZero() {
		t.Fatalf("no best: %v, %v", b, err)
	}
	other := testKey
	other.Difficulty = "big"
	for _, step := range []struct {
		key   Key
		score uint64
		want  uint64
	}{
		{testKey, 120, 120},
		{testKey, 80, 120}, // a lower score does not replace the best
		{other, 40, 40},
		{testKey, 300, 300},
	} {
		if err := s.SetBest(step.key, r, engine.ScoreOf(step.score)); err != nil {
			t.Fatal(err)
		}
		b, err := s.Best(step.key, r)
		if err != nil || b != engine.ScoreOf(step.want) {
			t.Errorf("after %d: best %v, %v; want %d", step.score, b, err, step.want)
		}
	}
	if b, _ := s.Best(other, r); b != engine.ScoreOf(40) {
		t.Errorf("the other key's best is %v", b)
	}
	data, _ := os.ReadFile(filepath.Join(s.Dir, BestFile))
	if !strings.Contains(string(data), `"`+testKey.Name()+`": "300"`) {
		t.Errorf("best.json:\n%s", data)
	}
	// A corrupt best.json is kept aside; the scores start again.
	if err := WriteFile(filepath.Join(s.Dir, BestFile), []byte("[1, 2")); err != nil {
		t.Fatal(err)
	}
	b, err := s.Best(testKey, r)
	var ce *CorruptError
	if !b.IsZero() || !errors.As(err, &ce) {
		t.Fatalf("corrupt best.json: %v, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, BestFile+".corrupt-1700000000")); err != nil {
		t.Error(err)
	}
	if err := s.SetBest(testKey, r, engine.ScoreOf(8)); err != nil {
		t.Fatal(err)
	}
	if b, err := s.Slot(testKey).Best(r); err != nil || b != engine.ScoreOf(8) {
		t.Errorf("after a new best: %v, %v", b, err)
	}
}

func TestDefaultDir(t *testing.T) {
	t.Setenv(EnvDir, "")
	t.Setenv("XDG_STATE_HOME", "/xdg/state")
	if d, _ := DefaultDir(); d != "/xdg/state/2048" {
		t.Errorf("with XDG_STATE_HOME: %s", d)
	}
	t.Setenv("XDG_STATE_HOME", "relative") // not absolute: ignored, as the spec says
	t.Setenv("HOME", "/home/someone")
	if d, _ := DefaultDir(); d != "/home/someone/.local/state/2048" {
		t.Errorf("default: %s", d)
	}
	t.Setenv(EnvDir, "/tmp/elsewhere")
	if d, _ := DefaultDir(); d != "/tmp/elsewhere" {
		t.Errorf("with %s: %s", EnvDir, d)
	}
}

// BenchmarkSave writes the save of a game with a full undo history (100
// states), as the autosave does after every move.
func BenchmarkSave(b *testing.B) {
	s := New(b.TempDir())
	g, err := engine.New(engine.NewClassic(), engine.Options{Width: 4, Height: 4, Seed: 1, UndoLimit: 100})
	if err != nil {
		b.Fatal(err)
	}
	for moves := 0; moves < 150 && g.CanMove(); {
		for _, d := range engine.Directions {
			if g.Legal(d) {
				g.Move(d)
				moves++
				break
			}
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := saveGame(b, s, testKey, g); err != nil {
			b.Fatal(err)
		}
	}
}
