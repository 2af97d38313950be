// Command tipcheck measures whether the expert's chance of a win could be
// shown to a player on cellular (the terminal's t): whether it means what
// it says. For each preset it plays -games games with a player who follows
// the tips (sim.TipPoints), and prints two reliability tables on -check-games
// fresh games (other seeds): the search's own chance, and that chance
// calibrated by an isotonic regression fitted on the first games
// (sim.FitCalibration, in steps of at least -min-positions positions).
// Each table bins the chance shown and gives its positions, their games,
// and the share of them won:
//
//	go run ./scripting/session/sim/internal/tipcheck
//
// cellular/RULES.md, "The tip", quotes its figures: no bin is within ±10
// points everywhere, so the tip shows the expert's ranking, in words.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine/ai"
	"github.com/mod2048/mod2048/scripting/session"
	"github.com/mod2048/mod2048/scripting/session/sim"
)

func main() {
	games := flag.Int("games", 400, "games a preset to fit the calibration on")
	check := flag.Int("check-games", 100, "fresh games a preset for the reliability tables")
	seed := flag.Uint64("seed", 2001, "the fit's seed (the check plays seed+1)")
	minPositions := flag.Int("min-positions", 300, "the fewest positions a step of the calibration stands for")
	presets := flag.String("presets", "early,mid,late", "the cellular presets")
	flag.Parse()
	for i, p := range strings.Split(*presets, ",") {
		points, err := play(p, *games, *seed+uint64(1000*i))
		if err != nil {
			fail(err)
		}
		knots := sim.FitCalibration(points, *minPositions)
		fresh, err := play(p, *check, *seed+1+uint64(1000*i))
		if err != nil {
			fail(err)
		}
		fmt.Printf("%s: the search's own chance, on %d fresh games\n%s\n", p, *check, sim.Reliability(fresh))
		for j := range fresh {
			fresh[j].Shown = sim.CalibratedWin(knots, fresh[j].Raw)
		}
		fmt.Printf("%s: calibrated on %d positions of %d games (steps of %d), on the same fresh games\n%s\n", p, len(points), *games, *minPositions, sim.Reliability(fresh))
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "tipcheck:", err)
	os.Exit(1)
}

// play plays games games of a preset by the tips, from seed.
func play(preset string, games int, seed uint64) ([]sim.TipPoint, error) {
	c, err := config.Preset(preset)
	if err != nil {
		return nil, err
	}
	o := sim.Options{Setup: session.Setup{Config: c}, Policy: "tips", Games: games, Seed: seed, MaxTurns: 1000}
	return sim.TipPoints(o, sim.PolicyOptions{AI: ai.Defaults()})
}
