package main

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"
	"time"

	"github.com/mod2048/mod2048/cmd/2048/internal/progress"
	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/sim"
	"github.com/mod2048/mod2048/scripting/sim/simplot"
	"github.com/mod2048/mod2048/scripting/sim/tuning"
)

// runTune is `2048 sim tune`: the lab's tune (tuning.Run) finds the
// levers' values whose win rates come nearest the targets and checks them
// on fresh seeds; this writes its report, the tuned configuration, its
// JSON and its plot.
//
// Its progress is one line for the whole tune (progress.Whole), every
// progress.Every though no candidate ends: the phase, the games played of
// those planned, and the time left for all of them.
func runTune(o simOptions, base *config.Config, mods []*mod.Mod, opts sim.PolicyOptions, stdout, stderr io.Writer) error {
	whole := progress.NewWhole(stderr, "tune", "games", 0, true, time.Now)
	if t := whole.Ticker(); t != nil {
		whole.Go(t.C, t.Stop)
	}
	rep, err := tuning.Run(tuning.Setup{
		Base: base, Build: o.build, Mods: mods, ModSets: o.modSets,
		LoadMods: func(modSets []string) ([]*mod.Mod, error) { return loadMods(o.mods, modSets, false) },
		Targets:  o.tune, Keys: o.tuneKeys, Stages: o.tuneStages,
		ScreenGames: o.tuneScreen, CheckGames: o.games, Seed: o.seed, MaxTurns: o.maxTurns, Jobs: o.jobs, Stop: o.stop,
		Limits: modLimits, Policy: opts, Log: whole.Writer(), Meter: whole, Command: "2048 sim tune " + strings.Join(o.args, " "),
	})
	whole.Stop()
	if err != nil {
		return err
	}
	if err := safeText(stdout, rep.Text); err != nil {
		return err
	}
	if o.write != "" {
		if err := os.WriteFile(o.write, rep.TOML(), 0o644); err != nil {
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
		if err := simplot.Tune(rep.Result, o.plot); err != nil {
			return err
		}
	}
	if rep.Partial {
		return errors.New("stopped: the report and the file hold the best candidate measured so far, marked partial, and no check on fresh seeds")
	}
	return nil
}
