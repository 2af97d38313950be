package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
	"github.com/mod2048/mod2048/scripting/session/replay"
)

// Report is what a run did. Its JSON has the keys config/DESIGNING.md lists: games,
// wins, losses, unfinished, win_rate, loss_rate, score (p10, p50, p90,
// max), turns (p10, p50, p90), config, policy, seed; then the confidence
// intervals, the highest levels, the mods' counts and every game's result
// (so that shards merge into exactly the whole run's report).
type Report struct {
	Games          int        `json:"games"`
	Wins           int        `json:"wins"`
	Losses         int        `json:"losses"`
	Unfinished     int        `json:"unfinished"`
	WinRate        float64    `json:"win_rate"`
	LossRate       float64    `json:"loss_rate"`
	Score          Dist       `json:"score"`
	Turns          Dist       `json:"turns"`
	Config         string     `json:"config"`
	Policy         string     `json:"policy"`
	Seed           uint64     `json:"seed"`
	Ruleset        string     `json:"ruleset"`
	Difficulty     string     `json:"difficulty"`
	MaxTurns       int        `json:"max_turns"`
	UnfinishedRate float64    `json:"unfinished_rate"`
	WinCI          [2]float64 `json:"win_rate_ci95"`
	LossCI         [2]float64 `json:"loss_rate_ci95"`
	UnfinishedCI   [2]float64 `json:"unfinished_rate_ci95"`
	Top            []Level    `json:"top"`
	// Ends count the games by how they ended (Result.End), the most
	// first, each with its median turn.
	Ends    []EndCount `json:"ends"`
	Mods    []ModStats `json:"mods"`
	Refused int        `json:"refused"` // directions the rules allowed and the mods refused, all games
	// RunGames is the number of games of the whole run (--games), of which
	// a shard plays a slice; Shard says which, and is nil for a whole run.
	RunGames int    `json:"run_games"`
	Shard    *Shard `json:"shard,omitempty"`
	// Setup is what else decides the run's games: its mods, with their
	// versions, files' hashes and settings.
	Setup   []RunMod `json:"mod_setup"`
	Results []Result `json:"results"`
	// Partial: the run was stopped (Ctrl-C, SIGTERM) and the report holds
	// only the games that finished, Games of RunGames.
	Partial bool `json:"partial,omitempty"`
	// Precision, when set, is the half-width the run's win rate was
	// played to (RunPrecise): its games are those it took, at most
	// RunGames.
	Precision float64 `json:"precision,omitempty"`
	// Budget, when set, is the most moves the run's games could play
	// (Options.Budget); Moves is what they played (Spent).
	Budget uint64 `json:"budget,omitempty"`
	Moves  uint64 `json:"moves"`
}

// Cut reports whether the run ended at its budget, its last game reaching
// it: it holds the games the budget let it play.
func (r *Report) Cut() bool { return r.Budget > 0 && r.Moves >= r.Budget }

// Shard is which slice of a run's games a report holds: the games i with
// i % Of == Index.
type Shard struct {
	Index int `json:"index"`
	Of    int `json:"of"`
}

// RunMod is a mod a run played with, as far as it decides the games.
type RunMod struct {
	ID       string            `json:"id"`
	Version  string            `json:"version"`
	Hash     string            `json:"hash"` // of the mod's own files (replay.Hash)
	Settings map[string]string `json:"settings,omitempty"`
}

// RunModsOf are what a report keeps of the run's mods: id, version, the hash
// of their own files (as a replay's) and their settings, so that merge
// can tell shards of different runs apart.
func RunModsOf(mods []*mod.Mod) ([]RunMod, error) {
	var out []RunMod
	for _, m := range mods {
		hash, err := replay.Hash(m)
		if err != nil {
			return nil, err
		}
		rm := RunMod{ID: m.ID(), Version: m.Manifest.Version, Hash: hash}
		for k, v := range m.Values {
			if rm.Settings == nil {
				rm.Settings = map[string]string{}
			}
			if s, ok := v.(string); ok {
				rm.Settings[k] = strconv.Quote(s)
			} else {
				rm.Settings[k] = fmt.Sprint(v)
			}
		}
		out = append(out, rm)
	}
	return out, nil
}

