package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/mod2048/mod2048/cmd/2048/internal/progress"
	"github.com/mod2048/mod2048/scripting/sim"
)

// TestSimCommand: 2048 sim through the real binary: the report, its JSON's
// keys, the CSV's rows, shards merged into the whole run, a sweep and a
// comparison.
func TestSimCommand(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := run2048(t, dir, "sim", "run", "--games", "12", "--policy", "random", "--seed", "3", "--json", "all.json", "--csv", "all.csv", "--jobs", "2")
	if code != 0 {
		t.Fatalf("sim: exit %d\n%s%s", code, out, errOut)
	}
	golden(t, "sim_random.golden", out)
	again, _, _ := run2048(t, dir, "sim", "run", "--games", "12", "--policy", "random", "--seed", "3", "--jobs", "1")
	if again != out {
		t.Error("--jobs 1 and 2 print different reports")
	}
	data, err := os.ReadFile(filepath.Join(dir, "all.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"games", "wins", "losses", "unfinished", "win_rate", "loss_rate", "score", "turns", "config", "policy", "seed"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("the JSON lacks %q", k)
		}
	}
	for _, k := range []string{"p10", "p50", "p90", "max"} {
		if _, ok := doc["score"].(map[string]any)[k]; !ok {
			t.Errorf("score lacks %q", k)
		}
	}
	if csv, _ := os.ReadFile(filepath.Join(dir, "all.csv")); strings.Count(string(csv), "\n") != 13 || !strings.HasPrefix(string(csv), "game,seed,outcome,score,turns,top\n") {
		t.Errorf("the CSV:\n%s", csv)
	}

	// Three shards merge into the whole run.
	var files []string
	for _, s := range []string{"0/3", "1/3", "2/3"} {
		f := "shard" + s[:1] + ".json"
		if _, errOut, code := run2048(t, dir, "sim", "run", "--games", "12", "--policy", "random", "--seed", "3", "--shard", s, "--json", f); code != 0 {
			t.Fatalf("shard %s: %s", s, errOut)
		}
		files = append(files, f)
	}
	merged, errOut, code := run2048(t, dir, append([]string{"sim", "merge", "--json", "merged.json"}, files...)...)
	if code != 0 || merged != out {
		t.Errorf("merge: exit %d\n%s%s\nwant\n%s", code, merged, errOut, out)
	}
	if m, _ := os.ReadFile(filepath.Join(dir, "merged.json")); string(m) != string(data) {
		t.Error("the merged JSON differs from the whole run's")
	}

	out, _, code = run2048(t, dir, "sim", "study", "--games", "6", "--policy", "greedy", "--sweep", "size=3,4")
	if code != 0 || !strings.Contains(out, "size=3") || !strings.Contains(out, "size=4") {
		t.Errorf("sweep: exit %d\n%s", code, out)
	}
	os.WriteFile(filepath.Join(dir, "five.toml"), []byte("size = 5\n"), 0o644)
	out, _, code = run2048(t, dir, "sim", "study", "--games", "6", "--policy", "random", "--compare", "five.toml")
	if code != 0 || !strings.Contains(out, "five.toml") || !strings.Contains(out, "significant") {
		t.Errorf("compare: exit %d\n%s", code, out)
	}
	// The plots: SVG and PNG, by the name.
	for _, f := range []string{"run.svg", "run.png"} {
		if _, errOut, code := run2048(t, dir, "sim", "run", "--games", "20", "--policy", "random", "--plot", f); code != 0 {
			t.Fatalf("--plot %s: %s", f, errOut)
		}
		data, _ := os.ReadFile(filepath.Join(dir, f))
		if len(data) < 1000 || (f == "run.svg" && !strings.Contains(string(data), "Survival")) || (f == "run.png" && string(data[1:4]) != "PNG") {
			t.Errorf("%s: %d bytes", f, len(data))
		}
	}
	for _, args := range [][]string{{"sim", "run", "--plot", "run.gif"}, {"sim", "run", "--games", "0"}, {"sim", "run", "--shard", "3/3"}, {"sim", "run", "--policy", "clever"}} {
		if _, _, code := run2048(t, dir, args...); code == 0 {
			t.Errorf("%v: exit 0", args)
		}
	}
}

