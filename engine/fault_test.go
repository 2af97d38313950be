package engine

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// tFaultGame is a seeded game whose tick hook records, on each turn, the
// faults plan gives for that turn.
func tFaultGame(t *testing.T, plan map[int][]Fault) *Game {
	t.Helper()
	g := tNew(t, NewClassic(), Options{Width: 4, Height: 4, Seed: 7, UndoLimit: -1})
	g.SetHooks(HookFuncs{OnTickFunc: func(e *TickEvent) error {
		e.Faults = append(e.Faults, plan[e.Turn]...)
		return nil
	}})
	return g
}

func TestFaultsRecordedOnTheirTurn(t *testing.T) {
	plan := map[int][]Fault{
		2: {{Hook: "a", Event: "tick", Kind: FaultError, Message: "boom", Turn: 99}},
		3: {{Hook: "a", Event: "spawn", Kind: FaultFailsafe, Message: "wall clock"}, {Hook: "b", Event: "tick", Kind: FaultError}},
		4: {{Hook: "a", Event: "tick", Kind: FaultError}, {Hook: "a", Kind: FaultDisabled, Message: "off"}},
		5: {{Hook: "a", Kind: FaultDisabled, Message: "again"}},
	}
	g := tFaultGame(t, plan)
	inARow := []int{0, 1, 2, 3, 0}
	for turn := 1; turn <= 5; turn++ {
		tPlay(t, g, 1)
		if got := g.State().HookFailedInARow("a"); got != inARow[turn-1] {
			t.Errorf("turn %d: a failed %d turns in a row, want %d", turn, got, inARow[turn-1])
		}
		if got, want := g.State().HookDisabled("a"), turn >= 4; got != want {
			t.Errorf("turn %d: a disabled %v, want %v", turn, got, want)
		}
	}
	want := []Fault{
		{Turn: 2, Hook: "a", Event: "tick", Kind: FaultError, Message: "boom"},
		{Turn: 3, Hook: "a", Event: "spawn", Kind: FaultFailsafe, Message: "wall clock"},
		{Turn: 3, Hook: "b", Event: "tick", Kind: FaultError},
		{Turn: 4, Hook: "a", Event: "tick", Kind: FaultError},
		{Turn: 4, Hook: "a", Kind: FaultDisabled, Message: "off"},
	}
	if !reflect.DeepEqual(g.State().Faults, want) {
		t.Fatalf("faults %+v\nwant %+v", g.State().Faults, want)
	}
	if g.State().HookDisabled("b") || g.State().HookFailedInARow("b") != 0 {
		t.Error("b is disabled or failing, though it failed once, two turns ago")
	}

	// Undo past the disable: the state before it has no disable; redo
	// brings it back.
	for range 2 {
		if err := g.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	if g.State().HookDisabled("a") || len(g.State().Faults) != 3 {
		t.Fatalf("after undo to turn 3: faults %+v", g.State().Faults)
	}
	if err := g.Redo(); err != nil {
		t.Fatal(err)
	}
	if !g.State().HookDisabled("a") || g.State().HookFailedInARow("a") != 3 {
		t.Fatalf("after redo to turn 4: faults %+v", g.State().Faults)
	}

	// A save keeps the record of every state; loading it gives the same game
	// and the same bytes.
	data := tMarshal(t, g)
	if !bytes.Contains(data, []byte(`"kind": "disabled"`)) {
		t.Fatalf("the save has no disable:\n%s", data)
	}
	back, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	tSameGame(t, back, g)
	if again := tMarshal(t, back); !bytes.Equal(again, data) {
		t.Fatal("a loaded save writes other bytes")
	}
}

func TestFaultsCopiedNotShared(t *testing.T) {
	g := tFaultGame(t, map[int][]Fault{1: {{Hook: "a", Kind: FaultError, Message: "x"}}})
	tPlay(t, g, 1)
	c := g.State().Clone()
	c.Faults[0].Message = "changed"
	if g.State().Faults[0].Message != "x" {
		t.Fatal("a clone shares its faults with the state")
	}
	// A later turn appends to its own copy: the earlier state in the
	// history keeps its one fault.
	g.SetHooks(HookFuncs{OnTickFunc: func(e *TickEvent) error {
		e.Faults = append(e.Faults, Fault{Hook: "b", Kind: FaultError})
		return nil
	}})
	tPlay(t, g, 3)
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	if n := len(g.State().Faults); n != 3 {
		t.Fatalf("after undo: %d faults, want 3", n)
	}
}

func TestFaultsKeepTheLatest(t *testing.T) {
	g := tNew(t, NewClassic(), Options{Width: 4, Height: 4, Seed: 3, UndoLimit: -1})
	g.SetHooks(HookFuncs{OnTickFunc: func(e *TickEvent) error {
		e.Faults = append(e.Faults, Fault{Hook: "a", Kind: FaultError}, Fault{Hook: "b", Kind: FaultError})
		if e.Turn == 1 {
			e.Faults = append(e.Faults, Fault{Hook: "c", Kind: FaultDisabled})
		}
		return nil
	}})
	played := len(tPlay(t, g, MaxFaults))
	f := g.State().Faults
	if len(f) != MaxFaults+1 {
		t.Fatalf("%d faults kept, want %d", len(f), MaxFaults+1)
	}
	if f[0].Kind != FaultDisabled || f[0].Hook != "c" || f[0].Turn != 1 {
		t.Fatalf("the disable of turn 1 was dropped: %+v", f[0])
	}
	if f[1].Turn != played-MaxFaults/2+1 || f[len(f)-1].Turn != played {
		t.Fatalf("kept turns %d to %d, want %d to %d", f[1].Turn, f[len(f)-1].Turn, played-MaxFaults/2+1, played)
	}
	if g.State().HookFailedInARow("a") != MaxFaults/2 {
		t.Fatalf("a failed %d turns in a row, want %d", g.State().HookFailedInARow("a"), MaxFaults/2)
	}
}

func TestFaultsRefusedFromHooks(t *testing.T) {
	for _, f := range []Fault{
		{Kind: FaultError},
		{Hook: "a"},
		{Hook: "a", Kind: 9},
		{Hook: "a", Kind: FaultError, Message: strings.Repeat("x", 1025)},
	} {
		g := tFaultGame(t, map[int][]Fault{1: {f}})
		before := tMarshal(t, g)
		if _, err := g.Move(Left); err == nil {
			if _, err = g.Move(Right); err == nil {
				t.Errorf("fault %+v accepted", f)
				continue
			}
		}
		if !bytes.Equal(tMarshal(t, g), before) {
			t.Errorf("fault %+v: the failed move changed the game", f)
		}
	}
}

func TestFaultsInSaves(t *testing.T) {
	g := tFaultGame(t, map[int][]Fault{2: {{Hook: "a", Event: "tick", Kind: FaultError, Message: "m"}}})
	tPlay(t, g, 3)
	data := tMarshal(t, g)
	const good = `"faults": [
      {
        "turn": 2,
        "hook": "a",
        "event": "tick",
        "kind": "error",
        "message": "m"
      }
    ]`
	if !bytes.Contains(data, []byte(good)) {
		t.Fatalf("save has no fault as expected:\n%s", data)
	}
	bad := []struct{ name, with, want string }{
		{"unknown kind", `"kind": "boom"`, `fault kind "boom"`},
		{"turn ahead", `"turn": 9`, "turn 9 is not"},
		{"turn zero", `"turn": 0`, "turn 0 is not"},
		{"no hook", `"hook": ""`, "hook is empty"},
	}
	for _, c := range bad {
		field := map[string]string{"unknown kind": `"kind": "error"`, "turn ahead": `"turn": 2`, "turn zero": `"turn": 2`, "no hook": `"hook": "a"`}[c.name]
		doc := bytes.Replace(data, []byte(good), []byte(strings.Replace(good, field, c.with, 1)), -1)
		_, err := Unmarshal(doc)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one with %q", c.name, err, c.want)
		}
	}
	// Out of turn order.
	two := strings.Replace(good, "]", `, {"turn": 1, "hook": "b", "kind": "error"}]`, 1)
	if _, err := Unmarshal(bytes.Replace(data, []byte(good), []byte(two), -1)); err == nil || !strings.Contains(err.Error(), "faults[1]") {
		t.Errorf("faults out of turn order: error %v", err)
	}
	// A save from before faults (none in it) loads and has none.
	doc := data
	for i := bytes.Index(doc, []byte(good)); i >= 0; i = bytes.Index(doc, []byte(good)) {
		j := bytes.LastIndexByte(doc[:i], ',')
		doc = append(doc[:j:j], doc[i+len(good):]...)
	}
	old, err := Unmarshal(doc)
	if err != nil {
		t.Fatalf("save without faults: %v", err)
	}
	if f := old.State().Faults; f != nil {
		t.Fatalf("faults %+v from a save without them", f)
	}
}

func TestFaultKindNames(t *testing.T) {
	for _, k := range []FaultKind{FaultError, FaultFailsafe, FaultDisabled} {
		back, err := ParseFaultKind(k.String())
		if err != nil || back != k {
			t.Errorf("%v: read back %v, %v", k, back, err)
		}
	}
	if _, err := ParseFaultKind(""); err == nil {
		t.Error("empty kind accepted")
	}
	if s := FaultKind(0).String(); s != fmt.Sprintf("FaultKind(%d)", 0) {
		t.Errorf("kind 0 writes %q", s)
	}
}
