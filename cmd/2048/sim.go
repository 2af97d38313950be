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

	"github.com/mod2048/mod2048/cmd/2048/internal/cli"
	"github.com/mod2048/mod2048/cmd/2048/internal/progress"
	"github.com/mod2048/mod2048/cmd/2048/internal/termtext"
	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/config/infile"
	"github.com/mod2048/mod2048/config/suggest"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/mod/install"
	"github.com/mod2048/mod2048/scripting/session"
	"github.com/mod2048/mod2048/scripting/sim"
	"github.com/mod2048/mod2048/scripting/sim/simplot"
	"github.com/mod2048/mod2048/scripting/sim/tuning"
)

const simUsage = `Usage:
  2048 sim run [FLAGS]        play seeded games of one player and report them
  2048 sim study [FLAGS]      the skill ladder and comparisons, on the same seeds:
                              --skill, --skills, --compare, --compare-mods,
                              --sweep, --levers
  2048 sim tune --tune SKILL=RATE,... [FLAGS]
                              find the settings that give the win rates wanted
  2048 sim merge FILE.json ...
                              combine the JSON reports of a sharded run

The balance lab plays many seeded games of a configuration and its mods,
as '2048 play' builds them, and reports wins, losses and unfinished games
with their 95% intervals, scores, turns and how the games ended. The same
flags give the same report, byte for byte, on every machine.
'2048 sim COMMAND --help' lists a command's flags; config/DESIGNING.md
tells the lab at length.

The form without a subcommand ('2048 sim --skill ...') still works: it
says its new form on the standard error, and plays as before.
`

// simRunUsage, simStudyUsage and simTuneUsage are the helps of sim run,
// study and tune, above their flags: each at most 40 lines with them
// (TestSimHelpFits).
const simRunUsage = `Usage: 2048 sim run [the play flags] [FLAGS]

Plays seeded games of one player (--policy: random, greedy, lookahead,
expert) and reports wins, losses and unfinished games with their rates and
95% intervals, the score and length percentiles, the highest tile or
energy reached, each mod's errors, refusals and disables, and how the games
ended. With --mod, the same games are played without the mods too, beside,
and a verdict says what the mods change (--no-baseline: the mods' alone).
Given neither --games nor --precision, a run plays until its win rate is
known to ±7 points, within 50 million moves of work (--budget). Ctrl-C
writes the games that finished, marked partial (exit status 1).

The play flags: --ruleset, --difficulty, --config, --set, --mod, --mod-set
(2048 help play).
`

const simStudyUsage = `Usage: 2048 sim study [the play flags] [FLAGS]

Plays each variant at each skill on the same seeds, and prints one table:
a row a run, with its difference in win rate from the base at the same
skill, its 95% interval and whether it is significant. The skills: --skill
(the ladder: random, greedy, lookahead 1, lookahead 2, expert), --skills
LIST (some rungs), else --policy. The variants: --compare FILE.toml,
--compare-mods LIST ("" for no mod), --sweep KEY=V1,V2 (a grid; KEY may be
MOD.SETTING), --levers (each numeric setting a step down and up, each
switch flipped), and with --mod, the base without its mods. A study's
budget (50 million moves a run, at most 200 million) is shared by its runs.

The play flags: --ruleset, --difficulty, --config, --set, --mod, --mod-set
(2048 help play).
`

const simTuneUsage = `Usage: 2048 sim tune --tune SKILL=RATE,... [the play flags] [FLAGS]

Finds the numbers for a skill ladder: the win rate wanted at each skill
named (--tune greedy=0.25,expert=0.6). It moves the levers --tune-keys
names (configuration keys and MOD.SETTING, each with an optional range
LO:HI), or with none, those of every numeric setting that its screen finds
come nearest the targets; explores with CMA-ES, refines with a logistic
model of each skill's win rate, then plays the tuned values on --games
fresh games (seed --seed + 1) and reports them with a verdict. --write FILE
writes the tuned configuration, for --config. The same flags write the
same file. Ctrl-C or SIGTERM writes the best candidate measured so far,
marked partial with its rates (exit status 1).

The play flags: --ruleset, --difficulty, --config, --set, --mod, --mod-set
(2048 help play).
`

