// Package tuning is the lab's tune (`2048 sim tune`): it finds the
// values of a configuration's and its mods' settings (its levers) whose
// win rates, at each skill named, come nearest the targets, by simtune's
// search over games the lab plays, and checks them on fresh seeds. It is
// apart from the lab so that a program that runs games does not pull in
// the search's numerics (gonum).
package tuning

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
	"github.com/mod2048/mod2048/scripting/sim"
	"github.com/mod2048/mod2048/scripting/sim/simtune"
)

// The tune's defaults: the levers it moves when --tune-keys names none,
// the games a point of their screen plays at each skill (--tune-screen),
// and the check's games.
const (
	tuneLevers = 3
)

// minDial is the fewest values an integer setting's range must hold for a
// tune to pick it by itself: goal.hold (1 to 3) or spawn_cells (0 to 3)
// move the win rate a lot in one step and cannot set it finely, and nor
// can e_cap (4 to 16): on an easy mid the expert won 92% at 4 and 100%
// at 5, and a tune that chose it missed greedy by 10 points on fresh
// games. A tune moves them only when --tune-keys names them; goal.turns
// (90 to 360 on mid) is a dial.
const minDial = 20

// notLevers are the keys a tune never moves unless --tune-keys names
// them: the board's shape and the win's tile, which make another game
// rather than a harder one, and undo, which has no bearing on play.
var notLevers = []string{"width", "height", "size", "win_value", "undo_limit"}

// Setup is what a tune is asked: the configuration and mods it
// starts from, its targets and levers as `2048 sim tune` takes them,
// and how its games are played.
type Setup struct {
	Base  *config.Config
	Build config.BuildOptions // how Base was built: a candidate is built anew, with its levers set
	Mods  []*mod.Mod
	// ModSets are the mods' settings given (MOD.KEY=VALUE); LoadMods loads
	// the mods afresh with settings: a candidate's mods.
	ModSets  []string
	LoadMods func(modSets []string) ([]*mod.Mod, error)
	Targets  string // SKILL=RATE,... (--tune)
	Keys     string // KEY[=LO:HI],... (--tune-keys); "" screens for levers
	Stages   string // the search's stages (--tune-stages); "" is simtune's default
	// ScreenGames are the games of a screen's point at each skill
	// (--tune-screen); CheckGames the check's, on fresh seeds (--games).
	ScreenGames, CheckGames int
	Seed                    uint64
	MaxTurns                int
	Jobs                    int // games at once
	Stop                    <-chan struct{}
	Limits                  scripting.Limits
	Policy                  sim.PolicyOptions
	Log                     io.Writer // progress lines
	Command                 string    // the command line, for the report and the file's header
	// Meter, when set, is told how far the tune is: the games it plans
	// in all, its phase, and its games as each ends, so that its progress
	// line comes in every phase, though no candidate ends for minutes.
	Meter Meter
}

// Meter is told how far a tune is (cmd/2048's progress.Whole): Plan the
// games it plans in all, at every skill (why, when the plan grows: a
// screen's second pass), Phase the phase under way (the screen, the
// exploration, the refinement, the check), Add the games as they end.
// Add is called from the workers at once.
type Meter interface {
	Plan(games uint64, why string)
	Phase(phase string)
	Add(games uint64)
}

// noMeter is the meter of a setup that sets none.
type noMeter struct{}

func (noMeter) Plan(uint64, string) {}
func (noMeter) Phase(string)        {}
func (noMeter) Add(uint64)          {}

// ScreenGames and CheckGames are the games of a screen's point and
// of the check that a setup asks by default.
const (
	ScreenGames = 24
	CheckGames  = 100
)

// tuneRun is a tune's setting up: what the setup and the loaded
// configuration and mods say.
type tuneRun struct {
	s       Setup
	base    *config.Config
	mods    []*mod.Mod
	targets []simtune.Target
	skills  []sim.Skill // the targets' rungs, in order
	stderr  io.Writer
	// gate is the tune's slots for games, Jobs of them: the games of
	// every candidate measured at once (simtune's Concurrent) and of
	// every skill wait for one, so that no core idles while a
	// candidate's last game is played.
	gate chan struct{}
	// meter is the setup's Meter; planned the games planned so far:
	// the screen's, the search's and the check's.
	meter                       Meter
	cands                       []simtune.Lever // the screen's candidates
	screened, searched, checked int
}

// plan tells the meter the games planned, the screen's, the search's
// (of levers levers) and the check's, at every skill.
func (t *tuneRun) plan(levers int, stages []simtune.Stage, refine []int, why string) {
	t.searched = simtune.PlannedGames(levers, stages, refine)
	t.checked = t.s.CheckGames
	t.meter.Plan(uint64((t.screened+t.searched+t.checked)*len(t.skills)), why)
}

// tuneConcurrent is the most candidates a tune measures at once: every
// candidate of a generation, a refining round or a screen's pass, their
// games waiting for the gate's slots.
const tuneConcurrent = 64

