package bridge

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/scripting/modapi"
)

// TestLuaCompletions: the editor's completion lists every function and
// field of the game table, every feature, every event for game.on, the
// keys of every table that crosses between host and mod (hazard specs,
// requests, their entries, marks, filters, payloads), and the globals
// game, storage and require, each with its documentation.
func TestLuaCompletions(t *testing.T) {
	a := modapi.Spec()
	c := apiCompletions(a)
	labels := func(es []Completion) map[string]Completion {
		m := map[string]Completion{}
		for _, e := range es {
			if _, dup := m[e.Label]; !dup {
				m[e.Label] = e
			}
		}
		return m
	}
	game := labels(c.Members["game"])
	for _, f := range a.Functions {
		if e, ok := game[f.Name]; !ok || e.Type != "function" || e.Info == "" || e.Detail == "" {
			t.Errorf("game.%s: %+v, want a documented function", f.Name, e)
		}
	}
	for _, f := range a.Game.Fields {
		if e, ok := game[f.Name]; !ok || e.Type != "variable" || e.Info == "" {
			t.Errorf("game.%s: %+v, want a documented field", f.Name, e)
		}
	}
	if len(game) != len(a.Functions)+len(a.Game.Fields) {
		t.Errorf("game has %d members, the API %d", len(game), len(a.Functions)+len(a.Game.Fields))
	}
	if e := game["on"]; e.Detail != "game.on(event, handler, filter?)" {
		t.Errorf("game.on's signature: %q", e.Detail)
	}
	if e := game["settings"]; e.Detail != "table<string, mod2048.SettingValue>" {
		t.Errorf("game.settings' type: %q", e.Detail)
	}
	features := labels(c.Members["game.features"])
	for _, f := range a.Features.Fields {
		if e, ok := features[f.Name]; !ok || e.Info == "" || e.Type != "property" {
			t.Errorf("game.features.%s: %+v, want a documented feature", f.Name, e)
		}
	}
	events := labels(c.Strings["game.on"])
	for _, ev := range a.Events {
		if e, ok := events[ev.Name]; !ok || e.Info == "" || e.Detail != "event" {
			t.Errorf("event %s: %+v, want a documented event", ev.Name, e)
		}
	}
	if len(events) != len(a.Events) {
		t.Errorf("game.on completes %d events, the API has %d", len(events), len(a.Events))
	}
	// Every key of every table, with its doc, is there once.
	keys := map[string]Completion{}
	for _, k := range c.Keys {
		if _, dup := keys[k.Label+"\x00"+k.Info]; dup {
			t.Errorf("key %s with doc %q twice", k.Label, k.Info)
		}
		keys[k.Label+"\x00"+k.Info] = k
	}
	classes := a.Classes
	for _, e := range a.Events {
		classes = append(classes, e.Payload, e.Request)
	}
	for _, cl := range classes {
		for _, f := range cl.Fields {
			e, ok := keys[f.Name+"\x00"+f.Doc]
			if !ok || e.Info == "" || e.Type != "property" || !strings.Contains(e.Detail, "."+f.Name+": ") {
				t.Errorf("key %s.%s: %+v, want a documented key", cl.Name, f.Name, e)
			}
		}
	}
	if e := keys["on_merge\x00"+field(t, a, "HazardSpec", "on_merge").Doc]; e.Detail != "HazardSpec.on_merge: MergeRule (optional)" {
		t.Errorf("HazardSpec.on_merge's detail: %q", e.Detail)
	}
	globals := labels(c.Globals)
	for g, detail := range map[string]string{"game": "the mod API", "storage": "", "require": "require(name)"} {
		if e, ok := globals[g]; !ok || e.Info == "" || e.Detail != detail {
			t.Errorf("global %s: %+v", g, e)
		}
	}
	if len(globals) != 3 {
		t.Errorf("globals: %+v", c.Globals)
	}
	// The shape the browser's editor reads (workshop.js, editor.js).
	data, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var shape map[string]json.RawMessage
	if err := json.Unmarshal(data, &shape); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"globals", "members", "strings", "keys"} {
		if _, ok := shape[k]; !ok || len(shape) != 4 {
			t.Errorf("the JSON's keys: %s", data[:min(len(data), 200)])
		}
	}
	if !strings.Contains(string(data), `{"label":"on","type":"function","detail":"game.on(event, handler, filter?)","info":"Registers handler`) {
		t.Errorf("game.on's entry in the JSON: not in the shape the editor reads")
	}
}

func field(t *testing.T, a *modapi.API, class, name string) modapi.Field {
	t.Helper()
	for _, c := range a.Classes {
		for _, f := range c.Fields {
			if c.Name == class && f.Name == name {
				return f
			}
		}
	}
	t.Fatalf("no %s.%s", class, name)
	return modapi.Field{}
}
