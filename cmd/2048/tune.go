package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/session"
	"github.com/mod2048/mod2048/scripting/session/sim"
	"github.com/mod2048/mod2048/scripting/session/sim/simplot"
	"github.com/mod2048/mod2048/scripting/session/sim/simtune"
)

// The tune's defaults: the levers it moves when --tune-keys names none,
// the games a lever's step is screened on, and the check's games.
const (
	tuneLevers      = 3
	tuneScreenGames = 100
	tuneCheckGames  = 100
)

// minDial is the fewest values an integer setting's range must hold for a
// tune to pick it by itself: goal.hold (1 to 3) or spawn_cells (0 to 3)
// move the win rate a lot in one step and cannot set it finely; a tune
// moves them only when --tune-keys names them.
const minDial = 10

// notLevers are the keys a tune never moves unless --tune-keys names
// them: the board's shape and the win's tile, which make another game
// rather than a harder one, and undo, which has no bearing on play.
var notLevers = []string{"width", "height", "size", "win_value", "undo_limit"}

// tuneRun is a tune's setting up: what the flags and the loaded
// configuration and mods say.
type tuneRun struct {
	o       simOptions
	base    *config.Config
	mods    []*scripting.Mod
	targets []simtune.Target
	skills  []sim.Skill // the targets' rungs, in order
	stderr  io.Writer
}

// runTune is `2048 sim --tune`: it finds the levers' values whose win
// rates come nearest the targets, checks them on fresh seeds, and writes
// the tuned configuration and a report.
func runTune(o simOptions, base *config.Config, mods []*scripting.Mod, opts sim.PolicyOptions, stdout, stderr io.Writer) error {
	ladder := sim.Ladder(opts)
	var names []string
	for _, k := range ladder {
		names = append(names, k.Name)
	}
	targets, err := simtune.ParseTargets(o.tune, names)
	if err != nil {
		return usageError("--tune " + err.Error())
	}
	t := &tuneRun{o: o, base: base, mods: mods, targets: targets, stderr: stderr}
	for _, tg := range targets {
		for _, k := range ladder {
			if k.Name == tg.Skill {
				t.skills = append(t.skills, k)
			}
		}
	}
	var levers []simtune.Lever
	if o.tuneKeys != "" {
		levers, err = t.namedLevers(o.tuneKeys)
	} else {
		levers, err = t.screenLevers(ladder)
	}
	if err != nil {
		return err
	}
	stages, refine := simtune.DefaultStages, simtune.DefaultRefine
	if o.tuneStages != "" {
		if stages, refine, err = parseStages(o.tuneStages); err != nil {
			return err
		}
	}
	start := time.Now()
	planned := simtune.PlannedGames(len(levers), stages, refine) * len(t.skills) // to say how long it has left
	played := 0
	n := 0
	res, err := simtune.Tune(simtune.Options{
		Levers: levers, Targets: targets, Stages: stages, Refine: refine, Seed: o.seed,
		Eval: func(values []float64, from, games int) ([]float64, error) {
			rates, err := t.eval(levers, values, from, games, o.seed)
			played += games * len(t.skills)
			return rates, err
		},
		Step: func(s simtune.Step) {
			n++
			left := ""
			if played > 0 && planned > played {
				per := time.Since(start) / time.Duration(played)
				left = fmt.Sprintf(", at most about %s left", (per * time.Duration(planned-played)).Round(time.Second))
			}
			phase := fmt.Sprintf("exploring, generation %d", s.Generation+1)
			if s.Round > 0 {
				phase = fmt.Sprintf("refining, round %d of %d", s.Round, len(refine))
			}
			fmt.Fprintf(stderr, "2048 sim: tune (%s, %d games) candidate %d: %s%s\n", phase, s.Games, n, stepLine(levers, targets, s), left)
		},
	})
	stopped := errors.Is(err, sim.ErrStopped)
	if err != nil && !stopped {
		return err
	}
	if stopped && (res == nil || res.Answer == nil) {
		return errors.New("stopped before a candidate was measured: there is nothing to write")
	}
	rep := &tuneReport{Result: res, Partial: stopped, Command: "2048 sim " + strings.Join(o.args, " "), CheckSeed: o.seed + 1}
	if !stopped {
		rep.Check, err = t.check(levers, res.Values(), o.seed+1)
		if errors.Is(err, sim.ErrStopped) {
			rep.Check, rep.Partial, stopped = nil, true, true
		} else if err != nil {
			return err
		}
	}
	tuned, modSets, err := t.variant(levers, res.Values())
	if err != nil {
		return err
	}
	rep.ModSets = modSets
	if err := safeText(stdout, rep.text); err != nil {
		return err
	}
	if o.write != "" {
		if err := os.WriteFile(o.write, rep.toml(tuned), 0o644); err != nil {
			return err
		}
	}
	if o.json != "" {
		data, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(o.json, append(data, '\n'), 0o644); err != nil {
			return err
		}
	}
	if o.plot != "" {
		if err := simplot.Tune(res, o.plot); err != nil {
			return err
		}
	}
	if stopped {
		return errors.New("stopped: the report and the file hold the best candidate measured so far, marked partial, and no check on fresh seeds")
	}
	return nil
}

