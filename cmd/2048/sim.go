package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/mod2048/mod2048/cmd/2048/internal/progress"
	"github.com/mod2048/mod2048/cmd/2048/internal/termtext"
	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/config/infile"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/mod/install"
	"github.com/mod2048/mod2048/scripting/session"
	"github.com/mod2048/mod2048/scripting/sim"
	"github.com/mod2048/mod2048/scripting/sim/simplot"
	"github.com/mod2048/mod2048/scripting/sim/tuning"
)

const simUsage = `Usage: 2048 sim [the play flags] [--games N | --precision P] [--budget MOVES] [--seed S] [--policy P | --skill | --skills LIST] [--max-turns T] [--jobs J] [--json FILE] [--csv FILE] [--plot FILE] [--shard I/N] [--compare FILE.toml ... | --compare-mods LIST ... | --sweep KEY=V1,V2,... | --levers]
       2048 sim [the play flags] --tune SKILL=RATE,... [--tune-keys KEY[=LO:HI],...] [--tune-screen N] [--tune-stages S] [--write FILE.toml] [--games N] [--seed S] [--json FILE] [--plot FILE]
       2048 sim merge [--json FILE] [--partial] FILE.json ...

The balance lab: plays many seeded games of a configuration and its mods,
as '2048 play' would build them (--ruleset, --difficulty, --config, --set,
--mod, --mod-set), with a policy, and reports what they did: wins, losses
and unfinished games with their rates and 95% intervals, the score and
length percentiles, a histogram of the highest tile (classic) or energy
(cellular) reached, each mod's errors, refusals and disables, and how the
games ended, each cause with its median turn: the goal; no move left; the
colony died out; the ruleset's turn limit; every move refused by a mod;
unfinished at --max-turns. A loss a mod's doing caused names the mod, and
its hazard when its blocking marks left no move ("no move left: blocked by
maze's wall"), or the cells it set on the last turn ("cells set by
plague").

With --mod, the same games are played without the mods too, beside: the
verdict says, skill by skill, what the mods change, on a measure that
separates the two: the win rate where it moves, else the median score, the
median highest tile or the median turns, each named; the games the mods
make endless; the games their doing ends. --no-baseline plays the games
with the mods alone (a --shard always does).

Game i plays with a seed made from --seed and i, so the same flags give the
same report byte for byte, whatever --jobs. Policies: random; greedy (the
best immediate score, ties broken by the seed: a casual player); lookahead
(the default: an expectimax through the engine's own rules, --depth moves
deep with --samples forks a move; cellular positions valued by a chance of
a win learned from played games); expert (the strongest player the lab
has: engine/ai's on classic; on cellular a search four moves deep, six
samples a move at its root and one below, which wins at least as often as
the lookahead three or four moves deep; --ai-config FILE for its
settings).

A difficulty figure names its player: --skill plays the skill ladder
(random, greedy, lookahead 1, lookahead 2, expert) on the same seeds and
prints one table, a row a skill; --skills LIST plays some of its rungs.
--policy with either, or --skill with --skills, is refused, as is a rung,
a --sweep key or a value named twice: each error says what to write.

--compare FILE.toml ... plays each configuration file too, on the same
seeds; --compare-mods LIST (repeatable) plays the base with another set of
mods instead of --mod ("" for none). Each row has its difference in win
rate from the base, at the same skill, with its 95% interval and whether it
is significant. --sweep KEY=V1,V2 (repeatable: a grid) plays each value;
KEY may be MOD.SETTING for a mod of --mod. --levers plays each numeric
setting one step down and up, and each switch flipped: the
configuration's, and those of the mods of --mod (MOD.SETTING). A row is
labelled by what it holds: the base, "classic + bomb", names its mods.
All of them combine
with --skill, and honour --json, --csv and --plot; an unknown key is
refused, with the nearest known one, before any game is played.

--plot FILE.svg|FILE.png draws a run's score distribution, its survival
curve split into games still going, won and lost, and its hazard (the
chance that a game still going ends at each turn); a study's plot overlays
its runs.

--shard I/N plays the I-th (from 0) of N disjoint slices of the games; its
--json is a shard. '2048 sim merge' combines the shards' JSON into exactly
the whole run's report, and refuses shards of different runs. A progress
bar shows on the standard error when it is a terminal; elsewhere (a log, a
CI job, a pipe) a line every 5 seconds says the games done of the total,
the rate and the time left (for a run played to a precision: until the
games its interval needs or its budget's end, whichever comes first; in
a study, each line says its run's place). Ctrl-C (or SIGTERM) stops a run at once and
writes the games that finished (--json, --csv, the table), marked partial,
with exit status 1. --precision P plays each run in batches of 25 games
until its win rate's 95% interval is within ±P (0.05: ±5 points), or
--games (then 5000 by default) are played: the same flags, the same
games. A run that gives neither --games nor --precision (nor --shard) is
played to ±7 points: 25 games where none or all are won, about 200 where
half are, and ends at a budget of 50 million moves (the moves its games
play through the engine's rules, searches included, one more for every
20 Lua instructions charged to its mods, so that a mod's work counts,
and one for every 100 positions the classic expert's packed search
evaluates; --budget MOVES sets one for any run): the game that reaches
it is the run's last, every game finished, and its row is marked *; a
game whose own work reaches the budget stops there, unfinished at the
budget (an endless game). A
study's budget (50 million moves a run, at most 200 million; or
--budget's) is shared by its runs in order: each takes what the runs
before it left, divided among it and those after it, so a run that
answers early leaves its share to the later ones. --games N plays exactly
N games. --timing adds the policy's and the mods' mean time a move
(wall-clock: the figures that change from run to run).

--tune SKILL=RATE,... finds the numbers for a skill ladder: the win rate
wanted at each skill named (greedy=0.25,expert=0.6). It moves the levers
--tune-keys names (configuration keys and MOD.SETTING, each with an
optional range LO:HI; by default from half to twice its value, a rate 0
to 1, within the setting's own bounds). With no --tune-keys it screens
every numeric setting first: each at the ends of its default range and
halfway, on --tune-screen games a point (default 24) at every skill
named (where a skill wins almost every game of the base or none, first
on a third the games, then again about the point nearest the targets),
and chooses the set of at most three whose model comes nearest the
targets, so that the levers can move both the skills' level and the gap
between them. The search explores with CMA-ES on 8 games a
candidate, then refines with rounds of a logistic model of each skill's
win fit to the games played (--tune-stages, default 8x6,20,40,80,120,120:
GAMESxGENERATIONS exploring, then each round's games), every candidate of
a generation on the same games. A lever whose range has no LO:HI widens
it by itself, within the setting's own bounds, where the model would take
it past an end, and says so. It plays the tuned values on --games fresh
games (default 100, seed --seed + 1) and reports them with their
intervals, the screen, the levers' moves and a verdict. --write FILE
writes the tuned configuration (a --config file; a mod's tuned setting
is a --mod-set, which the report and the file's header name); --plot
draws the search. The same flags write the same file.

The results are the same on every machine: a mod's call that the
wall-clock failsafe stops (2 s, on fewer instructions than its budget)
would make them depend on the machine's speed, so it ends the run with an
error naming the mod and its call (a bug in the sandbox's costs: report
the mod), and nothing is written.

Exit status: 0 when the run was played; 1 for a configuration, mod or
file error, or a failsafe's stop; 2 for a usage error.
`

