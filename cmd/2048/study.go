package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/mod2048/mod2048/cmd/2048/internal/progress"
	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/mod/install"
	"github.com/mod2048/mod2048/scripting/session"
	"github.com/mod2048/mod2048/scripting/sim"
)

// maxStudyResults is the most games' results a study keeps for its JSON
// and plot (about 150 bytes each).
const maxStudyResults = 2_000_000

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
		m, err := install.Load(ref)
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

// planStudy is the study the flags ask (sim.PlanStudy).
func planStudy(o simOptions, base *config.Config, mods []*mod.Mod, opts sim.PolicyOptions) (*sim.StudyPlan, error) {
	return sim.PlanStudy(sim.StudyAsk{
		Base: base, Build: o.build, Mods: mods, ModRefs: o.mods, ModSets: o.modSets, LoadMods: loadMods,
		SetMods: func(mods []*mod.Mod, sets []string) error { _, err := setMods(mods, sets); return err },
		Policy:  opts, Skills: o.skills, Ladder: o.skill, Single: sim.Skill{Name: policyLabel(o), Policy: o.policy, Options: opts},
		Compare: o.compare, CompareMods: o.compareMods, Sweep: o.sweep, Levers: o.levers, Baseline: o.baseline(),
	})
}

// runStudy plays every variant at every skill on the same seeds and writes
// the study's table, and its JSON, CSV and plot when asked.
func runStudy(o simOptions, st *sim.StudyPlan, shard, shards int, stdout, stderr io.Writer) error {
	s := &sim.Study{Kind: st.Kind, Games: o.games, Seed: o.seed, MaxTurns: o.maxTurns, Precision: o.precision, Budget: o.budget}
	// Every game's result is kept only for what needs it (the plot's
	// curves, the JSON); the table needs each run's summary.
	keep := o.plot != "" || o.json != ""
	if runs := len(st.Variants) * len(st.Skills); keep && runs*o.games > maxStudyResults {
		return usageError(fmt.Sprintf("%d runs of %d games are more results than --json or --plot keep (%d): play fewer games, or the study in parts", runs, o.games, maxStudyResults))
	}
	stopped := false // Ctrl-C or SIGTERM stopped a run: no other starts
	// The budget is the study's, shared by its runs in order: each takes
	// what the runs before it left, divided among it and the runs after
	// it, so a run that answers early leaves its share to the later ones
	// (the expert's, a mod's endless games).
	runs := len(st.Variants) * len(st.Skills)
	total := o.budget
	if o.defaultBudget {
		total = min(defaultStudyBudget, defaultBudget*uint64(runs))
	}
	s.Budget = total
	var spent uint64
	run := 0
	whole := studyProgress(o, stderr, runs, total)
	defer whole.Stop()
	for _, v := range st.Variants {
		if stopped {
			break
		}
		runMods, err := sim.RunModsOf(v.Mods)
		if err != nil {
			return err
		}
		for _, k := range st.Skills {
			mk, err := sim.MakePolicy(k.Policy, k.Options)
			if err != nil {
				return err
			}
			if stopped {
				break
			}
			share := sim.BudgetShare(total, spent, runs-run)
			run++
			opt := sim.Options{Setup: session.Setup{Config: v.Config, Mods: v.Mods, Limits: modLimits}, Policy: k.Name, Make: mk,
				Games: o.games, Seed: o.seed, MaxTurns: o.maxTurns, Jobs: o.jobs, Shard: shard, Shards: shards, Stop: o.stop, Budget: share}
			label := fmt.Sprintf("run %d of %d, %s · %s", run, runs, v.Label, k.Name)
			whole.Run(run, runs, v.Label+" · "+k.Name, share)
			rs, err := runGames(opt, o, stderr, label, whole)
			spent += sim.Spent(rs)
			whole.RunDone(runWork(rs, share), whole.Live.Load())
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
	whole.Stop() // no line after the table
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

// studyProgress is a study's one progress line on stderr (progress.Whole),
// a line every progress.Every: the run under way of runs, the work done
// of the study's budget (total moves), or with none of its games, and the
// time left for all of it.
func studyProgress(o simOptions, stderr io.Writer, runs int, total uint64) *progress.Whole {
	unit, all, upTo := "games", uint64(runs*o.games), o.precision > 0
	if total > 0 {
		unit, all, upTo = "moves", total, true
	}
	whole := progress.NewWhole(stderr, "study", unit, all, upTo, time.Now)
	if t := whole.Ticker(); t != nil {
		whole.Go(t.C, t.Stop)
	}
	return whole
}

// runWork is what a study's run counts of its budget: the work the
// budget counted (sim.Spent) with a share, else its games.
func runWork(rs []sim.Result, share uint64) uint64 {
	if share > 0 {
		return sim.Spent(rs)
	}
	return uint64(len(rs))
}
