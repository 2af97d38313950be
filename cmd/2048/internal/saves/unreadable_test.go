package saves

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mod2048/mod2048/engine"
)

// denyReads makes every read of path fail as a file the user may not read
// does (root reads any file, so chmod cannot show it).
func denyReads(t *testing.T, path string) {
	t.Helper()
	readFile = func(p string, limit int64) ([]byte, error) {
		if p == path {
			return nil, &fs.PathError{Op: "open", Path: p, Err: syscall.EACCES}
		}
		return infileRead(p, limit)
	}
	t.Cleanup(func() { readFile = infileRead })
}

var infileRead = readFile

// TestUnreadableSave: a save that exists but cannot be read (permission
// denied after a run with sudo, a folder in its place) is a *ReadError
// that names the file and the fix, and is left exactly as it is.
func TestUnreadableSave(t *testing.T) {
	t.Run("permission denied", func(t *testing.T) {
		s := testStore(t)
		g := classicGame(t, 3)
		play(t, g, 4)
		if err := saveGame(t, s, testKey, g); err != nil {
			t.Fatal(err)
		}
		path := s.Path(testKey)
		before, _ := os.ReadFile(path)
		denyReads(t, path)
		got, err := loadGame(s, testKey, nil)
		var re *ReadError
		if got != nil || !errors.As(err, &re) || re.Path != path {
			t.Fatalf("Load: %v, %v; want a *ReadError", got, err)
		}
		for _, want := range []string{"cannot read " + path + " (permission denied)", "it is left as it is", "sudo chown -R \"$USER\" " + s.Dir} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%q lacks %q", err, want)
			}
		}
		if after, _ := os.ReadFile(path); string(after) != string(before) {
			t.Error("the unreadable save was changed")
		}
		if names := files(t, s.Dir); len(names) != 1 {
			t.Errorf("files: %v", names)
		}
	})
	t.Run("a folder in its place", func(t *testing.T) {
		s := testStore(t)
		path := s.Path(testKey)
		if err := os.MkdirAll(filepath.Join(path, "inside"), 0o700); err != nil {
			t.Fatal(err)
		}
		_, err := loadGame(s, testKey, nil)
		var re *ReadError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), "cannot read "+path+" (a folder, not a regular file)") || !strings.Contains(err.Error(), "move it away") {
			t.Fatalf("Load: %v", err)
		}
		if _, err := os.Stat(filepath.Join(path, "inside")); err != nil {
			t.Errorf("the folder was touched: %v", err)
		}
	})
	t.Run("cannot be kept aside", func(t *testing.T) {
		s := testStore(t)
		path := s.Path(testKey)
		if err := WriteFile(path, []byte("{not json")); err != nil {
			t.Fatal(err)
		}
		rename = func(string, string) error { return &os.LinkError{Op: "rename", Err: syscall.EROFS} }
		defer func() { rename = os.Rename }()
		_, err := loadGame(s, testKey, nil)
		var re *ReadError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), "could not be kept aside: read-only file system") {
			t.Fatalf("Load: %v", err)
		}
		if data, _ := os.ReadFile(path); string(data) != "{not json" {
			t.Errorf("the save was changed: %q", data)
		}
	})
}