type simOptions struct {
	// stop, closed by Ctrl-C or SIGTERM, stops the run: what finished is
	// written, marked partial.
	stop     <-chan struct{}
	build    config.BuildOptions
	mods     []string
	modSets  []string
	games    int
	seed     uint64
	policy   string
	maxTurns int
	jobs     int
	// precision: play each run until its win rate is known to ±precision
	// (runGames).
	precision float64
	// budget: the most work a run's games may do, in moves, searches and
	// mods' work included (sim.Options.Budget); a study's, shared by its
	// runs; 0 is none. defaultBudget: it is the default, which a study
	// sizes by its runs.
	budget        uint64
	defaultBudget bool
	depth         int
	samples       int
	aiConfig      string
	json          string
	csv           string
	plot          string
	shard         string
	compare       []string
	sweep         []string
	timing        bool
	// The studies (study.go): the skill ladder, mod sets compared, levers.
	skill       bool
	skills      string
	compareMods []string
	levers      bool
	// noBaseline: a run with mods plays their games alone, not also the
	// same games without them.
	noBaseline bool
	// The tune (tune.go): the targets, the levers named, the file to
	// write, and the command's arguments, for the file's header.
	tune, tuneKeys, write string
	tuneStages            string
	tuneScreen            int
	args                  []string
}

