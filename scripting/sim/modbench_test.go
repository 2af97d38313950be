package sim

import (
	"strings"
	"testing"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine/ai"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
)

// BenchmarkChooseModded is a move's choice by each searching rung on
// classic with the bomb mod: every node of the search a modded move.
func BenchmarkChooseModded(b *testing.B) {
	c, err := config.Preset("classic")
	if err != nil {
		b.Fatal(err)
	}
	s, err := session.New(session.Setup{Config: c, Mods: []*mod.Mod{repoMod(b, "bomb")}}, session.Start{Seed: 3})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	greedy, _ := MakePolicy("greedy", PolicyOptions{})
	g, _ := greedy(3)
	for i := 0; i < 40 && !s.Status().Over(); i++ {
		s.Move(g.Choose(ViewOf(s)))
	}
	for _, k := range Ladder(PolicyOptions{AI: ai.Defaults()}) {
		if k.Policy == "random" {
			continue
		}
		mk, _ := MakePolicy(k.Policy, k.Options)
		p, _ := mk(1)
		v := ViewOf(s)
		b.Run(strings.ReplaceAll(k.Name, " ", ""), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p.Choose(v)
			}
		})
	}
}
