package sim

import (
	"math"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/mod"
)

// run is a made-up run for the verdicts' tests: won games end at the goal
// (tile 2048) on turn turns, lost ones with no move left (tile 128) on
// turn turns, capped ones unfinished at the turn cap and stopped ones at
// the budget on turn stoppedAt; every turn is one move of work.
type run struct {
	won, lost, capped, stopped int
	turns, stoppedAt           int
	runGames                   int    // the games it was to play (0: its games)
	budget                     uint64 // its share of the study's budget
}

const testCap = 2000

func (x run) report() *Report {
	var rs []Result
	add := func(n int, o Outcome, end engine.Ending, turns, top int) {
		for range n {
			rs = append(rs, Result{Game: len(rs), Outcome: o, End: end, Turns: turns, Moves: uint64(turns), Top: top})
		}
	}
	add(x.won, Won, engine.EndGoal, x.turns, 11)
	add(x.lost, Lost, engine.EndNoMove, x.turns, 7)
	add(x.capped, Unfinished, EndUnfinished, testCap, 7)
	add(x.stopped, Unfinished, EndBudget, x.stoppedAt, 7)
	return NewReport(Header{Policy: "p", Ruleset: engine.ClassicName, MaxTurns: testCap, RunGames: x.runGames, Budget: x.budget}, rs)
}

// modsStudy is a mods study of entropy at the skills, the runs without
// the mod first, then with it, as the lab plays them.
func modsStudy(budget uint64, skills []string, without, with []run) *Study {
	s := &Study{Kind: "mods", Games: 100, MaxTurns: testCap, Budget: budget}
	for i, k := range skills {
		s.Entries = append(s.Entries, Entry{Config: "classic", Skill: k, Report: without[i].report()})
	}
	for i, k := range skills {
		s.Entries = append(s.Entries, Entry{Config: "classic + entropy", Skill: k, Report: with[i].report()})
	}
	return s
}

