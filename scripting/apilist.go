package scripting

import (
	"github.com/mod2048/mod2048/scripting/internal/workcount"
	"slices"
)

// The tables that cross between the host and a mod, key by key.
// values_payloads.go, values_requests.go and api.go build and check these tables; the lists here say the same for the
// LuaLS annotation file's test (luals_test.go), and apilist_test.go runs real
// handlers in a Host to check that the lists say what the host does.

// payloadKeys lists, for each event, the keys of the table its handlers get.
var payloadKeys = map[string][]string{
	EventBeforeMove: {"dir", "turn"},
	EventAfterMerge: {"row", "col", "from", "sources", "result"},
	EventSpawn:      {"row", "col", "cell", "scripted"},
	EventTick:       {"turn", "dir", "gained", "merges", "spawns", "moves", "merged"},
	EventStart:      {"turn"},
	EventExpire:     {"turn", "row", "col", "name", "count"},
}

// requestKeys lists, for each event, the keys of the request table its
// handlers may return.
var requestKeys = map[string][]string{
	EventBeforeMove: {"refuse"},
	EventAfterMerge: {"result"},
	EventSpawn:      {"cancel", "row", "col", "cell"},
	EventTick:       {"set", "mark", "unmark"},
	EventStart:      {"set", "mark", "unmark"},
	EventExpire:     {"set", "mark", "unmark"},
}

// tickEntries lists the keys of the entries of a tick request's lists.
var tickEntries = map[string][]string{
	"set":    {"row", "col", "cell"},
	"mark":   {"row", "col", "name", "turns", "count"},
	"unmark": {"row", "col", "name"},
}

// posKeys lists the keys of a position in a payload (after_merge's from).
var posKeys = []string{"row", "col"}

// hazardKeys lists the keys of the table game.hazard takes; hazardKeysV1
// those a version-1 mod may use.
var (
	hazardKeys   = []string{"name", "glyph", "color", "blocks", "description", "follow", "on_merge", "counter"}
	hazardKeysV1 = hazardKeys[:5]
)

// markKeys lists the keys of each table game.marks returns.
var markKeys = []string{"row", "col", "name", "turns", "blocks", "count"}

// The lists, for embedders and tools (the LuaLS annotations, docs): each
// call returns a fresh copy, so no caller can change the host's API.

// APIFunctions returns the functions of the game table.
func APIFunctions() []string { return slices.Clone(apiFunctions) }

// APIFields returns the other fields of the game table.
func APIFields() []string { return slices.Clone(apiFields) }

// Events returns the events a mod can handle, in the order a turn meets
// them.
func Events() []string { return slices.Clone(eventNames) }

// featureNames lists what this host offers, for mods that check before they use
// something (as Luanti's core.features): game.features in Lua.
var featureNames = []string{"hooks", "markers", "storage", "random", "settings", "require", "log", "motions", "start", "follow", "counters", "expire", "notify", "cells", "edits"}

// featuresV2 are the features of API version 2: a version-1 mod does not
// see them.
var featuresV2 = []string{"motions", "start", "follow", "counters", "expire", "notify", "cells", "edits"}

// Features returns what this host offers a mod (game.features in Lua).
func Features() []string { return slices.Clone(featureNames) }

// Payloads returns, for each event, the keys of the table its handlers get.
func Payloads() map[string][]string { return cloneKeys(payloadKeys) }

// Requests returns, for each event, the keys of the request table its
// handlers may return.
func Requests() map[string][]string { return cloneKeys(requestKeys) }

// TickEntries returns the keys of the entries of a tick request's lists.
func TickEntries() map[string][]string { return cloneKeys(tickEntries) }

// PosKeys returns the keys of a position in a payload (after_merge's from).
func PosKeys() []string { return slices.Clone(posKeys) }

// HazardKeys returns the keys of the table game.hazard takes.
func HazardKeys() []string { return slices.Clone(hazardKeys) }

// MarkKeys returns the keys of each table game.marks returns.
func MarkKeys() []string { return slices.Clone(markKeys) }

func cloneKeys(m map[string][]string) map[string][]string {
	out := make(map[string][]string, len(m))
	for k, v := range m {
		workcount.Step()
		out[k] = slices.Clone(v)
	}
	return out
}