// simGC sets the collector's pace for a lab run, unless the user set GOGC,
// and returns what puts it back.
func simGC() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(sim.GCPercent)
	return func() { debug.SetGCPercent(old) }
}

func runSim(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if sub, ok := subcommands["sim"][args[0]]; ok {
			return sub(args[1:], stdout, stderr)
		}
	}
	// The lab makes a game's state, and a modded game's Lua state, for
	// every game, and throws it away a few hundred microseconds later: a
	// batch run that trades memory for time, as esbuild's CLI does. With
	// the collector at a fifth of its usual pace, a modded move costs about
	// a tenth less (BenchmarkModMove under GOGC=400); the heap stays a few
	// megabytes a worker. GOGC set by the user wins.
	defer simGC()()
	var o simOptions
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	gameFlags(fs, &o.build, &o.mods, &o.modSets)
	fs.IntVar(&o.games, "games", 200, "`games` to play, exactly (with --precision, the most to play: default 5000); given neither, a run plays until its win rate is known to ±7 points; with --shard, 200")
	fs.Float64Var(&o.precision, "precision", 0, "play each run in batches of 25 games until its win rate's 95% interval is within ±`P` (0.05: ±5 points), or --games are played")
	fs.Uint64Var(&o.budget, "budget", 0, "end each run once its games have done `MOVES` moves of work: moves through the engine's rules, their player's searches included, one more for every 20 Lua instructions charged to the mods and for every 100 positions of the classic expert's packed search, the same count on every machine; the game that reaches it is the run's last; a study's runs share it (default: 50000000 a run, at most 200000000 a study, where neither --games nor --precision is given; else none)")
	fs.Uint64Var(&o.seed, "seed", 1, "the run's `seed`")
	fs.StringVar(&o.policy, "policy", sim.DefaultPolicy, "the `policy`: "+strings.Join(sim.Policies(), ", "))
	fs.IntVar(&o.maxTurns, "max-turns", 0, "a game that reaches this many `turns` is unfinished (default: the ruleset's, which lets its games end: classic 100000, cellular 1000)")
	fs.IntVar(&o.jobs, "jobs", runtime.NumCPU(), "`workers` playing at once")
	fs.IntVar(&o.depth, "depth", sim.DefaultDepth, "lookahead: the search's `moves`")
	fs.IntVar(&o.samples, "samples", sim.DefaultSamples, "lookahead: `forks` each move is sampled on")
	fs.StringVar(&o.aiConfig, "ai-config", "", "expert: a TOML `file` of the expert player's settings")
	fs.StringVar(&o.json, "json", "", "write the report as JSON to `file`")
	fs.StringVar(&o.csv, "csv", "", "write one row per game to `file`")
	fs.StringVar(&o.plot, "plot", "", "draw the score distribution and the survival curve to `file`.svg or .png")
	fs.StringVar(&o.shard, "shard", "", "play the I-th of N slices of the games, `I/N`")
	fs.Var((*repeated)(&o.compare), "compare", "a configuration `file` to play on the same seeds, side by side; repeatable")
	fs.Var((*repeated)(&o.sweep), "sweep", "`KEY=V1,V2,...`: play each value (repeatable: a grid)")
	fs.BoolVar(&o.timing, "timing", false, "print each mod's mean time a move (wall-clock)")
	fs.BoolVar(&o.skill, "skill", false, "play the skill ladder (random, greedy, lookahead 1, lookahead 2, expert) on the same seeds instead of one --policy; combines with --compare, --compare-mods, --sweep and --levers")
	fs.StringVar(&o.skills, "skills", "", "play these rungs of the skill ladder, a comma-separated `list` (random, greedy, lookahead 1, lookahead 2, expert), as --skill plays them all")
	fs.Var((*repeated)(&o.compareMods), "compare-mods", "a comma-separated `list` of mods (folders or installed ids) to play instead of --mod, beside the base, on the same seeds; repeatable; \"\" plays no mod")
	fs.StringVar(&o.tune, "tune", "", "find the numbers for a skill ladder: `SKILL=RATE,...` (greedy=0.25,expert=0.6), the win rate wanted at each skill")
	fs.StringVar(&o.tuneKeys, "tune-keys", "", "the levers --tune moves, `KEY[=LO:HI],...` (configuration keys, MOD.SETTING); default: the three settings whose steps move the win rate most")
	fs.IntVar(&o.tuneScreen, "tune-screen", tuning.ScreenGames, "--tune with no --tune-keys: the screen's games a point at each skill")
	fs.StringVar(&o.tuneStages, "tune-stages", "", "--tune's stages: exploring `GAMESxGENERATIONS`, then each refining round's games (default 8x6,20,40,80,120,120)")
	fs.StringVar(&o.write, "write", "", "--tune: write the tuned configuration to `file` (TOML, for --config)")
	fs.BoolVar(&o.noBaseline, "no-baseline", false, "with --mod: play the games with the mods only, not also the same games without them beside")
	fs.BoolVar(&o.levers, "levers", false, "the levers table: each numeric setting one step down and up, each switch flipped, against the base")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), simUsage)
		fs.PrintDefaults()
	}
	if ok, code := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "2048 sim: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	set := map[string]bool{} // the flags given
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if err := conflictingSimFlags(set, o); err != nil {
		fmt.Fprintf(stderr, "2048 sim: %s\n", err)
		return 2
	}
	o.args = args
	if o.tune != "" && !set["games"] {
		o.games = tuning.CheckGames // the check's games on fresh seeds
	}
	if !set["games"] && !set["precision"] && o.shard == "" && o.tune == "" {
		o.precision = defaultPrecision
		if !set["budget"] {
			o.budget, o.defaultBudget = defaultBudget, true
		}
	}
	if o.precision != 0 {
		if !set["games"] {
			o.games = 5000
		}
		if o.precision < 0 || o.precision >= 0.5 {
			fmt.Fprintf(stderr, "2048 sim: --precision %v: want a half-width between 0 and 0.5 (0.05 is ±5 points)\n", o.precision)
			return 2
		}
	}
	if o.games < 1 || o.maxTurns < 0 || o.jobs < 1 {
		fmt.Fprintln(stderr, "2048 sim: --games and --jobs must be at least 1, --max-turns at least 1 (or 0, the ruleset's)")
		return 2
	}
	if o.games > sim.MaxGames {
		fmt.Fprintf(stderr, "2048 sim: --games %d: %v; play several runs with other --seed values instead\n", o.games, sim.ErrTooManyGames)
		return 2
	}
	if err := checkConfigs(o); err != nil {
		fmt.Fprintf(stderr, "2048 sim: %s\n", safe(err))
		return 2
	}
	shard, shards, err := parseShard(o.shard)
	if err != nil {
		fmt.Fprintf(stderr, "2048 sim: --shard: %s\n", safe(err))
		return 2
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	o.stop = ctx.Done()
	if err := simMain(o, shard, shards, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "2048 sim: %s\n", safe(err))
		if _, usage := err.(usageError); usage {
			return 2
		}
		return 1
	}
	return 0
}

