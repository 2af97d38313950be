package session_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
)

// TestEmbedFromFreshModule builds testdata/embed as a module of its own
// that requires this one (through a replace directive to this checkout)
// and runs it: an outside Go program loads a configuration and two mods,
// plays, undoes, saves and resumes through the public API. Its output must
// be what the same game gives here.
func TestEmbedFromFreshModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module of its own")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool")
	}
	root, err := filepath.Abs(repo(t, ""))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "embed", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	gomod := "module example.com/embed\n\ngo 1.24.0\n\nrequire github.com/mod2048/mod2048 v0.0.0\n\nreplace github.com/mod2048/mod2048 => " + root + "\n"
	for name, data := range map[string][]byte{"go.mod": []byte(gomod), "go.sum": sum, "main.go": src} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	freeze, overdrive := filepath.Join(root, "mods", "freeze"), filepath.Join(root, "mods", "overdrive")
	cmd := exec.Command(goTool, "run", "-mod=mod", ".", freeze, overdrive)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, out)
	}
	want := embedHere(t, freeze, overdrive)
	if string(out) != want {
		t.Fatalf("the embedding program printed\n%s\nwant\n%s", out, want)
	}
}

// embedHere plays testdata/embed's game in this process.
func embedHere(t *testing.T, dirs ...string) string {
	var mods []*mod.Mod
	for _, d := range dirs {
		m, err := mod.Load(d)
		if err != nil {
			t.Fatal(err)
		}
		mods = append(mods, m)
	}
	setup := session.Setup{Config: classic(t), Mods: mods}
	s, err := session.New(setup, session.Start{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := 0; s.Status() == engine.Playing && i < 50; i++ {
		for _, d := range engine.Directions {
			if s.Legal().Has(d) {
				s.Move(d)
				break
			}
		}
	}
	var b strings.Builder
	b.WriteString("mods 2 reports " + strconv.Itoa(len(s.TakeReports())) + "\n")
	b.WriteString("score " + s.Score().String() + " turn " + strconv.Itoa(s.State().Turn) + " marks " + strconv.Itoa(len(s.State().Marks)) + "\n")
	s.Undo()
	data, _ := s.Save()
	r, err := session.Resume(setup, data)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b.WriteString("resumed score " + r.Score().String() + " turn " + strconv.Itoa(r.State().Turn) + "\n")
	return b.String()
}