// parseStages reads --tune-stages: the exploring stages, GAMESxGENERATIONS
// each, then the refining rounds' games: 8x6,20,40,80,120,120.
func parseStages(s string) ([]simtune.Stage, []int, error) {
	var stages []simtune.Stage
	refine := []int{}
	bad := func(f string) error {
		return usageError(fmt.Sprintf("--tune-stages %q: want GAMESxGENERATIONS for an exploring stage and GAMES for a refining round, each at least 1, as 8x6,20,40,80,120,120", f))
	}
	for _, f := range splitList(s) {
		if g, n, ok := strings.Cut(f, "x"); ok {
			games, err1 := strconv.Atoi(g)
			gens, err2 := strconv.Atoi(n)
			if err1 != nil || err2 != nil || games < 1 || gens < 1 || games > sim.MaxGames || len(refine) > 0 {
				return nil, nil, bad(f)
			}
			stages = append(stages, simtune.Stage{Games: games, Generations: gens})
			continue
		}
		games, err := strconv.Atoi(f)
		if err != nil || games < 1 || games > sim.MaxGames {
			return nil, nil, bad(f)
		}
		refine = append(refine, games)
	}
	if len(stages) == 0 {
		return nil, nil, usageError("--tune-stages: want at least one exploring stage, GAMESxGENERATIONS, first: as 8x6,20,40,80,120,120")
	}
	return stages, refine, nil
}

// namedLevers are the levers of --tune-keys KEY[=LO:HI],...: configuration
// keys or MOD.SETTING of a loaded mod, numbers, each with its range given
// or the default one (defaultRange).
func (t *tuneRun) namedLevers(list string) ([]simtune.Lever, error) {
	var out []simtune.Lever
	for _, f := range splitList(list) {
		key, bounds, ranged := strings.Cut(f, "=")
		key = strings.TrimSpace(key)
		for _, l := range out {
			if l.Key == key {
				return nil, usageError(fmt.Sprintf("--tune-keys names %s twice: name each key once", key))
			}
		}
		l, err := t.lever(key)
		if err != nil {
			return nil, usageError("--tune-keys " + err.Error())
		}
		if ranged {
			hardLo, hardHi := t.bounds(key)
			lo, hi, ok := strings.Cut(bounds, ":")
			a, err1 := strconv.ParseFloat(strings.TrimSpace(lo), 64)
			b, err2 := strconv.ParseFloat(strings.TrimSpace(hi), 64)
			if !ok || err1 != nil || err2 != nil || !(a < b) || math.IsInf(a, 0) || math.IsInf(b, 0) {
				return nil, usageError(fmt.Sprintf("--tune-keys %s: want KEY=LO:HI with LO below HI, as %s=%s:%s", f, key, formatStep(l.Lo), formatStep(l.Hi)))
			}
			l.Lo, l.Hi = max(a, hardLo), min(b, hardHi)
			if !(l.Lo < l.Hi) {
				return nil, usageError(fmt.Sprintf("--tune-keys %s: the range is outside the setting's bounds (%v to %v)", f, hardLo, hardHi))
			}
		}
		out = append(out, l)
	}
	if len(out) == 0 {
		return nil, usageError("--tune-keys: want KEY[=LO:HI],...")
	}
	return out, nil
}