func parseShard(s string) (i, n int, err error) {
	if s == "" {
		return 0, 0, nil
	}
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("%q: want I/N with 0 ≤ I < N", s)
	}
	return i, n, nil
}

// simMain plays the run (and its comparisons or sweep) and writes the
// reports.
func simMain(o simOptions, shard, shards int, stdout, stderr io.Writer) error {
	settings, err := aiSettings(o.aiConfig)
	if err != nil {
		return err
	}
	mk, err := sim.MakePolicy(o.policy, sim.PolicyOptions{Depth: o.depth, Samples: o.samples, AI: settings})
	if err != nil {
		return err
	}
	var mods []*mod.Mod
	for _, ref := range o.mods {
		m, err := install.Load(ref)
		if err != nil {
			return err
		}
		mods = append(mods, m)
	}
	if _, err := setMods(mods, o.modSets); err != nil {
		return err
	}
	runMods, err := sim.RunModsOf(mods)
	if err != nil {
		return err
	}
	var policyTime time.Duration
	play := func(c *config.Config, label string) (*sim.Report, time.Duration, error) {
		opt := sim.Options{Setup: session.Setup{Config: c, Mods: mods, Limits: modLimits}, Policy: o.policy, Make: mk,
			Games: o.games, Seed: o.seed, MaxTurns: o.maxTurns, Jobs: o.jobs, Shard: shard, Shards: shards, Timing: o.timing, Stop: o.stop, Budget: o.budget}
		rs, err := runGames(opt, o, stderr, label)
		stopped := errors.Is(err, sim.ErrStopped)
		if err != nil && !stopped {
			return nil, 0, err
		}
		if stopped && len(rs) == 0 {
			return nil, 0, errors.New("stopped before any game finished: there is nothing to write")
		}
		var hooks time.Duration
		for _, r := range rs {
			hooks += r.HookNanos
			policyTime += r.PolicyNanos
		}
		h := sim.Header{Config: string(c.TOML()), Policy: o.policy, Ruleset: c.Ruleset, Difficulty: c.Preset, Seed: o.seed, MaxTurns: o.maxTurns,
			RunGames: o.games, Shard: shard, Shards: shards, Mods: runMods, Partial: stopped, Precision: o.precision, Budget: o.budget}
		return sim.NewReport(h, rs), hooks, nil
	}
	base, err := config.Build(o.build)
	if err != nil {
		return err
	}
	if o.maxTurns == 0 {
		o.maxTurns = defaultMaxTurns(base.Ruleset)
	}
	if o.tune != "" {
		return runTune(o, base, mods, sim.PolicyOptions{Depth: o.depth, Samples: o.samples, AI: settings}, stdout, stderr)
	}
	if o.isStudy() {
		st, err := planStudy(o, base, mods, sim.PolicyOptions{Depth: o.depth, Samples: o.samples, AI: settings})
		if err != nil {
			return err
		}
		return runStudy(o, st, shard, shards, stdout, stderr)
	}
	r, hooks, err := play(base, "games")
	if err != nil {
		return err
	}
	if err := safeText(stdout, r.Text); err != nil {
		return err
	}
	if o.timing {
		moves := 0
		for _, g := range r.Results {
			moves += g.Turns
		}
		moves = max(moves, 1)
		fmt.Fprintf(stdout, "\ntime (wall-clock): the policy %.3f ms a move", float64(policyTime.Nanoseconds())/1e6/float64(moves))
		if len(mods) > 0 {
			fmt.Fprintf(stdout, "; a move with the mods %.1f µs", float64(hooks.Nanoseconds())/1000/float64(moves))
		}
		fmt.Fprintln(stdout)
	}
	if err := writeOutputs(o, r); err != nil {
		return err
	}
	if r.Partial {
		return errStopped(r.Games, r.RunGames)
	}
	return nil
}

