package scripting

// The tables that cross between the host and a mod, key by key. host.go and
// api.go build and check these tables; the lists here say the same for the
// LuaLS annotation file's test (luals_test.go), and apilist_test.go runs real
// handlers in a Host to check that the lists say what the host does.

// Payloads lists, for each event, the keys of the table its handlers get.
var Payloads = map[string][]string{
	EventBeforeMove: {"dir", "turn"},
	EventAfterMerge: {"row", "col", "from", "sources", "result"},
	EventSpawn:      {"row", "col", "cell", "scripted"},
	EventTick:       {"turn", "dir", "gained", "merges", "spawns"},
}

// Requests lists, for each event, the keys of the request table its
// handlers may return.
var Requests = map[string][]string{
	EventBeforeMove: {"refuse"},
	EventAfterMerge: {"result"},
	EventSpawn:      {"cancel", "row", "col", "cell"},
	EventTick:       {"set", "mark", "unmark"},
}

// TickEntries lists the keys of the entries of a tick request's lists.
var TickEntries = map[string][]string{
	"set":    {"row", "col", "cell"},
	"mark":   {"row", "col", "name", "turns"},
	"unmark": {"row", "col", "name"},
}

// PosKeys lists the keys of a position in a payload (after_merge's from).
var PosKeys = []string{"row", "col"}

// HazardKeys lists the keys of the table game.hazard takes.
var HazardKeys = []string{"name", "glyph", "color", "blocks", "description"}

// MarkKeys lists the keys of each table game.marks returns.
var MarkKeys = []string{"row", "col", "name", "turns", "blocks"}