// bounds are a mod's setting's bounds from its manifest (±Inf where it
// gives none, and for a configuration key, whose range the configuration
// checks as it builds: a value out of it is refused, a candidate the
// search steers away from).
func (t *tuneRun) bounds(key string) (lo, hi float64) {
	lo, hi = math.Inf(-1), math.Inf(1)
	if _, err := t.base.Value(key); err == nil {
		return lo, hi
	}
	id, name, _ := strings.Cut(key, ".")
	for _, m := range t.mods {
		if s, ok := m.Manifest.Settings[name]; ok && m.ID() == id {
			if s.Min != nil {
				lo = *s.Min
			}
			if s.Max != nil {
				hi = *s.Max
			}
		}
	}
	return lo, hi
}

// lever makes the lever of a configuration key or a loaded mod's
// setting, with its default range.
func (t *tuneRun) lever(key string) (simtune.Lever, error) {
	v, err := t.base.Value(key)
	if err != nil {
		id, name, dotted := strings.Cut(key, ".")
		for _, m := range t.mods {
			if dotted && m.ID() == id {
				if _, ok := m.Manifest.Settings[name]; !ok {
					return simtune.Lever{}, fmt.Errorf("%s: mod %s has no setting %s (its settings: %s)", key, id, name, strings.Join(slices.Sorted(maps.Keys(m.Manifest.Settings)), ", "))
				}
				l, err := numberLever(key, m.Values[name])
				if err != nil {
					return l, err
				}
				lo, hi := t.bounds(key)
				l.Lo, l.Hi = max(l.Lo, lo), min(l.Hi, hi)
				return l, nil
			}
		}
		return simtune.Lever{}, fmt.Errorf("%s: %v", key, err)
	}
	return numberLever(key, v)
}

// numberLever is the lever of a numeric setting of value v, with its
// default range: from half of it to twice it (an integer at least 2 either
// way; a rate, a number from 0 to 1, at most 1, and 0 to 0.2 from 0). A
// range about the value keeps the search where the game is: a goal of
// 0.38 a cell is a cliff between 0.35 (won by most) and 0.43 (by few),
// which the whole of 0 to 1 would shrink to a sliver.
func numberLever(key string, v any) (simtune.Lever, error) {
	switch x := v.(type) {
	case int:
		return numberLever(key, int64(x))
	case int64:
		d := max(float64(x)/2, 2)
		return simtune.Lever{Key: key, Start: float64(x), Lo: math.Max(float64(x)-d, 0), Hi: float64(x) + max(float64(x), 2), Int: true}, nil
	case float64:
		switch {
		case x == 0:
			return simtune.Lever{Key: key, Start: x, Lo: 0, Hi: 0.2}, nil
		case x > 0 && x <= 1:
			return simtune.Lever{Key: key, Start: x, Lo: x / 2, Hi: math.Min(2*x, 1)}, nil
		}
		return simtune.Lever{Key: key, Start: x, Lo: math.Min(x/2, 2*x), Hi: math.Max(x/2, 2*x)}, nil
	}
	return simtune.Lever{}, fmt.Errorf("%s is no number (%v): a tune moves numbers", key, v)
}

