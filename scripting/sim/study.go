package sim

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/mod2048/mod2048/engine"
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
// whether it is significant: the interval leaves 0 out.
type Diff struct {
	D           float64    `json:"d"`
	CI          [2]float64 `json:"ci95"`
	Significant bool       `json:"significant"`
}

// WinDiff is the difference of b's win rate from a's.
func WinDiff(a, b *Report) Diff { return rateDiff(a.WinRate, a.WinCI, b.WinRate, b.WinCI) }

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

// Text writes the study as one table, a row for each run: the win, loss
// and unfinished rates with their 95% intervals and the median turns; in
// a comparison, each run's difference in win rate from the first
// configuration at the same skill, with its interval and significance.
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
	if showConfig {
		fmt.Fprintf(&b, "%-*s  ", cw, "configuration")
	}
	fmt.Fprintf(&b, "%-*s  ", sw, "skill")
	cut := false // a run ended at the budget
	if s.Precision > 0 || s.Budget > 0 {
		fmt.Fprintf(&b, "%6s  ", "games")
	}
	fmt.Fprintf(&b, "%-21s  %-21s  %-21s  %-22s  %-22s", "won", "lost", "unfinished", "median turns", "median score")
	if diff {
		fmt.Fprintf(&b, "  %-24s  %-11s  %-26s  %s", "won − "+configs[0], "significant", "median turns − base", "median score − base")
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
				}
				fmt.Fprintf(&b, "%5d%s  ", r.Games, mark)
			}
			fmt.Fprintf(&b, "%-21s  %-21s  %-21s  %-22s  %-22s", cell(r.WinRate, r.WinCI), cell(r.LossRate, r.LossCI), cell(r.UnfinishedRate, r.UnfinishedCI), median(r.Turns), median(r.Score))
			if diff {
				if base := s.find(configs[0], k); base != nil && c != configs[0] {
					d := WinDiff(base.Report, r)
					sig := "no"
					if d.Significant {
						sig = "yes"
					}
					fmt.Fprintf(&b, "  %-24s  %-11s  %-26s  %s", fmt.Sprintf("%+.1f (%+.1f to %+.1f)", 100*d.D, 100*d.CI[0], 100*d.CI[1]), sig,
						medianDiff(MedianDiff(base.Report.Turns, r.Turns)), medianDiff(MedianDiff(base.Report.Score, r.Score)))
				}
			}
			b.WriteString("\n")
		}
	}
	if cut {
		fmt.Fprintf(&b, "\n* ended at its share of the study's budget (%s moves of work: moves, their player's searches and the mods' work included); every game finished (--budget, --games)\n", Count(s.Budget))
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

// Verdicts say in plain words what the study found, a line each: for a
// comparison or the levers, whether each configuration makes the base
// harder or easier and at how many skills (a lower win rate is harder),
// and at how many of them the difference is significant; for a sweep, how
// far the win rate runs across its points; for the skill ladder, how far
// it runs from the weakest player to the strongest.
func (s *Study) Verdicts() []string {
	configs, skills := s.Configs(), s.Skills()
	if len(configs) == 0 || len(skills) == 0 {
		return nil
	}
	rate := func(r *Report) string { return fmt.Sprintf("%.1f%%", 100*r.WinRate) }
	switch s.Kind {
	case "mods":
		return s.modsVerdicts()
	case "compare", "levers":
		var out []string
		for _, c := range configs[1:] {
			harder, easier, sig, n := 0, 0, 0, 0
			longer, shorter := 0, 0 // skills whose median turns differ significantly
			for _, k := range skills {
				base, e := s.find(configs[0], k), s.find(c, k)
				if base == nil || e == nil {
					continue
				}
				n++
				if t := MedianDiff(base.Report.Turns, e.Report.Turns); t.Significant && t.D > 0 {
					longer++
				} else if t.Significant {
					shorter++
				}
				d := WinDiff(base.Report, e.Report)
				switch {
				case d.D < 0:
					harder++
				case d.D > 0:
					easier++
				}
				if d.Significant {
					sig++
				}
			}
			var what string
			switch {
			case harder > 0 && easier == 0:
				what = fmt.Sprintf("makes %s harder at %d of %d skills", configs[0], harder, n)
			case easier > 0 && harder == 0:
				what = fmt.Sprintf("makes %s easier at %d of %d skills", configs[0], easier, n)
			case harder > 0 && easier > 0:
				what = fmt.Sprintf("makes %s harder at %d and easier at %d of %d skills", configs[0], harder, easier, n)
			default:
				what = fmt.Sprintf("wins as often as %s at %d of %d skills", configs[0], n, n)
			}
			line := fmt.Sprintf("%s %s (significant at %d)", c, what, sig)
			if sig == 0 {
				line = fmt.Sprintf("%s %s (no difference significant)", c, what)
			}
			switch {
			case longer > 0 && shorter == 0:
				line += fmt.Sprintf("; its games last longer at %d", longer)
			case shorter > 0 && longer == 0:
				line += fmt.Sprintf("; its games end sooner at %d", shorter)
			case longer > 0:
				line += fmt.Sprintf("; its games last longer at %d and end sooner at %d", longer, shorter)
			}
			out = append(out, line)
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
			first, last := s.find(c, skills[0]), s.find(c, skills[len(skills)-1])
			if first == nil || last == nil {
				continue
			}
			out = append(out, fmt.Sprintf("%s is won by %s of %s's games and %s of %s's", c, rate(first.Report), skills[0], rate(last.Report), skills[len(skills)-1]))
		}
		return out
	}
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

// modsVerdicts say what the mods change, skill by skill, of a "mods"
// study (its first configuration the games without them, its second the
// same games with them): first which skills win neither way, then a line
// a skill, on a measure that separates it: the win rate where it moves;
// where it does not (no game won, or every one, either way), the median
// score, else the median highest tile, else the median turns, each named;
// and the games the mods make endless, and those their doing ends.
func (s *Study) modsVerdicts() []string {
	configs, skills := s.Configs(), s.Skills()
	if len(configs) != 2 {
		return nil
	}
	without, with := configs[0], configs[1]
	var out, flat []string
	for _, k := range skills {
		a, b := s.find(without, k), s.find(with, k)
		if a == nil || b == nil {
			continue
		}
		if a.Report.Wins == 0 && b.Report.Wins == 0 {
			flat = append(flat, k)
		}
	}
	switch {
	case len(flat) == len(skills):
		out = append(out, fmt.Sprintf("%s: no skill wins either way", with))
	case len(flat) == 1:
		out = append(out, fmt.Sprintf("%s: %s wins no game either way", with, flat[0]))
	case len(flat) > 1:
		out = append(out, fmt.Sprintf("%s: neither %s nor %s wins a game either way", with, strings.Join(flat[:len(flat)-1], ", "), flat[len(flat)-1]))
	}
	for _, k := range skills {
		a, b := s.find(without, k), s.find(with, k)
		if a == nil || b == nil {
			continue
		}
		out = append(out, fmt.Sprintf("at %s, %s %s", k, with, modsChange(a.Report, b.Report, s.MaxTurns)))
	}
	return out
}

// modsChange says what b (with the mods) changes of a (without them).
func modsChange(a, b *Report, maxTurns int) string {
	var parts []string
	if d := rateDiff(a.UnfinishedRate, a.UnfinishedCI, b.UnfinishedRate, b.UnfinishedCI); d.Significant && d.D > 0 {
		at := Count(uint64(maxTurns)) + " turns"
		for _, e := range b.Ends {
			if e.End == EndBudget {
				at += fmt.Sprintf(" or, %d of them, at the run's budget", e.Games)
			}
		}
		parts = append(parts, fmt.Sprintf("makes the games endless: %d of %d unfinished at %s (%d of %d without)", b.Unfinished, b.Games, at, a.Unfinished, a.Games))
	}
	moves := !(a.Wins == 0 && b.Wins == 0) && !(a.Wins == a.Games && b.Wins == b.Games)
	switch {
	case moves:
		d := WinDiff(a, b)
		parts = append(parts, fmt.Sprintf("%s the win rate from %.1f%% to %.1f%% (%+.1f points, %s)", lowersRaises(d.D), 100*a.WinRate, 100*b.WinRate, 100*d.D, significance(d)))
	default:
		measured := false
		for _, m := range []struct {
			name string
			a, b Dist
		}{{"median score", a.Score, b.Score}, {"median highest level", topDist(a), topDist(b)}, {"median turns", a.Turns, b.Turns}} {
			d := MedianDiff(m.a, m.b)
			if !d.Significant || m.a.P50 == 0 && m.b.P50 == 0 {
				continue
			}
			what := fmt.Sprintf("%s the %s by %.0f%% (%s to %s, significant)", lowersRaises(d.D), m.name, 100*math.Abs(d.D)/math.Max(math.Abs(m.a.P50), 1), num(m.a.P50), num(m.b.P50))
			if m.name == "median highest level" {
				level := "tile"
				if a.Ruleset != engine.ClassicName {
					level = "energy"
				}
				what = fmt.Sprintf("%s the median highest %s from %s to %s (significant)", lowersRaises(d.D), level, levelLabel(a.Ruleset, int(m.a.P50)), levelLabel(b.Ruleset, int(m.b.P50)))
			}
			parts = append(parts, what)
			measured = true
			break
		}
		if !measured {
			parts = append(parts, fmt.Sprintf("changes nothing significant: the median score %s against %s, the median turns %s against %s", num(b.Score.P50), num(a.Score.P50), num(b.Turns.P50), num(a.Turns.P50)))
		}
	}
	var by []string
	ended := 0
	for _, e := range b.Ends {
		if e.Mod != "" {
			ended += e.Games
			by = append(by, e.Cause())
		}
	}
	if ended > 0 {
		parts = append(parts, fmt.Sprintf("its mods' doing ends %d of %d games (%s)", ended, b.Games, strings.Join(by, "; ")))
	}
	return strings.Join(parts, "; ")
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

func lowersRaises(d float64) string {
	if d < 0 {
		return "lowers"
	}
	return "raises"
}

func significance(d Diff) string {
	if d.Significant {
		return "significant"
	}
	return "not significant"
}
