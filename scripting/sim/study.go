package sim

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"unicode/utf8"
)

// A Skill is a rung of the skill ladder: a player of one strength.
type Skill struct {
	Name    string // as the tables print it: "random", "lookahead 2", ...
	Policy  string // the policy's name (MakePolicy)
	Options PolicyOptions
}

// Ladder returns the skill ladder, weakest first: random play, greedy (a
// casual player: the best immediate score), the lookahead one and two
// moves deep, and the expert, the strongest player the lab has. A
// difficulty figure names its player: a study run with the ladder shows a
// configuration at every skill. base gives the expert's settings and the
// searches' weights.
func Ladder(base PolicyOptions) []Skill {
	look := func(depth int) PolicyOptions {
		o := base
		o.Depth, o.Samples = depth, DefaultSamples
		return o
	}
	return []Skill{
		{Name: "random", Policy: "random", Options: base},
		{Name: "greedy", Policy: "greedy", Options: base},
		{Name: "lookahead 1", Policy: "lookahead", Options: look(1)},
		{Name: "lookahead 2", Policy: "lookahead", Options: look(2)},
		{Name: "expert", Policy: "expert", Options: base},
	}
}

// Entry is one run of a study: a configuration played by one skill.
type Entry struct {
	Config string  `json:"config"` // its label: "base", a file, "blight.rate=0.1", "mods: freeze"
	Skill  string  `json:"skill"`
	Report *Report `json:"report"`
}

// Study is a set of runs on the same seeds: configurations (a comparison,
// a sweep's grid, a lever's steps) at one or more skills. Its tables, JSON,
// CSV and plots show every run side by side.
type Study struct {
	Kind     string  `json:"kind"` // "skill", "mods" (the same games without the mods, then with them), "compare", "sweep" or "levers"
	Games    int     `json:"games"`
	Seed     uint64  `json:"seed"`
	MaxTurns int     `json:"max_turns"`
	Entries  []Entry `json:"entries"`
	// Precision, when set, is the half-width each run's win rate was
	// played to (RunPrecise): Games is then the most a run plays.
	Precision float64 `json:"precision,omitempty"`
	// Budget, when set, is the most work the study's runs could do in all
	// (Options.Budget), in moves: each run's share is in its report.
	Budget uint64 `json:"budget,omitempty"`
}

// Configs returns the study's configuration labels in order, once each.
func (s *Study) Configs() []string {
	var out []string
	seen := map[string]bool{}
	for _, e := range s.Entries {
		if !seen[e.Config] {
			seen[e.Config] = true
			out = append(out, e.Config)
		}
	}
	return out
}

// Skills returns the study's skills in order, once each.
func (s *Study) Skills() []string {
	var out []string
	seen := map[string]bool{}
	for _, e := range s.Entries {
		if !seen[e.Skill] {
			seen[e.Skill] = true
			out = append(out, e.Skill)
		}
	}
	return out
}

// find returns the entry of a configuration and skill, or nil.
func (s *Study) find(config, skill string) *Entry {
	for i := range s.Entries {
		if s.Entries[i].Config == config && s.Entries[i].Skill == skill {
			return &s.Entries[i]
		}
	}
	return nil
}

// Diff is the difference of two win rates, b − a, with its 95% interval
// (Newcombe's hybrid score interval, from the two Wilson intervals) and
// whether it is significant: the interval leaves 0 out; or, where the
// counts are small (Exact), Fisher's exact test's P is under 0.05.
type Diff struct {
	D           float64    `json:"d"`
	CI          [2]float64 `json:"ci95"`
	Significant bool       `json:"significant"`
	P           float64    `json:"p,omitempty"`
	Exact       bool       `json:"exact,omitempty"`
}

// WinDiff is the difference of b's win rate from a's (countDiff: Fisher's
// exact test decides where the counts are small).
func WinDiff(a, b *Report) Diff { return countDiff(a.Wins, a.Games, b.Wins, b.Games) }

// rateDiff is the difference of two rates, b − a, with its 95% interval
// (Newcombe's hybrid score interval, from their Wilson intervals).
func rateDiff(p1 float64, ci1 [2]float64, p2 float64, ci2 [2]float64) Diff {
	l1, u1, l2, u2 := ci1[0], ci1[1], ci2[0], ci2[1]
	d := p2 - p1
	lo := d - math.Sqrt((p2-l2)*(p2-l2)+(u1-p1)*(u1-p1))
	hi := d + math.Sqrt((u2-p2)*(u2-p2)+(p1-l1)*(p1-l1))
	return Diff{D: round6(d), CI: [2]float64{round6(lo), round6(hi)}, Significant: lo > 0 || hi < 0}
}

