package sim

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/mod2048/mod2048/engine"
)

// The verdicts' thresholds (config/DESIGNING.md, "The verdict's words and
// tests").
const (
	// fewGames: a verdict drawn from fewer games says how few ("from 3
	// games only"): below it a win rate is known to no better than ±20
	// points (Wilson, at 50%).
	fewGames = 20
	// minEndless: the fewest games unfinished at the turn cap that can
	// make a configuration's games "endless", and then only when they are
	// significantly more than the base's; fewer are "too few to say".
	minEndless = 5
)

// BudgetShare is a study's run's share of the study's budget, total, of
// which the runs before it spent spent, with left runs to play, it among
// them: what is left, divided among them, so that a run that answers early
// leaves its share to the later ones (the expert's, a mod's endless
// games); at least 1 move. 0 total is no budget: 0. A run that begins with
// nothing left of the study's budget is not played, and its verdict says
// so: the study's runs are its entries in order, each entry's Moves what
// it spent.
func BudgetShare(total, spent uint64, left int) uint64 {
	if total == 0 {
		return 0
	}
	return max((total-min(spent, total))/uint64(max(left, 1)), 1)
}

// runStatus is how much of a study's run its verdict can rest on.
type runStatus int

const (
	runWhole     runStatus = iota // it played what it was to play
	runCut                        // it ended at its share of the budget, or was stopped, with games that ended
	runNoEnd                      // its every game stopped at the budget before it ended
	runNotPlayed                  // the study's budget was spent before it began
)

// runInfo is what a run's games say for a verdict. A game the budget
// stopped (EndBudget: at most one a run, its last) is the study's doing,
// not the configuration's: it is left out of games, wins and capped.
type runInfo struct {
	status                       runStatus
	games, wins, capped, stopped int
	stoppedTurn                  float64 // the turn the stopped game reached
}

// runInfos are the study's runs' infos, an entry each, in order. A run
// was not played when the runs before it had spent the study's budget
// (BudgetShare then gives it 1 move: its game stops at once).
func (s *Study) runInfos() map[*Entry]runInfo {
	out := map[*Entry]runInfo{}
	var spent uint64
	for i := range s.Entries {
		e := &s.Entries[i]
		r := e.Report
		info := runInfo{wins: r.Wins}
		for _, end := range r.Ends {
			switch end.End {
			case EndBudget:
				info.stopped += end.Games
				info.stoppedTurn = end.MedianTurn
			case EndUnfinished:
				info.capped += end.Games
			}
		}
		info.games = r.Games - info.stopped
		unsure := r.Precision > 0 && (r.WinCI[1]-r.WinCI[0])/2 > r.Precision
		switch {
		case r.Games == 0 || s.Budget > 0 && spent >= s.Budget:
			info.status = runNotPlayed
		case info.games <= 0:
			info.status = runNoEnd
		case r.Partial || info.stopped > 0 || r.Cut() && (r.Games < r.RunGames || unsure):
			info.status = runCut
		}
		spent += r.Moves
		out[e] = info
	}
	return out
}

// gamesWord is n games in words: "1 game", "7 games".
func gamesWord(n int) string {
	if n == 1 {
		return "1 game"
	}
	return strconv.Itoa(n) + " games"
}

// who names a skill's player in a sentence: "the expert", "lookahead 2".
func who(skill string) string {
	switch skill {
	case "expert":
		return "the expert"
	case "random", "greedy":
		return "the " + skill + " player"
	}
	return skill
}