// screenLevers picks the levers of a tune that names none: of the
// configuration's and the loaded mods' numeric settings (as --levers
// steps them, less notLevers and integers of fewer than minDial values
// in their range), those whose steps move the win rate most
// at the cheapest target's skill (the lowest rung named, other than
// random play where another is named), on tuneScreenGames games each, at
// most tuneLevers of them.
func (t *tuneRun) screenLevers(ladder []sim.Skill) ([]simtune.Lever, error) {
	screen := t.skills[0]
	for _, k := range ladder {
		if slices.ContainsFunc(t.skills, func(s sim.Skill) bool { return s.Name == k.Name }) && (k.Policy != "random" || len(t.skills) == 1) {
			screen = k
			break
		}
	}
	vs, err := leverVariants(t.o, t.base, t.mods)
	if err != nil {
		return nil, err
	}
	baseRate, err := t.rate(variant{"base", t.base, t.mods}, screen, 0, tuneScreenGames, t.o.seed)
	if err != nil {
		return nil, err
	}
	moved := map[string]float64{} // a key's largest move of the win rate
	var found []simtune.Lever     // the dials, in the order first screened
	for i, v := range vs {
		key, _, _ := strings.Cut(v.label, "=")
		if slices.Contains(notLevers, key) {
			continue
		}
		l, err := t.lever(key)
		if err != nil || l.Int && l.Hi-l.Lo < minDial {
			continue // a switch, or a number of a few values: a step, not a dial
		}
		fmt.Fprintf(t.stderr, "2048 sim: tune: screening the levers at %s, %d of %d: %s\n", screen.Name, i+1, len(vs), v.label)
		r, err := t.rate(v, screen, 0, tuneScreenGames, t.o.seed)
		if err != nil {
			return nil, err
		}
		if _, ok := moved[key]; !ok {
			found = append(found, l)
		}
		moved[key] = math.Max(moved[key], math.Abs(r-baseRate))
	}
	slices.SortStableFunc(found, func(a, b simtune.Lever) int { return cmp.Compare(moved[b.Key], moved[a.Key]) })
	var out []simtune.Lever
	for _, l := range found {
		if len(out) == tuneLevers || moved[l.Key] == 0 {
			break
		}
		out = append(out, l)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no setting's step moved %s's win rate (%.1f%%) over %d games: name the levers with --tune-keys KEY[=LO:HI],...", screen.Name, 100*baseRate, tuneScreenGames)
	}
	var moves []string
	for _, l := range out {
		moves = append(moves, fmt.Sprintf("%s (%.1f points)", l.Key, 100*moved[l.Key]))
	}
	fmt.Fprintf(t.stderr, "2048 sim: tune: the levers that move %s's win rate most: %s\n", screen.Name, strings.Join(moves, ", "))
	return out, nil
}

// variant builds the configuration and mods of the levers' values: the
// base with each configuration key set, and the mods loaded afresh with
// each MOD.SETTING set; it returns the mods' settings as --mod-set flags.
// An error is the configuration's or a mod's refusal of a value.
func (t *tuneRun) variant(levers []simtune.Lever, values []float64) (variant, []string, error) {
	b := t.o.build
	b.Sets = slices.Clone(b.Sets)
	modSets := slices.Clone(t.o.modSets)
	var mine []string
	for i, l := range levers {
		kv := l.Key + "=" + l.Format(values[i])
		if _, err := t.base.Value(l.Key); err == nil {
			b.Sets = append(b.Sets, kv)
		} else {
			modSets = append(modSets, kv)
			mine = append(mine, kv)
		}
	}
	c, err := config.Build(b)
	if err != nil {
		return variant{}, nil, err
	}
	mods, err := loadMods(t.o.mods, modSets, false)
	if err != nil {
		return variant{}, nil, err
	}
	return variant{"tuned", c, mods}, mine, nil
}

// eval plays a candidate on games games of the seed from game from at
// every target's skill and returns the win rates.
func (t *tuneRun) eval(levers []simtune.Lever, values []float64, from, games int, seed uint64) ([]float64, error) {
	v, _, err := t.variant(levers, values)
	if err != nil {
		return nil, simtune.Infeasible{Err: err}
	}
	var rates []float64
	for _, k := range t.skills {
		r, err := t.rate(v, k, from, games, seed)
		if err != nil {
			return nil, err
		}
		rates = append(rates, r)
	}
	return rates, nil
}

// rate plays a variant's games games of the seed from game from at one
// skill and returns its win rate.
func (t *tuneRun) rate(v variant, k sim.Skill, from, games int, seed uint64) (float64, error) {
	rs, err := t.play(v, k, from, games, seed)
	if err != nil || len(rs) == 0 {
		return 0, err
	}
	return float64(sim.Wins(rs)) / float64(len(rs)), nil
}