// Run is `2048 sim tune`: it finds the levers' values whose win rates
// come nearest the targets, and checks them on fresh seeds. Stopped (the
// setup's Stop), it returns the best candidate measured so far, marked
// Partial and unchecked; stopped before any, an error.
func Run(s Setup) (*Report, error) {
	ladder := sim.Ladder(s.Policy)
	var names []string
	for _, k := range ladder {
		names = append(names, k.Name)
	}
	targets, err := simtune.ParseTargets(s.Targets, names)
	if err != nil {
		return nil, sim.UsageError("--tune " + err.Error())
	}
	t := &tuneRun{s: s, base: s.Base, mods: s.Mods, targets: targets, stderr: s.Log, gate: make(chan struct{}, max(s.Jobs, 1)), meter: s.Meter}
	if t.meter == nil {
		t.meter = noMeter{}
	}
	for _, tg := range targets {
		for _, k := range ladder {
			if k.Name == tg.Skill {
				t.skills = append(t.skills, k)
			}
		}
	}
	stages, refine := simtune.DefaultStages, simtune.DefaultRefine
	if s.Stages != "" {
		if stages, refine, err = parseStages(s.Stages); err != nil {
			return nil, err
		}
	}
	var levers []simtune.Lever
	var screen *simtune.ScreenResult
	if s.Keys != "" {
		if levers, err = t.namedLevers(s.Keys); err == nil {
			t.plan(len(levers), stages, refine, "")
		}
	} else {
		levers, screen, err = t.screenLevers(stages, refine)
		if errors.Is(err, sim.ErrStopped) {
			return t.screenStopped(screen)
		}
	}
	if err != nil {
		return nil, err
	}
	start := time.Now()
	planned := simtune.PlannedGames(len(levers), stages, refine) * len(t.skills) // to say how long it has left
	var played atomic.Int64
	n := 0
	var init []float64
	if screen != nil {
		init = screen.Init
	}
	res, err := simtune.Tune(simtune.Options{
		Levers: levers, Targets: targets, Init: init, Stages: stages, Refine: refine, Seed: s.Seed, Concurrent: tuneConcurrent,
		Eval: func(values []float64, from, games int) ([]float64, error) {
			rates, err := t.eval(levers, values, from, games, s.Seed)
			played.Add(int64(games * len(t.skills)))
			return rates, err
		},
		Step: func(st simtune.Step) {
			n++
			left := ""
			if p := int(played.Load()); p > 0 && planned > p {
				per := time.Since(start) / time.Duration(p)
				left = fmt.Sprintf(", at most about %s left", (per * time.Duration(planned-p)).Round(time.Second))
			}
			phase := fmt.Sprintf("exploring, generation %d", st.Generation+1)
			if st.Round > 0 {
				phase = fmt.Sprintf("refining, round %d of %d", st.Round, len(refine))
			}
			fmt.Fprintf(t.stderr, "2048 sim: tune (%s, %d games) candidate %d: %s%s\n", phase, st.Games, n, stepLine(levers, targets, st), left)
		},
		Begin: func(round, gen int) {
			if round == 0 {
				t.meter.Phase(fmt.Sprintf("exploring with CMA-ES, generation %d of %d, %d candidates measured", gen+1, generations(stages), n))
			} else {
				t.meter.Phase(fmt.Sprintf("refining, round %d of %d, %d candidates measured", round, len(refine), n))
			}
		},
		Widened: func(w simtune.Widening) {
			fmt.Fprintf(t.stderr, "2048 sim: tune: %s\n", widenLine(levers, w))
		},
	})
	stopped := errors.Is(err, sim.ErrStopped)
	if err != nil && !stopped {
		return nil, err
	}
	if stopped && (res == nil || res.Answer == nil) {
		return nil, errors.New("stopped before a candidate was measured: there is nothing to write")
	}
	rep := &Report{Result: res, Screen: screen, Partial: stopped, Command: s.Command, CheckSeed: s.Seed + 1}
	if !stopped {
		rep.Check, err = t.check(levers, res.Values(), s.Seed+1)
		if errors.Is(err, sim.ErrStopped) {
			rep.Check, rep.Partial = nil, true
		} else if err != nil {
			return nil, err
		}
	}
	tuned, modSets, err := t.variant(levers, res.Values())
	if err != nil {
		return nil, err
	}
	rep.ModSets, rep.tuned = modSets, tuned
	return rep, nil
}

