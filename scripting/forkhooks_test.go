package scripting_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"pgregory.net/rapid"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
)

// noisy logs, notifies and fails now and then, beside chaos: what a
// search's dry runs must keep from the game.
const noisySrc = `
game.on("tick", function(ev)
  storage.turns = (storage.turns or 0) + 1
  storage.drawn = math.random(1, 1000)
  print("turn " .. ev.turn .. " drew " .. storage.drawn)
  game.notify("turn " .. ev.turn)
  if ev.turn % 5 == 3 then error("a bad turn") end
end)
`

// TestForksLeaveNoTrace: a game whose forks are played between its moves
// (a search's dry runs of the mods' hooks) goes exactly as the game that is
// never forked: the same states, storage, logs, notices and reports; and
// the forks do run the mods.
func TestForksLeaveNoTrace(t *testing.T) {
	dir := writeMod(t, "noisy", "", map[string]string{"main.lua": noisySrc})
	manifest := "id = \"noisy\"\nname = \"Noisy\"\nversion = \"1.0.0\"\napi_version = 2\n"
	if err := os.WriteFile(filepath.Join(dir, mod.ManifestName), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	noisy, chaos := loadMod(t, dir), loadMod(t, chaosDir)
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint64().Draw(t, "seed")
		moves := drawMoves(t, 30)
		forks := rapid.SliceOfN(rapid.SliceOfN(rapid.SampledFrom(directions), 0, 4), len(moves), len(moves)).Draw(t, "forks")
		type trace struct {
			states    [][]byte
			logs      [][]string
			notices   [][]scripting.Notice
			reports   [][]scripting.Report
			forkTurns int // fork moves that made a turn
			forkData  int // of them, those whose storage differs from the game's
		}
		runOf := func(forked bool) trace {
			g := seededGame(t, seed)
			h := chaosHost(t, g, chaos, noisy)
			defer h.Close()
			var tr trace
			for i, d := range moves {
				if forked {
					// Two forks of one seed play the same moves, one after
					// the other, as a search's siblings do: each starts
					// from its own state, and they go alike.
					var first [][]byte
					for twice := 0; twice < 2; twice++ {
						f := g.Fork(uint64(i))
						for j, fd := range forks[i] {
							res, err := f.Move(fd)
							if err == nil && res.Changed && twice == 0 {
								tr.forkTurns++
								if f.State().Data["mod:noisy"] != g.State().Data["mod:noisy"] {
									tr.forkData++
								}
							}
							if twice == 0 {
								first = append(first, marshal(t, f))
							} else if b := marshal(t, f); !bytes.Equal(first[j], b) {
								t.Fatalf("move %d, fork move %d: two forks of one seed differ:\n%s\n%s", i, j, first[j], b)
							}
							f = f.Fork(uint64(j)) // forks of forks dry-run too
						}
					}
				}
				if _, err := h.Move(g, d); err != nil && !errors.As(err, new(*engine.Refusal)) {
					t.Fatalf("Move(%v): %v", d, err)
				}
				tr.states = append(tr.states, marshal(t, g))
				tr.logs = append(tr.logs, h.Log("noisy"))
				tr.notices = append(tr.notices, h.TakeNotices())
				tr.reports = append(tr.reports, h.TakeReports())
			}
			return tr
		}
		plain, forked := runOf(false), runOf(true)
		for i := range moves {
			if !bytes.Equal(plain.states[i], forked.states[i]) {
				t.Fatalf("move %d: the forks changed the game:\n%s\n%s", i, plain.states[i], forked.states[i])
			}
			if !reflect.DeepEqual(plain.logs[i], forked.logs[i]) || !reflect.DeepEqual(plain.notices[i], forked.notices[i]) || !reflect.DeepEqual(plain.reports[i], forked.reports[i]) {
				t.Fatalf("move %d: the forks changed what the player sees: logs %q / %q, notices %v / %v, reports %v / %v",
					i, plain.logs[i], forked.logs[i], plain.notices[i], forked.notices[i], plain.reports[i], forked.reports[i])
			}
		}
		if forked.forkTurns > 4 && forked.forkData == 0 {
			t.Fatalf("%d fork turns and none kept the mod's storage: the forks ran no mod", forked.forkTurns)
		}
	})
}

// TestForksDrawTheirOwnChance: a search's fork draws the mods' random
// numbers from its own random source, as it draws its spawns: played the
// move the game then plays, a fork lands the mod's pick no more often than
// chance (1 in 1000 here), where it landed every pick while it copied the
// game's stream.
func TestForksDrawTheirOwnChance(t *testing.T) {
	dir := writeMod(t, "picker", "", map[string]string{"main.lua": `
game.on("tick", function() storage.pick = game.random(1, 1000) end)`})
	picker := loadMod(t, dir)
	g := seededGame(t, 5)
	h := chaosHost(t, g, picker)
	defer h.Close()
	pick := func(s *engine.State) string {
		rec := s.Data["mod:picker"]
		if i := bytes.Index([]byte(rec), []byte(`"rng"`)); i > 0 {
			return rec[:i] // the storage, without the stream's state
		}
		return rec
	}
	moves, same := 0, 0
	for i := 0; moves < 60; i++ {
		d := legal(t, g, i)
		fork := g.Fork(uint64(i) + 1)
		if _, err := fork.Move(d); err != nil {
			t.Fatal(err)
		}
		play(t, h, g, d)
		moves++
		if pick(fork.State()) == pick(g.State()) {
			same++
		}
	}
	if same > 3 {
		t.Errorf("a fork landed the mod's pick %d times in %d moves", same, moves)
	}
}