func (t *tuneRun) play(v variant, k sim.Skill, from, games int, seed uint64) ([]sim.Result, error) {
	mk, err := sim.MakePolicy(k.Policy, k.Options)
	if err != nil {
		return nil, err
	}
	return sim.Run(sim.Options{Setup: session.Setup{Config: v.cfg, Mods: v.mods, Limits: modLimits}, Policy: k.Name, Make: mk,
		From: from, Games: from + games, Seed: seed, MaxTurns: t.o.maxTurns, Jobs: t.o.jobs, Stop: t.o.stop})
}

// tuneCheck is what the tuned values reach at a target's skill on fresh
// seeds.
type tuneCheck struct {
	Skill  string     `json:"skill"`
	Target float64    `json:"target"`
	Games  int        `json:"games"`
	Rate   float64    `json:"rate"`
	CI     [2]float64 `json:"ci95"`
}

// check plays the tuned values on --games fresh games (of the seed after
// the search's) at every target's skill.
func (t *tuneRun) check(levers []simtune.Lever, values []float64, seed uint64) ([]tuneCheck, error) {
	v, _, err := t.variant(levers, values)
	if err != nil {
		return nil, err
	}
	var out []tuneCheck
	for i, k := range t.skills {
		fmt.Fprintf(t.stderr, "2048 sim: tune: checking the tuned values at %s on %d fresh games (seed %d)\n", k.Name, t.o.games, seed)
		rs, err := t.play(v, k, 0, t.o.games, seed)
		if err != nil {
			return nil, err
		}
		r := sim.NewReport(sim.Header{}, rs)
		out = append(out, tuneCheck{Skill: k.Name, Target: t.targets[i].Rate, Games: r.Games, Rate: r.WinRate, CI: r.WinCI})
	}
	return out, nil
}

// stepLine writes a candidate: its values and its win rates.
func stepLine(levers []simtune.Lever, targets []simtune.Target, s simtune.Step) string {
	var b strings.Builder
	for i, l := range levers {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(l.Key + "=" + l.Format(s.Values[i]))
	}
	if s.Refused != "" {
		return b.String() + " → refused: " + s.Refused
	}
	b.WriteString(" →")
	for i, tg := range targets {
		fmt.Fprintf(&b, " %s %.1f%%", tg.Skill, 100*s.Rates[i])
	}
	if s.Repeated {
		b.WriteString(" (measured before)")
	}
	return b.String()
}

// tuneReport is a tune's report: the search, the check on fresh seeds,
// and the mods' tuned settings.
type tuneReport struct {
	*simtune.Result
	Command   string      `json:"command"`
	CheckSeed uint64      `json:"check_seed"`
	Check     []tuneCheck `json:"check"`
	ModSets   []string    `json:"mod_sets,omitempty"`
	Partial   bool        `json:"partial,omitempty"`
}