// screenStopped is the report of a tune stopped in its screen: of the
// latest pass's points measured, the one whose rates come nearest the
// targets (the least sum of squared misses), marked partial and
// unchecked; with none measured, an error.
func (t *tuneRun) screenStopped(res *simtune.ScreenResult) (*Report, error) {
	best, loss := -1, 0.0
	if res != nil {
		for i, p := range res.Points {
			if p.Rates == nil {
				continue
			}
			l := 0.0
			for k, tg := range t.targets {
				l += (p.Rates[k] - tg.Rate) * (p.Rates[k] - tg.Rate)
			}
			if b := best; b < 0 || p.Pass > res.Points[b].Pass || p.Pass == res.Points[b].Pass && l < loss {
				best, loss = i, l
			}
		}
	}
	if best < 0 {
		return nil, errors.New("stopped before a candidate was measured: there is nothing to write")
	}
	// Its values: its pass's centre (the starts, or the pivot) with its
	// lever moved; the report's levers, those moved from their starts.
	p := res.Points[best]
	values := make([]float64, len(t.cands))
	for i, l := range t.cands {
		values[i] = l.Start
	}
	if p.Pass == 2 && res.Pivot != nil {
		values[res.Pivot.Lever] = res.Pivot.Value
	}
	if p.Lever >= 0 {
		values[p.Lever] = p.Value
	}
	levers, at := []simtune.Lever{}, []float64{} // none: the base
	for i, l := range t.cands {
		if values[i] != l.Start {
			levers, at = append(levers, l), append(at, values[i])
		}
	}
	tuned, modSets, err := t.variant(levers, at)
	if err != nil {
		return nil, err
	}
	result := &simtune.Result{Levers: levers, Targets: t.targets, Steps: []simtune.Step{{Values: at, Rates: p.Rates, Games: p.Games, Loss: loss}}, Answer: at}
	return &Report{Result: result, Screen: res, Partial: true, Command: t.s.Command, CheckSeed: t.s.Seed + 1, ModSets: modSets, tuned: tuned}, nil
}

// measured is the best candidate's rates when they are the answer's (a
// stopped tune's), and the games they were measured on.
func (r *Report) measured() ([]float64, int, bool) {
	if r.Best < 0 || r.Best >= len(r.Steps) {
		return nil, 0, false
	}
	s := r.Steps[r.Best]
	if s.Rates == nil || !slices.Equal(s.Values, r.Answer) {
		return nil, 0, false
	}
	return s.Rates, s.Games, true
}

// generations counts the exploring stages' generations.
func generations(stages []simtune.Stage) int {
	n := 0
	for _, st := range stages {
		n += st.Generations
	}
	return n
}

// parseStages reads --tune-stages: the exploring stages, GAMESxGENERATIONS
// each, then the refining rounds' games: 8x6,20,40,80,120,120.
func parseStages(s string) ([]simtune.Stage, []int, error) {
	var stages []simtune.Stage
	refine := []int{}
	bad := func(f string) error {
		return sim.UsageError(fmt.Sprintf("--tune-stages %q: want GAMESxGENERATIONS for an exploring stage and GAMES for a refining round, each at least 1, as 8x6,20,40,80,120,120", f))
	}
	for _, f := range sim.SplitList(s) {
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
		return nil, nil, sim.UsageError("--tune-stages: want at least one exploring stage, GAMESxGENERATIONS, first: as 8x6,20,40,80,120,120")
	}
	return stages, refine, nil
}

// namedLevers are the levers of --tune-keys KEY[=LO:HI],...: configuration
// keys or MOD.SETTING of a loaded mod, numbers, each with its range given
// or the default one (defaultRange).
func (t *tuneRun) namedLevers(list string) ([]simtune.Lever, error) {
	var out []simtune.Lever
	for _, f := range sim.SplitList(list) {
		key, bounds, ranged := strings.Cut(f, "=")
		key = strings.TrimSpace(key)
		for _, l := range out {
			if l.Key == key {
				return nil, sim.UsageError(fmt.Sprintf("--tune-keys names %s twice: name each key once", key))
			}
		}
		l, err := t.lever(key)
		if err != nil {
			return nil, sim.UsageError("--tune-keys " + err.Error())
		}
		if ranged {
			hardLo, hardHi := l.Min, l.Max
			lo, hi, ok := strings.Cut(bounds, ":")
			a, err1 := strconv.ParseFloat(strings.TrimSpace(lo), 64)
			b, err2 := strconv.ParseFloat(strings.TrimSpace(hi), 64)
			if !ok || err1 != nil || err2 != nil || !(a < b) || math.IsInf(a, 0) || math.IsInf(b, 0) {
				return nil, sim.UsageError(fmt.Sprintf("--tune-keys %s: want KEY=LO:HI with LO below HI, as %s=%s:%s", f, key, sim.FormatStep(l.Lo), sim.FormatStep(l.Hi)))
			}
			l.Lo, l.Hi, l.Widen = max(a, hardLo), min(b, hardHi), false // the range asked for, as it is
			if !(l.Lo < l.Hi) {
				return nil, sim.UsageError(fmt.Sprintf("--tune-keys %s: the range is outside the setting's bounds (%v to %v)", f, hardLo, hardHi))
			}
		}
		out = append(out, l)
	}
	if len(out) == 0 {
		return nil, sim.UsageError("--tune-keys: want KEY[=LO:HI],...")
	}
	return out, nil
}

