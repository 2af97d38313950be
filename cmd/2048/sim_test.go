package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSimCommand: 2048 sim through the real binary: the report, its JSON's
// keys, the CSV's rows, shards merged into the whole run, a sweep and a
// comparison.
func TestSimCommand(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := run2048(t, dir, "sim", "--games", "12", "--policy", "random", "--seed", "3", "--json", "all.json", "--csv", "all.csv", "--jobs", "2")
	if code != 0 {
		t.Fatalf("sim: exit %d\n%s%s", code, out, errOut)
	}
	golden(t, "sim_random.golden", out)
	again, _, _ := run2048(t, dir, "sim", "--games", "12", "--policy", "random", "--seed", "3", "--jobs", "1")
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
		if _, errOut, code := run2048(t, dir, "sim", "--games", "12", "--policy", "random", "--seed", "3", "--shard", s, "--json", f); code != 0 {
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

	out, _, code = run2048(t, dir, "sim", "--games", "6", "--policy", "greedy", "--sweep", "size=3,4")
	if code != 0 || !strings.Contains(out, "size=3") || !strings.Contains(out, "size=4") {
		t.Errorf("sweep: exit %d\n%s", code, out)
	}
	os.WriteFile(filepath.Join(dir, "five.toml"), []byte("size = 5\n"), 0o644)
	out, _, code = run2048(t, dir, "sim", "--games", "6", "--policy", "random", "--compare", "five.toml")
	if code != 0 || !strings.Contains(out, "five.toml") || !strings.Contains(out, "significant") {
		t.Errorf("compare: exit %d\n%s", code, out)
	}
	// The plots: SVG and PNG, by the name.
	for _, f := range []string{"run.svg", "run.png"} {
		if _, errOut, code := run2048(t, dir, "sim", "--games", "20", "--policy", "random", "--plot", f); code != 0 {
			t.Fatalf("--plot %s: %s", f, errOut)
		}
		data, _ := os.ReadFile(filepath.Join(dir, f))
		if len(data) < 1000 || (f == "run.svg" && !strings.Contains(string(data), "Survival")) || (f == "run.png" && string(data[1:4]) != "PNG") {
			t.Errorf("%s: %d bytes", f, len(data))
		}
	}
	for _, args := range [][]string{{"sim", "--plot", "run.gif"}, {"sim", "--games", "0"}, {"sim", "--shard", "3/3"}, {"sim", "--policy", "clever"}} {
		if _, _, code := run2048(t, dir, args...); code == 0 {
			t.Errorf("%v: exit 0", args)
		}
	}
}