func (r *tuneReport) text(w io.Writer) error {
	var b strings.Builder
	if r.Partial {
		b.WriteString("partial: the tune was stopped; this is the best candidate it measured, not checked on fresh seeds\n\n")
	}
	var tg []string
	for _, t := range r.Targets {
		tg = append(tg, fmt.Sprintf("%s %.0f%%", t.Skill, 100*t.Rate))
	}
	fmt.Fprintf(&b, "targets: %s\n", strings.Join(tg, ", "))
	measured := 0
	for _, s := range r.Steps {
		if !s.Repeated {
			measured++
		}
	}
	fmt.Fprintf(&b, "search: %d candidates measured (%d games at each skill): CMA-ES exploring (%s games a candidate), then %d refining rounds of a logistic model (%s games)\n\n", measured, r.Games(), joinInts(r.StageGames()), len(r.Refine), joinInts(r.Refine))
	kw := len("lever")
	for _, l := range r.Levers {
		kw = max(kw, len(l.Key))
	}
	fmt.Fprintf(&b, "%-*s  %10s  %10s  %9s  %s\n", kw, "lever", "from", "to", "moved", "range")
	for i, l := range r.Levers {
		moved := "0"
		if v := r.Answer[i]; v != l.Start {
			moved = fmt.Sprintf("%+.3g", v-l.Start)
			if l.Start != 0 {
				moved += fmt.Sprintf(" (%+.0f%%)", 100*(v-l.Start)/math.Abs(l.Start))
			}
		}
		fmt.Fprintf(&b, "%-*s  %10s  %10s  %9s  %s to %s\n", kw, l.Key, l.Format(l.Start), l.Format(r.Answer[i]), moved, l.Format(l.Lo), l.Format(l.Hi))
	}
	if len(r.Check) > 0 {
		fmt.Fprintf(&b, "\nthe tuned values on %d fresh games (seed %d), 95%% intervals:\n", r.Check[0].Games, r.CheckSeed)
		sw := len("skill")
		for _, c := range r.Check {
			sw = max(sw, len(c.Skill))
		}
		fmt.Fprintf(&b, "%-*s  %6s  %-22s  %s\n", sw, "skill", "target", "won", "miss")
		for _, c := range r.Check {
			hit := "within the interval"
			if c.Target < c.CI[0] || c.Target > c.CI[1] {
				hit = "outside the interval"
			}
			fmt.Fprintf(&b, "%-*s  %5.0f%%  %5.1f%% (%4.1f–%5.1f)  %+.1f points, %s\n", sw, c.Skill, 100*c.Target, 100*c.Rate, 100*c.CI[0], 100*c.CI[1], 100*(c.Rate-c.Target), hit)
		}
		b.WriteString("\nverdict: " + r.verdict() + "\n")
	}
	if len(r.ModSets) > 0 {
		fmt.Fprintf(&b, "the mods' tuned settings (a configuration file holds none): --mod-set %s\n", strings.Join(r.ModSets, " --mod-set "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// verdict says in one line whether the tuned values meet the targets on
// the fresh games, and when they miss, what may be in the way: a lever
// held at a bound of its range.
func (r *tuneReport) verdict() string {
	worst, at := 0.0, ""
	inside := true
	for _, c := range r.Check {
		if m := math.Abs(c.Rate - c.Target); m >= worst {
			worst, at = m, c.Skill
		}
		inside = inside && c.Target >= c.CI[0] && c.Target <= c.CI[1]
	}
	if inside {
		return fmt.Sprintf("the tuned configuration meets every target on fresh games: each within its 95%% interval, the furthest %.1f points off (%s)", 100*worst, at)
	}
	var held []string
	for i, l := range r.Levers {
		if v := r.Answer[i]; v <= l.Lo || v >= l.Hi {
			held = append(held, fmt.Sprintf("%s stopped at an end of its range (%s to %s), where a wider range may reach further (--tune-keys %s=LO:HI, if the setting allows)", l.Key, l.Format(l.Lo), l.Format(l.Hi), l.Key))
		}
	}
	line := fmt.Sprintf("the tuned configuration misses %s by %.1f points on fresh games", at, 100*worst)
	if len(held) > 0 {
		return line + "; " + strings.Join(held, "; ")
	}
	return line + ": other levers (--tune-keys) or more games a round (--tune-stages) may come nearer"
}

// joinInts writes numbers as a list: "20, 40, 80".
func joinInts(ns []int) string {
	var s []string
	for _, n := range ns {
		s = append(s, strconv.Itoa(n))
	}
	return strings.Join(s, ", ")
}

// toml is the tuned configuration file: the effective configuration, as
// `2048 config show` writes it, under a header that says how it was made
// and what it reaches.
func (r *tuneReport) toml(c variant) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Tuned by: %s\n", r.Command)
	if r.Partial {
		b.WriteString("# partial: the tune was stopped; the best candidate measured, not checked\n")
	}
	for _, ch := range r.Check {
		fmt.Fprintf(&b, "# %s: target %.0f%%, won %.1f%% (%.1f–%.1f) of %d fresh games (seed %d)\n", ch.Skill, 100*ch.Target, 100*ch.Rate, 100*ch.CI[0], 100*ch.CI[1], ch.Games, r.CheckSeed)
	}
	for _, kv := range r.ModSets {
		fmt.Fprintf(&b, "# with --mod-set %s (a mod's setting: give it beside --config)\n", kv)
	}
	b.WriteString("\n")
	b.Write(c.cfg.TOML())
	return b.Bytes()
}