// MedianDiff is the difference of b's median from a's, with its 95%
// interval by the method of variance estimates recovery (Zou and Donner)
// from the two medians' own intervals, as WinDiff combines the two Wilson
// intervals; significant when it leaves 0 out.
func MedianDiff(a, b Dist) Diff {
	d := b.P50 - a.P50
	lo := d - math.Hypot(b.P50-b.P50CI[0], a.P50CI[1]-a.P50)
	hi := d + math.Hypot(b.P50CI[1]-b.P50, a.P50-a.P50CI[0])
	return Diff{D: round6(d), CI: [2]float64{round6(lo), round6(hi)}, Significant: lo > 0 || hi < 0}
}

// minMedianGames is the fewest games whose median has a 95% interval: with
// fewer, even the lowest and highest of them cover the median with less
// than 95% chance (1 − 2·0.5ⁿ), and dist's interval shrinks to a point.
const minMedianGames = 6

// medianChange is MedianDiff of a statistic of two runs, never
// significant when either run has fewer than minMedianGames games.
func medianChange(a, b *Report, of func(*Report) Dist) Diff {
	d := MedianDiff(of(a), of(b))
	if min(a.Games, b.Games) < minMedianGames {
		d.Significant = false
	}
	return d
}

func turnsOf(r *Report) Dist { return r.Turns }
func scoreOf(r *Report) Dist { return r.Score }

// Text writes the study as one table, a row for each run: the win, loss
// and unfinished rates with their 95% intervals and the median turns; in
// a comparison, each run's difference in win rate from the first
// configuration at the same skill, with its interval and significance
// (Fisher's exact test's p where the counts are small), and in median
// turns and score; every header names the first configuration by its
// row's label (won − classic). A run the budget left out has "not played"
// for its differences. The verdicts follow (Verdicts).
func (s *Study) Text(w io.Writer) error {
	var b strings.Builder
	configs, skills := s.Configs(), s.Skills()
	cw := len("configuration")
	for _, c := range configs {
		cw = max(cw, utf8.RuneCountInString(c))
	}
	sw := len("skill")
	for _, k := range skills {
		sw = max(sw, utf8.RuneCountInString(k))
	}
	if s.Precision > 0 {
		budget := ""
		if s.Budget > 0 {
			budget = ", the study " + Count(s.Budget) + " moves of work, shared by its runs"
		}
		fmt.Fprintf(&b, "each run played until its win rate is known to ±%.1f points (at most %d games%s), seed %d, at most %d turns; 95%% intervals\n\n", 100*s.Precision, s.Games, budget, s.Seed, s.MaxTurns)
	} else {
		fmt.Fprintf(&b, "%d games a run, seed %d, at most %d turns; 95%% intervals\n\n", s.Games, s.Seed, s.MaxTurns)
	}
	showConfig := len(configs) > 1 || s.Kind != "skill"
	diff := s.Kind == "compare" || s.Kind == "levers" || s.Kind == "mods"
	infos := s.runInfos()
	if showConfig {
		fmt.Fprintf(&b, "%-*s  ", cw, "configuration")
	}
	fmt.Fprintf(&b, "%-*s  ", sw, "skill")
	cut := false     // a run ended at the budget
	stopped := false // and one of its games stopped there
	exact := false   // a difference was judged by Fisher's exact test
	if s.Precision > 0 || s.Budget > 0 {
		fmt.Fprintf(&b, "%6s  ", "games")
	}
	fmt.Fprintf(&b, "%-21s  %-21s  %-21s  %-22s  %-22s", "won", "lost", "unfinished", "median turns", "median score")
	if diff {
		// The games the others are measured against are named by their
		// row's own label in every header (classic, base, mid, ...).
		fmt.Fprintf(&b, "  %s  %-14s  %s  %s", pad("won − "+configs[0], 24), "significant", pad("median turns − "+configs[0], 26), "median score − "+configs[0])
	}
	b.WriteString("\n")
	cell := func(p float64, ci [2]float64) string {
		return fmt.Sprintf("%5.1f%% (%4.1f–%5.1f)", 100*p, 100*ci[0], 100*ci[1])
	}
	for _, c := range configs {
		for _, k := range skills {
			e := s.find(c, k)
			if e == nil {
				continue
			}
			r := e.Report
			if showConfig {
				fmt.Fprintf(&b, "%-*s  ", cw, pad(c, cw))
			}
			fmt.Fprintf(&b, "%-*s  ", sw, pad(k, sw))
			if s.Precision > 0 || s.Budget > 0 {
				mark := " "
				if r.Cut() {
					mark, cut = "*", true
					stopped = stopped || infos[e].stopped > 0
				}
				fmt.Fprintf(&b, "%5d%s  ", r.Games, mark)
			}
			fmt.Fprintf(&b, "%-21s  %-21s  %-21s  %-22s  %-22s", cell(r.WinRate, r.WinCI), cell(r.LossRate, r.LossCI), cell(r.UnfinishedRate, r.UnfinishedCI), median(r.Turns), median(r.Score))
			if diff {
				base := s.find(configs[0], k)
				switch {
				case base == nil || c == configs[0]:
				case max(infos[base].status, infos[e].status) >= runNoEnd:
					// A run the budget left out, or whose every game it
					// stopped, has nothing to compare (the verdict names it).
					what := "not played"
					if max(infos[base].status, infos[e].status) == runNoEnd {
						what = "no game ended"
					}
					fmt.Fprintf(&b, "  %s", what)
				default:
					d := WinDiff(base.Report, r)
					sig := "no"
					if d.Significant {
						sig = "yes"
					}
					if d.Exact {
						sig += fmt.Sprintf(" (p %.3f)", d.P)
						exact = true
					}
					fmt.Fprintf(&b, "  %-24s  %-14s  %-26s  %s", fmt.Sprintf("%+.1f (%+.1f to %+.1f)", 100*d.D, 100*d.CI[0], 100*d.CI[1]), sig,
						medianDiff(medianChange(base.Report, r, turnsOf)), medianDiff(medianChange(base.Report, r, scoreOf)))
				}
			}
			b.WriteString("\n")
		}
	}
	if exact {
		fmt.Fprintf(&b, "\nsignificant (p …): the counts are small, and Fisher's exact test decides (p under 0.05); a median's difference is never significant from fewer than %d games\n", minMedianGames)
	}
	if cut {
		finished := "every game finished"
		if stopped {
			finished = "every game finished but one its share ran out in, which stopped there (unfinished at the budget)"
		}
		fmt.Fprintf(&b, "\n* ended at its share of the study's budget (%s moves of work: moves, their player's searches and the mods' work included); %s (--budget, --games)\n", Count(s.Budget), finished)
	}
	// How each run's games ended, by cause, with the median turn of each.
	b.WriteString("\nhow the games ended (games, median turn)\n")
	for _, c := range configs {
		for _, k := range skills {
			e := s.find(c, k)
			if e == nil {
				continue
			}
			if showConfig {
				fmt.Fprintf(&b, "%-*s  ", cw, pad(c, cw))
			}
			fmt.Fprintf(&b, "%-*s  ", sw, pad(k, sw))
			parts := make([]string, len(e.Report.Ends))
			for i, end := range e.Report.Ends {
				parts[i] = fmt.Sprintf("%s %d (turn %s)", end.Cause(), end.Games, num(end.MedianTurn))
			}
			b.WriteString(strings.Join(parts, " · ") + "\n")
		}
	}
	if v := s.Verdicts(); len(v) > 0 {
		b.WriteString("\n")
		for _, line := range v {
			b.WriteString("verdict: " + line + "\n")
		}
	}
	lines := strings.Split(b.String(), "\n")
	for i, line := range lines {
		lines[i] = strings.TrimRight(line, " ") // the padding of the last column
	}
	_, err := io.WriteString(w, strings.Join(lines, "\n"))
	return err
}