// TestSimStudies: the skill ladder, comparisons (of files and of mod
// sets), sweeps (of settings and of mods' settings) and the levers through
// the real binary, each with its table, and --json, --csv and --plot
// honoured; an unknown key is refused, with the nearest key, before any
// table is printed.
func TestSimStudies(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "five.toml"), []byte("size = 5\n"), 0o644)
	freeze, _ := filepath.Abs("../../mods/freeze")
	// A mod with a choice: --levers plays each of its other choices.
	pick := writeModFiles(t, filepath.Join(dir, "pick"), map[string]string{
		"mod.toml": manifest("pick", "1.0") + "\n[settings.way]\ntype = \"choice\"\nchoices = [\"up\", \"down\", \"far away\"]\ndefault = \"up\"\ndescription = \"A way.\"\n",
		"main.lua": `local way = game.settings.way`,
	})
	cases := []struct {
		name  string
		args  []string
		wants []string
	}{
		{"skill", []string{"--skill", "--games", "4", "--set", "size=3"},
			[]string{"skill", "random", "greedy", "lookahead 1", "lookahead 2", "expert", "won", "unfinished", "median turns"}},
		{"compare", []string{"--games", "6", "--policy", "random", "--compare", "five.toml"},
			[]string{"five.toml", "won − classic", "significant", "(", "to"}},
		{"compare skill", []string{"--games", "3", "--skill", "--set", "size=3", "--compare", "five.toml"},
			[]string{"five.toml", "lookahead 2", "expert", "won − base"}},
		{"sweep", []string{"--games", "6", "--policy", "greedy", "--sweep", "size=3,4"},
			[]string{"size=3", "size=4", "%", "–"}},
		{"mod sweep", []string{"--games", "4", "--policy", "random", "--mod", freeze, "--sweep", "freeze.interval=2,3"},
			[]string{"freeze.interval=2", "freeze.interval=3"}},
		{"mod levers", []string{"--games", "4", "--policy", "random", "--set", "size=3", "--mod", freeze, "--levers"},
			[]string{"base + freeze", "size=4", "freeze.interval=", "won − base + freeze"}},
		{"choice levers", []string{"--games", "3", "--policy", "random", "--set", "size=3", "--mod", pick, "--levers"},
			[]string{`pick.way="down"`, `pick.way="far away"`}},
		{"compare mods", []string{"--games", "4", "--policy", "random", "--compare-mods", freeze, "--compare-mods", ""},
			[]string{"mods: " + freeze, "no mods", "won − classic"}},
		{"skills", []string{"--skills", "greedy,expert", "--games", "3", "--set", "size=3"},
			[]string{"greedy", "expert"}},
		{"levers", []string{"--games", "3", "--policy", "random", "--set", "size=3", "--levers"},
			[]string{"size=2", "size=4", "four_probability=0.05", "stop_on_win=false", "won − base"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"sim", "study"}, c.args...)
			args = append(args, "--json", c.name+".json", "--csv", c.name+".csv", "--plot", c.name+".svg")
			out, errOut, code := run2048(t, dir, args...)
			if code != 0 {
				t.Fatalf("exit %d\n%s%s", code, out, errOut)
			}
			for _, w := range c.wants {
				if !strings.Contains(out, w) {
					t.Errorf("the table lacks %q:\n%s", w, out)
				}
			}
			var doc struct {
				Kind    string
				Entries []struct{ Config, Skill string }
			}
			data, _ := os.ReadFile(filepath.Join(dir, c.name+".json"))
			if err := json.Unmarshal(data, &doc); err != nil || len(doc.Entries) < 2 {
				t.Errorf("--json: %v, %d entries\n%s", err, len(doc.Entries), data)
			}
			rows, _ := os.ReadFile(filepath.Join(dir, c.name+".csv"))
			if strings.Count(string(rows), "\n") != len(doc.Entries)+1 || !strings.HasPrefix(string(rows), "config,skill,games,won,won_lo,won_hi,") {
				t.Errorf("--csv:\n%s", rows)
			}
			svg, _ := os.ReadFile(filepath.Join(dir, c.name+".svg"))
			if !strings.Contains(string(svg), "Won by turn") || !strings.Contains(string(svg), "Hazard") {
				t.Errorf("--plot: %d bytes without the won and hazard panels", len(svg))
			}
		})
	}
	for _, bad := range []struct {
		args []string
		want string
	}{
		{[]string{"--sweep", "blight.rte=0.1,0.2", "--ruleset", "cellular"}, `did you mean "blight.rate"?`},
		{[]string{"--sweep", "sizee=3,4"}, `did you mean "size"?`},
		{[]string{"--mod", freeze, "--sweep", "freeze.intervl=2"}, "intervl"},
		{[]string{"--sweep", "size=3", "--levers"}, "each make a study of their own"},
		{[]string{"--skills", "greedy,clever"}, `"clever" is not a rung of the ladder`},
	} {
		out, errOut, code := run2048(t, dir, append([]string{"sim", "study", "--games", "2"}, bad.args...)...)
		if code == 0 || out != "" || !strings.Contains(errOut, bad.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want an error with %q and no table", bad.args, code, out, errOut, bad.want)
		}
	}
}

