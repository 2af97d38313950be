package scripting_test

import (
	"testing"

	"github.com/mod2048/mod2048/scripting"
)

// TestLuaCompletions: the editor's completion lists every function and
// field of the game table, every event for game.on, the keys of hazard
// specs, requests, marks and payloads, and the globals storage and
// require, each with its documentation.
func TestLuaCompletions(t *testing.T) {
	c := scripting.LuaCompletions()
	labels := func(es []scripting.Completion) map[string]scripting.Completion {
		m := map[string]scripting.Completion{}
		for _, e := range es {
			if _, dup := m[e.Label]; !dup {
				m[e.Label] = e
			}
		}
		return m
	}
	game := labels(c.Members["game"])
	for _, f := range scripting.APIFunctions() {
		e, ok := game[f]
		if !ok || e.Type != "function" || e.Info == "" || e.Detail == "" {
			t.Errorf("game.%s: %+v, want a documented function", f, e)
		}
	}
	for _, f := range scripting.APIFields() {
		if e, ok := game[f]; !ok || e.Info == "" {
			t.Errorf("game.%s: %+v, want a documented field", f, e)
		}
	}
	if len(game) != len(scripting.APIFunctions())+len(scripting.APIFields()) {
		t.Errorf("game has %d members, the host %d", len(game), len(scripting.APIFunctions())+len(scripting.APIFields()))
	}
	if e := game["on"]; e.Detail != "game.on(event, handler, filter?)" {
		t.Errorf("game.on's signature: %q", e.Detail)
	}
	events := labels(c.Strings["game.on"])
	for _, ev := range scripting.Events() {
		if e, ok := events[ev]; !ok || e.Info == "" {
			t.Errorf("event %s: %+v, want a documented event", ev, e)
		}
	}
	if len(events) != len(scripting.Events()) {
		t.Errorf("game.on completes %d events, the host has %d", len(events), len(scripting.Events()))
	}
	keys := labels(c.Keys)
	var want []string
	want = append(want, scripting.HazardKeys()...)
	want = append(want, scripting.MarkKeys()...)
	for _, ks := range scripting.Requests() {
		want = append(want, ks...)
	}
	for _, ks := range scripting.Payloads() {
		want = append(want, ks...)
	}
	for _, ks := range scripting.TickEntries() {
		want = append(want, ks...)
	}
	for _, k := range want {
		if e, ok := keys[k]; !ok || e.Info == "" {
			t.Errorf("key %s: %+v, want a documented key", k, e)
		}
	}
	globals := labels(c.Globals)
	for _, g := range []string{"game", "storage", "require"} {
		if _, ok := globals[g]; !ok {
			t.Errorf("no global %s", g)
		}
	}
}
