// Command embed is a Go program of its own module that embeds the 2048
// modding host: TestEmbedFromFreshModule builds it against this repository
// (a replace directive) to prove that an outside module can play a modded
// game through the public API alone.
package main

import (
	"fmt"
	"os"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "embed:", err)
		os.Exit(1)
	}
}

func run(modDirs []string) error {
	cfg, err := config.Build(config.BuildOptions{Ruleset: "classic"})
	if err != nil {
		return err
	}
	var mods []*mod.Mod
	for _, dir := range modDirs {
		m, err := mod.Load(dir)
		if err != nil {
			return err
		}
		mods = append(mods, m)
	}
	setup := session.Setup{Config: cfg, Mods: mods}
	s, err := session.New(setup, session.Start{Seed: 1})
	if err != nil {
		return err
	}
	defer s.Close()
	for i := 0; s.Status() == engine.Playing && i < 50; i++ {
		for _, d := range engine.Directions {
			if s.Legal().Has(d) {
				if _, err := s.Move(d); err != nil {
					return err
				}
				break
			}
		}
	}
	fmt.Println("mods", len(s.Mods()), "reports", len(s.TakeReports()))
	fmt.Println("score", s.Score(), "turn", s.State().Turn, "marks", len(s.State().Marks))
	if err := s.Undo(); err != nil {
		return err
	}
	data, err := s.Save()
	if err != nil {
		return err
	}
	r, err := session.Resume(setup, data)
	if err != nil {
		return err
	}
	defer r.Close()
	fmt.Println("resumed score", r.Score(), "turn", r.State().Turn)
	return nil
}
