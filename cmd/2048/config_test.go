package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/config"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata")

// TestConfigShowGolden pins down `2048 config show` of the late preset:
// regenerate it with go test ./cmd/2048 -run ConfigShowGolden -update.
func TestConfigShowGolden(t *testing.T) {
	out, errOut, code := run2048(t, t.TempDir(), "config", "show", "--ruleset", "cellular", "--difficulty", "late")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	golden := filepath.Join("testdata", "config_show_late.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("config show differs from %s (rerun with -update if the change is meant):\n%s", golden, lineDiff(string(want), out))
	}
}

// lineDiff shows the first line where two texts differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return "line " + strconv.Itoa(i+1) + ":\n  want " + wl + "\n  got  " + gl
		}
	}
	return ""
}

// TestConfigShowRoundTrip checks, through the binary, that what show prints
// for every preset, with and without overrides, checks as ok and loads back
// as the same configuration.
func TestConfigShowRoundTrip(t *testing.T) {
	dir := t.TempDir()
	mine := filepath.Join(dir, "mine.toml")
	if err := os.WriteFile(mine, []byte("preset = \"mid\"\n[blight]\nrate = 0.25\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var runs [][]string
	for _, p := range config.Presets() {
		runs = append(runs, []string{"--difficulty", p})
	}
	runs = append(runs,
		[]string{"--ruleset", "cellular"},
		[]string{},
		[]string{"--config", "mine.toml", "--set", "e_cap=9", "--set", "life.wrap=true", "-set", "goal.stabilize_per_cell=2"},
		[]string{"--difficulty", "classic", "--set", "size=7", "--set", "four_probability=0.3"},
	)
	for i, args := range runs {
		out, errOut, code := run2048(t, dir, append([]string{"config", "show"}, args...)...)
		if code != 0 {
			t.Errorf("config show %q: exit %d\n%s", args, code, errOut)
			continue
		}
		o := config.BuildOptions{Sets: nil}
		for j := 0; j+1 < len(args); j += 2 {
			switch strings.TrimLeft(args[j], "-") {
			case "ruleset":
				o.Ruleset = args[j+1]
			case "difficulty":
				o.Difficulty = args[j+1]
			case "config":
				o.File = filepath.Join(dir, args[j+1])
			case "set":
				o.Sets = append(o.Sets, args[j+1])
			}
		}
		want, err := config.Build(o)
		if err != nil {
			t.Fatal(err)
		}
		got, err := config.Parse([]byte(out), "shown.toml", "")
		if err != nil {
			t.Fatalf("config show %q does not load back: %v\n%s", args, err, out)
		}
		if got.Ruleset != want.Ruleset || got.Preset != want.Preset || got.Classic != want.Classic || got.Cellular != want.Cellular {
			t.Errorf("config show %q loads back as %+v, want %+v", args, got, want)
		}
		shown := "shown" + strconv.Itoa(i) + ".toml"
		if err := os.WriteFile(filepath.Join(dir, shown), []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		checked, errOut, code := run2048(t, dir, "config", "check", shown)
		wantLine := shown + ": ok (ruleset " + want.Ruleset + ", preset " + want.Preset + ")\n"
		if code != 0 || checked != wantLine {
			t.Errorf("config check of show %q: exit %d %q, want %q\n%s", args, code, checked, wantLine, errOut)
		}
		again, _, _ := run2048(t, dir, "config", "show", "--config", shown)
		if _, body, _ := strings.Cut(again, "\n\n"); !strings.HasSuffix(out, body) {
			t.Errorf("config show --config of show %q changes the settings:\n%s\n---\n%s", args, out, again)
		}
	}
}

func TestConfigCommands(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"good.toml":     "# late, harder\npreset = \"late\"\n[blight]\ncharges = 3\n",
		"classic.toml":  "size = 5\n",
		"case.toml":     "ruleset = \"cellular\"\n\nE_cap = 9\n",
		"range.toml":    "preset = \"early\"\n[catalyst]\nrate = 2.5\n",
		"table.toml":    "preset = \"early\"\n[width]\n",
		"conflict.toml": "preset = \"late\"\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		args      []string
		code      int
		stdout    string // a prefix of the standard output ("" for none)
		stderr    string // contained in the standard error
		noStdout  bool
		exactLine bool // stderr is exactly this line
	}{
		{args: []string{"config", "check", "good.toml"}, code: 0, stdout: "good.toml: ok (ruleset cellular, preset late)\n"},
		{args: []string{"config", "check", "classic.toml"}, code: 0, stdout: "classic.toml: ok (ruleset classic, preset classic)\n"},
		{args: []string{"config", "check", "--difficulty", "late", "conflict.toml"}, code: 0, stdout: "conflict.toml: ok (ruleset cellular, preset late)\n"},
		{args: []string{"config", "check", "case.toml"}, code: 1, stderr: "case.toml:3: E_cap: unknown key (did you mean \"e_cap\"?)\n", noStdout: true, exactLine: true},
		{args: []string{"config", "check", "range.toml"}, code: 1, stderr: "range.toml:3: catalyst.rate: 2.5 is outside 0 to 1\n", noStdout: true, exactLine: true},
		{args: []string{"config", "check", "table.toml"}, code: 1, stderr: "table.toml:2: width: want an integer, got a table\n", noStdout: true, exactLine: true},
		{args: []string{"config", "check", "nosuch.toml"}, code: 1, stderr: "nosuch.toml: no such file or directory\n", noStdout: true, exactLine: true},
		{args: []string{"config", "check", "--difficulty", "mid", "conflict.toml"}, code: 1, stderr: "conflict.toml:1: preset: \"late\" conflicts with --difficulty mid\n", noStdout: true, exactLine: true},
		{args: []string{"config", "check", "good.toml", "case.toml"}, code: 1, stdout: "good.toml: ok", stderr: "case.toml:3: E_cap"},
		{args: []string{"config", "show", "--config", "good.toml"}, code: 0, stdout: "# The effective configuration"},
		{args: []string{"config", "show", "--config", "nosuch.toml"}, code: 1, stderr: "nosuch.toml: no such file or directory\n", noStdout: true, exactLine: true},
		{args: []string{"config", "show", "--difficulty", "hard"}, code: 1, stderr: "--difficulty: preset: unknown preset \"hard\" (known: classic, early, late, mid)\n", noStdout: true, exactLine: true},
		{args: []string{"config", "show", "--ruleset", "hex"}, code: 1, stderr: "--ruleset: unknown ruleset \"hex\" (known: cellular, classic)\n", noStdout: true, exactLine: true},
		{args: []string{"config", "show", "--ruleset", "cellular", "--set", "blight.charges=0"}, code: 1, stderr: "--set: blight.charges: 0 is outside 1 to 100\n", noStdout: true, exactLine: true},
		{args: []string{"config", "show", "--ruleset", "cellular", "--set", "blight=2"}, code: 1, stderr: "--set: blight: want a table, got the integer 2\n", noStdout: true, exactLine: true},
		{args: []string{"config", "show", "--set", "size"}, code: 1, stderr: "--set: \"size\" is not key=value\n", noStdout: true, exactLine: true},
		{args: []string{"config", "show", "--config", "good.toml", "--set", "sise=3"}, code: 1, stderr: "--set: sise: unknown key", noStdout: true},
		{args: []string{"config", "show", "--difficulty", "mid", "--config", "conflict.toml"}, code: 1, stderr: "conflict.toml:1: preset: \"late\" conflicts with --difficulty mid\n", noStdout: true, exactLine: true},
		// usage errors
		{args: []string{"config"}, code: 2, stderr: "Usage:", noStdout: true},
		{args: []string{"config", "frob"}, code: 2, stderr: `unknown subcommand "frob"`, noStdout: true},
		{args: []string{"config", "show", "extra"}, code: 2, stderr: "2048 config show: unexpected argument \"extra\"; see 2048 config show --help\n", noStdout: true, exactLine: true},
		{args: []string{"config", "show", "--nosuch"}, code: 2, stderr: "2048 config show: unknown flag --nosuch; see 2048 config show --help\n", noStdout: true, exactLine: true},
		{args: []string{"config", "show", "--set"}, code: 2, stderr: "2048 config show: --set needs a value; see 2048 config show --help\n", noStdout: true, exactLine: true},
		{args: []string{"config", "check"}, code: 2, stderr: "no file to check", noStdout: true},
		// help
		{args: []string{"help", "config"}, code: 0, stdout: "Usage:\n  2048 config show"},
		{args: []string{"config", "help"}, code: 0, stdout: "Usage:\n  2048 config show"},
		{args: []string{"config", "show", "-h"}, code: 0, stderr: "-set key=value"},
		{args: []string{"config", "check", "-h"}, code: 0, stderr: "Usage: 2048 config check"},
		{args: []string{"help"}, code: 0, stdout: "2048 is a 2048 modding host"},
	}
	for _, tt := range tests {
		out, errOut, code := run2048(t, dir, tt.args...)
		switch {
		case code != tt.code:
			t.Errorf("2048 %q: exit %d, want %d\n%s%s", tt.args, code, tt.code, out, errOut)
		case !strings.HasPrefix(out, tt.stdout):
			t.Errorf("2048 %q: stdout %q, want it to start with %q", tt.args, out, tt.stdout)
		case tt.noStdout && out != "":
			t.Errorf("2048 %q: stdout %q, want none", tt.args, out)
		case tt.exactLine && errOut != tt.stderr:
			t.Errorf("2048 %q: stderr %q, want %q", tt.args, errOut, tt.stderr)
		case !strings.Contains(errOut, tt.stderr):
			t.Errorf("2048 %q: stderr %q, want it to contain %q", tt.args, errOut, tt.stderr)
		}
	}
	if out, _, _ := run2048(t, dir, "help"); !strings.Contains(out, "2048 config show") || !strings.Contains(out, "2048 config check") {
		t.Errorf("help does not list the config commands:\n%s", out)
	}
}

// TestSetFlags checks the repeatable --set flag.
func TestSetFlags(t *testing.T) {
	var s setFlags
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.Var(&s, "set", "")
	if err := fs.Parse([]string{"--set", "a=1", "-set=b=2", "--set", "c = 3"}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(s, "|") != "a=1|b=2|c = 3" || s.String() != "a=1 b=2 c = 3" {
		t.Errorf("setFlags = %q", s)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"config", "show", "--ruleset", "cellular", "--set", "e_cap=9", "--set", "e_cap=11"}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "\ne_cap = 11\n") || !strings.Contains(out.String(), "#   --set e_cap=9\n#   --set e_cap=11\n") {
		t.Errorf("exit %d:\n%s%s", code, out.String(), errOut.String())
	}
}

// TestConfigInFixtures checks the configuration's layers and errors as
// fixtures meet them: Difficulty: a preset or a file, then Config: lines.
func TestConfigInFixtures(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"mine.toml": "preset = \"mid\"\n[blight]\ncharges = 0\n",
		"x.cases": `Case: A wrong case
Ruleset: cellular
Config: E_cap=9
Error: E_cap: unknown key (did you mean "e_cap"?)

Case: B out of range in a Config: line
Ruleset: cellular
Difficulty: late
Config: decay.amount=2 goal.stabilize_per_cell=11
Error: goal.stabilize_per_cell: 11 is outside 0 to e_cap (10)

Case: C a bad file
Difficulty: mine.toml
Error: mine.toml:3: blight.charges: 0 is outside 1 to 100

Case: D a table against a leaf
Difficulty: early
Config: blight=1
Error: blight: want a table, got the integer 1

Case: E a classic key in cellular
Difficulty: mid
Config: size=5
Error: size is a key of the classic ruleset
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, code := run2048(t, dir, "test", "-v", "x.cases")
	if code != 0 || !strings.HasSuffix(out, "5 passed, 0 failed\n") {
		t.Errorf("exit %d:\n%s%s", code, out, errOut)
	}
}