// list joins words as a sentence does: "a", "a and b", "a, b and c";
// none is "nobody".
func list(words []string) string {
	switch len(words) {
	case 0:
		return "nobody"
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// advice is what to do about a run of skill the budget cut: a larger
// --budget, or that skill alone (its flag names only: they are the same
// in every command that runs a study).
func (s *Study) advice(skill string) string {
	if len(s.Skills()) < 2 {
		return "--budget N"
	}
	if strings.ContainsAny(skill, " ,") {
		skill = strconv.Quote(skill)
	}
	return "--budget N or --skills " + skill
}

// judged adds to out the note of e (named name) where the budget cut it
// short or left it unplayed, and says whether e can be judged: whether
// any of its games ended.
func (s *Study) judged(e *Entry, info runInfo, name string, out *[]string) bool {
	if info.status == runWhole {
		return true
	}
	*out = append(*out, s.runNote(e, info, name))
	return info.status < runNoEnd
}

// runNote says what a run that is not whole lacks, with what to do; name
// names the run ("the expert with entropy").
func (s *Study) runNote(e *Entry, info runInfo, name string) string {
	r := e.Report
	budget := "the study's budget"
	if s.Budget > 0 {
		budget += " (" + Count(s.Budget) + " moves of work)"
	}
	switch info.status {
	case runNotPlayed:
		return fmt.Sprintf("%s was not played: %s ran out; %s", name, budget, s.advice(e.Skill))
	case runNoEnd:
		return fmt.Sprintf("%s was cut short before a game ended: its game stopped at its share of %s at turn %s; %s", name, budget, num(info.stoppedTurn), s.advice(e.Skill))
	case runCut:
		if r.Partial {
			return fmt.Sprintf("%s was stopped after %d games of %d", name, r.Games, r.RunGames)
		}
		what := fmt.Sprintf("%s was cut short by its share of %s: %s of %d", name, budget, gamesWord(info.games), r.RunGames)
		if r.Precision > 0 {
			what = fmt.Sprintf("%s was cut short by its share of %s: %s, its win rate known to ±%.1f points, not ±%.1f", name, budget, gamesWord(info.games), 50*(r.WinCI[1]-r.WinCI[0]), 100*r.Precision)
		}
		if info.stopped > 0 {
			what += fmt.Sprintf(", and one more stopped at turn %s (left out)", num(info.stoppedTurn))
		}
		return what + "; " + s.advice(e.Skill)
	}
	return ""
}

// judgement is what one configuration changes of the base for one skill.
type judgement struct {
	skill    string
	measured bool     // both runs have games that ended
	dir      int      // +1 easier, −1 harder, 0 no significant change
	longer   int      // +1 its games significantly longer, −1 shorter, 0 neither
	ratio    float64  // their median turns over the base's
	atLeast  bool     // the ratio's median is the turn cap: the games are longer still
	line     string   // the skill's verdict: "lookahead 2: easier — wins ..." (none when not measured)
	notes    []string // the runs the budget cut or left out, named, with what to do
}

// judge says what b changes of a (the base), for their skill, in a line
// (j.line) with a note for each run the budget cut (j.notes): on the win
// rate where it separates them; where it does not (no game won either
// way), on the median highest level (the nearer the goal, the easier),
// else no significant change; then how long the games are, the games left
// unfinished at the turn cap, the games the mods' doing ended and how few
// games it rests on. name names a run; than says the base's figure
// ("without", "with classic").
func (s *Study) judge(a, b *Entry, ia, ib runInfo, name func(*Entry) string, than string) judgement {
	j := judgement{skill: a.Skill}
	for _, x := range []struct {
		e *Entry
		i runInfo
	}{{a, ia}, {b, ib}} {
		if x.i.status != runWhole {
			j.notes = append(j.notes, s.runNote(x.e, x.i, name(x.e)))
		}
	}
	if ia.status >= runNoEnd || ib.status >= runNoEnd {
		return j
	}
	j.measured = true
	ra, rb := a.Report, b.Report
	var parts []string
	switch {
	case !(ia.wins == 0 && ib.wins == 0) && !(ia.wins == ia.games && ib.wins == ib.games):
		d := countDiff(ia.wins, ia.games, ib.wins, ib.games)
		j.dir = direction(d)
		parts = append(parts, fmt.Sprintf("%s — wins %s → %s (%+.1f points, %s)", dirWord(j.dir), pct(ia.wins, ia.games), pct(ib.wins, ib.games), 100*d.D, sigWords(d)))
	case ia.wins == 0:
		d := medianChange(ra, rb, topDist)
		j.dir = direction(d)
		level := "tile"
		if ra.Ruleset != engine.ClassicName {
			level = "energy"
		}
		parts = append(parts, fmt.Sprintf("%s — no game won either way; median highest %s %s → %s (%s)", dirWord(j.dir), level,
			levelLabel(ra.Ruleset, int(topDist(ra).P50)), levelLabel(rb.Ruleset, int(topDist(rb).P50)), sigWords(d)))
	default:
		parts = append(parts, "no significant change — every game won either way")
	}
	if t := medianChange(ra, rb, turnsOf); t.Significant && t.D != 0 {
		j.longer = direction(t)
		j.ratio = rb.Turns.P50 / max(ra.Turns.P50, 1)
		j.atLeast = rb.MaxTurns > 0 && rb.Turns.P50 >= float64(rb.MaxTurns)
		parts = append(parts, fmt.Sprintf("games %s (median turns %s → %s)", lengthWords(j.ratio, j.ratio, j.atLeast), num(ra.Turns.P50), num(rb.Turns.P50)))
	}
	if ib.capped > ia.capped {
		at := Count(uint64(rb.MaxTurns)) + " turns"
		d := countDiff(ia.capped, ia.games, ib.capped, ib.games)
		switch {
		case ib.capped < minEndless:
			parts = append(parts, fmt.Sprintf("%d of %d games unfinished at the turn cap (%s): too few to say", ib.capped, ib.games, at))
		case d.Significant:
			parts = append(parts, fmt.Sprintf("makes the games endless: %d of %d unfinished at %s (%d of %d %s)", ib.capped, ib.games, at, ia.capped, ia.games, than))
		default:
			parts = append(parts, fmt.Sprintf("%d of %d games unfinished at %s (%d of %d %s): not significantly more", ib.capped, ib.games, at, ia.capped, ia.games, than))
		}
	}
	var by []string
	ended := 0
	for _, e := range rb.Ends {
		if e.Mod != "" {
			ended += e.Games
			by = append(by, e.Cause())
		}
	}
	if ended > 0 {
		parts = append(parts, fmt.Sprintf("its mods' doing ends %d of %d games (%s)", ended, rb.Games, strings.Join(by, "; ")))
	}
	switch n := min(ia.games, ib.games); {
	case n >= fewGames:
	case ia.games == ib.games:
		parts = append(parts, fmt.Sprintf("from %d games only", n))
	default:
		parts = append(parts, fmt.Sprintf("from %d and %d games only", ia.games, ib.games))
	}
	j.line = a.Skill + ": " + strings.Join(parts, "; ")
	return j
}

// direction is +1 for a significant rise, −1 for a significant fall, 0
// for no significant change.
func direction(d Diff) int {
	switch {
	case !d.Significant || d.D == 0:
		return 0
	case d.D > 0:
		return 1
	}
	return -1
}

func dirWord(dir int) string {
	switch dir {
	case 1:
		return "easier"
	case -1:
		return "harder"
	}
	return "no significant change"
}

func sigWords(d Diff) string {
	w := "not significant"
	if d.Significant {
		w = "significant"
	}
	if d.Exact {
		w += fmt.Sprintf(", exact p %.3f", d.P)
	}
	return w
}

func pct(k, n int) string { return fmt.Sprintf("%.1f%%", 100*float64(k)/float64(max(n, 1))) }

// lengthWords says how much longer (or shorter) games are, from the
// ratios of the median turns lo to hi: "about 37 times longer", "about
// 40% longer", "2.5 to 37 times as long", "about 30% shorter"; atLeast
// (the longest's median is the turn cap) says "at least" of the longest.
func lengthWords(lo, hi float64, atLeast bool) string {
	about := "about "
	if atLeast {
		about = "at least "
	}
	one := func(r float64) string {
		switch {
		case r >= 2:
			return about + times(r) + " times longer"
		case r >= 1:
			return fmt.Sprintf("%s%.0f%% longer", about, 100*(r-1))
		}
		return fmt.Sprintf("about %.0f%% shorter", 100*(1-r))
	}
	if a, b := one(lo), one(hi); a == b {
		return a
	}
	if hi <= 1 {
		return fmt.Sprintf("%.0f%% to %.0f%% shorter", 100*(1-hi), 100*(1-lo))
	}
	if atLeast {
		return times(lo) + " to at least " + times(hi) + " times as long"
	}
	return times(lo) + " to " + times(hi) + " times as long"
}

// times writes a ratio: to a tenth below 10 (2.5, 3), else whole (37).
func times(r float64) string {
	if r >= 10 {
		return strconv.FormatFloat(math.Round(r), 'f', 0, 64)
	}
	return strconv.FormatFloat(math.Round(10*r)/10, 'f', -1, 64)
}

// summary is the one sentence for the whole of what subject changes of
// base: for whom it is easier, harder or no different, and how long its
// games are; with the skills not measured named.
func summary(subject, base string, js []judgement) string {
	var easier, harder, same, unmeasured, longer, shorter []string
	lo, hi := 0.0, 0.0
	atLeast := false // the longest games' median is the turn cap
	measured := 0
	for _, j := range js {
		w := who(j.skill)
		if !j.measured {
			unmeasured = append(unmeasured, w)
			continue
		}
		measured++
		switch j.dir {
		case 1:
			easier = append(easier, w)
		case -1:
			harder = append(harder, w)
		default:
			same = append(same, w)
		}
		switch j.longer {
		case 1:
			longer = append(longer, w)
		case -1:
			shorter = append(shorter, w)
		}
		if j.longer != 0 {
			if lo == 0 || j.ratio < lo {
				lo = j.ratio
			}
			if j.ratio >= hi {
				hi, atLeast = j.ratio, j.atLeast
			}
		}
	}
	if measured == 0 {
		return fmt.Sprintf("%s against %s: no skill measured (%s not measured)", subject, base, list(unmeasured))
	}
	clauses := []string{"easier for " + list(easier), "harder for " + list(harder)}
	switch {
	case len(easier)+len(harder) == 0:
		clauses = []string{"no easier and no harder for " + list(same)}
	case len(same) > 0:
		clauses = append(clauses, "no different for "+list(same))
	}
	switch {
	case len(longer) > 0 && len(shorter) > 0:
		clauses = append(clauses, "makes games longer for "+list(longer)+" and shorter for "+list(shorter))
	case len(longer)+len(shorter) > 0:
		for_ := ""
		if len(longer)+len(shorter) < measured {
			for_ = " for " + list(append(longer, shorter...))
		}
		clauses = append(clauses, "makes games "+lengthWords(lo, hi, atLeast)+for_)
	}
	line := subject + " makes " + base + " " + clauses[0]
	switch n := len(clauses); {
	case n == 2 && strings.Contains(strings.TrimPrefix(clauses[0], "no easier and no harder"), " and "):
		// "... for the greedy player and lookahead 1, and makes games ..."
		line += ", and " + clauses[1]
	case n == 2:
		line += " and " + clauses[1]
	case n > 2:
		line += ", " + strings.Join(clauses[1:n-1], ", ") + ", and " + clauses[n-1]
	}
	if len(unmeasured) > 0 {
		line += "; not measured for " + list(unmeasured)
	}
	return line
}

// Verdicts say in plain words what the study found, a line each. A mods
// study (the same games without the mods, then with them) has a line a
// skill, harder, easier or no significant change with its figure
// (judge), then one sentence for the whole (summary); a comparison or the
// levers has that sentence for each configuration, with a line for each
// run the budget cut; a sweep says how far the win rate runs across its
// points at each skill; the skill ladder how far it runs from the
// weakest player to the strongest. A run the study's budget left out or
// cut is named, with what to do.
func (s *Study) Verdicts() []string {
	configs, skills := s.Configs(), s.Skills()
	if len(configs) == 0 || len(skills) == 0 {
		return nil
	}
	infos := s.runInfos()
	rate := func(r *Report) string { return fmt.Sprintf("%.1f%%", 100*r.WinRate) }
	switch s.Kind {
	case "mods", "compare", "levers":
		if s.Kind == "mods" && len(configs) != 2 {
			return nil
		}
		base := configs[0]
		var out []string
		for _, c := range configs[1:] {
			subject, than := c, "with "+base
			name := func(e *Entry) string { return who(e.Skill) + " with " + e.Config }
			if s.Kind == "mods" {
				subject, than = strings.TrimPrefix(c, base+" + "), "without"
				name = func(e *Entry) string {
					if e.Config == base {
						return who(e.Skill) + " without " + subject
					}
					return who(e.Skill) + " with " + subject
				}
			}
			var js []judgement
			for _, k := range skills {
				a, b := s.find(base, k), s.find(c, k)
				if a == nil || b == nil {
					continue
				}
				j := s.judge(a, b, infos[a], infos[b], name, than)
				js = append(js, j)
				if s.Kind == "mods" && j.measured {
					out = append(out, j.line)
				}
				// The runs the budget cut or left out, named (a
				// comparison's, each time it is measured against).
				out = append(out, j.notes...)
			}
			if len(js) > 0 {
				out = append(out, summary(subject, base, js))
			}
		}
		return out
	case "sweep":
		var out []string
		for _, k := range skills {
			var lo, hi *Entry
			for _, c := range configs {
				e := s.find(c, k)
				if e == nil {
					continue
				}
				if !s.judged(e, infos[e], who(k)+" with "+c, &out) {
					continue
				}
				if lo == nil || e.Report.WinRate < lo.Report.WinRate {
					lo = e
				}
				if hi == nil || e.Report.WinRate > hi.Report.WinRate {
					hi = e
				}
			}
			if lo != nil {
				out = append(out, fmt.Sprintf("at %s the win rate runs from %s (%s) to %s (%s)", k, rate(lo.Report), lo.Config, rate(hi.Report), hi.Config))
			}
		}
		return out
	default: // the skill ladder
		var out []string
		for _, c := range configs {
			var played []*Entry
			for _, k := range skills {
				e := s.find(c, k)
				if e == nil {
					continue
				}
				if !s.judged(e, infos[e], who(k)+" on "+c, &out) {
					continue
				}
				played = append(played, e)
			}
			if len(played) == 0 {
				continue
			}
			first, last := played[0], played[len(played)-1]
			out = append(out, fmt.Sprintf("%s is won by %s of %s's games and %s of %s's", c, rate(first.Report), first.Skill, rate(last.Report), last.Skill))
		}
		return out
	}
}

// topDist is the distribution of a run's highest levels, from its
// histogram (a study keeps it when it drops the games' results).
func topDist(r *Report) Dist {
	var tops []float64
	for _, l := range r.Top {
		for range l.Games {
			tops = append(tops, float64(l.Level))
		}
	}
	return dist(tops)
}
