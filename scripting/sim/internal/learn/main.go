// Command learn fits the cellular evaluation of the balance lab's
// searching policies (lookahead, expert) to what wins, and writes it to
// cellular/weights.go:
//
//	go run ./scripting/sim/internal/learn
//
// It learns in two stages, both from games played on the cellular presets:
//
//  1. A start: the greedy policy plays, each position is labelled with its
//     game's outcome, and logistic regression (sim.Learn) fits the weights
//     whose σ(w · features) predicts a win from the position.
//  2. The noisy cross-entropy method (sim.CrossEntropy) moves the weights toward
//     those with which the lookahead wins most games, one and two moves
//     deep (-depths): each generation plays every candidate on the same
//     seeds (new ones each generation), and the next is drawn around the
//     best. With -start current it starts from the weights the lab has,
//     to refine them after the presets change.
//
// With -policy expert, the second stage counts the expert's wins, through
// its own search (four moves deep), and the weights are the expert's own:
//
//	go run ./scripting/sim/internal/learn -policy expert -var ExpertLearned \
//		-out cellular/expert_weights.go -start current -presets mid,late ...
//
// An evaluation fitted to what wins a two-move search can mislead a
// four-move one (cellular/RULES.md, "The expert's own weights").
//
// It prints each stage's figures, and the file it writes names the
// command, the games and the win rates the weights reached.
package main

import (
	"flag"
	"fmt"
	"go/format"
	"os"
	"strconv"
	"strings"

	"github.com/mod2048/mod2048/cellular"
	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine/ai"
	"github.com/mod2048/mod2048/scripting/session"
	"github.com/mod2048/mod2048/scripting/sim"
)

type setFlags []string

func (s *setFlags) String() string     { return strings.Join(*s, " ") }
func (s *setFlags) Set(v string) error { *s = append(*s, v); return nil }

type options struct {
	startGames, games, population, elite, generations int
	sigma, noise, l2                                  float64
	seed                                              uint64
	presets                                           []string
	sets                                              []string
	out, start, policy, name                          string
	depths                                            []int
}

func main() {
	var o options
	var presets string
	var sets setFlags
	flag.IntVar(&o.startGames, "start-games", 300, "greedy games a preset for the start's fit")
	flag.IntVar(&o.games, "games", 60, "games a preset for each candidate's fitness")
	flag.IntVar(&o.population, "population", 16, "candidates a generation")
	flag.IntVar(&o.elite, "elite", 4, "the best candidates the next generation is drawn around")
	flag.IntVar(&o.generations, "generations", 12, "generations")
	flag.Float64Var(&o.sigma, "sigma", 1, "the first generation's spread")
	flag.Float64Var(&o.noise, "noise", 0.3, "spread added to each generation's, fading to 0")
	flag.Float64Var(&o.l2, "l2", 1, "the ridge penalty of the start's fit")
	flag.Uint64Var(&o.seed, "seed", 1001, "the seed of the games and of the draws")
	flag.StringVar(&presets, "presets", "early,mid,late", "the presets to play, comma-separated")
	flag.Var(&sets, "set", "a key=value over every preset (repeatable), to learn for a variant")
	flag.StringVar(&o.out, "out", "cellular/weights.go", "the Go file to write")
	flag.StringVar(&o.start, "start", "regression", "where the search starts: \"regression\" (fitted to greedy games' outcomes) or \"current\" (the weights the lab has now, to refine them after a change of the presets)")
	depths := flag.String("depths", "1,2", "the lookahead's depths whose wins the fitness adds up, comma-separated")
	flag.StringVar(&o.policy, "policy", "lookahead", "the player whose wins the fitness counts: \"lookahead\" (at each of -depths) or \"expert\" (its default settings)")
	flag.StringVar(&o.name, "var", "Learned", "the Go variable the file declares")
	flag.Parse()
	if o.policy != "lookahead" && o.policy != "expert" {
		fmt.Fprintf(os.Stderr, "learn: -policy %q: want lookahead or expert\n", o.policy)
		os.Exit(2)
	}
	o.presets, o.sets = strings.Split(presets, ","), sets
	if o.policy == "expert" {
		*depths = strconv.Itoa(ai.Defaults().ForkDepth) // its own search's, for the figures
	}
	for _, d := range strings.Split(*depths, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(d))
		if err != nil || n < 1 || n > 4 {
			fmt.Fprintf(os.Stderr, "learn: -depths: %q is not a depth from 1 to 4\n", d)
			os.Exit(2)
		}
		o.depths = append(o.depths, n)
	}
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "learn:", err)
		os.Exit(1)
	}
}

