package fuzz

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/costsearch"
)

// TestModsOwn: the errors a mod may cause pass, and the host's do not: a
// failsafe's stop in the deterministic runner is a *CostModelError,
// which modsOwn fails, as it fails an error of no mod's kind and a Go
// runtime error reported as the mod's.
func TestModsOwn(t *testing.T) {
	l := scripting.DefaultLimits()
	l.FailsafeTime = time.Millisecond // a whole budget's call passes it
	r, err := costsearch.NewRunner(l, 1)
	if err != nil {
		t.Fatal(err)
	}
	r.Deterministic = true
	res := r.RunQuick(costsearch.Files(costsearch.PeerSource))
	if cm := (*scripting.CostModelError)(nil); !errors.As(res.Err, &cm) {
		t.Fatalf("the peer past a failsafe of 1ms in a deterministic host: %v, want a *CostModelError", res.Err)
	}
	if modsOwn(res) == nil {
		t.Error("modsOwn passed a *CostModelError")
	}
	bad := Program{Main: `game.on("tick", function() local x = nil + 1 end) error("at load")`}
	res = r.RunQuick(bad.Files())
	if res.Err == nil || modsOwn(res) != nil {
		t.Errorf("a mod whose load fails: %v; modsOwn %v", res.Err, modsOwn(res))
	}
	for _, c := range []struct {
		res  costsearch.Result
		pass bool
	}{
		{costsearch.Result{}, true},
		{costsearch.Result{Err: costsearch.ErrNoLegalMove}, true},
		{costsearch.Result{Reports: []string{"exceeded its instruction budget (1000000 a call)"}}, true},
		{costsearch.Result{Reports: []string{"runtime error: index out of range [3] with length 3"}}, false},
		{costsearch.Result{Err: &scripting.ModError{Report: scripting.Report{Message: "runtime error: invalid memory address or nil pointer dereference"}}}, false},
		{costsearch.Result{Err: fmt.Errorf("costsearch: turn 1: %w", errors.New("engine: broken"))}, false},
	} {
		if err := modsOwn(c.res); (err == nil) != c.pass {
			t.Errorf("modsOwn(%+v) = %v, want pass %v", c.res, err, c.pass)
		}
	}
}

// TestHeapFilter: the heap oracle's filter lets through a program that
// holds 8 MiB (measured by the full run past HeapFloor), and keeps out an
// empty one.
func TestHeapFilter(t *testing.T) {
	s, err := state()
	if err != nil {
		t.Fatal(err)
	}
	grew := func(src string) uint64 {
		before := allocated()
		if res := s.r.RunQuick(costsearch.Files(src)); res.Err != nil {
			t.Fatal(res.Err)
		}
		return allocated() - before
	}
	const keeps = `K = {} for i = 1, 8 do K[i] = string.rep("x", 1048576) .. i end game.on("tick", function() end)`
	if g := grew(keeps); g < heapFilter {
		t.Errorf("a program that keeps 8 MiB allocated %d bytes, under the filter's %d", g, heapFilter)
	}
	if res := s.r.RunFiles(costsearch.Files(keeps)); res.Held < costsearch.HeapFloor {
		t.Errorf("a program that keeps 8 MiB held %d bytes", res.Held)
	}
	if g := grew(`game.on("tick", function() end)`); g >= heapFilter {
		t.Errorf("an empty mod allocated %d bytes, past the filter's %d", g, heapFilter)
	}
}