// TestVerdictText: a mods study's verdict, a line a skill (easier, harder
// or no significant change, on the measure that separates, with its
// figure; a run not played or cut short by the budget named, with what to
// do; how few games it rests on; games endless or too few to say), then
// one sentence for the whole.
func TestVerdictText(t *testing.T) {
	la2 := []string{"lookahead 2"}
	two := []string{"lookahead 2", "expert"}
	for _, tc := range []struct {
		name  string
		s     *Study
		want  []string
		table string // a row of the table, in part
	}{
		{"easier", modsStudy(0, la2, []run{{won: 64, lost: 36, turns: 500}}, []run{{won: 81, lost: 19, turns: 500}}), []string{
			"lookahead 2: easier — wins 64.0% → 81.0% (+17.0 points, significant)",
			"entropy makes classic easier for lookahead 2 and harder for nobody",
		}, ""},
		{"harder, and longer", modsStudy(0, la2, []run{{won: 80, lost: 20, turns: 500}}, []run{{won: 50, lost: 50, turns: 1250}}), []string{
			"lookahead 2: harder — wins 80.0% → 50.0% (-30.0 points, significant); games about 2.5 times longer (median turns 500 → 1250)",
			"entropy makes classic easier for nobody, harder for lookahead 2, and makes games about 2.5 times longer",
		}, ""},
		{"no change", modsStudy(0, la2, []run{{won: 50, lost: 50, turns: 500}}, []run{{won: 55, lost: 45, turns: 500}}), []string{
			"lookahead 2: no significant change — wins 50.0% → 55.0% (+5.0 points, not significant)",
			"entropy makes classic no easier and no harder for lookahead 2",
		}, ""},
		{"easier for one, harder for another", modsStudy(0, two,
			[]run{{won: 50, lost: 50, turns: 500}, {won: 90, lost: 10, turns: 500}},
			[]run{{won: 80, lost: 20, turns: 500}, {won: 60, lost: 40, turns: 1500}}), []string{
			"lookahead 2: easier — wins 50.0% → 80.0% (+30.0 points, significant)",
			"expert: harder — wins 90.0% → 60.0% (-30.0 points, significant); games about 3 times longer (median turns 500 → 1500)",
			"entropy makes classic easier for lookahead 2, harder for the expert, and makes games about 3 times longer for the expert",
		}, ""},
		{"not played", modsStudy(200_000, two,
			[]run{{won: 50, lost: 50, turns: 500}, {won: 90, lost: 10, turns: 500}},
			// lookahead 2 spends what is left: the expert begins with nothing.
			[]run{{won: 80, lost: 20, turns: 1000}, {stopped: 1, stoppedAt: 1, runGames: 100, budget: 1}}), []string{
			"lookahead 2: easier — wins 50.0% → 80.0% (+30.0 points, significant); games about 2 times longer (median turns 500 → 1000)",
			"the expert with entropy was not played: the study's budget (200,000 moves of work) ran out; --budget N or --skills expert",
			"entropy makes classic easier for lookahead 2, harder for nobody, and makes games about 2 times longer; not measured for the expert",
		}, "classic + entropy  expert           1*    0.0% ( 0.0– 79.3)      0.0% ( 0.0– 79.3)    100.0% (20.7–100.0)    1 (1–1)                 0 (0–0)                 not played\n"},
		{"cut short", modsStudy(1_000_000, two,
			[]run{{won: 50, lost: 50, turns: 500}, {won: 90, lost: 10, turns: 500}},
			[]run{{won: 9, lost: 3, turns: 500, runGames: 100, budget: 6000}, {won: 90, lost: 10, turns: 500}}), []string{
			"lookahead 2: no significant change — wins 50.0% → 75.0% (+25.0 points, not significant); from 100 and 12 games only",
			"lookahead 2 with entropy was cut short by its share of the study's budget (1 million moves of work): 12 games of 100; --budget N or --skills \"lookahead 2\"",
			"expert: no significant change — wins 90.0% → 90.0% (+0.0 points, not significant)",
			"entropy makes classic no easier and no harder for lookahead 2 and the expert",
		}, ""},
		{"its game stopped before it ended", modsStudy(1_000_000, two,
			[]run{{won: 50, lost: 50, turns: 500}, {won: 90, lost: 10, turns: 500}},
			[]run{{won: 50, lost: 50, turns: 500}, {stopped: 1, stoppedAt: 52113, runGames: 100, budget: 400_000}}), []string{
			"lookahead 2: no significant change — wins 50.0% → 50.0% (+0.0 points, not significant)",
			"the expert with entropy was cut short before a game ended: its game stopped at its share of the study's budget (1 million moves of work) at turn 52113; --budget N or --skills expert",
			"entropy makes classic no easier and no harder for lookahead 2; not measured for the expert",
		}, "0 (0–0)                 no game ended\n"},
		{"too few games", modsStudy(0, la2, []run{{lost: 3, turns: 500}}, []run{{won: 3, turns: 500}}), []string{
			"lookahead 2: no significant change — wins 0.0% → 100.0% (+100.0 points, not significant, exact p 0.100); from 3 games only",
			"entropy makes classic no easier and no harder for lookahead 2",
		}, ""},
		{"endless", modsStudy(0, la2, []run{{lost: 20, turns: 500}}, []run{{capped: 20}}), []string{
			"lookahead 2: no significant change — no game won either way; median highest tile 128 → 128 (not significant); games at least 4 times longer (median turns 500 → 2000); makes the games endless: 20 of 20 unfinished at 2,000 turns (0 of 20 without)",
			"entropy makes classic no easier and no harder for lookahead 2 and makes games at least 4 times longer",
		}, ""},
		{"one game unfinished", modsStudy(0, la2, []run{{won: 20, turns: 500}}, []run{{capped: 1}}), []string{
			"lookahead 2: harder — wins 100.0% → 0.0% (-100.0 points, significant, exact p 0.048); 1 of 1 games unfinished at the turn cap (2,000 turns): too few to say; from 20 and 1 games only",
			"entropy makes classic easier for nobody and harder for lookahead 2",
		}, ""},
		{"a few more unfinished", modsStudy(0, la2, []run{{lost: 100, capped: 2, turns: 500}}, []run{{lost: 100, capped: 6, turns: 500}}), []string{
			"lookahead 2: no significant change — no game won either way; median highest tile 128 → 128 (not significant); 6 of 106 games unfinished at 2,000 turns (2 of 102 without): not significantly more",
			"entropy makes classic no easier and no harder for lookahead 2",
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.s.Verdicts(); !slices.Equal(got, tc.want) {
				t.Errorf("the verdict:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			var b strings.Builder
			if err := tc.s.Text(&b); err != nil || !strings.Contains(b.String(), "verdict: "+tc.want[len(tc.want)-1]+"\n") {
				t.Errorf("the table does not end with the verdict (%v):\n%s", err, b.String())
			}
			if tc.table != "" && !strings.Contains(b.String(), tc.table) {
				t.Errorf("the table lacks %q:\n%s", tc.table, b.String())
			}
		})
	}
}

// TestVerdictLengthWords: how much longer games are, in words.
func TestVerdictLengthWords(t *testing.T) {
	for _, tc := range []struct {
		lo, hi  float64
		atLeast bool
		want    string
	}{
		{37.2, 37.4, false, "about 37 times longer"},
		{1.4, 1.4, false, "about 40% longer"},
		{2.5, 37, false, "2.5 to 37 times as long"},
		{2.5, 37, true, "2.5 to at least 37 times as long"},
		{0.7, 0.7, false, "about 30% shorter"},
		{0.2, 0.7, false, "30% to 80% shorter"},
	} {
		if got := lengthWords(tc.lo, tc.hi, tc.atLeast); got != tc.want {
			t.Errorf("lengthWords(%v, %v, %v) = %q, want %q", tc.lo, tc.hi, tc.atLeast, got, tc.want)
		}
	}
}

// fisherRat is Fisher's exact two-sided p of [[a, b], [c, d]] in exact
// arithmetic, each table's probability a ratio of binomials: the
// reference FisherExact is checked against.
func fisherRat(a, b, c, d int) float64 {
	r1, r2, c1 := a+b, c+d, a+c
	n := r1 + r2
	prob := func(x int) *big.Rat {
		num := new(big.Int).Mul(new(big.Int).Binomial(int64(r1), int64(x)), new(big.Int).Binomial(int64(r2), int64(c1-x)))
		return new(big.Rat).SetFrac(num, new(big.Int).Binomial(int64(n), int64(c1)))
	}
	observed := prob(a)
	p := new(big.Rat)
	for x := max(0, c1-r2); x <= min(r1, c1); x++ {
		if q := prob(x); q.Cmp(observed) <= 0 {
			p.Add(p, q)
		}
	}
	f, _ := p.Float64()
	return f
}

// TestFisherExact: the two-sided p against published values (Fisher's
// tea: 34/70; Wikipedia's example, as R's fisher.test gives it) and
// against exact arithmetic on tables small and large.
func TestFisherExact(t *testing.T) {
	for _, tc := range []struct {
		a, b, c, d int
		want       float64
	}{
		{3, 1, 1, 3, 34.0 / 70},
		{1, 9, 11, 3, 0.002759456},
		{0, 5, 5, 0, 2.0 / 252},
		{20, 0, 0, 1, 1.0 / 21},
		{10, 0, 0, 10, 2.0 / 184756},
		{5, 5, 5, 5, 1},
		{0, 0, 0, 0, 1},
		{0, 3, 3, 0, 0.1},
		{-1, 2, 3, 4, 1},
	} {
		if got := FisherExact(tc.a, tc.b, tc.c, tc.d); math.Abs(got-tc.want) > 1e-8+1e-6*tc.want {
			t.Errorf("FisherExact(%d, %d, %d, %d) = %.10g, want %.10g", tc.a, tc.b, tc.c, tc.d, got, tc.want)
		}
	}
	for _, tab := range [][4]int{{2, 7, 8, 2}, {9, 3, 1, 12}, {50, 50, 70, 30}, {64, 36, 81, 19}, {0, 100, 7, 93}, {300, 200, 250, 250}} {
		got, want := FisherExact(tab[0], tab[1], tab[2], tab[3]), fisherRat(tab[0], tab[1], tab[2], tab[3])
		if math.Abs(got-want) > 1e-9*max(want, 1e-3) {
			t.Errorf("FisherExact%v = %.12g, exact arithmetic %.12g", tab, got, want)
		}
	}
}

// TestExactWhereSmall: a difference of win rates is judged by Fisher's
// exact test where a cell expects fewer than 5 games, and by the
// interval elsewhere; the table marks the exact ones with their p.
func TestExactWhereSmall(t *testing.T) {
	if d := countDiff(0, 3, 3, 3); !d.Exact || d.Significant || math.Abs(d.P-0.1) > 1e-6 {
		t.Errorf("0 of 3 against 3 of 3: %+v", d)
	}
	if d := countDiff(20, 20, 0, 1); !d.Exact || !d.Significant {
		t.Errorf("20 of 20 against 0 of 1: %+v", d)
	}
	if d := countDiff(50, 100, 80, 100); d.Exact || !d.Significant {
		t.Errorf("50 of 100 against 80 of 100: %+v", d)
	}
	if d := countDiff(0, 0, 3, 3); d.Significant {
		t.Errorf("no game against 3: %+v", d)
	}
	s := modsStudy(0, []string{"lookahead 2"}, []run{{lost: 3, turns: 500}}, []run{{won: 3, turns: 500}})
	var b strings.Builder
	if err := s.Text(&b); err != nil || !strings.Contains(b.String(), "no (p 0.100)") || !strings.Contains(b.String(), "Fisher's exact test decides") {
		t.Errorf("the table (%v):\n%s", err, b.String())
	}
}

// TestBudgetShare: a run's share is what the runs before it left, divided
// among it and those after it; at least 1.
func TestBudgetShare(t *testing.T) {
	for _, tc := range []struct {
		total, spent uint64
		left         int
		want         uint64
	}{
		{0, 0, 4, 0}, {1000, 0, 4, 250}, {1000, 400, 3, 200}, {1000, 1000, 2, 1}, {1000, 5000, 1, 1}, {1000, 0, 0, 1000},
	} {
		if got := BudgetShare(tc.total, tc.spent, tc.left); got != tc.want {
			t.Errorf("BudgetShare(%d, %d, %d) = %d, want %d", tc.total, tc.spent, tc.left, got, tc.want)
		}
	}
}

// TestStudyVerdictPlayed: a mods study played through Run as the CLI
// plays one, its budget shared in order (BudgetShare), with a mod whose
// every turn is a lot of work and whose games never end: the games
// without it are measured; with it, the random player's game stops at
// its share before it ends, its first move spending what the study had
// left, and the greedy player is not played. The verdict names both, with
// what to do.
func TestStudyVerdictPlayed(t *testing.T) {
	heavy := endsMod(t, "heavy", `game.on("tick", function()
  local n = 0
  for i = 1, 100000 do n = n + i end
  storage.n = n
  if #game.cells({ cell = "^0$" }) < 3 then
    for c = 0, game.width - 1 do game.set(game.height - 1, c, 0) end
  end
end)`)
	const games, maxTurns = 4, 1_000_000
	s := &Study{Kind: "mods", Games: games, Seed: 7, MaxTurns: maxTurns, Budget: 12_000}
	skills := []string{"random", "greedy"}
	var spent uint64
	run := 0
	for _, mods := range [][]*mod.Mod{nil, {heavy}} {
		for _, k := range skills {
			o := options(t, k, games)
			o.Setup.Mods, o.MaxTurns = mods, maxTurns
			o.Budget = BudgetShare(s.Budget, spent, 2*len(skills)-run)
			run++
			results, err := Run(o)
			if err != nil {
				t.Fatal(err)
			}
			spent += Spent(results)
			h := header(o)
			h.Budget = o.Budget
			label := "classic"
			if mods != nil {
				label = "classic + heavy"
			}
			s.Entries = append(s.Entries, Entry{Config: label, Skill: k, Report: NewReport(h, results)})
			t.Logf("%s · %s: share %d, %d games, spent %d of %d", label, k, o.Budget, len(results), spent, s.Budget)
		}
	}
	v := s.Verdicts()
	want := []string{
		"the random player with heavy was cut short before a game ended: its game stopped at its share of the study's budget (12,000 moves of work) at turn 1; --budget N or --skills random",
		"the greedy player with heavy was not played: the study's budget (12,000 moves of work) ran out; --budget N or --skills greedy",
		"heavy against classic: no skill measured (the random player and the greedy player not measured)",
	}
	if !slices.Equal(v, want) {
		t.Errorf("the verdict:\n%s\nwant:\n%s", strings.Join(v, "\n"), strings.Join(want, "\n"))
	}
	for _, e := range s.Entries[:2] {
		if e.Report.Cut() || e.Report.Games != games {
			t.Errorf("%s · %s: %d games, cut %v: the games without the mod should all be played", e.Config, e.Skill, e.Report.Games, e.Report.Cut())
		}
	}
}

// TestVerdictNotesEveryKind: a comparison, a sweep and the skill ladder
// name the runs the study's budget left out too, and judge without them.
func TestVerdictNotesEveryKind(t *testing.T) {
	half := run{won: 50, lost: 50, turns: 500}
	// 100 games of 500 moves spend 50,000: a study of 100,000 is spent
	// after two runs, and the next is played with one move.
	starved := run{stopped: 1, stoppedAt: 1, runGames: 100, budget: 1}
	entries := func(configs, skills []string, runs ...run) []Entry {
		var out []Entry
		for _, c := range configs {
			for _, k := range skills {
				out = append(out, Entry{Config: c, Skill: k, Report: runs[len(out)].report()})
			}
		}
		return out
	}
	for _, tc := range []struct {
		s    *Study
		want []string
	}{
		{&Study{Kind: "compare", Budget: 150_000, Entries: entries([]string{"classic", "b.toml"}, []string{"greedy", "expert"}, half, half, run{won: 80, lost: 20, turns: 500}, starved)}, []string{
			"the expert with b.toml was not played: the study's budget (150,000 moves of work) ran out; --budget N or --skills expert",
			"b.toml makes classic easier for the greedy player and harder for nobody; not measured for the expert",
		}},
		{&Study{Kind: "sweep", Budget: 100_000, Entries: entries([]string{"size=3", "size=4", "size=5"}, []string{"greedy"}, half, half, starved)}, []string{
			"the greedy player with size=5 was not played: the study's budget (100,000 moves of work) ran out; --budget N",
			"at greedy the win rate runs from 50.0% (size=3) to 50.0% (size=3)",
		}},
		{&Study{Kind: "skill", Budget: 100_000, Entries: entries([]string{"mid"}, []string{"random", "greedy", "expert"}, run{lost: 100, turns: 500}, half, starved)}, []string{
			"the expert on mid was not played: the study's budget (100,000 moves of work) ran out; --budget N or --skills expert",
			"mid is won by 0.0% of random's games and 50.0% of greedy's",
		}},
	} {
		if got := tc.s.Verdicts(); !slices.Equal(got, tc.want) {
			t.Errorf("%s:\n%s\nwant:\n%s", tc.s.Kind, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
}

// BenchmarkFisherExact: the test of a small study's table (20 games a
// run) and of the largest table a study sends it (exactNeeded: its loop
// runs over fewer than √(5n) tables, here n of a million games).
func BenchmarkFisherExact(b *testing.B) {
	b.Run("20 games", func(b *testing.B) {
		for range b.N {
			FisherExact(3, 17, 9, 11)
		}
	})
	b.Run("a million games", func(b *testing.B) {
		for range b.N {
			FisherExact(1000, 0, 500, 998_500)
		}
	})
}

// TestGamesWord: a run cut to one game says "1 game", not "1 games".
func TestGamesWord(t *testing.T) {
	for n, want := range map[int]string{0: "0 games", 1: "1 game", 7: "7 games"} {
		if got := gamesWord(n); got != want {
			t.Errorf("gamesWord(%d) = %q, want %q", n, got, want)
		}
	}
}
