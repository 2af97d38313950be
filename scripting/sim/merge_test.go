package sim

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// shardReport is a made-up report of shard i of n of a run of games games
// (its results have only their game numbers).
func shardReport(h Header, i, n, games int) *Report {
	h.RunGames, h.Shard, h.Shards = games, i, n
	var rs []Result
	for g := i; g < games; g += n {
		rs = append(rs, Result{Game: g, Outcome: Lost})
	}
	return NewReport(h, rs)
}

// TestMergeRefuses: shards of different runs (mods, their settings or
// files, games, seed, turns, shard counts), overlapping shards, damaged
// shards and missing shards are refused, naming the field and the files;
// --partial merges what there is.
func TestMergeRefuses(t *testing.T) {
	base := Header{Config: "size = 4\n", Policy: "random", Ruleset: "classic", Difficulty: "classic", Seed: 1, MaxTurns: 100}
	bomb := RunMod{ID: "bomb", Version: "1.0.0", Hash: "aaaa", Settings: map[string]string{"interval": "2"}}
	with := func(f func(*Header)) Header {
		h := base
		f(&h)
		return h
	}
	names := []string{"a.json", "b.json", "c.json"}
	tests := []struct {
		name    string
		reports []*Report
		want    string
	}{
		{"mods", []*Report{shardReport(base, 0, 2, 20), shardReport(with(func(h *Header) { h.Mods = []RunMod{bomb} }), 1, 2, 20)},
			"a.json and b.json are not of the same run: they differ in mods (none, bomb 1.0.0 (files aaaa, interval=2))"},
		{"settings", []*Report{shardReport(with(func(h *Header) { h.Mods = []RunMod{bomb} }), 0, 2, 20),
			shardReport(with(func(h *Header) { m := bomb; m.Settings = map[string]string{"interval": "3"}; h.Mods = []RunMod{m} }), 1, 2, 20)},
			"differ in mods (bomb 1.0.0 (files aaaa, interval=2), bomb 1.0.0 (files aaaa, interval=3))"},
		{"files", []*Report{shardReport(with(func(h *Header) { h.Mods = []RunMod{bomb} }), 0, 2, 20),
			shardReport(with(func(h *Header) { m := bomb; m.Hash = "bbbb"; h.Mods = []RunMod{m} }), 1, 2, 20)},
			"differ in mods"},
		{"games", []*Report{shardReport(base, 0, 2, 20), shardReport(base, 1, 2, 30)}, "differ in run_games (20, 30)"},
		{"seed", []*Report{shardReport(base, 0, 2, 20), shardReport(with(func(h *Header) { h.Seed = 2 }), 1, 2, 20)}, "differ in seed (1, 2)"},
		{"turns", []*Report{shardReport(base, 0, 2, 20), shardReport(with(func(h *Header) { h.MaxTurns = 5 }), 1, 2, 20)}, "differ in max_turns (100, 5)"},
		{"config", []*Report{shardReport(base, 0, 2, 20), shardReport(with(func(h *Header) { h.Config = "size = 5\n" }), 1, 2, 20)}, "differ in config"},
		{"shard counts", []*Report{shardReport(base, 0, 2, 20), shardReport(base, 1, 3, 20)}, "differ in the number of shards (2, 3)"},
		{"twice", []*Report{shardReport(base, 0, 2, 20), shardReport(base, 0, 2, 20)}, "a.json and b.json are both shard 0/2"},
		{"missing", []*Report{shardReport(base, 0, 3, 20), shardReport(base, 2, 3, 20)}, "the run's shard 1/3 is missing (merge what there is with --partial)"},
		{"two missing", []*Report{shardReport(base, 1, 3, 20)}, "the run's shards 0/3, 2/3 are missing"},
	}
	for _, tt := range tests {
		_, _, err := Merge(tt.reports, names, false)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
	// A shard that lost games.
	cut := shardReport(base, 1, 2, 20)
	cut.Results = cut.Results[:3]
	if _, _, err := Merge([]*Report{shardReport(base, 0, 2, 20), cut}, names, false); err == nil || !strings.Contains(err.Error(), "b.json: shard 1/2 of a 20-game run holds 3 games, not 10") {
		t.Errorf("a cut shard: %v", err)
	}
	// --partial merges what there is, and says what is missing.
	r, missing, err := Merge([]*Report{shardReport(base, 0, 3, 20), shardReport(base, 2, 3, 20)}, names, true)
	if err != nil || r.Games != 13 || len(missing) != 1 || missing[0] != "1/3" {
		t.Errorf("--partial: %v, %v", err, missing)
	}
	// All the shards merge.
	if r, _, err := Merge([]*Report{shardReport(base, 2, 3, 20), shardReport(base, 0, 3, 20), shardReport(base, 1, 3, 20)}, names, false); err != nil || r.Games != 20 || r.Shard != nil {
		t.Errorf("every shard: %v", err)
	}
}

// TestLimits: a run of more than MaxGames games is refused before it
// plays, a report that claims one too, and a mod's long first error is
// cut.
func TestLimits(t *testing.T) {
	o := options(t, "random", MaxGames+1)
	if _, err := Run(o); !errors.Is(err, ErrTooManyGames) {
		t.Errorf("Run of %d games: %v", o.Games, err)
	}
	data, _ := shardReport(Header{}, 0, 1, 3).JSON()
	big := strings.Replace(string(data), `"run_games": 3`, `"run_games": 100000000`, 1)
	if _, err := ParseReport([]byte(big)); !errors.Is(err, ErrTooManyGames) {
		t.Errorf("a report of 100000000 games: %v", err)
	}
	long := strings.Repeat("é", 1000)
	if got := shorten(long, MaxFirstError); len(got) > MaxFirstError || !strings.HasSuffix(got, "…") || !utf8.ValidString(got) {
		t.Errorf("shorten: %d bytes, valid %v", len(got), utf8.ValidString(got))
	}
	if got := shorten("short", MaxFirstError); got != "short" {
		t.Errorf("shorten(short) = %q", got)
	}
}