// medianDiff writes a difference of medians with its interval, starred
// when significant.
func medianDiff(d Diff) string {
	star := ""
	if d.Significant {
		star = " *"
	}
	return fmt.Sprintf("%+.0f (%+.0f to %+.0f)%s", d.D, d.CI[0], d.CI[1], star)
}

// median writes a distribution's median with its 95% interval.
func median(d Dist) string {
	return fmt.Sprintf("%s (%s–%s)", num(d.P50), num(d.P50CI[0]), num(d.P50CI[1]))
}

// pad pads s with spaces to n runes (fmt pads by bytes).
func pad(s string, n int) string {
	if k := utf8.RuneCountInString(s); k < n {
		return s + strings.Repeat(" ", n-k)
	}
	return s
}

// JSON returns the study as indented JSON: every run's whole report.
func (s *Study) JSON() ([]byte, error) {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// CSV writes one row a run: its configuration and skill, the games, the
// rates with their intervals and the score and turn medians.
func (s *Study) CSV(w io.Writer) error {
	var b strings.Builder
	b.WriteString("config,skill,games,won,won_lo,won_hi,lost,lost_lo,lost_hi,unfinished,unfinished_lo,unfinished_hi,median_turns,median_score\n")
	for _, e := range s.Entries {
		r := e.Report
		fmt.Fprintf(&b, "%s,%s,%d,%g,%g,%g,%g,%g,%g,%g,%g,%g,%g,%g\n", csvField(e.Config), csvField(e.Skill), r.Games,
			r.WinRate, r.WinCI[0], r.WinCI[1], r.LossRate, r.LossCI[0], r.LossCI[1],
			r.UnfinishedRate, r.UnfinishedCI[0], r.UnfinishedCI[1], r.Turns.P50, r.Score.P50)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// csvField quotes a field that holds a comma, a quote or a line break.
func csvField(s string) string {
	if !strings.ContainsAny(s, ",\"\n\r") {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
