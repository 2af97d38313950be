package main

import (
	"archive/zip"
	"bufio"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
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

// zipEntries writes a zip of the entries in order (names may repeat).
func zipEntries(t *testing.T, entries ...[2]string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mod.zip")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := zip.NewWriter(f)
	for _, e := range entries {
		fw, err := w.Create(e[0])
		if err != nil {
			t.Fatal(err)
		}
		fw.Write([]byte(e[1]))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path
}

// TestModInstallLimits: a folder is held to a zip's limits (a sparse file
// of 8 GiB is refused unread), a folder holding the mod folder is refused,
// staging folders left behind are skipped by mod list and removed by the
// next install, errors name the zip, not the staging folder, a zip with an
// entry twice is refused, and a lower version needs --force.
func TestModInstallLimits(t *testing.T) {
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	mods := filepath.Join(data, "2048", "mods")
	dir := t.TempDir()

	big := writeModFiles(t, filepath.Join(dir, "big"), map[string]string{"mod.toml": manifest("big", "1.0"), "main.lua": ""})
	f, err := os.Create(filepath.Join(big, "screenshot.png"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(8 << 30); err != nil {
		t.Skip("no sparse file here:", err)
	}
	f.Close()
	out, errOut, code := run2048(t, dir, "mod", "install", big)
	if code != 1 || !strings.Contains(errOut, "has more than the 16 MiB a file of a mod may have") || !strings.Contains(errOut, "screenshot.png") {
		t.Errorf("a folder with an 8 GiB file: exit %d\n%s%s", code, out, errOut)
	}

	// A leftover staging folder: mod list skips it; an old one goes at
	// the next install.
	for _, name := range []string{".install-123", ".install-old"} {
		writeModFiles(t, filepath.Join(mods, name, "mod"), map[string]string{"main.lua": ""})
	}
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(filepath.Join(mods, ".install-old"), old, old)
	out, errOut, code = run2048(t, dir, "mod", "list")
	if code != 0 || strings.Contains(out+errOut, "not a mod") {
		t.Errorf("mod list with staging leftovers: exit %d\n%s%s", code, out, errOut)
	}

	v10 := writeModFiles(t, filepath.Join(dir, "v10"), map[string]string{"mod.toml": manifest("vmod", "1.10.0"), "main.lua": ""})
	v9 := writeModFiles(t, filepath.Join(dir, "v9"), map[string]string{"mod.toml": manifest("vmod", "1.9.0"), "main.lua": ""})
	if out, errOut, code = run2048(t, dir, "mod", "install", v10); code != 0 {
		t.Fatalf("install 1.10.0: exit %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(mods, ".install-old")); err == nil {
		t.Error("an old staging folder is left after an install")
	}
	if _, err := os.Stat(filepath.Join(mods, ".install-123")); err != nil {
		t.Error("a young staging folder (another install's?) was removed")
	}
	out, errOut, code = run2048(t, dir, "mod", "install", v9)
	if code != 1 || !strings.Contains(errOut, "is version 1.9.0 of mod vmod, lower than the installed 1.10.0: install it with --force") {
		t.Errorf("a lower version: exit %d\n%s%s", code, out, errOut)
	}
	if out, errOut, code = run2048(t, dir, "mod", "install", v9, "--force"); code != 0 || !strings.Contains(out, "installed vmod 1.9.0") {
		t.Errorf("a lower version with --force: exit %d\n%s%s", code, out, errOut)
	}

	// A folder holding the mod folder.
	out, errOut, code = run2048(t, dir, "mod", "install", data)
	if code != 1 || !strings.Contains(errOut, "holds the mod folder") {
		t.Errorf("installing a folder that holds the mod folder: exit %d\n%s%s", code, out, errOut)
	}

	for name, tt := range map[string]struct {
		zip, want string
	}{
		"bad manifest": {zipEntries(t, [2]string{"mod.toml", "id = \"z\"\nbogus = 1\n"}), "mod.zip/mod.toml:2:1: bogus: unknown key"},
		"twice":        {zipEntries(t, [2]string{"mod.toml", manifest("z", "1")}, [2]string{"main.lua", ""}, [2]string{"main.lua", "error('x')"}), `entry "main.lua" is in the zip twice`},
		"nul":          {zipEntries(t, [2]string{"mod.toml", manifest("z", "1")}, [2]string{"ma\x00in.lua", ""}), `entry "ma\x00in.lua" has a control character`},
		"lua error":    {zipEntries(t, [2]string{"mod.toml", manifest("z", "1")}, [2]string{"main.lua", "error('a\\0b')"}), "mod.zip/main.lua:1: a"},
	} {
		out, errOut, code := run2048(t, dir, "mod", "install", tt.zip)
		if code != 1 || !strings.Contains(errOut, tt.want) || strings.Contains(errOut, ".install-") || strings.Contains(errOut, "\x00") {
			t.Errorf("%s: exit %d, want %q\n%s%q", name, code, tt.want, out, errOut)
		}
	}
}

// TestRecordModFiles: --record writes the replay of a mod whose folder
// holds a large screenshot, a fixture added after it does not make the
// replay warn that the mod's files differ, and a replay that cannot be
// written is said: before the game when it cannot be written at all, and
// at the exit when a later write failed.
func TestRecordModFiles(t *testing.T) {
	dir := t.TempDir()
	mod := filepath.Join(dir, "bomb")
	if err := os.CopyFS(mod, os.DirFS(filepath.Join("..", "..", "mods", "bomb"))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "screenshot.png"), make([]byte, 2<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	p, cfg := testSession(t, dir, "--seed", "3", "--mod", mod, "--record", filepath.Join(dir, "r.replay"))
	sc := openScreen(t, cfg, 80, 24)
	sc.press("Left", "Up", "Right")
	if p.recordErr != nil {
		t.Fatalf("the replay was not written: %v", p.recordErr)
	}
	if err := os.WriteFile(filepath.Join(mod, "later.cases"), []byte("# a fixture\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run2048(t, dir, "replay", "--check", "r.replay")
	if code != 0 || strings.Contains(errOut, "differ") {
		t.Errorf("replay --check: exit %d\n%s%s", code, out, errOut)
	}

	// The replay's path turns into a folder: the next write fails, and
	// the failure is kept for the exit.
	if err := os.Remove(filepath.Join(dir, "r.replay")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "r.replay"), 0o755); err != nil {
		t.Fatal(err)
	}
	sc.press("Down", "Left", "Up", "Right")
	if p.recordErr == nil || !strings.Contains(p.recordErr.Error(), "the replay "+filepath.Join(dir, "r.replay")+" was not written") {
		t.Errorf("a failed write: %v", p.recordErr)
	}

	// A replay that cannot be written at all stops the game before it
	// starts.
	o, _, _ := parsePlay([]string{"--seed", "3", "--record", filepath.Join(dir, "no", "such", "r.replay")}, io.Discard)
	o.stateDir = dir
	p2, err := newPlayer(o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p2.start(o); err == nil || !strings.Contains(err.Error(), "the replay cannot be written") {
		t.Errorf("--record in a missing folder: %v", err)
	}
}

// TestSimMergeRuns: sim merge refuses shards of different runs (mods, mod
// settings, edited mod files, games), naming the field and the files, and
// names a missing shard unless --partial is given.
func TestSimMergeRuns(t *testing.T) {
	dir := t.TempDir()
	bomb := filepath.Join(dir, "bomb")
	if err := os.CopyFS(bomb, os.DirFS(filepath.Join("..", "..", "mods", "bomb"))); err != nil {
		t.Fatal(err)
	}
	shard := func(name, s string, args ...string) string {
		t.Helper()
		all := append([]string{"sim", "run", "--games", "6", "--policy", "random", "--max-turns", "30", "--shard", s, "--json", name}, args...)
		if out, errOut, code := run2048(t, dir, all...); code != 0 {
			t.Fatalf("%v: exit %d\n%s%s", all, code, out, errOut)
		}
		return name
	}
	plain0 := shard("plain0.json", "0/2")
	plain1 := shard("plain1.json", "1/2")
	bomb1 := shard("bomb1.json", "1/2", "--mod", bomb)
	set1 := shard("set1.json", "1/2", "--mod", bomb, "--mod-set", "bomb.interval=2")
	bomb0 := shard("bomb0.json", "0/2", "--mod", bomb)
	if err := os.WriteFile(filepath.Join(bomb, "main.lua"), []byte("-- edited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	edited1 := shard("edited1.json", "1/2", "--mod", bomb)
	games1 := shard("games1.json", "1/2", "--games", "8")
	three0 := shard("three0.json", "0/3")
	three2 := shard("three2.json", "2/3")
	tests := []struct {
		files []string
		code  int
		want  string
	}{
		{[]string{plain0, bomb1}, 1, "plain0.json and bomb1.json are not of the same run: they differ in mods (none, bomb "},
		{[]string{bomb0, set1}, 1, "bomb0.json and set1.json are not of the same run: they differ in mods"},
		{[]string{bomb0, edited1}, 1, "bomb0.json and edited1.json are not of the same run: they differ in mods"},
		{[]string{plain0, games1}, 1, "differ in run_games (6, 8)"},
		{[]string{three0, three2}, 1, "the run's shard 1/3 is missing"},
		{[]string{"--partial", three0, three2}, 0, "shards missing: 1/3"},
		{[]string{plain0, plain1}, 0, "6 games"},
	}
	for _, tt := range tests {
		out, errOut, code := run2048(t, dir, append([]string{"sim", "merge"}, tt.files...)...)
		if code != tt.code || !strings.Contains(out+errOut, tt.want) {
			t.Errorf("sim merge %v: exit %d, want %d and %q\n%s%s", tt.files, code, tt.code, tt.want, out, errOut)
		}
	}
}

// TestSimRefusesWhatCannotFit: a run of more games than a report can keep,
// and a sweep grid of too many configurations, are refused at once with a
// clear message, before any game is played.
func TestSimRefusesWhatCannotFit(t *testing.T) {
	dir := t.TempDir()
	var values []string
	for i := range 17 {
		values = append(values, strconv.Itoa(i+1))
	}
	many := strings.Join(values, ",")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"sim", "run", "--games", "100000000"}, "--games 100000000: a run plays at most 1000000 games"},
		{[]string{"sim", "study", "--games", "2", "--sweep", "size=" + many, "--sweep", "seed_hint=" + many}, "more than 256 configurations"},
	}
	for _, tt := range tests {
		start := time.Now()
		out, errOut, code := run2048(t, dir, tt.args...)
		if code != 2 || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, want 2 and %q\n%s%s", tt.args[:3], code, tt.want, out, errOut)
		}
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("%v: refused only after %v", tt.args[:3], d)
		}
	}
}

// TestSimRefusesConflictingFlags: flags of one subcommand that ask for two
// things at once, or the same thing twice, are refused with what to write
// instead, before any game is played; a flag of another subcommand is
// unknown, and says which has it.
func TestSimRefusesConflictingFlags(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"study", "--skill", "--policy", "greedy"}, "--policy greedy and --skill do not go together"},
		{[]string{"study", "--policy", "greedy", "--skills", "expert"}, "--policy greedy and --skills do not go together"},
		{[]string{"study", "--skill", "--skills", "greedy"}, "--skill and --skills do not go together"},
		{[]string{"study", "--skills", "expert,expert"}, "--skills names expert twice"},
		{[]string{"study", "--sweep", "size=2,3", "--sweep", "size=4"}, "give its values once, --sweep size=2,3,4"},
		{[]string{"study", "--sweep", "size=3,3"}, "--sweep size: the value 3 is given twice"},
		{[]string{"study", "--policy", "greedy"}, "nothing to study: name the skills"},
		{[]string{"run", "--precision", "0.05", "--shard", "0/2"}, "--precision and --shard do not go together"},
		{[]string{"run", "--precision", "0.7"}, "want a half-width between 0 and 0.5"},
		{[]string{"tune", "--tune", "greedy=0.3", "--skill"}, "unknown flag --skill (a flag of 2048 sim study)"},
		{[]string{"tune", "--tune", "greedy=0.3", "--policy", "expert"}, "unknown flag --policy (a flag of 2048 sim run and study)"},
		{[]string{"run", "--write", "t.toml"}, "unknown flag --write (a flag of 2048 sim tune)"},
		{[]string{"study", "--shard", "0/2"}, "unknown flag --shard (a flag of 2048 sim run)"},
		{[]string{"tune", "--tune-screen", "8"}, "want the win rates: --tune SKILL=RATE,..."},
		{[]string{"tune", "--tune", "greedy=0.3", "--tune-keys", "size", "--tune-screen", "8"}, "--tune-keys and --tune-screen do not go together"},
		{[]string{"tune", "--tune", "greedy=0.3", "--tune-screen", "0"}, "--tune-screen 0: want a number of games"},
		{[]string{"tune", "--tune", "master=0.3"}, "master is not a rung of the ladder"},
		{[]string{"tune", "--tune", "greedy=0.3,greedy=0.4"}, "greedy is named twice"},
		{[]string{"tune", "--tune", "greedy=2"}, "is not a number from 0 to 1"},
		{[]string{"tune", "--tune", "greedy=0.3", "--tune-keys", "size,size"}, "--tune-keys names size twice"},
		{[]string{"tune", "--tune", "greedy=0.3", "--tune-keys", "size=9:3"}, "want KEY=LO:HI with LO below HI"},
		{[]string{"tune", "--tune", "greedy=0.3", "--tune-keys", "stop_on_win"}, "stop_on_win is no number"},
		{[]string{"tune", "--tune", "greedy=0.3", "--tune-keys", "sise"}, "sise"},
		{[]string{"tune", "--tune", "greedy=0.3", "--tune-keys", "size", "--tune-stages", "10,8x2"}, "--tune-stages"},
	} {
		args := append([]string{"sim", tt.args[0], "--games", "2"}, tt.args[1:]...)
		out, errOut, code := run2048(t, dir, args...)
		if code != 2 || !strings.Contains(errOut, tt.want) || out != "" {
			t.Errorf("%v: exit %d, want 2 and %q\n%s%s", tt.args, code, tt.want, out, errOut)
		}
	}
}