// errStopped is the error of a run stopped by Ctrl-C or SIGTERM, after
// its partial report was written.
func errStopped(done, of int) error {
	return fmt.Errorf("stopped: the report holds the %d games of %d that finished, marked partial", done, of)
}

// outputs is what a run's or a study's report writes besides its table
// (its plot: plotOf).
type outputs interface {
	JSON() ([]byte, error)
	CSV(w io.Writer) error
}

// plotOf draws a run's or a study's report into file (simplot).
func plotOf(r outputs, file string) error {
	switch r := r.(type) {
	case *sim.Report:
		return simplot.Report(r, file)
	case *sim.Study:
		return simplot.Study(r, file)
	}
	return fmt.Errorf("%s: no plot of a %T", file, r)
}

// writeOutputs writes the report's JSON, CSV and plot to the files the
// flags name, those that are asked for.
func writeOutputs(o simOptions, r outputs) error {
	if o.json != "" {
		data, err := r.JSON()
		if err != nil {
			return err
		}
		if err := os.WriteFile(o.json, data, 0o644); err != nil {
			return err
		}
	}
	if o.plot != "" {
		if err := plotOf(r, o.plot); err != nil {
			return err
		}
	}
	if o.csv != "" {
		f, err := os.Create(o.csv)
		if err != nil {
			return err
		}
		if err := r.CSV(f); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	return nil
}

// safeText writes what write writes (a report of several lines, with the
// mods' errors in it) to w, each line through termtext.Lines.
func safeText(w io.Writer, write func(io.Writer) error) error {
	var b strings.Builder
	if err := write(&b); err != nil {
		return err
	}
	_, err := io.WriteString(w, termtext.Lines(b.String()))
	return err
}

// maxConfigs is the most configurations one sim plays: the base and its
// --compare files, or the --sweep grid's combinations.
const maxConfigs = 256

// checkConfigs refuses a --sweep grid or a --compare list of more than
// maxConfigs configurations, counted before the grid is built.
func checkConfigs(o simOptions) error {
	n := 1 + len(o.compare) + len(o.compareMods)
	if len(o.sweep) > 0 {
		n = 1
		for _, s := range o.sweep {
			_, values, _ := strings.Cut(s, "=")
			n *= strings.Count(values, ",") + 1
			if n > maxConfigs {
				break
			}
		}
	}
	if n > maxConfigs {
		return fmt.Errorf("the --sweep grid or --compare list has more than %d configurations: play it in parts", maxConfigs)
	}
	return nil
}

func runSimMerge(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sim merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("json", "", "write the merged report as JSON to `file` too")
	partial := fs.Bool("partial", false, "merge the shards given even when some of the run's are missing")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: 2048 sim merge [--json FILE] [--partial] FILE.json ...

Combines the JSON reports of a run's shards ('2048 sim --shard I/N --json
FILE') into exactly the whole run's report, and prints it. Shards of
different runs (another configuration, policy, seed, games, mods or mod
files) are refused, naming the field and the two files; missing shards are
named, and refused unless --partial is given.

`)
		fs.PrintDefaults()
	}
	if ok, code := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "2048 sim merge: want the shards' JSON files")
		return 2
	}
	var reports []*sim.Report
	total := 0
	for _, path := range fs.Args() {
		data, err := infile.Read(path, 256<<20)
		if err == nil {
			var r *sim.Report
			if r, err = sim.ParseReport(data); err == nil {
				if total += r.Games; total > sim.MaxGames {
					err = fmt.Errorf("the shards hold more than %d games in all: %v", sim.MaxGames, sim.ErrTooManyGames)
				} else {
					reports = append(reports, r)
					continue
				}
			}
		}
		fmt.Fprintf(stderr, "2048 sim merge: %s: %s\n", safe(path), safe(err))
		return 1
	}
	r, missing, err := sim.Merge(reports, fs.Args(), *partial)
	if err != nil {
		fmt.Fprintf(stderr, "2048 sim merge: %s\n", safe(err))
		return 1
	}
	if len(missing) > 0 {
		fmt.Fprintf(stderr, "2048 sim merge: warning: a partial run: %d of its %d games; shards missing: %s\n", r.Games, r.RunGames, strings.Join(missing, ", "))
	}
	if err := safeText(stdout, r.Text); err != nil {
		return 1
	}
	if *out != "" {
		data, err := r.JSON()
		if err == nil {
			err = os.WriteFile(*out, data, 0o644)
		}
		if err != nil {
			fmt.Fprintf(stderr, "2048 sim merge: %s\n", safe(err))
			return 1
		}
	}
	return 0
}

// modLimits are the mods' limits in the commands whose results must be the
// same on every machine (sim, study, tune, replay, mod check); the zero
// value, the default, is scripting.DefaultLimits(). The tests lower the
// wall-clock failsafe, to see a stop end the run.
var modLimits scripting.Limits

// conflictingSimFlags refuses flags (set: those given) that ask for two
// things at once, each with what to write instead: a --policy beside the
// skill ladder that replaces it, --skill beside --skills, and --precision
// beside --shard.
func conflictingSimFlags(set map[string]bool, o simOptions) error {
	switch {
	case set["policy"] && o.skill:
		return fmt.Errorf("--policy %s and --skill do not go together: --skill plays every rung of the ladder; for one player, drop --skill; for some rungs, write --skills LIST", o.policy)
	case set["policy"] && o.skills != "":
		return fmt.Errorf("--policy %s and --skills do not go together: name the player among the rungs, --skills %s,...", o.policy, o.policy)
	case o.skill && o.skills != "":
		return fmt.Errorf("--skill and --skills do not go together: --skill plays every rung, --skills %s only those", o.skills)
	case o.precision != 0 && o.shard != "":
		return errors.New("--precision and --shard do not go together: a shard plays a fixed slice of the games; give --games instead")
	case o.budget != 0 && o.shard != "":
		return errors.New("--budget and --shard do not go together: a shard plays a fixed slice of the games; give --games instead")
	case o.tune == "" && (o.tuneKeys != "" || o.write != "" || o.tuneStages != "" || set["tune-screen"]):
		return errors.New("--tune-keys, --tune-screen, --tune-stages and --write go with --tune SKILL=RATE,...: name the win rates wanted")
	case set["tune-keys"] && set["tune-screen"]:
		return errors.New("--tune-keys and --tune-screen do not go together: the screen chooses the levers when --tune-keys names none")
	case o.tuneScreen < 1 || o.tuneScreen > sim.MaxGames:
		return fmt.Errorf("--tune-screen %d: want a number of games from 1 to %d", o.tuneScreen, sim.MaxGames)
	}
	if o.tune != "" {
		for _, f := range []string{"policy", "skill", "skills", "compare", "compare-mods", "sweep", "levers", "precision", "budget", "shard", "csv"} {
			if set[f] {
				return fmt.Errorf("--tune and --%s do not go together: --tune plays the skills it names (--tune greedy=0.25,expert=0.6), its search's stages and a check on --games fresh games; drop --%s", f, f)
			}
		}
	}
	return nil
}

// defaultMaxTurns is the turn cap of a run that sets none: one that lets
// the ruleset's games end, so that a game counts as unfinished only when
// something keeps it from ending. A classic game that stops on its win
// ends there, about 1000 turns in for a good player (the old cap of 1000
// cut the expert's wins short); one played on after the win to 131072
// lasts about 60000 turns: 100000 lets every game end by a win or a loss.
// A cellular game ends at its preset's turn limit (180 on mid), long
// before 1000, the cap its ladder in RULES.md was measured with.
func defaultMaxTurns(ruleset string) int {
	if ruleset == "classic" {
		return 100_000
	}
	return 1000
}

// defaultPrecision is the precision of a run that gives neither --games
// nor --precision (nor --shard, which plays a fixed slice): ±7 points,
// which tells a 50% win rate from a 64% one, in at most about 200 games
// (a rate near a half), and in 25 where none or all are won.
const defaultPrecision = 0.07

// defaultBudget is the budget of a run that gives neither --games nor
// --precision: 50 million moves of work (sim.Result.Work), searches and
// mods' work included; a study's runs share at most defaultStudyBudget. A
// classic game that its mods keep from ending (bomb clears tiles) lasts
// thousands of turns, and the expert searches about 1,600 moves a turn
// through bomb's handlers: its row of the ladder with bomb ends after a
// few games, every one finished, and the whole study (the ladder without
// bomb and with it) takes about two minutes on 2 cores (config/DESIGNING.md's
// table), within the five a designer's question should take. The packed
// classic expert's search counts a move for every 100 positions it
// evaluates (about 3 million moves a game).
const defaultBudget = 50_000_000

// defaultStudyBudget is the most a study's default budget grows to with
// its runs (defaultBudget each): 200 million moves, shared by its runs, so
// that a skill ladder with and without a mod (ten runs) answers within
// five minutes on 2 cores. A unit of work costs at most about 2.8 µs (a
// cellular move: sim.BenchmarkWorkUnit), so the budget is at most about
// 560 s of one core's work; a classic modded unit costs about 1 µs.
const defaultStudyBudget = 200_000_000

// runGames plays a run, with its progress on stderr: all its games, or
// with --precision, batches until its win rate is known well enough.
func runGames(opt sim.Options, o simOptions, stderr io.Writer, label string) ([]sim.Result, error) {
	bar := progress.New(stderr, label, o.games, opt.Shards)
	defer bar.Done()
	opt.Progress, opt.Played = bar.Update, &bar.Played
	bar.Set(opt.Budget, o.precision, opt.Jobs)
	if o.precision > 0 {
		opt.Batch = bar.Batch
		return sim.RunPrecise(opt, o.precision, sim.PrecisionBatch)
	}
	return sim.Run(opt)
}
