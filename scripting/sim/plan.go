package sim

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/scripting/mod"
)

// StudyAsk is what a study is asked, as `2048 sim` takes it: the
// configuration and mods it starts from, and which study.
type StudyAsk struct {
	Base  *config.Config
	Build config.BuildOptions // how Base was built: a point of a sweep or a lever is built anew
	Mods  []*mod.Mod
	// ModRefs are the mods as named (a folder, an installed id) and
	// ModSets their settings (MOD.KEY=VALUE). LoadMods loads mods by
	// reference with settings (lenient: a setting of a mod not loaded is
	// skipped); SetMods sets settings of loaded mods.
	ModRefs  []string
	ModSets  []string
	LoadMods func(refs, sets []string, lenient bool) ([]*mod.Mod, error)
	SetMods  func(mods []*mod.Mod, sets []string) error
	Policy   PolicyOptions
	// The skills: Skills names rungs of the ladder (--skills), Ladder
	// plays all of them (--skill), else Single, the run's own policy.
	Skills string
	Ladder bool
	Single Skill
	// The study: configuration files compared with the base (--compare),
	// mod sets (--compare-mods, each a comma-separated list), a grid
	// (--sweep KEY=V1,V2,...), every lever a step either way (--levers),
	// or the same games without the mods and with them (Baseline).
	Compare, CompareMods, Sweep []string
	Levers, Baseline            bool
}

// StudyPlan is what a study plays: its kind, its variants and its
// skills, each variant at each skill on the same seeds.
type StudyPlan struct {
	Kind     string
	Variants []Variant
	Skills   []Skill
}