// bounds are a setting's own bounds (±Inf where it has none): a mod's
// setting's from its manifest; a configuration key's, which the
// configuration checks as it builds, found by trying values outward from
// the lever's start (def: its default range; doubling the step until a value is refused, then halving the gap to
// the last one taken), so that a tune never widens a range to values the
// configuration refuses.
func (t *tuneRun) bounds(def simtune.Lever) (lo, hi float64) {
	key, v, integer := def.Key, def.Start, def.Int
	lo, hi = math.Inf(-1), math.Inf(1)
	if _, err := t.base.Value(key); err == nil {
		l := simtune.Lever{Key: key, Int: integer}
		takes := func(x float64) bool { return t.takes(l, x) }
		// The bound to a thousandth of the default range, rounded inward:
		// a refused 0 gives 0.0005, not 3.5e-19; and a 0 taken is never
		// reached by halving, which is as well: a goal of 0 a cell is no
		// goal, which no game wins.
		res := (def.Hi - def.Lo) / 1000
		if integer {
			res = 1
		}
		edge := func(dir float64) float64 {
			good, step := v, max(math.Abs(v), 1)
			bad := math.NaN()
			for range 60 {
				if x := good + dir*step; takes(x) {
					good, step = x, 2*step
				} else {
					bad = x
					break
				}
			}
			if math.IsNaN(bad) {
				return dir * math.Inf(1)
			}
			for math.Abs(bad-good) > res {
				mid := (good + bad) / 2
				if integer {
					mid = math.Round(mid)
				}
				if mid == good || mid == bad {
					break
				}
				if takes(mid) {
					good = mid
				} else {
					bad = mid
				}
			}
			r := math.Floor(good/res) * res // inward, to a round bound
			if dir < 0 {
				r = math.Ceil(good/res) * res
			}
			if r, _ = strconv.ParseFloat(strconv.FormatFloat(r, 'g', 6, 64), 64); takes(r) {
				return r
			}
			return good
		}
		return edge(-1), edge(1)
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

// takes says whether the configuration takes a configuration key's
// lever at value v.
func (t *tuneRun) takes(l simtune.Lever, v float64) bool {
	_, err := t.at(l, v)
	return err == nil
}

// at is the configuration with a configuration key's lever at value v
// (the base, built from the flags, with one more --set), or its refusal.
func (t *tuneRun) at(l simtune.Lever, v float64) (*config.Config, error) {
	c := t.base.Clone()
	if err := c.Set(l.Key+"="+l.Format(v), config.Origin{File: "--set"}); err != nil {
		return nil, err
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// lever makes the lever of a configuration key or a loaded mod's
// setting, with its default range within the setting's own bounds, free
// to widen to them.
func (t *tuneRun) lever(key string) (simtune.Lever, error) {
	v, err := t.base.Value(key)
	if err != nil {
		id, name, dotted := strings.Cut(key, ".")
		i := slices.IndexFunc(t.mods, func(m *mod.Mod) bool { return dotted && m.ID() == id })
		if i < 0 {
			return simtune.Lever{}, fmt.Errorf("%s: %v", key, err)
		}
		m := t.mods[i]
		if _, ok := m.Manifest.Settings[name]; !ok {
			return simtune.Lever{}, fmt.Errorf("%s: mod %s has no setting %s (its settings: %s)", key, id, name, strings.Join(slices.Sorted(maps.Keys(m.Manifest.Settings)), ", "))
		}
		v = m.Values[name]
	}
	l, err := numberLever(key, v)
	if err != nil {
		return l, err
	}
	l.Min, l.Max = t.bounds(l)
	l.Lo, l.Hi = max(l.Lo, l.Min), min(l.Hi, l.Max)
	l.Widen = true
	l.Grid = t.grid(l)
	return l, nil
}

// grid are the values of a configuration key's lever that play apart,
// when its values take steps (simtune.Lever.Grid): a cellular goal a
// cell counts only through its threshold, one step a cell of the board,
// and a tune that read between steps asked for 0.362 a cell, the game of
// 0.388 (6 × 6: both 14), where its model said 0.36's (13). The values
// are tried at the lever's grain across as far as its range can widen
// three times each way (within its bounds; at most gridSamples of
// them), and those that play alike (config.Config.Plays) are one run,
// stood for by its middle value, or by the start in the start's run. Nil
// when most values play apart (a dial), and for a mod's setting, whose
// effect only its Lua knows.
func (t *tuneRun) grid(l simtune.Lever) []float64 {
	if l.Int {
		return nil
	}
	if _, err := t.base.Value(l.Key); err != nil {
		return nil
	}
	span := l.Hi - l.Lo
	lo, hi := max(l.Lo-7*span, l.Min), min(l.Hi+7*span, l.Max)
	step := max(l.Grain(), (hi-lo)/gridSamples)
	type sample struct {
		v     float64
		plays any
	}
	var samples []sample
	for i := math.Ceil(lo / step); ; i++ {
		v := i * step // a round value: the grain's multiple
		if v > hi {
			break
		}
		v, _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', 9, 64), 64)
		c, err := t.at(l, v)
		if err != nil {
			continue
		}
		samples = append(samples, sample{v, c.Plays()})
	}
	var grid []float64
	for i := 0; i < len(samples); {
		j := i
		for j+1 < len(samples) && reflect.DeepEqual(samples[j+1].plays, samples[i].plays) {
			j++
		}
		v := samples[(i+j)/2].v
		if samples[i].v <= l.Start && l.Start <= samples[j].v {
			v = l.Start
		}
		grid = append(grid, v)
		i = j + 1
	}
	if 2*len(grid) > len(samples) {
		return nil
	}
	return grid
}

// gridSamples is the most values grid tries of a lever.
const gridSamples = 5000

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

// screenLevers picks the levers of a tune that names none
// (simtune.Screen): of the configuration's and the loaded mods' numeric
// settings (candidates), those that together come nearest the targets at
// every target's skill, measured at the ends of their ranges and halfway,
// on ScreenGames games a point; at most tuneLevers of them.
func (t *tuneRun) screenLevers(stages []simtune.Stage, refine []int) ([]simtune.Lever, *simtune.ScreenResult, error) {
	cands := t.candidates()
	if len(cands) == 0 {
		return nil, nil, errors.New("the configuration and mods have no numeric setting to move: name the levers with --tune-keys KEY=LO:HI,...")
	}
	t.cands = cands
	o := simtune.ScreenOptions{Levers: cands, Targets: t.targets, Games: t.s.ScreenGames, Choose: tuneLevers, Concurrent: tuneConcurrent}
	plan := len(o.Plan(nil))
	n := 0
	// The plan: a pass of the screen's points, then a search of as many
	// levers as it may choose, then the check.
	t.screened = plan * o.Games
	t.plan(min(tuneLevers, len(cands)), stages, refine, "")
	t.meter.Phase(fmt.Sprintf("screening the levers, the base (then %d points)", plan-1))
	o.Rates = func(values []float64, games int) ([]float64, error) {
		var moved []simtune.Lever
		var at []float64
		for i, l := range cands {
			if values[i] != l.Start {
				moved, at = append(moved, l), append(at, values[i])
			}
		}
		if len(moved) == 0 {
			return t.rates(sim.Variant{Label: "base", Config: t.base, Mods: t.mods}, 0, games, t.s.Seed)
		}
		return t.eval(moved, at, 0, games, t.s.Seed)
	}
	pivot := ""
	o.Pivoted = func(p simtune.ScreenPoint, points int) {
		l := cands[p.Lever]
		pivot, n, plan = l.Key+"="+l.Format(p.Value), 0, points
		t.screened += points * o.Games
		t.plan(min(tuneLevers, len(cands)), stages, refine, fmt.Sprintf("the screen's second pass, %d points about %s, for a skill won almost every game of the base or almost none", points, pivot))
		t.meter.Phase(fmt.Sprintf("screening again about %s, %d points", pivot, points))
		fmt.Fprintf(t.stderr, "2048 sim: tune: a skill wins almost every game of the base or almost none, which says nothing of a lever there: screening again about %s, where the first pass's curves come nearest the targets (%s)\n", pivot, strings.TrimSpace(ratesLine(t.targets, p.Rates, "")))
	}
	o.Point = func(p simtune.ScreenPoint) {
		n++
		what := "the base"
		switch {
		case p.Lever >= 0:
			l := cands[p.Lever]
			what = l.Key + "=" + l.Format(p.Value)
		case p.Pass == 2:
			what = "the pivot"
		}
		label := fmt.Sprintf("%d of %d", n, plan)
		if p.Pass == 2 {
			label = fmt.Sprintf("about %s, %d of %d", pivot, n, plan)
		}
		if p.Pass == 1 && p.Lever < 0 {
			t.meter.Phase(fmt.Sprintf("screening the levers, %d points", plan-1))
			if simtune.Stuck(p.Rates) {
				// A first pass on a third of the games (simtune.Screen).
				t.screened = o.Games + (plan-1)*max(o.Games/3, 1)
				t.plan(min(tuneLevers, len(cands)), stages, refine, "")
			}
		}
		fmt.Fprintf(t.stderr, "2048 sim: tune: screening the levers, %s (%d games): %s →%s\n", label, p.Games, what, ratesLine(t.targets, p.Rates, p.Refused))
	}
	res, err := simtune.Screen(o)
	if errors.Is(err, simtune.ErrNoLever) {
		return nil, res, fmt.Errorf("no setting moved a target's win rate over %d games a point, from the ends of its range: screen on more games (--tune-screen) or name the levers with --tune-keys KEY=LO:HI,...", t.s.ScreenGames)
	}
	if err != nil {
		return nil, res, err
	}
	var out []simtune.Lever
	var names []string
	for _, i := range res.Chosen {
		out = append(out, cands[i])
		names = append(names, cands[i].Key)
	}
	fmt.Fprintf(t.stderr, "2048 sim: tune: the levers chosen: %s (the model of the screen reaches%s)\n", strings.Join(names, ", "), ratesLine(t.targets, res.Reach, ""))
	t.plan(len(out), stages, refine, "")
	return out, res, nil
}

// candidates are the levers a screen may choose: the configuration's
// numeric settings and the loaded mods', less notLevers and integers of
// fewer than minDial values in their range, each with its default range
// within the setting's own bounds, free to widen to them.
func (t *tuneRun) candidates() []simtune.Lever {
	var keys []string
	all, _ := config.Keys(t.base.Ruleset)
	for _, key := range all {
		switch v, _ := t.base.Value(key); v.(type) {
		case int, float64: // win_value (an int64) is no lever: a tenth of 2048 off is no tile
			if !slices.Contains(notLevers, key) {
				keys = append(keys, key)
			}
		}
	}
	for _, m := range t.mods {
		for _, name := range slices.Sorted(maps.Keys(m.Manifest.Settings)) {
			keys = append(keys, m.ID()+"."+name)
		}
	}
	var out []simtune.Lever
	for _, key := range keys {
		l, err := t.lever(key)
		if err != nil || l.Int && l.Hi-l.Lo < minDial || !(l.Lo < l.Hi) || !t.dial(l) {
			continue // a switch, a choice, or a number of a few values: a step, not a dial
		}
		out = append(out, l)
	}
	return out
}

// dial says whether a configuration key's lever takes every value of its
// range (at its grain, tried at a tenth of the range apart): a setting
// that takes a few values only (score.unstable_multiplier, in quarters)
// is a step, which a search between values cannot move.
func (t *tuneRun) dial(l simtune.Lever) bool {
	if _, err := t.base.Value(l.Key); err != nil {
		return true // a mod's setting: its manifest bounds it, no more
	}
	for i := 1; i < 10; i++ {
		if !t.takes(l, l.Value(float64(i)/10)) {
			return false
		}
	}
	return true
}

// ratesLine writes a point's win rates at the targets' skills, or why it
// was refused, after a space.
func ratesLine(targets []simtune.Target, rates []float64, refused string) string {
	if refused != "" {
		return " refused: " + refused
	}
	var b strings.Builder
	for i, tg := range targets {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %s %.1f%%", tg.Skill, 100*rates[i])
	}
	return b.String()
}

// variant builds the configuration and mods of the levers' values: the
// base with each configuration key set, and the mods loaded afresh with
// each MOD.SETTING set; it returns the mods' settings as --mod-set flags.
// An error is the configuration's or a mod's refusal of a value.
func (t *tuneRun) variant(levers []simtune.Lever, values []float64) (sim.Variant, []string, error) {
	b := t.s.Build
	b.Sets = slices.Clone(b.Sets)
	modSets := slices.Clone(t.s.ModSets)
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
		return sim.Variant{}, nil, err
	}
	mods, err := t.s.LoadMods(modSets)
	if err != nil {
		return sim.Variant{}, nil, err
	}
	return sim.Variant{Label: "tuned", Config: c, Mods: mods}, mine, nil
}

// eval plays a candidate on games games of the seed from game from at
// every target's skill and returns the win rates.
func (t *tuneRun) eval(levers []simtune.Lever, values []float64, from, games int, seed uint64) ([]float64, error) {
	v, _, err := t.variant(levers, values)
	if err != nil {
		return nil, simtune.Infeasible{Err: err}
	}
	return t.rates(v, from, games, seed)
}

// rates plays a variant's games games of the seed from game from at every
// target's skill, the skills at once (their games through the gate), and
// returns the win rates.
func (t *tuneRun) rates(v sim.Variant, from, games int, seed uint64) ([]float64, error) {
	rates := make([]float64, len(t.skills))
	err := t.eachSkill(func(i int, k sim.Skill) (err error) {
		rates[i], err = t.rate(v, k, from, games, seed)
		return err
	})
	if err != nil {
		return nil, err
	}
	return rates, nil
}

// eachSkill calls f with every target's skill at once, and returns the
// error of the first skill that failed, in the targets' order.
func (t *tuneRun) eachSkill(f func(i int, k sim.Skill) error) error {
	errs := make([]error, len(t.skills))
	var wg sync.WaitGroup
	for i, k := range t.skills {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = f(i, k)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// rate plays a variant's games games of the seed from game from at one
// skill and returns its win rate.
func (t *tuneRun) rate(v sim.Variant, k sim.Skill, from, games int, seed uint64) (float64, error) {
	rs, err := t.play(v, k, from, games, seed)
	if err != nil || len(rs) == 0 {
		return 0, err
	}
	return float64(sim.Wins(rs)) / float64(len(rs)), nil
}

func (t *tuneRun) play(v sim.Variant, k sim.Skill, from, games int, seed uint64) ([]sim.Result, error) {
	mk, err := sim.MakePolicy(k.Policy, k.Options)
	if err != nil {
		return nil, err
	}
	return sim.Run(sim.Options{Setup: session.Setup{Config: v.Config, Mods: v.Mods, Limits: t.s.Limits}, Policy: k.Name, Make: mk,
		From: from, Games: from + games, Seed: seed, MaxTurns: t.s.MaxTurns, Gate: t.gate, Stop: t.s.Stop,
		Progress: func(int) { t.meter.Add(1) }})
}

// Check is what the tuned values reach at a target's skill on fresh
// seeds.
type Check struct {
	Skill  string     `json:"skill"`
	Target float64    `json:"target"`
	Games  int        `json:"games"`
	Rate   float64    `json:"rate"`
	CI     [2]float64 `json:"ci95"`
}

// check plays the tuned values on --games fresh games (of the seed after
// the search's) at every target's skill, the skills at once.
func (t *tuneRun) check(levers []simtune.Lever, values []float64, seed uint64) ([]Check, error) {
	v, _, err := t.variant(levers, values)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, k := range t.skills {
		names = append(names, k.Name)
	}
	fmt.Fprintf(t.stderr, "2048 sim: tune: checking the tuned values at %s on %d fresh games (seed %d)\n", strings.Join(names, ", "), t.s.CheckGames, seed)
	t.meter.Phase(fmt.Sprintf("checking the tuned values on %d fresh games", t.s.CheckGames))
	out := make([]Check, len(t.skills))
	err = t.eachSkill(func(i int, k sim.Skill) error {
		rs, err := t.play(v, k, 0, t.s.CheckGames, seed)
		r := sim.NewReport(sim.Header{}, rs)
		out[i] = Check{Skill: k.Name, Target: t.targets[i].Rate, Games: r.Games, Rate: r.WinRate, CI: r.WinCI}
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

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

// widenLine says a range widened: which, from what to what, before which
// round, and why.
func widenLine(levers []simtune.Lever, w simtune.Widening) string {
	l := levers[slices.IndexFunc(levers, func(l simtune.Lever) bool { return l.Key == w.Key })]
	end, past := "high", w.From[1]
	if w.To[0] < w.From[0] {
		end, past = "low", w.From[0]
	}
	line := fmt.Sprintf("%s's range widened at its %s end, from %s–%s to %s–%s, before refining round %d: the model would take it past %s", w.Key, end, l.Format(w.From[0]), l.Format(w.From[1]), l.Format(w.To[0]), l.Format(w.To[1]), w.Round, l.Format(past))
	if w.Bound {
		line += " (the range now ends at the setting's own bound)"
	}
	return line
}

// Report is a tune's report: the search, the check on fresh seeds,
// and the mods' tuned settings.
type Report struct {
	*simtune.Result
	Screen    *simtune.ScreenResult `json:"screen,omitempty"` // the levers' screen, when --tune-keys named none
	Command   string                `json:"command"`
	CheckSeed uint64                `json:"check_seed"`
	Check     []Check               `json:"check"`
	ModSets   []string              `json:"mod_sets,omitempty"`
	Partial   bool                  `json:"partial,omitempty"`
	tuned     sim.Variant           // the tuned configuration and mods (TOML)
}

func (r *Report) Text(w io.Writer) error {
	var b strings.Builder
	if r.Partial {
		b.WriteString("partial: the tune was stopped; this is the best candidate it measured, not checked on fresh seeds\n")
		if rates, games, ok := r.measured(); ok {
			fmt.Fprintf(&b, "measured on %d games at each skill:%s\n", games, ratesLine(r.Targets, rates, ""))
		}
		b.WriteString("\n")
	}
	var tg []string
	for _, t := range r.Targets {
		tg = append(tg, fmt.Sprintf("%s %.0f%%", t.Skill, 100*t.Rate))
	}
	fmt.Fprintf(&b, "targets: %s\n", strings.Join(tg, ", "))
	if r.Screen != nil && len(r.Screen.Effects) > 0 {
		r.screenText(&b)
	}
	screenOnly := r.Partial && r.Stages == nil // stopped in the screen: its best point
	switch {
	case screenOnly && len(r.Levers) == 0:
		b.WriteString("the screen was stopped: the best point it measured is the base itself, no lever moved\n")
	case screenOnly:
		var keys []string
		for _, l := range r.Levers {
			keys = append(keys, l.Key)
		}
		fmt.Fprintf(&b, "the screen was stopped: the best point it measured, %s moved from the base\n\n", strings.Join(keys, " and "))
	}
	measured := 0
	for _, s := range r.Steps {
		if !s.Repeated {
			measured++
		}
	}
	refining := "no refining round"
	if len(r.Refine) > 0 {
		refining = fmt.Sprintf("%d refining rounds of a logistic model (%s games)", len(r.Refine), joinInts(r.Refine))
	}
	if !screenOnly {
		fmt.Fprintf(&b, "search: %d candidates measured (%d games at each skill): CMA-ES exploring (%s games a candidate), then %s\n\n", measured, r.Games(), joinInts(r.StageGames()), refining)
	}
	kw := len("lever")
	for _, l := range r.Levers {
		kw = max(kw, len(l.Key))
	}
	if len(r.Levers) > 0 {
		fmt.Fprintf(&b, "%-*s  %10s  %10s  %9s  %s\n", kw, "lever", "from", "to", "moved", "range")
	}
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
	for _, w := range r.Widened {
		b.WriteString(widenLine(r.Levers, w) + "\n")
	}
	if r.Reach != nil {
		fmt.Fprintf(&b, "the models at the answer:%s", ratesLine(r.Targets, r.Reach, ""))
		switch {
		case r.Apart:
			b.WriteString(" (these levers cannot meet the targets together: the answer is the models' compromise, its furthest miss in points as small as can be)")
		case r.Short():
			b.WriteString(" (short of the models' solution: the answer stays within the region the last rounds played)")
		}
		b.WriteString("\n")
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
func (r *Report) verdict() string {
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
		v := r.Answer[i]
		switch {
		case l.Widen && (v <= l.Min || v >= l.Max):
			held = append(held, fmt.Sprintf("%s stopped at the setting's own bound (%s), which no range may pass", l.Key, l.Format(v)))
		case v <= l.Lo || v >= l.Hi:
			held = append(held, fmt.Sprintf("%s stopped at an end of its range (%s to %s), where a wider range may reach further (--tune-keys %s=LO:HI, if the setting allows)", l.Key, l.Format(l.Lo), l.Format(l.Hi), l.Key))
		}
	}
	line := fmt.Sprintf("the tuned configuration misses %s by %.1f points on fresh games", at, 100*worst)
	if len(held) > 0 {
		return line + "; " + strings.Join(held, "; ")
	}
	if r.Apart {
		return line + fmt.Sprintf(": the models say these levers cannot meet the targets together, for they do not move the skills apart or together as far as the targets ask; the nearest they come is%s, the furthest miss in points as small as can be; a lever that moves the skills apart (the screen's gap column) may come nearer", ratesLine(r.Targets, r.Reach, ""))
	}
	return line + ": other levers (--tune-keys) or more games a round (--tune-stages) may come nearer"
}

// screenText writes the screen: every candidate's move of each target
// skill's win across its range, in logits, the gap's move, and the levers
// chosen.
func (r *Report) screenText(b *strings.Builder) {
	sc := r.Screen
	var skills []string
	for _, t := range r.Targets {
		skills = append(skills, t.Skill)
	}
	fmt.Fprintf(b, "\nthe levers screened at %s, %d games a point: the change of each skill's win across the lever's range, in logits (± its standard error)", strings.Join(skills, " and "), sc.Games)
	if len(skills) > 1 {
		fmt.Fprintf(b, ", and of the gap (%s's less %s's)", skills[len(skills)-1], skills[0])
	}
	b.WriteString("\n")
	if p := sc.Pivot; p != nil {
		l := sc.Effects[p.Lever].Lever
		fmt.Fprintf(b, "(a skill won almost every game of the base or almost none: measured about %s, where the curves of a first pass on %d games a point come nearest the targets,%s)\n", l.Key+"="+l.Format(p.Value), p.Games, ratesLine(r.Targets, p.Rates, ""))
	}
	kw := len("lever")
	for _, e := range sc.Effects {
		kw = max(kw, len(e.Lever.Key))
	}
	fmt.Fprintf(b, "%-*s  %-15s", kw, "lever", "range")
	for _, s := range skills {
		fmt.Fprintf(b, "  %13s", s)
	}
	if len(skills) > 1 {
		fmt.Fprintf(b, "  %6s", "gap")
	}
	b.WriteString("  chosen\n")
	for i, e := range sc.Effects {
		l := e.Lever
		fmt.Fprintf(b, "%-*s  %-15s", kw, l.Key, l.Format(l.Lo)+" to "+l.Format(l.Hi))
		for k := range skills {
			fmt.Fprintf(b, "  %13s", fmt.Sprintf("%+.1f ± %.1f", e.Slope[k], e.SE[k]))
		}
		if len(skills) > 1 {
			fmt.Fprintf(b, "  %+6.1f", e.Gap)
		}
		switch {
		case slices.Contains(sc.Chosen, i):
			b.WriteString("  yes")
		case !e.Moves():
			b.WriteString("  no: moves no skill")
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(b, "the screen's model: the levers chosen reach%s within their ranges\n\n", ratesLine(r.Targets, sc.Reach, ""))
}

// joinInts writes numbers as a list: "20, 40, 80".
func joinInts(ns []int) string {
	var s []string
	for _, n := range ns {
		s = append(s, strconv.Itoa(n))
	}
	return strings.Join(s, ", ")
}

// TOML is the tuned configuration file: the effective configuration, as
// `2048 config show` writes it, under a header that says how it was made
// and what it reaches.
func (r *Report) TOML() []byte {
	c := r.tuned
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Tuned by: %s\n", r.Command)
	if r.Partial {
		b.WriteString("# partial: the tune was stopped; the best candidate measured, not checked\n")
		if rates, games, ok := r.measured(); ok {
			fmt.Fprintf(&b, "# measured on %d games at each skill:%s (targets%s)\n", games, ratesLine(r.Targets, rates, ""), targetsLine(r.Targets))
		} else if r.Reach != nil { // stopped in the check: the models' answer, which no game measured
			fmt.Fprintf(&b, "# not measured: the models' rates at it:%s (targets%s)\n", ratesLine(r.Targets, r.Reach, ""), targetsLine(r.Targets))
		}
	}
	for _, ch := range r.Check {
		fmt.Fprintf(&b, "# %s: target %.0f%%, won %.1f%% (%.1f–%.1f) of %d fresh games (seed %d)\n", ch.Skill, 100*ch.Target, 100*ch.Rate, 100*ch.CI[0], 100*ch.CI[1], ch.Games, r.CheckSeed)
	}
	for _, kv := range r.ModSets {
		fmt.Fprintf(&b, "# with --mod-set %s (a mod's setting: give it beside --config)\n", kv)
	}
	b.WriteString("\n")
	b.Write(c.Config.TOML())
	return b.Bytes()
}

// targetsLine writes the targets after a space each: " greedy 50%,
// expert 90%".
func targetsLine(targets []simtune.Target) string {
	var b strings.Builder
	for i, tg := range targets {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %s %.0f%%", tg.Skill, 100*tg.Rate)
	}
	return b.String()
}