func run(o options) error {
	var cfgs []*config.Config
	for _, p := range o.presets {
		c, err := config.Build(config.BuildOptions{Ruleset: "cellular", Difficulty: p, Sets: o.sets})
		if err != nil {
			return err
		}
		cfgs = append(cfgs, c)
	}
	// Stage 1: the start, fitted to greedy games' outcomes.
	mk, err := sim.MakePolicy("greedy", sim.PolicyOptions{})
	if err != nil {
		return err
	}
	var samples []sim.Sample
	for _, c := range cfgs {
		smp, _, err := sim.Collect(sim.Options{Setup: session.Setup{Config: c}, Policy: "greedy", Make: mk,
			Games: o.startGames, Seed: o.seed, MaxTurns: 1000})
		if err != nil {
			return err
		}
		samples = append(samples, smp...)
	}
	fit, err := sim.Learn(samples, o.l2)
	if err != nil {
		return err
	}
	var log []string
	logf := func(format string, args ...any) {
		line := fmt.Sprintf(format, args...)
		fmt.Println(line)
		log = append(log, line)
	}
	switch o.start {
	case "regression":
		logf("start: logistic regression on %d positions of %d greedy games a preset: log loss %.4f, accuracy %.1f%%",
			fit.Samples, o.startGames, fit.LogLoss, 100*fit.Accuracy)
	case "current":
		fit.W = cellular.Learned
		if o.policy == "expert" {
			fit.W = cellular.ExpertLearned
		}
		logf("start: the weights the lab had (for comparison, logistic regression on %d positions of greedy games: log loss %.4f, accuracy %.1f%%)",
			fit.Samples, fit.LogLoss, 100*fit.Accuracy)
	default:
		return fmt.Errorf("-start %q: want regression or current", o.start)
	}
	// Stage 2: the weights the lookahead wins most with, at each depth (an
	// evaluation tuned for one depth alone can mislead a deeper search).
	wins := func(w cellular.Weights, seed uint64, games, depth int) ([]int, error) {
		mk, err := sim.MakePolicy(o.policy, sim.PolicyOptions{Depth: depth, Samples: sim.DefaultSamples, AI: ai.Defaults(), Weights: w[:]})
		if err != nil {
			return nil, err
		}
		var out []int
		for _, c := range cfgs {
			rs, err := sim.Run(sim.Options{Setup: session.Setup{Config: c}, Policy: o.policy, Make: mk,
				Games: games, Seed: seed, MaxTurns: 1000})
			if err != nil {
				return nil, err
			}
			n := 0
			for _, r := range rs {
				if r.Outcome == sim.Won {
					n++
				}
			}
			out = append(out, n)
		}
		return out, nil
	}
	var failed error
	fitness := func(gen int, w cellular.Weights) float64 {
		total, played := 0, 0
		for _, depth := range o.depths {
			ws, err := wins(w, o.seed+100+uint64(gen), o.games, depth)
			if err != nil {
				failed = err
				return 0
			}
			for _, n := range ws {
				total += n
			}
			played += o.games * len(cfgs)
		}
		return float64(total) / float64(played)
	}
	w := sim.CrossEntropy(fit.W, fitness, sim.CrossEntropyOptions{Population: o.population, Elite: o.elite, Generations: o.generations,
		Sigma: o.sigma, Noise: o.noise, Seed: o.seed,
		Report: func(gen int, best, mean float64, _ cellular.Weights) {
			logf("generation %d: %s wins %.1f%% with the best candidate, %.1f%% on average", gen, player(o, 0), 100*best, 100*mean)
		}})
	if failed != nil {
		return failed
	}
	// The result, on seeds no generation played.
	check := 4 * o.games
	for _, v := range []struct {
		name    string
		weights cellular.Weights
	}{{"start", fit.W}, {"tuned", w}} {
		for _, depth := range o.depths {
			ws, err := wins(v.weights, o.seed+10_000, check, depth)
			if err != nil {
				return err
			}
			var parts []string
			for i, n := range ws {
				parts = append(parts, fmt.Sprintf("%s %.1f%%", o.presets[i], 100*float64(n)/float64(check)))
			}
			logf("%s weights: %s wins %s of %d fresh games a preset", v.name, player(o, depth), strings.Join(parts, ", "), check)
		}
	}
	var b strings.Builder
	b.WriteString("// Code generated by go run ./scripting/sim/internal/learn; DO NOT EDIT.\n\n")
	if len(os.Args) > 1 {
		fmt.Fprintf(&b, "// Its flags: %s\n\n", strings.Join(os.Args[1:], " "))
	}
	b.WriteString("package cellular\n\n")
	fmt.Fprintf(&b, "// %s are the learned weights of the cellular evaluation", o.name)
	if o.policy == "expert" {
		b.WriteString(" that the expert\n// searches with,")
	} else {
		b.WriteString(",\n//")
	}
	b.WriteString(" ")
	fmt.Fprintf(&b, "learned on the presets %s", strings.Join(o.presets, ", "))
	if len(o.sets) > 0 {
		fmt.Fprintf(&b, " with %s", strings.Join(o.sets, " "))
	}
	fmt.Fprintf(&b, " (seed %d; %d candidates a generation,\n// %d games a preset each):\n", o.seed, o.population, o.games)
	for _, l := range log {
		fmt.Fprintf(&b, "//\n//\t%s\n", l)
	}
	fmt.Fprintf(&b, "var %s = Weights{\n", o.name)
	for i, v := range w {
		fmt.Fprintf(&b, "\t%s, // %s\n", strconvG(v), cellular.FeatureNames[i])
	}
	b.WriteString("}\n")
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		return err
	}
	return os.WriteFile(o.out, src, 0o644)
}

// player names the player whose wins the fitness counts.
func player(o options, depth int) string {
	if o.policy == "expert" {
		return "the expert"
	}
	if depth == 0 {
		return "the lookahead"
	}
	return fmt.Sprintf("the lookahead (depth %d)", depth)
}

func strconvG(v float64) string { return fmt.Sprintf("%.6g", v) }