func (m RunMod) String() string {
	s := fmt.Sprintf("%s %s (files %.12s", m.ID, m.Version, m.Hash)
	for _, k := range slices.Sorted(maps.Keys(m.Settings)) {
		s += fmt.Sprintf(", %s=%s", k, m.Settings[k])
	}
	return s + ")"
}

// Dist is a distribution's percentiles (nearest rank) and maximum.
type Dist struct {
	P10 float64 `json:"p10"`
	P50 float64 `json:"p50"`
	P90 float64 `json:"p90"`
	Max float64 `json:"max"`
	// P50CI is the median's 95% interval, free of any assumed shape: the
	// order statistics the binomial puts around the middle rank.
	P50CI [2]float64 `json:"p50_ci95"`
}

// EndCount is how many games ended one way: the ending, and the mod (and
// its hazard) whose doing ended them, when a mod's did; with the median
// turn they ended on.
type EndCount struct {
	End        engine.Ending `json:"end"`
	Mod        string        `json:"mod,omitempty"`
	Hazard     string        `json:"hazard,omitempty"`
	Games      int           `json:"games"`
	MedianTurn float64       `json:"median_turn"`
}

// Cause says the ending in words: "no move left", "refused by bomb",
// "no move left: blocked by bomb's fuse", "the colony died out: cells
// set by plague".
func (e EndCount) Cause() string {
	what := endWords[e.End]
	switch {
	case e.End == "":
		what = "not recorded (an older report)"
	case what == "":
		what = string(e.End)
	}
	switch {
	case e.End == session.EndRefused && e.Mod != "":
		return what + " by " + e.Mod
	case e.Hazard != "":
		return what + ": blocked by " + e.Mod + "'s " + e.Hazard
	case e.Mod != "":
		return what + ": cells set by " + e.Mod
	}
	return what
}

// endWords are the endings in words.
var endWords = map[engine.Ending]string{
	engine.EndGoal: "the goal", engine.EndNoMove: "no move left", engine.EndDiedOut: "the colony died out",
	engine.EndTurnLimit: "the turn limit", engine.EndLost: "lost", session.EndRefused: "every move refused",
	EndUnfinished: "unfinished", EndBudget: "unfinished at the budget",
}

// ends counts rs by their endings, the most first (then in the order of
// the endings' words).
func ends(rs []Result) []EndCount {
	type key struct {
		end         engine.Ending
		mod, hazard string
	}
	turns := map[key][]float64{}
	for _, g := range rs {
		k := key{g.End, g.EndMod, g.EndHazard}
		turns[k] = append(turns[k], float64(g.Turns))
	}
	out := []EndCount{}
	for k, ts := range turns {
		out = append(out, EndCount{End: k.end, Mod: k.mod, Hazard: k.hazard, Games: len(ts), MedianTurn: dist(ts).P50})
	}
	slices.SortFunc(out, func(a, b EndCount) int {
		if a.Games != b.Games {
			return b.Games - a.Games
		}
		return strings.Compare(a.Cause(), b.Cause())
	})
	return out
}

// Level is how many games reached a highest level.
type Level struct {
	Level int    `json:"level"`
	Label string `json:"label"` // the tile (2048) or the energy (E8)
	Games int    `json:"games"`
}

// Header is what a report says of its run.
type Header struct {
	Config, Policy, Ruleset, Difficulty string
	Seed                                uint64
	MaxTurns                            int
	// RunGames is the whole run's number of games (0: the results'), and
	// Shard of Shards the slice the results are (0 Shards: the whole run).
	RunGames      int
	Shard, Shards int
	Mods          []RunMod
	Partial       bool    // the run was stopped: the results are the games that finished
	Precision     float64 // the run was played to this half-width (RunPrecise)
	Budget        uint64  // the most moves its games could play (Options.Budget)
}

