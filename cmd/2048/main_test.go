package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// binary is the real 2048 program, built once for the end-to-end tests.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "2048-e2e")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "2048")
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		os.RemoveAll(dir)
		panic("building 2048: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// run2048 runs the binary and returns its output and exit status.
func run2048(t *testing.T, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

// TestShippedFixtures runs the shipped fixtures through the binary, as the
// README's run command does.
func TestShippedFixtures(t *testing.T) {
	out, errOut, code := run2048(t, "../..", "test", "testdata")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := lines[len(lines)-1]
	if code != 0 || !strings.HasSuffix(last, " passed, 0 failed") || strings.HasPrefix(last, "0 passed") {
		t.Fatalf("2048 test testdata: exit %d, last line %q\n%s%s", code, last, out, errOut)
	}
}

func TestFailingFixture(t *testing.T) {
	dir := t.TempDir()
	text := "Case: X\nGiven:\n2 2 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\nMove: Left\nSpawnScript: [{1,1,2}]\nScoreΔ: 5\n"
	if err := os.WriteFile(filepath.Join(dir, "x.cases"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := run2048(t, dir, "test")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, want := range []string{"x.cases:9: case X, step 1 (Move: Left): ScoreΔ: expected 5, actual 4", "0 passed, 1 failed\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	out, _, code = run2048(t, dir, "test", "-v", "x.cases", "missing.cases")
	if code != 1 || !strings.Contains(out, "missing.cases") || !strings.HasSuffix(out, "0 passed, 2 failed\n") {
		t.Errorf("missing file: exit %d\n%s", code, out)
	}
}

func TestUsage(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "Usage:"},
		{[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{[]string{"help"}, 0, "2048 test [-v] [PATH ...]"},
		{[]string{"help", "test"}, 0, "N passed, N failed"},
		{[]string{"help", "bogus"}, 2, `2048 help: unknown topic "bogus"`},
		{[]string{"help", "config"}, 0, "config show"},
		{[]string{"test", "-h"}, 0, "N passed, N failed"},
		{[]string{"test", "-nosuchflag"}, 2, "2048 test: unknown flag -nosuchflag; see 2048 test --help\n"},
		{[]string{"version"}, 0, "2048 dev"},
	}
	for _, tt := range tests {
		out, errOut, code := run2048(t, t.TempDir(), tt.args...)
		if code != tt.code || !strings.Contains(out+errOut, tt.want) {
			t.Errorf("2048 %v: exit %d, want %d and output containing %q:\n%s%s", tt.args, code, tt.code, tt.want, out, errOut)
		}
	}
}

// TestNoFixtures: `2048 test` that finds no case says so and exits 1, in a
// folder with no .cases file and with .cases files that hold no case.
func TestNoFixtures(t *testing.T) {
	empty := t.TempDir()
	if err := os.Mkdir(filepath.Join(empty, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run2048(t, empty, "test")
	if code != 1 || !strings.Contains(errOut, "2048 test: no fixture found: no .cases file in .") || !strings.HasSuffix(out, "0 passed, 0 failed\n") {
		t.Errorf("2048 test in an empty folder: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = run2048(t, empty, "test", "sub")
	if code != 1 || !strings.Contains(errOut, "no .cases file in sub") {
		t.Errorf("2048 test sub: exit %d\n%s%s", code, out, errOut)
	}
	if err := os.WriteFile(filepath.Join(empty, "sub", "none.cases"), []byte("# only a comment\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = run2048(t, empty, "test", "sub")
	if code != 1 || !strings.Contains(errOut, "the .cases files in sub hold no case") {
		t.Errorf("2048 test with a file of no case: exit %d\n%s%s", code, out, errOut)
	}
}

// TestTestWatch: 2048 test --watch runs the fixtures again when a mod they
// load changes, and stops when told.
func TestTestWatch(t *testing.T) {
	dir := t.TempDir()
	mod := writeMod(t, "tidy", `game.on("tick", function() end)`)
	cases := filepath.Join(dir, "tidy.cases")
	os.WriteFile(cases, []byte(`Case: T1 A move
Mods: `+mod+`
Given:
2 0 0 0
0 0 0 0
0 0 0 0
0 0 0 0
Move: Right
SpawnScript: [{0,0,2}]
Expect:
2 0 0 2
0 0 0 0
0 0 0 0
0 0 0 0
`), 0o644)
	if dirs := testWatchDirs([]string{cases}); len(dirs) != 2 {
		t.Fatalf("watched %v, want the fixture's folder and the mod's", dirs)
	}
	var out syncBuffer
	stop := make(chan struct{})
	done := make(chan error)
	go func() { done <- watchTests([]string{cases}, &out, false, stop) }()
	// A change to the mod breaks the case: the run after it says so.
	for i := 0; i < 100 && !strings.Contains(out.String(), "watching"); i++ {
		time.Sleep(20 * time.Millisecond)
	}
	os.WriteFile(filepath.Join(mod, "main.lua"), []byte(`game.on("tick", function() error("broken") end)`), 0o644)
	for i := 0; i < 250 && !strings.Contains(out.String(), "0 passed, 1 failed"); i++ {
		time.Sleep(20 * time.Millisecond)
	}
	close(stop)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if !strings.Contains(got, "running the fixtures again") || !strings.Contains(got, "broken") || !strings.Contains(got, "0 passed, 1 failed") {
		t.Fatalf("the watch's output:\n%s", got)
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestFlagsAnywhere: every subcommand takes its flags before or after its
// arguments, "--" ends the flags, a flag's value may start with '-', and
// an unknown flag is still refused wherever it stands.
func TestFlagsAnywhere(t *testing.T) {
	dir := t.TempDir()
	bomb, _ := filepath.Abs("../../mods/bomb")
	os.WriteFile(filepath.Join(dir, "bad.toml"), []byte("ruleset = \"cellular\"\ne_capp = 9\nspawn_cells = \"many\"\n[blight]\nrate = 1.5\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "-dash.cases"), []byte("Case: D1 A move\nConfig: size=2\nGiven:\n2 0\n0 0\nMove: Right\nSpawnScript: [{0,0,2}]\nExpect:\n2 2\n0 0\n"), 0o644)
	for _, s := range []string{"0/2", "1/2"} {
		if _, errOut, code := run2048(t, dir, "sim", "run", "--games", "4", "--policy", "random", "--shard", s, "--json", "s"+s[:1]+".json"); code != 0 {
			t.Fatal(errOut)
		}
	}
	for _, c := range []struct {
		args []string
		code int
		out  string // in stdout or stderr
	}{
		{[]string{"test", bomb, "-v"}, 0, "ok   "},
		{[]string{"test", "-v", bomb}, 0, "ok   "},
		{[]string{"test", "--", "-dash.cases"}, 0, "1 passed, 0 failed"},
		{[]string{"test", bomb, "--bogus"}, 2, "2048 test: unknown flag --bogus; see 2048 test --help\n"},
		{[]string{"sim", "merge", "s0.json", "s1.json", "--json", "m.json"}, 0, "4 games"},
		{[]string{"sim", "run", "--games", "2", "--policy", "random", "--set", "size=3", "--seed", "-"}, 2, "2048 sim run: invalid value \"-\" for --seed: want a whole number, 0 or more; see 2048 sim run --help\n"},
		{[]string{"config", "check", "bad.toml", "--ruleset", "cellular"}, 1, "bad.toml:5: blight.rate"},
		{[]string{"config", "show", "--set", "e_cap=9", "--ruleset", "cellular"}, 0, "e_cap = 9"},
		{[]string{"mod", "list", bomb, "--bogus"}, 2, "2048 mod list: unknown flag --bogus; see 2048 mod list --help\n"},
		{[]string{"mod", "check", bomb, "--moves", "5"}, 0, "load: ok"},
		{[]string{"config", "show", "--set"}, 2, "2048 config show: --set needs a value; see 2048 config show --help\n"},
	} {
		out, errOut, code := run2048(t, dir, c.args...)
		if code != c.code || !strings.Contains(out+errOut, c.out) {
			t.Errorf("2048 %q: exit %d, want %d and %q\n%s%s", c.args, code, c.code, c.out, out, errOut)
		}
	}
}

// TestConfigCheckLineOrder: config check lists a file's errors by line,
// though the range checks (lines 1 and 2) find theirs after the unknown
// key and the wrong type (lines 3 and 4).
func TestConfigCheckLineOrder(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "bad.toml"), []byte("size = 20\nwin_value = 4\ncolour = \"red\"\nundo_limit = \"x\"\n"), 0o644)
	_, errOut, code := run2048(t, dir, "config", "check", "bad.toml")
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	want := []string{"bad.toml:1: size: ", "bad.toml:2: win_value: ", "bad.toml:3: colour: unknown key", "bad.toml:4: undo_limit: "}
	if code != 1 || len(lines) != len(want) {
		t.Fatalf("exit %d, %d lines, want 1 and %d:\n%s", code, len(lines), len(want), errOut)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d: %q, want it to start %q\n%s", i+1, lines[i], w, errOut)
		}
	}
}

// TestConfigCheckEveryError: config check says every error of a file at
// once, one a line, each with its line and key.
func TestConfigCheckEveryError(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "bad.toml"), []byte("ruleset = \"cellular\"\ne_capp = 9\nspawn_cells = \"many\"\n[blight]\nrate = 1.5\n"), 0o644)
	out, errOut, code := run2048(t, dir, "config", "check", "bad.toml")
	if code != 1 || out != "" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	want := []string{`bad.toml:2: e_capp: unknown key (did you mean "e_cap"?)`, "bad.toml:3: spawn_cells: ", "bad.toml:5: blight.rate: 1.5 is outside 0 to 1"}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), errOut)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d: %q, want it to start %q", i+1, lines[i], w)
		}
	}
}

// TestUsageNamesEveryCommand: 2048 --help and 2048 help name every command
// and every subcommand that run dispatches to (commands and subcommands),
// each on a line of its own: a new command without a line of help fails.
func TestUsageNamesEveryCommand(t *testing.T) {
	var names []string
	for name := range commands {
		if !strings.HasPrefix(name, "-") { // -h, --version: other spellings
			names = append(names, name)
		}
	}
	for group, subs := range subcommands {
		if commands[group] == nil {
			t.Errorf("subcommands of %q, which is no command", group)
		}
		for sub := range subs {
			names = append(names, group+" "+sub)
		}
	}
	slices.Sort(names)
	for _, args := range [][]string{{"--help"}, {"help"}, {"-h"}} {
		out, errOut, code := run2048(t, t.TempDir(), args...)
		if code != 0 {
			t.Fatalf("2048 %s: exit %d\n%s", args[0], code, errOut)
		}
		for _, name := range names {
			line := regexp.MustCompile(`(?m)^  2048 ` + regexp.QuoteMeta(name) + `( |$)`)
			if !line.MatchString(out) {
				t.Errorf("2048 %s does not name '2048 %s' on a line of its own:\n%s", args[0], name, out)
			}
		}
	}
}

// TestHelpSubcommands: 2048 help X Y shows subcommand Y's own help.
func TestHelpSubcommands(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"help", "mod", "check"}, "Usage: 2048 mod check"},
		{[]string{"help", "mod", "list"}, "Usage: 2048 mod list"},
		{[]string{"help", "mod", "install"}, "Usage: 2048 mod install"},
		{[]string{"help", "mod", "new"}, "Usage: 2048 mod new"},
		{[]string{"help", "config", "show"}, "Usage: 2048 config show"},
		{[]string{"help", "config", "check"}, "Usage: 2048 config check"},
		{[]string{"help", "sim", "merge"}, "Usage: 2048 sim merge"},
	} {
		out, errOut, code := run2048(t, t.TempDir(), c.args...)
		if code != 0 || !strings.HasPrefix(out, c.want) {
			t.Errorf("2048 %q: exit %d\n%s%s", c.args, code, out, errOut)
		}
	}
	if _, errOut, code := run2048(t, t.TempDir(), "help", "mod", "bogus"); code != 2 || !strings.Contains(errOut, `unknown subcommand "bogus"`) {
		t.Errorf("help mod bogus: exit %d, %s", code, errOut)
	}
}

// TestModListFolderOfMods: mod list DIR lists every mod under DIR when DIR
// is a folder of mods.
func TestModListFolderOfMods(t *testing.T) {
	mods, _ := filepath.Abs("../../mods")
	out, errOut, code := run2048(t, t.TempDir(), "mod", "list", mods)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, id := range []string{"bomb", "freeze", "ghost", "moss", "one_way", "overdrive", "plague"} {
		if !strings.Contains(out, "\n"+id+" ") && !strings.HasPrefix(out, id+" ") {
			t.Errorf("the list lacks %s:\n%s", id, out)
		}
	}
}

// TestReadmeSaysWhatMakeTestNeeds: the README says how long `make test`
// takes and what it needs, and what it needs is what CI installs.
func TestReadmeSaysWhatMakeTestNeeds(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(readme)), " ")
	if !regexp.MustCompile("`make test` is what CI runs \\(`.ci/run`\\)\\. It takes about \\w+ minutes on 2 cores").MatchString(text) {
		t.Error("the README does not say how long make test takes on 2 cores")
	}
	for _, need := range []string{"tmux", "chromium"} {
		if !strings.Contains(strings.ToLower(text), need) || !strings.Contains(string(ci), need) {
			t.Errorf("%s: the README names it as a need of make test, and .ci/run installs it: README %v, .ci/run %v",
				need, strings.Contains(strings.ToLower(text), need), strings.Contains(string(ci), need))
		}
	}
}

// TestModListChoice: mod list names a choice's choices.
func TestModListChoice(t *testing.T) {
	dir := writeModFiles(t, filepath.Join(t.TempDir(), "pick"), map[string]string{
		"mod.toml": manifest("pick", "1.0") + "\n[settings.way]\ntype = \"choice\"\nchoices = [\"up\", \"down\"]\ndefault = \"up\"\ndescription = \"A way.\"\n",
		"main.lua": `local way = game.settings.way`,
	})
	var out, errOut bytes.Buffer
	if code := run([]string{"mod", "list", dir}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), `setting way = "up" (choice: up, down): A way.`) {
		t.Errorf("mod list:\n%s", out.String())
	}
}