// TestSimGC: a lab run sets the collector's pace to sim.GCPercent and puts
// it back after; a GOGC the user set is left alone.
func TestSimGC(t *testing.T) {
	t.Setenv("GOGC", "")
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	restore := simGC()
	if got := debug.SetGCPercent(sim.GCPercent); got != sim.GCPercent {
		t.Errorf("during a run GOGC is %d, want %d", got, sim.GCPercent)
	}
	restore()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("after a run GOGC is %d, want 100 again", got)
	}
	t.Setenv("GOGC", "150")
	restore = simGC()
	got := debug.SetGCPercent(100)
	restore()
	if got != 100 {
		t.Errorf("with GOGC set, a run changed the pace to %d", got)
	}
}

// TestSimProgressLines: off a terminal (a log, a pipe), a run says how far
// it is on stderr, a line at a time: the games done of the total, the rate
// and the time left; the table still goes to stdout alone.
func TestSimProgressLines(t *testing.T) {
	defer func(d time.Duration) { progress.Every = d }(progress.Every)
	progress.Every = 0
	var stdout, stderr bytes.Buffer
	if code := runSimRun([]string{"--games", "6", "--policy", "random", "--jobs", "1"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "2048 sim: playing ") || !strings.Contains(lines[0], "1 / 6 games (16%)") || !strings.Contains(lines[4], "5 / 6 games") || !strings.Contains(lines[2], "games/s, about ") {
		t.Errorf("progress lines:\n%s", stderr.String())
	}
	if strings.Contains(stdout.String(), "playing") {
		t.Errorf("progress on stdout:\n%s", stdout.String())
	}
	if got := progress.Line("classic", 30, 120, 10*time.Second); got != "playing classic: 30 / 120 games (25%), 3.00 games/s, about 30s left" {
		t.Errorf("progressLine: %q", got)
	}
}

// TestSimInterrupted: Ctrl-C (SIGINT) stops a run at once and writes the
// games that finished, marked partial: the JSON, and the table; the exit
// status says it stopped.
func TestSimInterrupted(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(binary, "sim", "run", "--games", "200000", "--policy", "random", "--jobs", "1", "--json", "run.json")
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(stderr.String(), "stopped: the report holds the") {
		t.Fatalf("exit %v\n%s", err, stderr.String())
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the run took %v to stop", d)
	}
	data, err := os.ReadFile(filepath.Join(dir, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Games    int  `json:"games"`
		RunGames int  `json:"run_games"`
		Partial  bool `json:"partial"`
	}
	if err := json.Unmarshal(data, &doc); err != nil || !doc.Partial || doc.Games < 1 || doc.Games >= doc.RunGames || doc.RunGames != 200000 {
		t.Errorf("the JSON: %v %+v", err, doc)
	}
	if !strings.Contains(stdout.String(), "partial: the run was stopped") {
		t.Errorf("the table does not say it is partial:\n%s", stdout.String())
	}
}

// TestSimPrecision: --precision plays a run in batches of 25 until its win
// rate is known to within the half-width asked, and says how many games
// that took; the same flags stop after the same games. A run that gives
// neither --games nor --precision plays to ±7 points.
func TestSimPrecision(t *testing.T) {
	var out1, out2, errOut bytes.Buffer
	args := []string{"--precision", "0.1", "--policy", "random", "--set", "size=3", "--jobs", "2"}
	if code := runSimRun(args, &out1, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out1.String(), "policy random · 25 games") || !strings.Contains(out1.String(), "known to ±10.0 points") {
		t.Errorf("a random player's 0%% is known to ±10 points after the first batch:\n%s", out1.String())
	}
	args[len(args)-1] = "1"
	if code := runSimRun(args, &out2, &errOut); code != 0 || out1.String() != out2.String() {
		t.Errorf("--jobs 1 and 2 differ:\n%s\n%s", out1.String(), out2.String())
	}
	var def bytes.Buffer
	if code := runSimRun([]string{"--policy", "random", "--set", "size=3"}, &def, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(def.String(), "policy random · 25 games") || !strings.Contains(def.String(), "known to ±7.0 points (or 5000 games") {
		t.Errorf("the defaults do not play to ±7 points:\n%s", def.String())
	}
}

// TestSimBudget: --budget ends a run with the game at which its games'
// moves (a lookahead's searches included) reach it, the same games with
// one worker or two; the report and the study's table say so, and a
// progress line says the moves played against the budget.
func TestSimBudget(t *testing.T) {
	var out1, out2, errOut bytes.Buffer
	args := []string{"--budget", "20000", "--games", "40", "--policy", "lookahead", "--depth", "1", "--set", "size=3", "--jobs", "2"}
	if code := runSimRun(args, &out1, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out1.String(), "played until its games had played 20,000 moves") || strings.Contains(out1.String(), "· 40 games") {
		t.Errorf("the run did not end at its budget:\n%s", out1.String())
	}
	args[len(args)-1] = "1"
	if code := runSimRun(args, &out2, &errOut); code != 0 || out1.String() != out2.String() {
		t.Errorf("--jobs 1 and 2 differ:\n%s\n%s", out1.String(), out2.String())
	}
	var study bytes.Buffer
	if code := runSimStudy([]string{"--budget", "20000", "--games", "40", "--skills", "random,lookahead 1", "--set", "size=3"}, &study, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(study.String(), "* ended at its share of the study's budget (20,000 moves of work") || !strings.Contains(study.String(), "*  ") {
		t.Errorf("the study does not mark the row ended at its budget:\n%s", study.String())
	}
	// The budget is the study's: its runs share it, the later ones taking
	// what the earlier left.
	var js bytes.Buffer
	path := filepath.Join(t.TempDir(), "study.json")
	if code := runSimStudy([]string{"--budget", "20000", "--games", "40", "--skills", "random,lookahead 1", "--set", "size=3", "--json", path}, &js, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var st sim.Study
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	var spent uint64
	for _, e := range st.Entries {
		spent += e.Report.Moves
	}
	if len(st.Entries) != 2 || st.Budget != 20000 || spent > 20000+st.Entries[1].Report.Moves/uint64(st.Entries[1].Report.Games)*2 || st.Entries[1].Report.Budget <= 10000 {
		t.Errorf("the study's budget %d: its runs spent %d, the second's share %d", st.Budget, spent, st.Entries[1].Report.Budget)
	}
	if code := runSimRun([]string{"--budget", "100", "--shard", "1/2"}, &study, &errOut); code != 2 || !strings.Contains(errOut.String(), "--budget and --shard do not go together") {
		t.Errorf("--budget with --shard: exit %d, %s", code, errOut.String())
	}
	if got, want := progress.BudgetLine(12_500_000, 50_000_000, 10*time.Second), "; 12.5 million of 50 million moves, the budget spent in about 30s"; got != want {
		t.Errorf("budgetLine: got %q, want %q", got, want)
	}
}

// TestSimProgressTicker: off a terminal a run writes a line every
// progressEvery though no game ends in it, with the moves played against
// its budget; none comes after the run's table.
func TestSimProgressTicker(t *testing.T) {
	defer func(d time.Duration) { progress.Every = d }(progress.Every)
	progress.Every = 2 * time.Millisecond
	var out bytes.Buffer
	errOut := &syncBuffer{}
	args := []string{"--budget", "3000000", "--games", "60", "--policy", "lookahead", "--depth", "2", "--set", "size=3", "--jobs", "2"}
	if code := runSimRun(args, &out, errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	lines := errOut.String()
	if !strings.Contains(lines, " million moves") || !strings.Contains(lines, " of 3 million moves") {
		t.Errorf("no line with the moves against the budget:\n%s", lines)
	}
	n := strings.Count(lines, "\n")
	time.Sleep(20 * time.Millisecond)
	if strings.Count(errOut.String(), "\n") != n {
		t.Error("a progress line came after the run was done")
	}
}

// TestStudyProgressLine: off a terminal a study's lines are one line for
// the whole study, not a run's: the run under way of the study's runs,
// the work done of the whole study's budget and the run's share; none
// after the table.
func TestStudyProgressLine(t *testing.T) {
	defer func(d time.Duration) { progress.Every = d }(progress.Every)
	progress.Every = 2 * time.Millisecond
	var out bytes.Buffer
	errOut := &syncBuffer{}
	args := []string{"--budget", "3000000", "--games", "60", "--skills", "lookahead 1,lookahead 2", "--set", "size=3", "--jobs", "2"}
	if code := runSimStudy(args, &out, errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	lines := errOut.String()
	if !strings.Contains(lines, "2048 sim: study, run 2 of 2, base · lookahead 2: ") || !strings.Contains(lines, " of at most 3 million moves (this run's share ") {
		t.Errorf("no line of the whole study:\n%s", lines)
	}
	if strings.Contains(lines, "playing ") {
		t.Errorf("a run's own line in a study:\n%s", lines)
	}
	n := strings.Count(lines, "\n")
	time.Sleep(20 * time.Millisecond)
	if strings.Count(errOut.String(), "\n") != n {
		t.Error("a progress line came after the study was done")
	}
}

// TestPreciseLine: off a terminal, a run played to a precision says the
// games done, the most it plays, the half-width so far and the one wanted.
func TestPreciseLine(t *testing.T) {
	got := progress.PreciseLine("mid · expert", 50, 5000, 10*time.Second, 0.0912, 0.07)
	want := "playing mid · expert: 50 games (at most 5000) until the win rate is known to ±7.0 points (±9.1 so far), 5.00 games/s"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestSimTune: --tune moves the levers named toward the win rate asked,
// writes a configuration that config check takes and that holds the
// levers' tuned values, reports the search and a check on fresh games,
// and the same flags write the same file.
func TestSimTune(t *testing.T) {
	dir := t.TempDir()
	args := []string{"sim", "tune", "--ruleset", "cellular", "--difficulty", "mid", "--tune", "greedy=0.2",
		"--tune-keys", "goal.turns,blight.rate", "--tune-stages", "8x2,20,40", "--games", "40",
		"--write", "tuned.toml", "--json", "tune.json", "--plot", "tune.svg"}
	out, errOut, code := run2048(t, dir, args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"targets: greedy 20%", "goal.turns", "blight.rate", "the tuned values on 40 fresh games (seed 2)", "verdict: the tuned configuration"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report has no %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "2048 sim: tune (exploring, generation 1, 8 games) candidate 1:") || !strings.Contains(errOut, "refining, round 2 of 2, 40 games") {
		t.Errorf("no progress lines:\n%s", errOut)
	}
	file, err := os.ReadFile(filepath.Join(dir, "tuned.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if check, e, code := run2048(t, dir, "config", "check", "tuned.toml"); code != 0 {
		t.Fatalf("config check: exit %d\n%s%s", code, check, e)
	}
	var doc struct {
		Answer []float64 `json:"answer"`
		Check  []struct {
			Skill string  `json:"skill"`
			Rate  float64 `json:"rate"`
		} `json:"check"`
	}
	data, _ := os.ReadFile(filepath.Join(dir, "tune.json"))
	if err := json.Unmarshal(data, &doc); err != nil || len(doc.Answer) != 2 || len(doc.Check) != 1 {
		t.Fatalf("the JSON: %v\n%s", err, data)
	}
	for _, line := range []string{fmt.Sprintf("turns = %d\n", int(doc.Answer[0])), fmt.Sprintf("rate = %v\n", doc.Answer[1])} {
		if !strings.Contains(string(file), line) {
			t.Errorf("the file has no %q:\n%s", line, file)
		}
	}
	if !strings.HasPrefix(string(file), "# Tuned by: 2048 sim tune --ruleset cellular") {
		t.Errorf("the file's header:\n%s", file[:200])
	}
	// The same flags, the same file; and with one slot for games (--jobs
	// 1), where the candidates measured together take turns, the same
	// file under another command.
	again := t.TempDir()
	if _, e, code := run2048(t, again, args...); code != 0 {
		t.Fatal(e)
	}
	second, _ := os.ReadFile(filepath.Join(again, "tuned.toml"))
	if string(second) != string(file) {
		t.Errorf("the same flags wrote another file")
	}
	one := t.TempDir()
	if _, e, code := run2048(t, one, append(args, "--jobs", "1")...); code != 0 {
		t.Fatal(e)
	}
	third, _ := os.ReadFile(filepath.Join(one, "tuned.toml"))
	_, body, _ := strings.Cut(string(file), "\n")
	if _, got, _ := strings.Cut(string(third), "\n"); got != body {
		t.Errorf("--jobs 1 wrote another file:\n%s\nwant\n%s", got, body)
	}
}

// TestSimTuneScreens: a tune that names no lever screens every numeric
// setting at the skills named, reports each one's move and the set it
// chose, and tunes those.
func TestSimTuneScreens(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := run2048(t, dir, "sim", "tune", "--ruleset", "cellular", "--difficulty", "mid", "--tune", "greedy=0.5",
		"--tune-screen", "6", "--tune-stages", "4x1,10", "--games", "10", "--json", "tune.json")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"the levers screened at greedy, 6 games a point", "goal.stabilize_per_cell", "yes\n", "the screen's model: the levers chosen reach greedy"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report has no %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "2048 sim: tune: screening the levers, 1 of ") || !strings.Contains(errOut, "2048 sim: tune: the levers chosen: ") {
		t.Errorf("no screening lines:\n%s", errOut)
	}
	var doc struct {
		Levers []struct{ Key string } `json:"levers"`
		Screen struct {
			Effects []struct{ Lever struct{ Key string } } `json:"effects"`
			Chosen  []int                                  `json:"chosen"`
		} `json:"screen"`
	}
	data, _ := os.ReadFile(filepath.Join(dir, "tune.json"))
	if err := json.Unmarshal(data, &doc); err != nil || len(doc.Screen.Chosen) == 0 || len(doc.Screen.Chosen) != len(doc.Levers) {
		t.Fatalf("the JSON: %v\n%s", err, data)
	}
	for i, c := range doc.Screen.Chosen {
		if doc.Screen.Effects[c].Lever.Key != doc.Levers[i].Key {
			t.Errorf("the screen chose %s, the tune moved %s", doc.Screen.Effects[c].Lever.Key, doc.Levers[i].Key)
		}
	}
}

// TestSimTuneWidens: a lever named with no range widens its range itself
// where the target lies past it (greedy wins every game only below the
// goal's default range, 0.19 to 0.76 on mid), within the setting's own
// bound, and says so; one named with a range keeps it.
func TestSimTuneWidens(t *testing.T) {
	for _, key := range []string{"goal.stabilize_per_cell", "goal.stabilize_per_cell=0.19:0.76"} {
		out, errOut, code := run2048(t, t.TempDir(), "sim", "tune", "--ruleset", "cellular", "--difficulty", "mid", "--tune", "greedy=1",
			"--tune-keys", key, "--tune-stages", "4x2,10,10,10", "--games", "10")
		if code != 0 {
			t.Fatalf("exit %d\n%s%s", code, out, errOut)
		}
		const said = "goal.stabilize_per_cell's range widened at its low end, from 0.19–0.76 to 0.00057–0.76"
		if widen := !strings.Contains(key, "="); strings.Contains(out, said) != widen || strings.Contains(errOut, "2048 sim: tune: "+said) != widen {
			t.Errorf("--tune-keys %s: widened %v, want %v:\n%s%s", key, !widen, widen, out, errOut)
		}
	}
}

// TestSimTuneModSetting: --tune moves a mod's setting, within the bounds
// of its manifest, and says the --mod-set to give beside the file.
func TestSimTuneModSetting(t *testing.T) {
	freeze, err := filepath.Abs("../../mods/freeze")
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run2048(t, t.TempDir(), "sim", "tune", "--mod", freeze, "--set", "size=3", "--set", "win_value=32",
		"--tune", "random=0.3", "--tune-keys", "freeze.interval=1:200", "--tune-stages", "4x2,10", "--games", "20")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out, "freeze.interval") || !strings.Contains(out, "--mod-set freeze.interval=") {
		t.Errorf("the report:\n%s", out)
	}
	if !strings.Contains(out, "1 to 100") {
		t.Errorf("the range is not clipped to the manifest's bounds (1 to 100):\n%s", out)
	}
}

// TestSimTuneInterrupted: Ctrl-C stops a tune at once and writes the best
// candidate measured so far, marked partial, with exit status 1.
func TestSimTuneInterrupted(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(binary, "sim", "tune", "--ruleset", "cellular", "--difficulty", "mid", "--tune", "greedy=0.2",
		"--tune-keys", "goal.turns,blight.rate", "--tune-stages", "60x50", "--jobs", "1", "--write", "tuned.toml")
	cmd.Dir = dir
	var stdout bytes.Buffer
	var stderr syncBuffer // read while the command writes it
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(stderr.String(), "candidate 2:") && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(stderr.String(), "stopped: the report and the file hold the best candidate measured so far") {
		t.Fatalf("exit %v\n%s", err, stderr.String())
	}
	file, err := os.ReadFile(filepath.Join(dir, "tuned.toml"))
	if err != nil || !strings.Contains(string(file), "# partial: the tune was stopped") {
		t.Fatalf("the file: %v\n%s", err, file)
	}
	if !strings.Contains(stdout.String(), "partial: the tune was stopped") {
		t.Errorf("the report:\n%s", stdout.String())
	}
}

// TestSimEndlessMod: the cursed row (a mod that keeps every new tile out
// of one row, scripting/testdata/guide/cursed_row) makes the one-move
// lookahead's games endless, which the verdict names, beside the same
// games without it (5 games: fewer unfinished are too few to call
// endless); the expert's at 100,000 turns in the closing note's table,
// here at 3,000.
func TestSimEndlessMod(t *testing.T) {
	mod, err := filepath.Abs("../../scripting/testdata/guide/cursed_row")
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run2048(t, t.TempDir(), "sim", "study", "--mod", mod, "--skills", "lookahead 1", "--games", "5", "--max-turns", "3000")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		"classic               lookahead 1", // the games without the mod, beside
		"classic + cursed_row  lookahead 1  unfinished 5 (turn 3000)",
		"verdict: lookahead 1: no significant change — no game won either way; median highest tile 256 → 256 (not significant); makes the games endless: 5 of 5 unfinished at 3,000 turns (0 of 5 without); from 5 games only",
		"verdict: cursed_row makes classic no easier and no harder for lookahead 1",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the study lacks %q:\n%s", want, out)
		}
	}
}

// TestErrorsALine: a configuration file's every error is printed, a line
// each, not as one line with its breaks escaped.
func TestErrorsALine(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bad.toml"), []byte("base = \"mid\"\nnope = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := run2048(t, dir, "sim", "run", "--config", "bad.toml", "--games", "1")
	if code == 0 || strings.Contains(errOut, `\n`) || !strings.Contains(errOut, "bad.toml:1: base: unknown key\nbad.toml:2: nope: unknown key") {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
}
