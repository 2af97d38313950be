package sim

import (
	"fmt"
	"time"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
)

// SoakResult is what a soak counted: the moves played with the mod, its
// errors, refused directions and disables, the mean µs a move with the
// mod and without it (the one figure of a soak that depends on the
// machine), and a line for each of the first games whose mod failed.
type SoakResult struct {
	Moves, Errors, Refusals, Disables int
	WithMod, Without                  float64
	FirstErrors                       []string
}

// Soak is `2048 mod check`'s soak: games of ruleset r played by the
// random policy, seeded, at most moves turns each, with the mod and
// without it, under limits: the same games on every run, but for the
// times.
func Soak(m *mod.Mod, r string, games, moves int, limits scripting.Limits) (SoakResult, error) {
	var res SoakResult
	c, err := config.Default(r)
	if err != nil {
		return res, err
	}
	random, err := MakePolicy("random", PolicyOptions{})
	if err != nil {
		return res, err
	}
	var micros [2]float64
	for i, mods := range [][]*mod.Mod{{m}, nil} {
		start := time.Now()
		rs, err := Run(Options{Setup: session.Setup{Config: c, Mods: mods, Limits: limits}, Make: random, Games: games, Seed: 1, MaxTurns: moves, Jobs: 1})
		if err != nil {
			return res, err
		}
		spent := time.Since(start)
		turns := 0
		for _, g := range rs {
			turns += g.Turns
			if i > 0 {
				continue
			}
			res.Refusals += g.Refused
			for _, ms := range g.Mods {
				res.Errors += ms.Errors
				res.Disables += ms.Disables
			}
		}
		if i == 0 {
			res.Moves = turns
			res.FirstErrors = firstModErrors(rs)
		}
		micros[i] = float64(spent.Microseconds()) / float64(max(turns, 1))
	}
	res.WithMod, res.Without = micros[0], micros[1]
	return res, nil
}

// firstModErrors is a line for each of the first three games whose mod
// failed: where to look.
func firstModErrors(rs []Result) []string {
	var out []string
	for _, g := range rs {
		for _, m := range g.Mods {
			if m.Errors > 0 && len(out) < 3 {
				out = append(out, fmt.Sprintf("seed %d: %d errors, the first: %s", g.Seed, m.Errors, m.FirstError))
			}
		}
	}
	return out
}