// NewReport makes the report of results (in any order) of a run.
func NewReport(h Header, results []Result) *Report {
	rs := slices.Clone(results)
	slices.SortFunc(rs, func(a, b Result) int { return a.Game - b.Game })
	r := &Report{Games: len(rs), Config: h.Config, Policy: h.Policy, Seed: h.Seed,
		Ruleset: h.Ruleset, Difficulty: h.Difficulty, MaxTurns: h.MaxTurns, Results: rs, Top: []Level{}, Mods: []ModStats{},
		RunGames: h.RunGames, Setup: slices.Clone(h.Mods), Partial: h.Partial, Precision: h.Precision,
		Budget: h.Budget, Moves: Spent(rs)}
	if r.RunGames == 0 {
		r.RunGames = len(rs)
	}
	if r.Setup == nil {
		r.Setup = []RunMod{}
	}
	if h.Shards > 0 {
		r.Shard = &Shard{Index: h.Shard, Of: h.Shards}
	}
	var scores, turns []float64
	tops := map[int]int{}
	mods := map[string]*ModStats{}
	var order []string
	for _, g := range rs {
		switch g.Outcome {
		case Won:
			r.Wins++
		case Lost:
			r.Losses++
		default:
			r.Unfinished++
		}
		r.Refused += g.Refused
		scores = append(scores, g.ScoreValue)
		turns = append(turns, float64(g.Turns))
		tops[g.Top]++
		for _, m := range g.Mods {
			t := mods[m.Mod]
			if t == nil {
				t = &ModStats{Mod: m.Mod}
				mods[m.Mod] = t
				order = append(order, m.Mod)
			}
			t.Errors += m.Errors
			t.Failsafes += m.Failsafes
			t.Refusals += m.Refusals
			t.Disables += m.Disables
			if t.FirstError == "" {
				t.FirstError = m.FirstError
			}
		}
	}
	n := r.Games
	r.WinRate, r.WinCI = rate(r.Wins, n)
	r.LossRate, r.LossCI = rate(r.Losses, n)
	r.UnfinishedRate, r.UnfinishedCI = rate(r.Unfinished, n)
	r.Score = dist(scores)
	r.Turns = dist(turns)
	r.Ends = ends(rs)
	for _, l := range slices.Sorted(mapKeys(tops)) {
		r.Top = append(r.Top, Level{Level: l, Label: levelLabel(h.Ruleset, l), Games: tops[l]})
	}
	for _, id := range order {
		r.Mods = append(r.Mods, *mods[id])
	}
	return r
}

