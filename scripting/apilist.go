package scripting

import (
	"strings"

	"github.com/mod2048/mod2048/scripting/internal/workcount"
	"github.com/mod2048/mod2048/scripting/modapi"
)

// The tables that cross between the host and a mod, key by key, taken
// from the mod API's one description (package modapi), which also writes
// the LuaLS annotation file, the editor's completions and the guide's
// reference: the host's checks and the docs cannot disagree.
// values_payloads.go, values_requests.go and api.go build and check these
// tables; apilist_test.go runs real handlers in a Host to check that the
// description says what the host does.

// apiSpec is the mod API, built once a process.
var apiSpec = modapi.Spec()

var (
	// payloadKeys lists, for each event, the keys of the table its
	// handlers get, in the order of the payload's read mask
	// (values_payloads.go).
	payloadKeys = eventKeys(func(e modapi.Event) modapi.Class { return e.Payload })
	// requestKeys lists, for each event, the keys of the request table
	// its handlers may return.
	requestKeys = eventKeys(func(e modapi.Event) modapi.Class { return e.Request })
	// tickEntries lists the keys of the entries of a tick request's
	// lists: each list's type is its entries' class ("mod2048.SetEntry[]").
	tickEntries = entryKeys(EventTick)
	// posKeys lists the keys of a position in a payload (after_merge's
	// from).
	posKeys = classKeys("Pos", 0)
	// hazardKeys lists the keys of the table game.hazard takes;
	// hazardKeysV1 those a version-1 mod may use.
	hazardKeys   = classKeys("HazardSpec", 0)
	hazardKeysV1 = classKeys("HazardSpec", 1)
	// markKeys lists the keys of each table game.marks returns.
	markKeys = classKeys("Mark", 0)
	// apiFields lists the game table's fields other than its functions.
	apiFields = fieldNames(apiSpec.Game.Fields, 0)
)

// fieldNames returns the names of fields, those an API version-v mod
// sees when v > 0.
func fieldNames(fields []modapi.Field, v int) []string {
	var names []string
	for _, f := range fields {
		workcount.Step()
		if v == 0 || modapi.Since(f.Version) <= v {
			names = append(names, f.Name)
		}
	}
	return names
}

// classKeys returns the keys of the API's class name (as fieldNames); it
// panics, when the package initializes, for a class the API lacks.
func classKeys(name string, v int) []string {
	for _, c := range apiSpec.Classes {
		workcount.Step()
		if c.Name == name {
			return fieldNames(c.Fields, v)
		}
	}
	panic("scripting: the mod API has no class " + name)
}

func eventKeys(of func(modapi.Event) modapi.Class) map[string][]string {
	keys := make(map[string][]string, len(apiSpec.Events))
	for _, e := range apiSpec.Events {
		workcount.Step()
		keys[e.Name] = fieldNames(of(e).Fields, 0)
	}
	return keys
}

// entryKeys returns, for each list of event's request, its entries' keys.
func entryKeys(event string) map[string][]string {
	keys := map[string][]string{}
	for _, e := range apiSpec.Events {
		workcount.Step()
		if e.Name != event {
			continue
		}
		for _, f := range e.Request.Fields {
			workcount.Step()
			class := strings.TrimSuffix(strings.TrimPrefix(f.Type, "mod2048."), "[]")
			keys[f.Name] = classKeys(class, 0)
		}
	}
	return keys
}
