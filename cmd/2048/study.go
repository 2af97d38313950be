package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
	"github.com/mod2048/mod2048/scripting/sim"
)

// maxStudyResults is the most games' results a study keeps for its JSON
// and plot (about 150 bytes each).
const maxStudyResults = 2_000_000

// variant is one configuration of a study (sim.Variant).
type variant = sim.Variant

// study says what a --skill, --compare, --compare-mods, --sweep or
// --levers run plays: its variants, built and checked before any game is
// played, so that an error (an unknown key, with the nearest one
// suggested) comes before the table's header.
type study struct {
	kind     string
	variants []variant
	skills   []sim.Skill
}

// isStudy reports whether o asks for a study rather than a single run.
func (o simOptions) isStudy() bool {
	return o.skill || o.skills != "" || o.levers || len(o.compare) > 0 || len(o.compareMods) > 0 || len(o.sweep) > 0 || o.baseline()
}

// baseline reports whether the run plays its games without the mods too:
// whenever mods are named, what a designer asks is what they change, for
// whom. --no-baseline plays the mods' games alone, and a shard (a slice of
// one run, for sim merge) plays what it names.
func (o simOptions) baseline() bool {
	return len(o.mods) > 0 && !o.noBaseline && o.shard == ""
}

// planStudy builds the study's variants and skills from the flags.
func planStudy(o simOptions, base *config.Config, mods []*mod.Mod, opts sim.PolicyOptions) (*study, error) {
	st := &study{kind: "skill"}
	switch {
	case o.skills != "":
		ladder := sim.Ladder(opts)
		var named []string
		for _, name := range sim.SplitList(o.skills) {
			if slices.Contains(named, name) {
				return nil, usageError(fmt.Sprintf("--skills names %s twice: name each rung once", name))
			}
			named = append(named, name)
			var found bool
			for _, k := range ladder {
				if k.Name == name {
					st.skills, found = append(st.skills, k), true
				}
			}
			if !found {
				var names []string
				for _, k := range ladder {
					names = append(names, k.Name)
				}
				return nil, usageError(fmt.Sprintf("--skills: %q is not a rung of the ladder (%s)", name, strings.Join(names, ", ")))
			}
		}
	case o.skill:
		st.skills = sim.Ladder(opts)
	default:
		st.skills = []sim.Skill{{Name: policyLabel(o), Policy: o.policy, Options: opts}}
	}
	baseLabel := "base"
	if base.Preset != "" && o.build.File == "" && len(o.build.Sets) == 0 {
		baseLabel = base.Preset
	}
	// A row is labelled by what it holds: the configuration and its mods.
	var ids []string
	for _, m := range mods {
		ids = append(ids, m.ID())
	}
	if len(ids) > 0 {
		baseLabel += " + " + strings.Join(ids, " + ")
	}
	switch n := btoi(len(o.compare)+len(o.compareMods) > 0) + btoi(len(o.sweep) > 0) + btoi(o.levers); {
	case n > 1:
		return nil, usageError("--compare (or --compare-mods), --sweep and --levers each make a study of their own: give one of them")
	}
	switch {
	case len(o.compare) > 0 || len(o.compareMods) > 0:
		st.kind = "compare"
		st.variants = append(st.variants, variant{Label: baseLabel, Config: base, Mods: mods})
		for _, file := range o.compare {
			b := o.build
			b.File = file
			c, err := config.Build(b)
			if err != nil {
				return nil, err
			}
			st.variants = append(st.variants, variant{Label: file, Config: c, Mods: mods})
		}
		for _, list := range o.compareMods {
			ms, err := loadMods(sim.SplitList(list), o.modSets, true)
			if err != nil {
				return nil, fmt.Errorf("--compare-mods %q: %v", list, err)
			}
			label := "mods: " + strings.Join(sim.SplitList(list), ", ")
			if len(sim.SplitList(list)) == 0 {
				label = "no mods"
			}
			st.variants = append(st.variants, variant{Label: label, Config: base, Mods: ms})
		}
	case len(o.sweep) > 0:
		st.kind = "sweep"
		points, err := sweepGrid(o.sweep)
		if err != nil {
			return nil, err
		}
		for _, point := range points {
			v, err := sweepVariant(o, base, point)
			if err != nil {
				return nil, err
			}
			st.variants = append(st.variants, v)
		}
	case o.levers:
		st.kind = "levers"
		vs, err := leverVariants(o, base, mods)
		if err != nil {
			return nil, err
		}
		st.variants = append([]variant{{Label: baseLabel, Config: base, Mods: mods}}, vs...)
	case o.baseline():
		// The same games without the mods, then with them: the verdict
		// says what the mods change, skill by skill.
		st.kind = "mods"
		st.variants = []variant{{Label: strings.TrimSuffix(baseLabel, " + "+strings.Join(ids, " + ")), Config: base}, {Label: baseLabel, Config: base, Mods: mods}}
	default:
		st.variants = []variant{{Label: baseLabel, Config: base, Mods: mods}}
	}
	return st, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// usageError is an error in the flags' use (exit status 2): sim.UsageError,
// which the lab's library returns too.
type usageError = sim.UsageError

// policyLabel names the policy of a run: "lookahead 2" for a lookahead
// two moves deep.
func policyLabel(o simOptions) string {
	if o.policy == "lookahead" {
		return "lookahead " + strconv.Itoa(o.depth)
	}
	return o.policy
}

// loadMods loads mods by reference and applies the --mod-set assignments
// to them. With lenient, an assignment for a mod not loaded is skipped (a
// comparison's variants load different mods); without, it is an error.
func loadMods(refs, sets []string, lenient bool) ([]*mod.Mod, error) {
	var mods []*mod.Mod
	for _, ref := range refs {
		m, err := loadModRef(ref)
		if err != nil {
			return nil, err
		}
		mods = append(mods, m)
	}
	if lenient {
		var mine []string
		for _, s := range sets {
			id, _, _ := strings.Cut(s, ".")
			for _, m := range mods {
				if m.ID() == id {
					mine = append(mine, s)
				}
			}
		}
		sets = mine
	}
	if _, err := setMods(mods, sets); err != nil {
		return nil, err
	}
	return mods, nil
}

// sweepGrid expands the --sweep flags into the grid's points, each a list
// of KEY=VALUE settings.
func sweepGrid(sweeps []string) ([][]string, error) {
	grid := [][]string{nil}
	seen := map[string]string{}
	for _, s := range sweeps {
		key, values, ok := strings.Cut(s, "=")
		if !ok || strings.TrimSpace(key) == "" || strings.TrimSpace(values) == "" {
			return nil, usageError(fmt.Sprintf("--sweep %q: want KEY=V1,V2,...", s))
		}
		key = strings.TrimSpace(key)
		if before, twice := seen[key]; twice {
			return nil, usageError(fmt.Sprintf("--sweep %s is given twice (%s and %s): give its values once, --sweep %s=%s,%s", key, before, s, key, strings.TrimPrefix(before, key+"="), strings.TrimSpace(values)))
		}
		seen[key] = s
		var vals []string
		for _, v := range strings.Split(values, ",") {
			v = strings.TrimSpace(v)
			if slices.Contains(vals, v) {
				return nil, usageError(fmt.Sprintf("--sweep %s: the value %s is given twice", key, v))
			}
			vals = append(vals, v)
		}
		var next [][]string
		for _, g := range grid {
			for _, v := range strings.Split(values, ",") {
				next = append(next, append(append([]string(nil), g...), strings.TrimSpace(key)+"="+strings.TrimSpace(v)))
			}
		}
		grid = next
	}
	return grid, nil
}

// sweepVariant builds one point of a sweep: each KEY=VALUE is a setting of
// the configuration, or, when KEY is MOD.SETTING for a mod of --mod, a
// setting of that mod (the mods are loaded afresh for each point).
func sweepVariant(o simOptions, base *config.Config, point []string) (variant, error) {
	b := o.build
	modSets := append([]string(nil), o.modSets...)
	ids := map[string]bool{}
	mods, err := loadMods(o.mods, nil, false)
	if err != nil {
		return variant{}, err
	}
	for _, m := range mods {
		ids[m.ID()] = true
	}
	for _, kv := range point {
		key, _, _ := strings.Cut(kv, "=")
		id, _, dotted := strings.Cut(key, ".")
		if _, err := base.Value(key); err != nil && dotted && ids[id] {
			modSets = append(modSets, kv)
			continue
		}
		b.Sets = append(append([]string(nil), b.Sets...), kv)
	}
	c, err := config.Build(b)
	if err != nil {
		return variant{}, fmt.Errorf("--sweep: %v", strings.TrimPrefix(err.Error(), "--set: "))
	}
	if _, err := setMods(mods, modSets); err != nil {
		return variant{}, fmt.Errorf("--sweep: %v", err)
	}
	return variant{Label: strings.Join(point, " "), Config: c, Mods: mods}, nil
}

// leverVariants are the levers of a configuration and of its mods: for
// each numeric setting, one step down and one step up (an integer by a
// tenth of it, at least 1; a rate by 0.05; any other number by a tenth),
// and for each switch its other value; steps the configuration or the mod
// refuses (out of range) are left out.
func leverVariants(o simOptions, base *config.Config, mods []*mod.Mod) ([]variant, error) {
	keys, err := config.Keys(base.Ruleset)
	if err != nil {
		return nil, err
	}
	var out []variant
	for _, key := range keys {
		v, err := base.Value(key)
		if err != nil {
			return nil, err
		}
		switch v.(type) {
		case int, float64, bool: // win_value (an int64) is no lever: a tenth of 2048 off is no tile
		default:
			continue
		}
		if key == "undo_limit" {
			continue // no bearing on play
		}
		for _, s := range leverSteps(v) {
			b := o.build
			b.Sets = append(append([]string(nil), b.Sets...), key+"="+s)
			c, err := config.Build(b)
			if err != nil {
				continue // out of the key's range
			}
			out = append(out, variant{Label: key + "=" + s, Config: c, Mods: mods})
		}
	}
	// The loaded mods' settings, stepped the same way, a choice to each
	// of its other choices (a string setting has no neighbours to step
	// to); steps its bounds refuse are left out.
	for _, m := range mods {
		names := slices.Sorted(maps.Keys(m.Manifest.Settings))
		for _, name := range names {
			steps := leverSteps(m.Values[name])
			if s := m.Manifest.Settings[name]; s.Type == "choice" {
				steps = nil
				for _, c := range s.Choices {
					if c != m.Values[name] {
						steps = append(steps, strconv.Quote(c))
					}
				}
			}
			for _, step := range steps {
				kv := m.ID() + "." + name + "=" + step
				stepped, err := loadMods(o.mods, nil, false)
				if err != nil {
					return nil, err
				}
				if _, err := setMods(stepped, append(slices.Clone(o.modSets), kv)); err != nil {
					continue // out of the setting's bounds
				}
				out = append(out, variant{Label: kv, Config: base, Mods: stepped})
			}
		}
	}
	return out, nil
}

// leverSteps are a setting's levers: an integer a tenth of it (at least 1)
// down and up, a number 0.05 (or a tenth, above 1) down and up, a switch
// flipped; a string has none.
func leverSteps(v any) []string {
	switch x := v.(type) {
	case int:
		return leverSteps(int64(x))
	case int64:
		d := max(1, (x+5)/10)
		return []string{strconv.FormatInt(x-d, 10), strconv.FormatInt(x+d, 10)}
	case float64:
		d := 0.05
		if x > 1 {
			d = math.Max(x/10, 0.05)
		}
		return []string{sim.FormatStep(x - d), sim.FormatStep(x + d)}
	case bool:
		return []string{strconv.FormatBool(!x)}
	}
	return nil
}

// runStudy plays every variant at every skill on the same seeds and writes
// the study's table, and its JSON, CSV and plot when asked.
func runStudy(o simOptions, st *study, shard, shards int, stdout, stderr io.Writer) error {
	s := &sim.Study{Kind: st.kind, Games: o.games, Seed: o.seed, MaxTurns: o.maxTurns, Precision: o.precision, Budget: o.budget}
	// Every game's result is kept only for what needs it (the plot's
	// curves, the JSON); the table needs each run's summary.
	keep := o.plot != "" || o.json != ""
	if runs := len(st.variants) * len(st.skills); keep && runs*o.games > maxStudyResults {
		return usageError(fmt.Sprintf("%d runs of %d games are more results than --json or --plot keep (%d): play fewer games, or the study in parts", runs, o.games, maxStudyResults))
	}
	stopped := false // Ctrl-C or SIGTERM stopped a run: no other starts
	// The budget is the study's, shared by its runs in order: each takes
	// what the runs before it left, divided among it and the runs after
	// it, so a run that answers early leaves its share to the later ones
	// (the expert's, a mod's endless games).
	runs := len(st.variants) * len(st.skills)
	total := o.budget
	if o.defaultBudget {
		total = min(defaultStudyBudget, defaultBudget*uint64(runs))
	}
	s.Budget = total
	var spent uint64
	run := 0
	for _, v := range st.variants {
		if stopped {
			break
		}
		runMods, err := simMods(v.Mods)
		if err != nil {
			return err
		}
		for _, k := range st.skills {
			mk, err := sim.MakePolicy(k.Policy, k.Options)
			if err != nil {
				return err
			}
			if stopped {
				break
			}
			var share uint64
			if total > 0 {
				share = max((total-min(spent, total))/uint64(runs-run), 1)
			}
			run++
			opt := sim.Options{Setup: session.Setup{Config: v.Config, Mods: v.Mods, Limits: modLimits}, Policy: k.Name, Make: mk,
				Games: o.games, Seed: o.seed, MaxTurns: o.maxTurns, Jobs: o.jobs, Shard: shard, Shards: shards, Stop: o.stop, Budget: share}
			label := fmt.Sprintf("run %d of %d, %s · %s", run, runs, v.Label, k.Name)
			rs, err := runGames(opt, o, stderr, label)
			spent += sim.Spent(rs)
			stopped = errors.Is(err, sim.ErrStopped)
			if err != nil && !stopped {
				return err
			}
			h := sim.Header{Config: string(v.Config.TOML()), Policy: k.Name, Ruleset: v.Config.Ruleset, Difficulty: v.Config.Preset, Seed: o.seed, MaxTurns: o.maxTurns,
				RunGames: o.games, Shard: shard, Shards: shards, Mods: runMods, Partial: stopped, Precision: o.precision, Budget: share}
			if stopped && len(rs) == 0 {
				break // the run stopped before a game finished: nothing of it to show
			}
			r := sim.NewReport(h, rs)
			if !keep {
				r.Results = nil
			}
			s.Entries = append(s.Entries, sim.Entry{Config: v.Label, Skill: k.Name, Report: r})
		}
	}
	if stopped && len(s.Entries) == 0 {
		return errors.New("stopped before any game finished: there is nothing to write")
	}
	if err := safeText(stdout, s.Text); err != nil {
		return err
	}
	if err := writeOutputs(o, s); err != nil {
		return err
	}
	if stopped {
		last := s.Entries[len(s.Entries)-1].Report
		if last.Partial {
			return fmt.Errorf("stopped: the study holds the %d runs played, the last of them partial (%d games of %d)", len(s.Entries), last.Games, last.RunGames)
		}
		return fmt.Errorf("stopped: the study holds the %d runs played", len(s.Entries))
	}
	return nil
}