// TestSaveRefusedByCheck: a save the caller's check refuses (a 256×256
// board under a 4×4 configuration) is kept aside, and its place is free.
func TestSaveRefusedByCheck(t *testing.T) {
	s := testStore(t)
	big, err := engine.New(engine.NewClassic(), engine.Options{Width: 256, Height: 256, Seed: 1, UndoLimit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := saveGame(t, s, testKey, big); err != nil {
		t.Fatal(err)
	}
	check := func(g *engine.Game) error {
		if o := g.Options(); o.Width != 4 || o.Height != 4 {
			return errors.New("the board is not 4×4")
		}
		return nil
	}
	got, err := loadGame(s, testKey, check)
	var ce *CorruptError
	if got != nil || !errors.As(err, &ce) || ce.KeptAs == "" || !strings.Contains(err.Error(), "the board is not 4×4") {
		t.Fatalf("Load: %v, %v", got, err)
	}
	if _, err := os.Stat(s.Path(testKey)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the refused save is still in place: %v", err)
	}
}

// TestSaveLimit: a save over the limit is kept aside as corrupt when read,
// and never written.
func TestSaveLimit(t *testing.T) {
	s := testStore(t)
	g := classicGame(t, 1)
	if err := saveGame(t, s, testKey, g); err != nil {
		t.Fatal(err)
	}
	good, _ := os.ReadFile(s.Path(testKey))
	saveLimit = int64(len(good))
	defer func() { saveLimit = MaxSave }()
	play(t, g, 20)
	err := saveGame(t, s, testKey, g)
	if err == nil || !strings.Contains(err.Error(), "more than the limit of") || !strings.Contains(err.Error(), "the last save is kept") {
		t.Fatalf("Save over the limit: %v", err)
	}
	if now, _ := os.ReadFile(s.Path(testKey)); string(now) != string(good) {
		t.Error("the last save changed")
	}
	if _, err := loadGame(s, testKey, nil); err != nil {
		t.Fatalf("a save at the limit: %v", err)
	}
	saveLimit = int64(len(good)) - 1
	_, err = loadGame(s, testKey, nil)
	var ce *CorruptError
	if !errors.As(err, &ce) || ce.KeptAs == "" || !strings.Contains(err.Error(), "more than the limit of") {
		t.Errorf("Load over the limit: %v", err)
	}
}

// TestUnreadableBest: a best-score file that cannot be read is reported
// and never written over.
func TestUnreadableBest(t *testing.T) {
	s := testStore(t)
	r := engine.NewClassic()
	if err := s.SetBest(testKey, r, engine.ScoreOf(8)); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(s.bestPath())
	denyReads(t, s.bestPath())
	var re *ReadError
	if _, err := s.Best(testKey, r); !errors.As(err, &re) {
		t.Errorf("Best: %v", err)
	}
	if err := s.SetBest(testKey, r, engine.ScoreOf(64)); !errors.As(err, &re) {
		t.Errorf("SetBest: %v", err)
	}
	if after, _ := os.ReadFile(s.bestPath()); string(after) != string(before) {
		t.Error("best.json was written over")
	}
}

// TestCleanTemps: the temporary files of interrupted saves (25 of them
// after 200 kills, in the issue) are removed once abandoned; nothing else,
// and no young one, is.
func TestCleanTemps(t *testing.T) {
	s := testStore(t)
	if removed, err := s.CleanTemps(); removed != nil || err != nil {
		t.Fatalf("no folder: %v, %v", removed, err)
	}
	now := s.now()
	old := now.Add(-TempAge - time.Second)
	young := now.Add(-TempAge + time.Minute)
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		t.Fatal(err)
	}
	touch := func(name string, mtime time.Time) {
		path := filepath.Join(s.Dir, name)
		if err := os.WriteFile(path, []byte("{half a sa"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	name := testKey.Name() + ".json"
	var stale []string
	for i := 0; i < 25; i++ {
		n := "." + name + ".tmp-" + strings.Repeat("7", i%9+1) + string(rune('0'+i%10))
		touch(n, old)
		stale = append(stale, n)
	}
	touch(".best.json.tmp-123", old)
	stale = append(stale, ".best.json.tmp-123")
	keep := []string{
		"." + name + ".tmp-999",      // young: maybe another game saving now
		name,                         // the save
		name + ".corrupt-1700000000", // a save kept aside
		"." + name + ".tmp-12x",      // not our pattern
		name + ".tmp-1",              // no leading dot
		".notes.txt.tmp-1",           // not a .json
		"notes.txt",
	}
	touch(keep[0], young)
	for _, n := range keep[1:] {
		touch(n, old)
	}
	if err := os.Mkdir(filepath.Join(s.Dir, ".dir.json.tmp-5"), 0o700); err != nil {
		t.Fatal(err)
	}
	keep = append(keep, ".dir.json.tmp-5")
	if err := os.Symlink(filepath.Join(s.Dir, "notes.txt"), filepath.Join(s.Dir, ".link.json.tmp-6")); err == nil {
		keep = append(keep, ".link.json.tmp-6")
	}
	removed, err := s.CleanTemps()
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != len(stale) {
		t.Errorf("removed %d files, want %d: %v", len(removed), len(stale), removed)
	}
	left := strings.Join(files(t, s.Dir), "\n") + "\n"
	for _, n := range stale {
		if strings.Contains(left, n+"\n") {
			t.Errorf("%s was left", n)
		}
	}
	for _, n := range keep {
		if !strings.Contains(left, n+"\n") {
			t.Errorf("%s was removed", n)
		}
	}
}
