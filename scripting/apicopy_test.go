package scripting_test

import (
	"slices"
	"testing"

	"github.com/mod2048/mod2048/scripting"
)

// TestAPIListsAreCopies: what an embedder gets of the host's API is a copy;
// changing it changes nothing of the host's.
func TestAPIListsAreCopies(t *testing.T) {
	lists := map[string]func() []string{
		"APIFunctions": scripting.APIFunctions, "APIFields": scripting.APIFields,
		"Events": scripting.Events, "Features": scripting.Features,
		"PosKeys": scripting.PosKeys, "HazardKeys": scripting.HazardKeys, "MarkKeys": scripting.MarkKeys,
	}
	for name, list := range lists {
		before := list()
		if len(before) == 0 {
			t.Fatalf("%s is empty", name)
		}
		changed := list()
		changed[0] = "changed"
		_ = append(changed[:1], "appended")
		if after := list(); !slices.Equal(after, before) {
			t.Errorf("%s changed to %q by a change of what it returned", name, after)
		}
	}
	tables := map[string]func() map[string][]string{
		"Payloads": scripting.Payloads, "Requests": scripting.Requests, "TickEntries": scripting.TickEntries,
	}
	for name, table := range tables {
		m := table()
		for k := range m {
			m[k][0] = "changed"
			m[k] = nil
		}
		m["bogus"] = []string{"x"}
		for k, v := range table() {
			if k == "bogus" || len(v) == 0 || v[0] == "changed" {
				t.Errorf("%s changed by a change of what it returned: %s = %q", name, k, v)
			}
		}
	}
	l := scripting.DefaultLimits()
	l.HandlerInstructions = 1
	if scripting.DefaultLimits().HandlerInstructions == 1 {
		t.Error("DefaultLimits changed by a change of what it returned")
	}
}