// PlanStudy builds a study's variants and skills from what it is asked,
// before any game is played, so that an error (an unknown key, with the
// nearest one suggested) comes before the table's header.
func PlanStudy(o StudyAsk) (*StudyPlan, error) {
	base, mods, opts := o.Base, o.Mods, o.Policy
	st := &StudyPlan{Kind: "skill"}
	switch {
	case o.Skills != "":
		ladder := Ladder(opts)
		var named []string
		for _, name := range SplitList(o.Skills) {
			if slices.Contains(named, name) {
				return nil, UsageError(fmt.Sprintf("--skills names %s twice: name each rung once", name))
			}
			named = append(named, name)
			var found bool
			for _, k := range ladder {
				if k.Name == name {
					st.Skills, found = append(st.Skills, k), true
				}
			}
			if !found {
				var names []string
				for _, k := range ladder {
					names = append(names, k.Name)
				}
				return nil, UsageError(fmt.Sprintf("--skills: %q is not a rung of the ladder (%s)", name, strings.Join(names, ", ")))
			}
		}
	case o.Ladder:
		st.Skills = Ladder(opts)
	default:
		st.Skills = []Skill{o.Single}
	}
	baseLabel := "base"
	if base.Preset != "" && o.Build.File == "" && len(o.Build.Sets) == 0 {
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
	switch n := btoi(len(o.Compare)+len(o.CompareMods) > 0) + btoi(len(o.Sweep) > 0) + btoi(o.Levers); {
	case n > 1:
		return nil, UsageError("--compare (or --compare-mods), --sweep and --levers each make a study of their own: give one of them")
	}
	switch {
	case len(o.Compare) > 0 || len(o.CompareMods) > 0:
		st.Kind = "compare"
		st.Variants = append(st.Variants, Variant{Label: baseLabel, Config: base, Mods: mods})
		for _, file := range o.Compare {
			b := o.Build
			b.File = file
			c, err := config.Build(b)
			if err != nil {
				return nil, err
			}
			st.Variants = append(st.Variants, Variant{Label: file, Config: c, Mods: mods})
		}
		for _, list := range o.CompareMods {
			ms, err := o.LoadMods(SplitList(list), o.ModSets, true)
			if err != nil {
				return nil, fmt.Errorf("--compare-mods %q: %v", list, err)
			}
			label := "mods: " + strings.Join(SplitList(list), ", ")
			if len(SplitList(list)) == 0 {
				label = "no mods"
			}
			st.Variants = append(st.Variants, Variant{Label: label, Config: base, Mods: ms})
		}
	case len(o.Sweep) > 0:
		st.Kind = "sweep"
		points, err := sweepGrid(o.Sweep)
		if err != nil {
			return nil, err
		}
		for _, point := range points {
			v, err := sweepVariant(o, base, point)
			if err != nil {
				return nil, err
			}
			st.Variants = append(st.Variants, v)
		}
	case o.Levers:
		st.Kind = "levers"
		vs, err := leverVariants(o, base, mods)
		if err != nil {
			return nil, err
		}
		st.Variants = append([]Variant{{Label: baseLabel, Config: base, Mods: mods}}, vs...)
	case o.Baseline:
		// The same games without the mods, then with them: the verdict
		// says what the mods change, skill by skill.
		st.Kind = "mods"
		st.Variants = []Variant{{Label: strings.TrimSuffix(baseLabel, " + "+strings.Join(ids, " + ")), Config: base}, {Label: baseLabel, Config: base, Mods: mods}}
	default:
		st.Variants = []Variant{{Label: baseLabel, Config: base, Mods: mods}}
	}
	return st, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// sweepGrid expands the --sweep flags into the grid's points, each a list
// of KEY=VALUE settings.
func sweepGrid(sweeps []string) ([][]string, error) {
	grid := [][]string{nil}
	seen := map[string]string{}
	for _, s := range sweeps {
		key, values, ok := strings.Cut(s, "=")
		if !ok || strings.TrimSpace(key) == "" || strings.TrimSpace(values) == "" {
			return nil, UsageError(fmt.Sprintf("--sweep %q: want KEY=V1,V2,...", s))
		}
		key = strings.TrimSpace(key)
		if before, twice := seen[key]; twice {
			return nil, UsageError(fmt.Sprintf("--sweep %s is given twice (%s and %s): give its values once, --sweep %s=%s,%s", key, before, s, key, strings.TrimPrefix(before, key+"="), strings.TrimSpace(values)))
		}
		seen[key] = s
		var vals []string
		for _, v := range strings.Split(values, ",") {
			v = strings.TrimSpace(v)
			if slices.Contains(vals, v) {
				return nil, UsageError(fmt.Sprintf("--sweep %s: the value %s is given twice", key, v))
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
func sweepVariant(o StudyAsk, base *config.Config, point []string) (Variant, error) {
	b := o.Build
	modSets := append([]string(nil), o.ModSets...)
	ids := map[string]bool{}
	mods, err := o.LoadMods(o.ModRefs, nil, false)
	if err != nil {
		return Variant{}, err
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
		return Variant{}, fmt.Errorf("--sweep: %v", strings.TrimPrefix(err.Error(), "--set: "))
	}
	if err := o.SetMods(mods, modSets); err != nil {
		return Variant{}, fmt.Errorf("--sweep: %v", err)
	}
	return Variant{Label: strings.Join(point, " "), Config: c, Mods: mods}, nil
}

// leverVariants are the levers of a configuration and of its mods: for
// each numeric setting, one step down and one step up (an integer by a
// tenth of it, at least 1; a rate by 0.05; any other number by a tenth),
// and for each switch its other value; steps the configuration or the mod
// refuses (out of range) are left out.
func leverVariants(o StudyAsk, base *config.Config, mods []*mod.Mod) ([]Variant, error) {
	keys, err := config.Keys(base.Ruleset)
	if err != nil {
		return nil, err
	}
	var out []Variant
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
			b := o.Build
			b.Sets = append(append([]string(nil), b.Sets...), key+"="+s)
			c, err := config.Build(b)
			if err != nil {
				continue // out of the key's range
			}
			out = append(out, Variant{Label: key + "=" + s, Config: c, Mods: mods})
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
				stepped, err := o.LoadMods(o.ModRefs, nil, false)
				if err != nil {
					return nil, err
				}
				if err := o.SetMods(stepped, append(slices.Clone(o.ModSets), kv)); err != nil {
					continue // out of the setting's bounds
				}
				out = append(out, Variant{Label: kv, Config: base, Mods: stepped})
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
		return []string{FormatStep(x - d), FormatStep(x + d)}
	case bool:
		return []string{strconv.FormatBool(!x)}
	}
	return nil
}