func mapKeys(m map[int]int) func(func(int) bool) {
	return func(yield func(int) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func levelLabel(ruleset string, l int) string {
	if ruleset == engine.ClassicName {
		if l == 0 {
			return "none"
		}
		if l < 63 {
			return strconv.FormatUint(1<<uint(l), 10)
		}
		return "2^" + strconv.Itoa(l)
	}
	return "E" + strconv.Itoa(l)
}

// rate is k of n as a rate, with its 95% Wilson score interval.
func rate(k, n int) (float64, [2]float64) {
	if n == 0 {
		return 0, [2]float64{0, 0}
	}
	const z = 1.959963984540054
	p := float64(k) / float64(n)
	nf := float64(n)
	den := 1 + z*z/nf
	center := (p + z*z/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	return round6(p), [2]float64{round6(max(0, center-half)), round6(min(1, center+half))}
}

// round6 keeps six decimals, so that the JSON is short and exact.
func round6(x float64) float64 { return math.Round(x*1e6) / 1e6 }

// dist is the distribution of xs: nearest-rank percentiles and the max.
func dist(xs []float64) Dist {
	if len(xs) == 0 {
		return Dist{}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	at := func(p float64) float64 {
		i := int(math.Ceil(p/100*float64(len(s)))) - 1
		return s[max(0, min(i, len(s)-1))]
	}
	n := float64(len(s))
	half := 1.96 * math.Sqrt(n) / 2
	lo := max(int(math.Round(n/2-half)), 1)
	hi := min(int(math.Round(1+n/2+half)), len(s))
	return Dist{P10: at(10), P50: at(50), P90: at(90), Max: s[len(s)-1], P50CI: [2]float64{s[lo-1], s[hi-1]}}
}

// JSON writes the report, indented.
func (r *Report) JSON() ([]byte, error) {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// ParseReport reads a report that JSON wrote.
func ParseReport(data []byte) (*Report, error) {
	var r Report
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("not a sim report: %v", err)
	}
	if len(r.Results) != r.Games {
		return nil, fmt.Errorf("the report counts %d games and holds %d results", r.Games, len(r.Results))
	}
	if r.RunGames < 1 {
		return nil, errors.New("the report has no run_games: it was written by an older 2048 (play it again)")
	}
	if r.RunGames > MaxGames {
		return nil, fmt.Errorf("run_games %d: %w", r.RunGames, ErrTooManyGames)
	}
	if r.Shard != nil && (r.Shard.Of < 1 || r.Shard.Index < 0 || r.Shard.Index >= r.Shard.Of) {
		return nil, fmt.Errorf("shard %d/%d: want 0 ≤ index < of", r.Shard.Index, r.Shard.Of)
	}
	return &r, nil
}

// shardOf is the slice of its run a report holds (a whole run: 0 of 1).
func (r *Report) shardOf() Shard {
	if r.Shard == nil {
		return Shard{Index: 0, Of: 1}
	}
	return *r.Shard
}

// shardGames is how many of a run's games shard index of n plays.
func shardGames(runGames, index, n int) int {
	if index >= runGames {
		return 0
	}
	return (runGames-1-index)/n + 1
}

// Merge combines the reports of shards of one run into the report of the
// whole run: the same as if one machine had played every game. names name
// the reports in errors (their files). Every report must be of the same
// run: the same configuration, policy, seed, turns, ruleset, difficulty,
// mods (versions, files and settings) and number of games, cut into the
// same number of shards; an error names the field that differs and the
// two files. Shards that are missing are an error naming them, unless
// partial is set; missing lists them either way.
func Merge(reports []*Report, names []string, partial bool) (merged *Report, missing []string, err error) {
	if len(reports) == 0 {
		return nil, nil, errors.New("no report to merge")
	}
	name := func(i int) string {
		if i < len(names) {
			return names[i]
		}
		return fmt.Sprintf("report %d", i+1)
	}
	for i, r := range reports {
		if r.Partial {
			return nil, nil, fmt.Errorf("%s holds a stopped run (%d of %d games): play that shard again to merge it", name(i), r.Games, r.RunGames)
		}
	}
	first := reports[0]
	n := first.shardOf().Of
	mods := func(r *Report) string {
		if len(r.Setup) == 0 {
			return "none"
		}
		var out []string
		for _, m := range r.Setup {
			out = append(out, m.String())
		}
		return strings.Join(out, ", ")
	}
	byIndex := map[int]int{}
	var all []Result
	for i, r := range reports {
		for _, f := range []struct {
			field string
			a, b  any
		}{
			{"config", first.Config, r.Config},
			{"policy", first.Policy, r.Policy},
			{"seed", first.Seed, r.Seed},
			{"max_turns", first.MaxTurns, r.MaxTurns},
			{"ruleset", first.Ruleset, r.Ruleset},
			{"difficulty", first.Difficulty, r.Difficulty},
			{"run_games", first.RunGames, r.RunGames},
			{"mods", mods(first), mods(r)},
			{"the number of shards", n, r.shardOf().Of},
		} {
			if f.a != f.b {
				a, b := fmt.Sprint(f.a), fmt.Sprint(f.b)
				if f.field == "config" {
					a, b = "one configuration", "another"
				}
				return nil, nil, fmt.Errorf("%s and %s are not of the same run: they differ in %s (%s, %s)", name(0), name(i), f.field, a, b)
			}
		}
		sh := r.shardOf()
		if j, ok := byIndex[sh.Index]; ok {
			return nil, nil, fmt.Errorf("%s and %s are both shard %d/%d", name(j), name(i), sh.Index, sh.Of)
		}
		byIndex[sh.Index] = i
		want := shardGames(r.RunGames, sh.Index, sh.Of)
		for _, g := range r.Results {
			if g.Game < 0 || g.Game >= r.RunGames || g.Game%sh.Of != sh.Index {
				return nil, nil, fmt.Errorf("%s: game %d is not one of shard %d/%d of a %d-game run", name(i), g.Game, sh.Index, sh.Of, r.RunGames)
			}
		}
		if len(r.Results) != want {
			return nil, nil, fmt.Errorf("%s: shard %d/%d of a %d-game run holds %d games, not %d", name(i), sh.Index, sh.Of, r.RunGames, len(r.Results), want)
		}
		all = append(all, r.Results...)
	}
	for k := 0; k < n; k++ {
		if _, ok := byIndex[k]; !ok && shardGames(first.RunGames, k, n) > 0 {
			missing = append(missing, fmt.Sprintf("%d/%d", k, n))
		}
	}
	if len(missing) > 0 && !partial {
		what := "shard " + missing[0] + " is"
		if len(missing) > 1 {
			what = "shards " + strings.Join(missing, ", ") + " are"
		}
		return nil, missing, fmt.Errorf("the run's %s missing (merge what there is with --partial)", what)
	}
	h := Header{Config: first.Config, Policy: first.Policy, Ruleset: first.Ruleset, Difficulty: first.Difficulty,
		Seed: first.Seed, MaxTurns: first.MaxTurns, RunGames: first.RunGames, Mods: first.Setup}
	return NewReport(h, all), missing, nil
}

// CSV writes one row per game.
func (r *Report) CSV(w io.Writer) error {
	var b strings.Builder
	b.WriteString("game,seed,outcome,score,turns,top")
	for _, m := range r.Mods {
		fmt.Fprintf(&b, ",%s_errors,%s_refusals,%s_disables", m.Mod, m.Mod, m.Mod)
	}
	b.WriteString("\n")
	for _, g := range r.Results {
		fmt.Fprintf(&b, "%d,%d,%s,%s,%d,%s", g.Game, g.Seed, g.Outcome, g.Score, g.Turns, levelLabel(r.Ruleset, g.Top))
		for _, m := range r.Mods {
			var s ModStats
			for _, gm := range g.Mods {
				if gm.Mod == m.Mod {
					s = gm
				}
			}
			fmt.Fprintf(&b, ",%d,%d,%d", s.Errors, s.Refusals, s.Disables)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Text writes the report for a terminal: the outcomes with their rates and
// intervals, the score and length percentiles, a histogram of the highest
// level reached, and the mods' counts.
func (r *Report) Text(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s · difficulty %s · policy %s · %d games · seed %d · at most %d turns\n\n", r.Ruleset, r.Difficulty, r.Policy, r.Games, r.Seed, r.MaxTurns)
	switch {
	case r.Partial:
	case r.Cut() && r.Precision > 0:
		fmt.Fprintf(&b, "played in batches until the win rate was known to ±%.1f points, or its games had played %s moves, searches included (the budget): %d games did, and every one finished; the win rate is known to ±%.1f points\n\n", 100*r.Precision, Count(r.Budget), r.Games, 100*HalfWidth(r.Results))
	case r.Cut():
		fmt.Fprintf(&b, "played until its games had played %s moves, searches included (the budget): %d games of %d did, and every one finished\n\n", Count(r.Budget), r.Games, r.RunGames)
	case r.Precision > 0:
		fmt.Fprintf(&b, "played in batches until the win rate was known to ±%.1f points (or %d games were played)\n\n", 100*r.Precision, r.RunGames)
	}
	switch {
	case r.Partial && r.Precision > 0:
		fmt.Fprintf(&b, "partial: the run was stopped before its win rate was known to ±%.1f points, and these are the %d games that finished\n\n", 100*r.Precision, r.Games)
	case r.Partial:
		fmt.Fprintf(&b, "partial: the run was stopped, and these are the %d games of %d that finished\n\n", r.Games, r.RunGames)
	}
	fmt.Fprintf(&b, "%-12s %7s %8s   %s\n", "", "games", "rate", "95% interval")
	row := func(name string, k int, p float64, ci [2]float64) {
		fmt.Fprintf(&b, "%-12s %7d %7.1f%%   %5.1f%% to %5.1f%%\n", name, k, 100*p, 100*ci[0], 100*ci[1])
	}
	row("won", r.Wins, r.WinRate, r.WinCI)
	row("lost", r.Losses, r.LossRate, r.LossCI)
	row("unfinished", r.Unfinished, r.UnfinishedRate, r.UnfinishedCI)
	cw := len("how the games ended")
	for _, e := range r.Ends {
		cw = max(cw, utf8.RuneCountInString(e.Cause()))
	}
	fmt.Fprintf(&b, "\n%-*s %7s %12s\n", cw, "how the games ended", "games", "median turn")
	for _, e := range r.Ends {
		fmt.Fprintf(&b, "%-*s %7d %12s\n", cw, pad(e.Cause(), cw), e.Games, num(e.MedianTurn))
	}
	fmt.Fprintf(&b, "\n%-12s %10s %10s %10s %10s\n", "", "p10", "median", "p90", "max")
	fmt.Fprintf(&b, "%-12s %10s %10s %10s %10s\n", "score", num(r.Score.P10), num(r.Score.P50), num(r.Score.P90), num(r.Score.Max))
	fmt.Fprintf(&b, "%-12s %10s %10s %10s %10s\n", "turns", num(r.Turns.P10), num(r.Turns.P50), num(r.Turns.P90), num(r.Turns.Max))
	what := "highest tile"
	if r.Ruleset != engine.ClassicName {
		what = "highest energy"
	}
	fmt.Fprintf(&b, "\n%s reached\n", what)
	most := 0
	for _, l := range r.Top {
		most = max(most, l.Games)
	}
	for _, l := range r.Top {
		bar := strings.Repeat("█", (l.Games*40+most-1)/max(most, 1))
		fmt.Fprintf(&b, "%8s %-40s %5d %5.1f%%\n", l.Label, bar, l.Games, 100*float64(l.Games)/float64(max(r.Games, 1)))
	}
	if len(r.Mods) > 0 {
		fmt.Fprintf(&b, "\nmods (directions the rules allowed and the mods refused: %d)\n", r.Refused)
		for _, m := range r.Mods {
			fmt.Fprintf(&b, "%-16s %d errors, %d refusals, %d disables\n", m.Mod, m.Errors, m.Refusals, m.Disables)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// num writes a statistic: whole numbers as such, others with two decimals.
func num(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'f', 2, 64)
}

// Count writes a count of moves for a person: 100 million, 2.5 million,
// 40,000.
func Count(n uint64) string {
	switch {
	case n >= 1e9:
		return strconv.FormatFloat(float64(n)/1e9, 'g', 3, 64) + " billion"
	case n >= 1e6:
		return strconv.FormatFloat(float64(n)/1e6, 'g', 3, 64) + " million"
	}
	s := strconv.FormatUint(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
