package main

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// recordGame plays a few moves of a seeded game with --record and returns
// the replay's path in dir.
func recordGame(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	_, cfg := testSession(t, dir, append([]string{"--seed", "3", "--record", path}, args...)...)
	sc := openScreen(t, cfg, 80, 24)
	sc.press("Left", "Up", "Right", "Down")
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestToFixtureOutput: --to-fixture refuses an existing file without
// --force, the replay itself even with --force, and anything but a regular
// file (a FIFO would hang); with --force it replaces the file atomically.
func TestToFixtureOutput(t *testing.T) {
	dir := t.TempDir()
	recordGame(t, dir, "bug.replay")
	original, err := os.ReadFile(filepath.Join(dir, "bug.replay"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "old.cases"), []byte("# mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.cases"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("old.cases", filepath.Join(dir, "link.cases")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--to-fixture", "bug.replay", "bug.replay"}, 1, "bug.replay is the replay being read"},
		{[]string{"--to-fixture", "bug.replay", "--force", "bug.replay"}, 1, "bug.replay is the replay being read"},
		{[]string{"--to-fixture", "./bug.replay", "--force", "bug.replay"}, 1, "is the replay being read"},
		{[]string{"--to-fixture", "old.cases", "bug.replay"}, 1, "old.cases exists: choose another name, or replace it with --force"},
		{[]string{"--to-fixture", "fifo.cases", "--force", "bug.replay"}, 1, "fifo.cases exists and is not a regular file"},
		{[]string{"--to-fixture", "link.cases", "--force", "bug.replay"}, 1, "link.cases exists and is not a regular file"},
		{[]string{"--to-fixture", ".", "--force", "bug.replay"}, 1, ". exists and is not a regular file"},
		{[]string{"--to-fixture", "new.cases", "bug.replay"}, 0, "wrote new.cases"},
		{[]string{"--to-fixture", "old.cases", "--force", "bug.replay"}, 0, "wrote old.cases"},
	}
	for _, tt := range tests {
		out, errOut, code := run2048(t, dir, append([]string{"replay"}, tt.args...)...)
		if code != tt.code || !strings.Contains(out+errOut, tt.want) {
			t.Errorf("2048 replay %v: exit %d, want %d and %q\n%s%s", tt.args, code, tt.code, tt.want, out, errOut)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "bug.replay")); string(data) != string(original) {
		t.Error("the replay was overwritten")
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "old.cases")); !strings.HasPrefix(string(data), "Case: ") && !strings.Contains(string(data), "Given:") {
		t.Errorf("old.cases was not replaced by --force:\n%s", data)
	}
	if out, _, code := run2048(t, dir, "test", "old.cases"); code != 0 {
		t.Errorf("the forced fixture fails: %s", out)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("a temporary file is left: %s", e.Name())
		}
	}
}

// writeModFiles writes a mod folder in dir: files by name.
func writeModFiles(t *testing.T, dir string, files map[string]string) string {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// manifest is a mod.toml of id at version, for any ruleset.
func manifest(id, version string) string {
	return "id = \"" + id + "\"\nname = \"X\"\nversion = \"" + version + "\"\napi_version = 1\n"
}

// TestModWithoutRulesets: a mod whose manifest names no ruleset is for
// both, and is test-loaded in both by install and check; a soak whose
// moves are all refused prints no time a move.
func TestModWithoutRulesets(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	dir := t.TempDir()
	boom := writeModFiles(t, filepath.Join(dir, "boom"), map[string]string{"mod.toml": manifest("boom", "1.0"), "main.lua": `error("boom")`})
	out, errOut, code := run2048(t, dir, "mod", "install", boom)
	if code != 1 || !strings.Contains(errOut, "boom") {
		t.Errorf("mod install of a failing mod without rulesets: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = run2048(t, dir, "mod", "check", boom)
	if code != 1 || !strings.Contains(out, "load: FAIL") {
		t.Errorf("mod check of a failing mod without rulesets: exit %d\n%s%s", code, out, errOut)
	}
	refuse := writeModFiles(t, filepath.Join(dir, "refuse"), map[string]string{"mod.toml": manifest("refuse", "1.0"),
		"main.lua": `game.on("before_move", function(ev) return {refuse = "never"} end)`})
	out, errOut, code = run2048(t, dir, "mod", "check", "--games", "2", "--moves", "5", refuse)
	for _, want := range []string{"load: ok (classic, cellular (any))", "soak classic: ok: 2 games, 0 moves", "soak cellular: ok: 2 games, 0 moves", "no moves played"} {
		if !strings.Contains(out, want) {
			t.Errorf("mod check: output lacks %q: exit %d\n%s%s", want, code, out, errOut)
		}
	}
	if strings.Contains(out, "µs a move") {
		t.Errorf("mod check times a soak of no moves:\n%s", out)
	}
	out, errOut, code = run2048(t, dir, "mod", "list", refuse)
	if code != 0 || !strings.Contains(out, "rulesets: classic, cellular (any)") {
		t.Errorf("mod list: exit %d\n%s%s", code, out, errOut)
	}
}

// TestReplayCheckEdited: --check refuses as damaged a replay whose digests
// were removed, or with a fault forged for a mod it does not have.
func TestReplayCheckEdited(t *testing.T) {
	dir := t.TempDir()
	path := recordGame(t, dir, "r.replay")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	noDigests := regexp.MustCompile(`"digest":"[0-9a-f]*"`).ReplaceAllString(string(data), `"digest":""`)
	forged := strings.Replace(string(data), `"turn":1,`, `"faults":[{"turn":1,"mod":"ghost","event":"tick","kind":"failsafe","message":"x"}],"turn":1,`, 1)
	for name, text := range map[string]string{"nodigest.replay": noDigests, "forged.replay": forged} {
		if text == string(data) {
			t.Fatalf("%s: the edit changed nothing", name)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		out, errOut, code := run2048(t, dir, "replay", "--check", name)
		if code != 1 || !strings.Contains(errOut, name+": damaged: action ") {
			t.Errorf("replay --check %s: exit %d\n%s%s", name, code, out, errOut)
		}
	}
}

// TestServeHostHeader: 2048 serve answers its own address and localhost,
// and refuses another name (DNS rebinding) with 421.
func TestServeHostHeader(t *testing.T) {
	cmd := exec.Command(binary, "serve", "--addr", "127.0.0.1:0", "--ruleset", "classic")
	cmd.Dir = t.TempDir()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`http://([^/]+)/`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("no address in %q", line)
	}
	_, port, _ := net.SplitHostPort(m[1])
	for host, want := range map[string]int{m[1]: 200, "localhost:" + port: 200, "evil.example:" + port: 421, "evil.example": 421} {
		req, _ := http.NewRequest("GET", "http://"+m[1]+"/defaults.json", nil)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Host %s: %d, want %d: %s", host, resp.StatusCode, want, body)
		}
	}
}

// TestControlCharacters: a file's text (a replay's program and mod path, a
// manifest's name and description, a fixture's case name) reaches the
// terminal with its control characters escaped, never raw.
func TestControlCharacters(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	dir := t.TempDir()
	path := recordGame(t, dir, "r.replay")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	program := regexp.MustCompile(`"program": "[^"]*"`).ReplaceAllString(string(data), `"program": "\u001b]0;pwned\u0007\u001b[2J"`)
	if err := os.WriteFile(filepath.Join(dir, "program.replay"), []byte(program), 0o644); err != nil {
		t.Fatal(err)
	}
	ghost := strings.Replace(string(data), `"mods": []`, `"mods": [{"id": "ghost", "version": "1", "hash": "", "path": "\u001b[2Jgone\u009b"}]`, 1)
	if ghost == string(data) {
		t.Fatal("no mods list to edit")
	}
	if err := os.WriteFile(filepath.Join(dir, "ghost.replay"), []byte(ghost), 0o644); err != nil {
		t.Fatal(err)
	}
	writeModFiles(t, filepath.Join(dir, "evil"), map[string]string{
		"mod.toml": `id = "evil"
name = "Evil\u001b[2J"
version = "1\u001b]0;t\u0007"
api_version = 1
description = "\u001b[31mred"
`,
		"main.lua": "",
	})
	if err := os.WriteFile(filepath.Join(dir, "esc.cases"), []byte("Case: \x1b[2JX\nGiven:\n2 2 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\nMove: Left\nSpawnScript: [{1,1,2}]\nScoreΔ: 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"replay", "--check", "program.replay"}, `recorded by 2048 \x1b]0;pwned\x07\x1b[2J`},
		{[]string{"replay", "--check", "ghost.replay"}, `\x1b[2Jgone\x9b`},
		{[]string{"mod", "list", "evil"}, `Evil\x1b[2J`},
		{[]string{"mod", "list", "evil"}, `\x1b[31mred`},
		{[]string{"mod", "check", "--games", "1", "--moves", "1", "evil"}, `manifest: ok (evil 1\x1b]0;t\x07)`},
		{[]string{"mod", "install", "evil"}, `installed evil 1\x1b]0;t\x07`},
		{[]string{"test", "esc.cases"}, `case \x1b[2JX`},
	}
	for _, tt := range tests {
		out, errOut, _ := run2048(t, dir, tt.args...)
		if strings.ContainsAny(out+errOut, "\x1b\x07\u009b") {
			t.Errorf("2048 %v writes a control character:\n%q\n%q", tt.args, out, errOut)
		}
		if !strings.Contains(out+errOut, tt.want) {
			t.Errorf("2048 %v: output lacks %q:\n%s%s", tt.args, tt.want, out, errOut)
		}
	}
}