type simOptions struct {
	// kind is the subcommand: run, study or tune.
	kind string
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

// simKinds are the subcommands of sim that play games.
var simKinds = []string{"run", "study", "tune"}

// simFlags is the flag set of sim run, study or tune (kind), into o: each
// has only the flags that mean something to it.
func simFlags(kind string, o *simOptions) *flag.FlagSet {
	fs := flag.NewFlagSet("sim "+kind, flag.ContinueOnError)
	gameFlags(fs, &o.build, &o.mods, &o.modSets)
	games := "play exactly `N` games (default: until the win rate is known to ±7 points)"
	switch kind {
	case "tune":
		games = "check the tuned values on `N` fresh games (default 100)"
	case "run":
		games = "play exactly `N` games (default: until the win rate is known to ±7 points; with --shard, 200)"
	}
	fs.IntVar(&o.games, "games", 200, games)
	fs.Uint64Var(&o.seed, "seed", 1, "the run's `seed` (default 1)")
	fs.IntVar(&o.maxTurns, "max-turns", 0, "a game that reaches `T` turns is unfinished (default: the ruleset's)")
	fs.IntVar(&o.jobs, "jobs", runtime.NumCPU(), "`J` workers playing at once (default: every core)")
	fs.IntVar(&o.depth, "depth", sim.DefaultDepth, "lookahead: the search's `moves`")
	fs.IntVar(&o.samples, "samples", sim.DefaultSamples, "lookahead: the `forks` a move is sampled on")
	fs.StringVar(&o.aiConfig, "ai-config", "", "expert: a TOML `file` of its settings")
	fs.StringVar(&o.json, "json", "", "write the report as JSON to `file`")
	fs.StringVar(&o.plot, "plot", "", "draw the runs (or the search) to `file`.svg or .png")
	if kind == "tune" {
		fs.StringVar(&o.tune, "tune", "", "the win rate wanted at each skill, `SKILL=RATE,...` (greedy=0.25,expert=0.6)")
		fs.StringVar(&o.tuneKeys, "tune-keys", "", "the levers, `KEY[=LO:HI],...` (default: those the screen chooses)")
		fs.IntVar(&o.tuneScreen, "tune-screen", tuning.ScreenGames, fmt.Sprintf("the screen's `games` a point at each skill (default %d)", tuning.ScreenGames))
		fs.StringVar(&o.tuneStages, "tune-stages", "", "the search's `stages` (default 8x6,20,40,80,120,120)")
		fs.StringVar(&o.write, "write", "", "write the tuned configuration to `file` (TOML, for --config)")
		return fs
	}
	fs.StringVar(&o.policy, "policy", sim.DefaultPolicy, "the `player`: "+strings.Join(sim.Policies(), ", ")+" (default "+sim.DefaultPolicy+")")
	fs.Float64Var(&o.precision, "precision", 0, "play until the win rate's 95% interval is within ±`P` (0.05), or --games")
	fs.Uint64Var(&o.budget, "budget", 0, "end a run at `MOVES` moves of work, searches and mods' work included")
	fs.StringVar(&o.csv, "csv", "", "write a row per game to `file`")
	fs.BoolVar(&o.noBaseline, "no-baseline", false, "with --mod: play the mods' games alone, not the same without them")
	if kind == "run" {
		fs.StringVar(&o.shard, "shard", "", "play the I-th of N slices of the games, `I/N`, for 2048 sim merge")
		fs.BoolVar(&o.timing, "timing", false, "print the policy's and the mods' mean time a move (wall-clock)")
		return fs
	}
	fs.BoolVar(&o.skill, "skill", false, "play the skill ladder: random, greedy, lookahead 1, lookahead 2, expert")
	fs.StringVar(&o.skills, "skills", "", "play these rungs of the ladder, a comma-separated `list`")
	fs.Var((*repeated)(&o.compare), "compare", "a configuration `file` to play beside the base; repeatable")
	fs.Var((*repeated)(&o.compareMods), "compare-mods", "`mods` (a comma-separated list) to play instead of --mod; repeatable")
	fs.Var((*repeated)(&o.sweep), "sweep", "play each value, `KEY=V1,V2,...`; repeatable: a grid")
	fs.BoolVar(&o.levers, "levers", false, "each numeric setting a step down and up, each switch flipped")
	return fs
}

// simHint names the other subcommand of sim that has a flag kind's lacks,
// or the nearest flag of another.
func simHint(kind string) func(name string) string {
	return func(name string) string {
		owners := map[string][]string{} // flag → the other subcommands that have it
		var names []string
		for _, k := range simKinds {
			if k != kind {
				simFlags(k, new(simOptions)).VisitAll(func(f *flag.Flag) {
					owners[f.Name], names = append(owners[f.Name], k), append(names, f.Name)
				})
			}
		}
		if ks, ok := owners[name]; ok {
			return "a flag of 2048 sim " + strings.Join(ks, " and ")
		}
		if near := suggest.Nearest(name, names); near != "" {
			return fmt.Sprintf("did you mean --%s, a flag of 2048 sim %s?", near, strings.Join(owners[near], " and "))
		}
		return ""
	}
}

// runSim runs `2048 sim SUBCOMMAND`, or the form before the subcommands:
// `2048 sim FLAGS` (runSimFlags).
func runSim(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && (!strings.HasPrefix(args[0], "-") || args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		return runSubcommand("sim", simUsage, subcommands["sim"], args, stdout, stderr)
	}
	return runSimFlags(args, stdout, stderr)
}

// runSimFlags runs `2048 sim FLAGS`, the form before the subcommands: the
// flags of all three, a tune's flags making it sim tune, a study's sim
// study, and any other sim run. It says the new form once, on stderr.
func runSimFlags(args []string, stdout, stderr io.Writer) int {
	all := flag.NewFlagSet("sim", flag.ContinueOnError)
	all.SetOutput(stderr)
	for _, k := range simKinds {
		simFlags(k, new(simOptions)).VisitAll(func(f *flag.Flag) {
			if all.Lookup(f.Name) == nil {
				all.Var(f.Value, f.Name, f.Usage)
			}
		})
	}
	all.Usage = func() { fmt.Fprint(all.Output(), simUsage) }
	if ok, code := cli.Parse(all, args, nil); !ok {
		return code
	}
	run := simFlags("run", new(simOptions))
	kind, given := "run", ""
	all.Visit(func(f *flag.Flag) { // in the order of their names: --tune first of its
		if run.Lookup(f.Name) != nil || kind == "tune" {
			return
		}
		if simFlags("tune", new(simOptions)).Lookup(f.Name) != nil {
			kind, given = "tune", " --"+f.Name
		} else if kind == "run" {
			kind, given = "study", " --"+f.Name
		}
	})
	switch {
	case given != "":
		given += " ..."
	case len(args) > 0:
		given = " FLAGS"
	}
	fmt.Fprintf(stderr, "2048 sim%s is now 2048 sim %s%s (see 2048 sim --help)\n", given, kind, given)
	return runSimKind(kind, args, stdout, stderr)
}

// runSimRun, runSimStudy and runSimTune are sim run, study and tune.
func runSimRun(args []string, stdout, stderr io.Writer) int {
	return runSimKind("run", args, stdout, stderr)
}

func runSimStudy(args []string, stdout, stderr io.Writer) int {
	return runSimKind("study", args, stdout, stderr)
}

func runSimTune(args []string, stdout, stderr io.Writer) int {
	return runSimKind("tune", args, stdout, stderr)
}

// runSimKind runs sim run, study or tune (kind) with its arguments.
func runSimKind(kind string, args []string, stdout, stderr io.Writer) int {
	// The lab makes a game's state, and a modded game's Lua state, for
	// every game, and throws it away a few hundred microseconds later: a
	// batch run that trades memory for time, as esbuild's CLI does. With
	// the collector at a fifth of its usual pace, a modded move costs about
	// a tenth less (BenchmarkModMove under GOGC=400); the heap stays a few
	// megabytes a worker. GOGC set by the user wins.
	defer simGC()()
	o := simOptions{kind: kind, policy: sim.DefaultPolicy} // a tune names its skills
	fs := simFlags(kind, &o)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), map[string]string{"run": simRunUsage, "study": simStudyUsage, "tune": simTuneUsage}[kind])
		fmt.Fprintln(fs.Output(), "\nFlags:")
		cli.PrintFlags(fs.Output(), fs, "ruleset", "difficulty", "config", "set", "mod", "mod-set")
		fmt.Fprint(fs.Output(), "\nExit status: 0 when played; 1 for a configuration, mod or file error, a\nfailsafe's stop or a stop by Ctrl-C; 2 for a usage error.\n")
	}
	if ok, code := cli.Parse(fs, args, simHint(kind)); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return cli.Fail(fs, "unexpected argument %q", fs.Arg(0))
	}
	set := map[string]bool{} // the flags given
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if err := conflictingSimFlags(set, o); err != nil {
		return cli.Fail(fs, "%s", err)
	}
	o.args = args
	if kind == "tune" && !set["games"] {
		o.games = tuning.CheckGames // the check's games on fresh seeds
	}
	if !set["games"] && !set["precision"] && o.shard == "" && kind != "tune" {
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
			return cli.Fail(fs, "--precision %v: want a half-width between 0 and 0.5 (0.05 is ±5 points)", o.precision)
		}
	}
	if o.games < 1 || o.maxTurns < 0 || o.jobs < 1 {
		return cli.Fail(fs, "--games and --jobs must be at least 1, --max-turns at least 1 (or 0, the ruleset's)")
	}
	if o.games > sim.MaxGames {
		return cli.Fail(fs, "--games %d: %v; play several runs with other --seed values instead", o.games, sim.ErrTooManyGames)
	}
	if err := checkConfigs(o); err != nil {
		return cli.Fail(fs, "%s", safe(err))
	}
	shard, shards, err := parseShard(o.shard)
	if err != nil {
		return cli.Fail(fs, "--shard: %s", safe(err))
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	o.stop = ctx.Done()
	if err := simMain(o, shard, shards, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "2048 sim %s: %s\n", kind, safe(err))
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
		rs, err := runGames(opt, o, stderr, label, nil)
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
	if o.kind == "tune" {
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

Combines the JSON reports of a run's shards ('2048 sim run --shard I/N
--json FILE') into exactly the whole run's report, and prints it. Shards
of different runs (another configuration, policy, seed, games, mods or mod
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

// conflictingSimFlags refuses what a subcommand's flags cannot ask
// together (set: those given), each with what to write instead: in sim
// study, a --policy beside the skill ladder that replaces it, and --skill
// beside --skills; in sim run, --precision or --budget beside --shard; in
// sim tune, --tune-keys beside --tune-screen, and no --tune. Each
// subcommand has only its own flags: a flag of another is unknown to it.
func conflictingSimFlags(set map[string]bool, o simOptions) error {
	switch {
	case set["policy"] && o.skill:
		return fmt.Errorf("--policy %s and --skill do not go together: --skill plays every rung of the ladder; for one player, drop --skill; for some rungs, write --skills LIST", o.policy)
	case set["policy"] && o.skills != "":
		return fmt.Errorf("--policy %s and --skills do not go together: name the player among the rungs, --skills %s,...", o.policy, o.policy)
	case o.skill && o.skills != "":
		return fmt.Errorf("--skill and --skills do not go together: --skill plays every rung, --skills %s only those", o.skills)
	case o.kind == "study" && !o.isStudy():
		return errors.New("nothing to study: name the skills (--skill, --skills LIST) or the variants (--compare, --compare-mods, --sweep, --levers, --mod)")
	case o.precision != 0 && o.shard != "":
		return errors.New("--precision and --shard do not go together: a shard plays a fixed slice of the games; give --games instead")
	case o.budget != 0 && o.shard != "":
		return errors.New("--budget and --shard do not go together: a shard plays a fixed slice of the games; give --games instead")
	case o.kind != "tune":
	case o.tune == "":
		return errors.New("want the win rates: --tune SKILL=RATE,... (greedy=0.25,expert=0.6)")
	case set["tune-keys"] && set["tune-screen"]:
		return errors.New("--tune-keys and --tune-screen do not go together: the screen chooses the levers when --tune-keys names none")
	case o.tuneScreen < 1 || o.tuneScreen > sim.MaxGames:
		return fmt.Errorf("--tune-screen %d: want a number of games from 1 to %d", o.tuneScreen, sim.MaxGames)
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
// A run of a study (whole set) counts in the study's one line instead: its
// moves with a budget, else its games done.
func runGames(opt sim.Options, o simOptions, stderr io.Writer, label string, whole *progress.Whole) ([]sim.Result, error) {
	if whole != nil {
		if opt.Budget > 0 {
			opt.Played, opt.Pending = &whole.Live, &whole.Pending
		} else {
			opt.Progress = whole.Games
		}
		if o.precision > 0 {
			return sim.RunPrecise(opt, o.precision, sim.PrecisionBatch)
		}
		return sim.Run(opt)
	}
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
