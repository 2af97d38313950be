// Package modapi describes the mod API of the 2048 modding host once, as
// a table: its types, the game table's fields and functions, the events
// with their payloads and requests, the features and the API version each
// came in. The host (package scripting) takes its lists of keys from it;
// the LuaLS annotation file (LuaLS), the editor's completions and the
// guide's reference are written from it, so none of them can disagree.
package modapi

import (
	"fmt"

	"github.com/mod2048/mod2048/scripting/mod"
)

// API is the mod API. Types are written as LuaLS writes them, the API's
// own with the prefix "mod2048." ("mod2048.Cell", "integer",
// "mod2048.Pos[]").
type API struct {
	Version   int     // the newest API version the host offers
	Aliases   []Alias // the named types: enums and unions
	Classes   []Class // the tables a mod gives or gets, besides the events', game and game.features
	Events    []Event // in the host's order (scripting's eventNames)
	Features  Class   // game.features: each field a feature, true
	Game      Class   // game's fields, its functions apart
	Functions []Func  // game's functions
	Globals   []Field // the global tables besides game (storage)
	// GlobalFuncs are the global functions the host adds (require).
	GlobalFuncs []Func
}

// Alias is a named type: a union of types (Type) or an enum of strings
// (Values).
type Alias struct {
	Name, Doc string
	Type      string
	Values    []Value
}

// Value is one string of an enum, with what it means ("" when its name
// says it).
type Value struct {
	Value, Doc string
}

// Class is a table with named fields.
type Class struct {
	Name, Doc string
	Fields    []Field
}

// Field is a key of a table. Version is the API version it came in: 0 or
// 1 for the first, 2 for one a version-1 mod does not see (its Doc says
// "API version 2", TestVersionsDocumented).
type Field struct {
	Name, Type string
	Optional   bool
	Version    int
	Doc        string
}

// Event is an event a mod handles with game.on: the table its handlers
// get (Payload) and the one they may return (Request). Filter is the
// type of game.on's third argument for it, "" when it takes none.
type Event struct {
	Name    string
	Version int
	Doc     string
	Filter  string
	Payload Class
	Request Class
}

// Func is a function. Version is the API version it came in, as a
// Field's. Overloads are LuaLS's ---@overload types.
type Func struct {
	Name      string
	Version   int
	Doc       string
	Params    []Param
	Returns   []Param
	Overloads []string
}

// Param is a parameter or a result of a function ("..." for varargs).
type Param struct {
	Name, Type string
	Optional   bool
	Doc        string
}

// Since returns the API version a Field, Func or Event came in: 1 for
// Version 0.
func Since(version int) int { return max(version, 1) }

// eventValues is the enum of the events' names, for the alias Event.
func eventValues(events []Event) []Value {
	var vs []Value
	for _, e := range events {
		vs = append(vs, Value{e.Name, e.Doc})
	}
	return vs
}

// onOverloads are game.on's overloads: one per event, typing its
// handler's payload and request (and its filter).
func onOverloads(events []Event) []string {
	var os []string
	for _, e := range events {
		filter := ""
		if e.Filter != "" {
			filter = ", filter?: " + e.Filter
		}
		os = append(os, fmt.Sprintf("fun(event: %q, handler: fun(ev: mod2048.%s): mod2048.%s?%s)", e.Name, e.Payload.Name, e.Request.Name, filter))
	}
	return os
}

// Spec returns the mod API. Each call builds a new table, so no caller
// can change what another reads.
func Spec() *API {
	events := []Event{
		{
			Name: "before_move",
			Doc:  "before a move is played; may refuse it",
			Payload: Class{
				Name: "BeforeMoveEvent",
				Doc:  "The payload of before_move: a move is about to be played.",
				Fields: []Field{
					{Name: "dir", Type: "mod2048.Direction", Doc: "the move's direction"},
					{Name: "turn", Type: "integer", Doc: "the number of the turn the move would be, from 1 (game.turn() + 1)"},
				},
			},
			Request: Class{
				Name: "BeforeMoveRequest",
				Doc:  "What a before_move handler may return.",
				Fields: []Field{
					{Name: "refuse", Type: "string", Optional: true, Doc: "refuses the move, with a reason of 1 to 200 bytes; the player sees \"<mod name>: <reason>\""},
				},
			},
		},
		{
			Name: "after_merge",
			Doc:  "after each merge of the move; may change the merge's result",
			Payload: Class{
				Name: "AfterMergeEvent",
				Doc:  "The payload of after_merge: two cells merged.",
				Fields: []Field{
					{Name: "row", Type: "integer", Doc: "the row where the result stands"},
					{Name: "col", Type: "integer", Doc: "the column where the result stands"},
					{Name: "from", Type: "mod2048.Pos[]", Doc: "where the two cells stood: from[1] nearer the edge the move goes toward, then from[2]"},
					{Name: "sources", Type: "mod2048.Cell[]", Doc: "the two cells that merged, in the order of from"},
					{Name: "result", Type: "mod2048.Cell", Doc: "the merge's result, as the rules made it"},
				},
			},
			Request: Class{
				Name: "AfterMergeRequest",
				Doc:  "What an after_merge handler may return.",
				Fields: []Field{
					{Name: "result", Type: "mod2048.Cell", Optional: true, Doc: "replaces the merge's result (not with an empty cell); the score counts the result that stands"},
				},
			},
		},
		{
			Name:   "spawn",
			Doc:    "before each new cell is placed; may move, change or cancel it",
			Filter: "mod2048.SpawnFilter",
			Payload: Class{
				Name: "SpawnEvent",
				Doc:  "The payload of spawn: a new cell is about to be placed.",
				Fields: []Field{
					{Name: "row", Type: "integer", Doc: "the row it would be placed at"},
					{Name: "col", Type: "integer", Doc: "the column it would be placed at"},
					{Name: "cell", Type: "mod2048.Cell", Doc: "the cell that would be placed"},
					{Name: "scripted", Type: "boolean", Doc: "true when it comes from the spawn queue (a fixture's SpawnScript), false when drawn at random"},
				},
			},
			Request: Class{
				Name: "SpawnRequest",
				Doc:  "What a spawn handler may return: cancel, or any of row, col and cell.",
				Fields: []Field{
					{Name: "cancel", Type: "boolean", Optional: true, Doc: "true places nothing; later mods' spawn handlers are not called"},
					{Name: "row", Type: "integer", Optional: true, Doc: "moves the spawn to this row (the new cell must be empty and not blocked)"},
					{Name: "col", Type: "integer", Optional: true, Doc: "moves the spawn to this column"},
					{Name: "cell", Type: "mod2048.Cell", Optional: true, Doc: "places this cell instead (one the ruleset can spawn)"},
				},
			},
		},
		{
			Name:   "tick",
			Doc:    "once per finished turn; may set cells, and set or remove marks",
			Filter: "mod2048.TickFilter",
			Payload: Class{
				Name: "TickEvent",
				Doc:  "The payload of tick: a turn has finished, its spawns included.",
				Fields: []Field{
					{Name: "turn", Type: "integer", Doc: "the number of the turn just finished, from 1 (game.turn() gives the same)"},
					{Name: "dir", Type: "mod2048.Direction", Doc: "the turn's direction"},
					{Name: "gained", Type: "string", Doc: "the score the turn gained, as a string (\"12\", or \"12.25\" in cellular)"},
					{Name: "merges", Type: "integer", Doc: "how many merges the turn made"},
					{Name: "spawns", Type: "integer", Doc: "how many cells the turn spawned"},
					{Name: "moves", Type: "mod2048.Motion[]", Version: 2, Doc: "API version 2 (absent for a version-1 mod): where each tile went this turn (the two tiles of a merge both go into its cell)"},
					{Name: "merged", Type: "mod2048.MergeMotion[]", Version: 2, Doc: "API version 2 (absent for a version-1 mod): each merge of the turn, with the cells of the two tiles it was made from"},
				},
			},
			Request: Class{
				Name: "TickRequest",
				Doc:  "What a tick handler may return: lists of edits, applied in this order (set, then mark, then unmark) after the handler returns.",
				Fields: []Field{
					{Name: "set", Type: "mod2048.SetEntry[]", Optional: true, Doc: "cells to put on the board"},
					{Name: "mark", Type: "mod2048.MarkEntry[]", Optional: true, Doc: "marks to set (replacing the same hazard's mark on that cell)"},
					{Name: "unmark", Type: "mod2048.UnmarkEntry[]", Optional: true, Doc: "marks to remove"},
				},
			},
		},
		{
			Name:    "start",
			Version: 2,
			Doc:     "API version 2: once when a new game begins; may set cells, and set or remove marks",
			Payload: Class{
				Name: "StartEvent",
				Doc:  "The payload of start (API version 2): a new game begins, before its first turn, its initial spawns placed.",
				Fields: []Field{
					{Name: "turn", Type: "integer", Doc: "0"},
				},
			},
			Request: Class{
				Name: "StartRequest",
				Doc:  "What a start handler may return: the lists a tick request takes, applied to the game's first state.",
				Fields: []Field{
					{Name: "set", Type: "mod2048.SetEntry[]", Optional: true, Doc: "cells to put on the board"},
					{Name: "mark", Type: "mod2048.MarkEntry[]", Optional: true, Doc: "marks to set"},
					{Name: "unmark", Type: "mod2048.UnmarkEntry[]", Optional: true, Doc: "marks to remove"},
				},
			},
		},
		{
			Name:    "expire",
			Version: 2,
			Doc:     "API version 2: once for each of this mod's marks whose turns ran out this turn, before tick; may answer as tick",
			Payload: Class{
				Name: "ExpireEvent",
				Doc:  "The payload of expire (API version 2): one of this mod's marks whose turns ran out this turn. The mark is off the board already.",
				Fields: []Field{
					{Name: "turn", Type: "integer", Doc: "the number of the turn just finished, from 1"},
					{Name: "row", Type: "integer", Doc: "the mark's row, from 0 (where it stood when it went)"},
					{Name: "col", Type: "integer", Doc: "the mark's column, from 0"},
					{Name: "name", Type: "string", Doc: "the hazard's full name, \"modid:name\""},
					{Name: "count", Type: "integer", Doc: "the mark's count"},
				},
			},
			Request: Class{
				Name: "ExpireRequest",
				Doc:  "What an expire handler may return: the lists a tick request takes.",
				Fields: []Field{
					{Name: "set", Type: "mod2048.SetEntry[]", Optional: true, Doc: "cells to put on the board"},
					{Name: "mark", Type: "mod2048.MarkEntry[]", Optional: true, Doc: "marks to set"},
					{Name: "unmark", Type: "mod2048.UnmarkEntry[]", Optional: true, Doc: "marks to remove"},
				},
			},
		},
	}
	return &API{
		Version: mod.APIVersion,
		Aliases: []Alias{
			{
				Name: "Cell",
				Doc:  "A cell's content, as the ruleset writes it. Classic: a tile's value as a number, 0 for an empty cell (2, 4, 8, ...). Cellular: the notation of cellular/RULES.md as a string: \".\" empty, \"a3\" alive with energy 3, \"a1/2\" alive (energy 1) with 2 turns without a merge, \"d2\" dormant, \"C\" a catalyst, \"a2+C\" an occupant on a catalyst, \"B\" or \"B2\" active blight, \"b\" or \"b2\" incoming blight. A request may give a cell as a number or as a notation string.",
				Type: "number|string",
			},
			{
				Name: "Direction",
				Doc:  "A move's direction, in lower case.",
				Values: []Value{
					{"left", ""},
					{"right", ""},
					{"up", ""},
					{"down", ""},
				},
			},
			{
				Name: "Status",
				Doc:  "A game's status, as game.status() returns it.",
				Values: []Value{
					{"Playing", "the game goes on"},
					{"Won", "a win stopped the game, until the player keeps going"},
					{"Won (continue)", "won, and play goes on"},
					{"Lost", "no move is left (cellular: or no alive cell)"},
				},
			},
			{
				Name: "Ruleset",
				Doc:  "The rulesets a game can use.",
				Values: []Value{
					{"classic", "classic 2048: cells are numbers"},
					{"cellular", "Cellular 2048: cells are notation strings"},
				},
			},
			{
				Name:   "Event",
				Doc:    "The events a mod can handle with game.on.",
				Values: eventValues(events),
			},
			{
				Name: "ColorName",
				Doc:  "The color names a hazard may use.",
				Values: []Value{
					{"black", ""},
					{"red", ""},
					{"green", ""},
					{"yellow", ""},
					{"blue", ""},
					{"magenta", ""},
					{"cyan", ""},
					{"white", ""},
					{"gray", ""},
					{"orange", ""},
					{"purple", ""},
					{"brown", ""},
				},
			},
			{
				Name: "Color",
				Doc:  "A hazard's color: a color name, or \"#rrggbb\".",
				Type: "mod2048.ColorName|string",
			},
			{
				Name: "SettingValue",
				Doc:  "A setting's value: as mod.toml declares it, an int, a number, a bool or a string.",
				Type: "integer|number|boolean|string",
			},
			{
				Name: "Counter",
				Doc:  "The number a hazard's marks show in place of its glyph.",
				Values: []Value{
					{"turns", "the turns the mark has left"},
					{"count", "the count the mod keeps on the mark (a mark request's count)"},
				},
			},
			{
				Name: "MergeRule",
				Doc:  "What a merge does to the follow marks of its two tiles.",
				Values: []Value{
					{"keep", "the merged tile carries the mark (the front tile's, when both had one)"},
					{"drop", "the merge takes the mark away"},
					{"spread", "the merged tile carries it, and so does every tile next to it (up, down, left, right)"},
				},
			},
		},
		Classes: []Class{
			{
				Name: "Pos",
				Doc:  "A cell's position on the board.",
				Fields: []Field{
					{Name: "row", Type: "integer", Doc: "the row, from 0 at the top"},
					{Name: "col", Type: "integer", Doc: "the column, from 0 at the left"},
				},
			},
			{
				Name: "HazardSpec",
				Doc:  "The table game.hazard takes.",
				Fields: []Field{
					{Name: "name", Type: "string", Doc: "the hazard's name: lower-case letters, digits and _, from a letter, at most 32; its full name is \"modid:name\""},
					{Name: "glyph", Type: "string", Doc: "the one character the board shows on a marked cell"},
					{Name: "color", Type: "mod2048.Color", Optional: true, Doc: "the glyph's color: a color name or \"#rrggbb\""},
					{Name: "blocks", Type: "boolean", Optional: true, Doc: "true makes marked cells walls: an empty one takes no tile and no spawn, a tile on one neither moves nor merges; default false"},
					{Name: "description", Type: "string", Optional: true, Doc: "what the hazard does, for the player (at most 200 bytes)"},
					{Name: "follow", Type: "boolean", Optional: true, Version: 2, Doc: "API version 2: true binds each mark to the tile on its cell: it moves with the tile and goes when the tile goes; default false"},
					{Name: "on_merge", Type: "mod2048.MergeRule", Optional: true, Version: 2, Doc: "API version 2, with follow: what a merge does to the marks of its two tiles; default \"keep\""},
					{Name: "counter", Type: "mod2048.Counter", Optional: true, Version: 2, Doc: "API version 2: the number a marked cell shows in place of the glyph; default none"},
				},
			},
			{
				Name: "Mark",
				Doc:  "A mark on a cell, as game.marks returns it.",
				Fields: []Field{
					{Name: "row", Type: "integer", Doc: "the marked cell's row, from 0"},
					{Name: "col", Type: "integer", Doc: "the marked cell's column, from 0"},
					{Name: "name", Type: "string", Doc: "the hazard's full name, \"modid:name\""},
					{Name: "turns", Type: "integer", Doc: "turns left before the mark goes; 0: it stays until removed"},
					{Name: "blocks", Type: "boolean", Doc: "whether the mark makes its cell a wall"},
					{Name: "count", Type: "integer", Doc: "the count the mod keeps on the mark (0 unless it set one)"},
				},
			},
			{
				Name: "Motion",
				Doc:  "A tile's motion in a turn (API version 2): cells before and after.",
				Fields: []Field{
					{Name: "from", Type: "mod2048.Pos", Doc: "where the tile stood before the move"},
					{Name: "to", Type: "mod2048.Pos", Doc: "where it stands after the move"},
				},
			},
			{
				Name: "MergeMotion",
				Doc:  "A merge of a turn (API version 2).",
				Fields: []Field{
					{Name: "into", Type: "mod2048.Pos", Doc: "the cell the result stands on"},
					{Name: "from", Type: "mod2048.Pos[]", Doc: "the cells, before the move, of the two tiles merged (the one nearer the edge first)"},
				},
			},
			{
				Name: "SetEntry",
				Doc:  "One entry of a tick request's set list.",
				Fields: []Field{
					{Name: "row", Type: "integer", Doc: "the cell's row, from 0"},
					{Name: "col", Type: "integer", Doc: "the cell's column, from 0"},
					{Name: "cell", Type: "mod2048.Cell", Doc: "what to put there (0 or \".\" empties the cell)"},
				},
			},
			{
				Name: "MarkEntry",
				Doc:  "One entry of a tick request's mark list.",
				Fields: []Field{
					{Name: "row", Type: "integer", Doc: "the cell's row, from 0"},
					{Name: "col", Type: "integer", Doc: "the cell's column, from 0"},
					{Name: "name", Type: "string", Doc: "one of this mod's hazards: \"name\" or its full \"modid:name\" (what game.hazard returned)"},
					{Name: "turns", Type: "integer", Optional: true, Doc: "0 or absent: until removed; N: the mark goes after N more turns (at most 1000000), and the expire event tells the mod"},
					{Name: "count", Type: "integer", Optional: true, Doc: "a number the mod keeps on the mark, 0 to 999999 (a hazard with counter = \"count\" shows it)"},
				},
			},
			{
				Name: "UnmarkEntry",
				Doc:  "One entry of a tick request's unmark list.",
				Fields: []Field{
					{Name: "row", Type: "integer", Doc: "the cell's row, from 0"},
					{Name: "col", Type: "integer", Doc: "the cell's column, from 0"},
					{Name: "name", Type: "string", Doc: "one of this mod's hazards: \"name\" or \"modid:name\""},
				},
			},
			{
				Name: "SpawnFilter",
				Doc:  "A spawn handler's filter (API version 2): the host runs the handler only for the spawns that pass it.",
				Fields: []Field{
					{Name: "near", Type: "string", Doc: "the spawn's cell is next to (above, below, left or right of) a mark of this mod's hazard (\"name\" or \"modid:name\"), defined before"},
				},
			},
			{
				Name: "TickFilter",
				Doc:  "A tick handler's filter (API version 2): the host runs the handler only after the turns it passes, as Factorio's on_nth_tick.",
				Fields: []Field{
					{Name: "every", Type: "integer", Doc: "the handler runs after turns every, 2 × every, ... (1 to 1000000)"},
				},
			},
			{
				Name: "CellsFilter",
				Doc:  "The filters game.cells takes (API version 2); a cell must pass every one given.",
				Fields: []Field{
					{Name: "cell", Type: "string", Optional: true, Doc: "a Lua pattern the cell's text matches, as string.find finds it (\"^%.$\": empty cellular cell; \"^a\": alive)"},
					{Name: "marked", Type: "boolean", Optional: true, Doc: "true: the cell carries a mark, any mod's; false: none"},
					{Name: "hazard", Type: "string", Optional: true, Doc: "the cell carries a mark of this mod's hazard (\"name\" or \"modid:name\")"},
					{Name: "without", Type: "string", Optional: true, Doc: "the cell carries no mark of this mod's hazard"},
				},
			},
		},
		Events: events,
		Features: Class{
			Name: "Features",
			Doc:  "What game.features tells: each feature this host offers is true.",
			Fields: []Field{
				{Name: "hooks", Type: "boolean", Doc: "game.on and the four events"},
				{Name: "markers", Type: "boolean", Doc: "game.hazard, game.marks and the mark and unmark requests"},
				{Name: "storage", Type: "boolean", Doc: "the storage table, saved with the game and restored by undo"},
				{Name: "random", Type: "boolean", Doc: "game.random and math.random, deterministic per mod"},
				{Name: "settings", Type: "boolean", Doc: "game.settings, from mod.toml's [settings.NAME]"},
				{Name: "require", Type: "boolean", Doc: "require(name) of the mod's own Lua files"},
				{Name: "log", Type: "boolean", Doc: "game.log and print, to the mod's log"},
				{Name: "motions", Type: "boolean", Optional: true, Version: 2, Doc: "API version 2: the tick payload's moves and merged"},
				{Name: "start", Type: "boolean", Optional: true, Version: 2, Doc: "API version 2: the start event, when a new game begins"},
				{Name: "follow", Type: "boolean", Optional: true, Version: 2, Doc: "API version 2: game.hazard's follow and on_merge, marks that move with their tiles"},
				{Name: "counters", Type: "boolean", Optional: true, Version: 2, Doc: "API version 2: game.hazard's counter, a mark's count"},
				{Name: "expire", Type: "boolean", Optional: true, Version: 2, Doc: "API version 2: the expire event"},
				{Name: "notify", Type: "boolean", Optional: true, Version: 2, Doc: "API version 2: game.notify"},
				{Name: "cells", Type: "boolean", Optional: true, Version: 2, Doc: "API version 2: game.cells, the board's cells that pass filters"},
				{Name: "edits", Type: "boolean", Optional: true, Version: 2, Doc: "API version 2: game.set, game.mark and game.unmark, a handler's requests as calls, and game.on's filters"},
			},
		},
		Game: Class{
			Name: "Game",
			Doc:  "The mod API: the game table.",
			Fields: []Field{
				{Name: "api_version", Type: "integer", Doc: "the version of the mod API the mod was written for: its mod.toml's api_version"},
				{Name: "features", Type: "mod2048.Features", Doc: "the features this host offers, each true"},
				{Name: "mod_id", Type: "string", Doc: "this mod's id, from mod.toml"},
				{Name: "ruleset", Type: "mod2048.Ruleset", Doc: "the game's ruleset"},
				{Name: "width", Type: "integer", Doc: "the board's width: columns 0 to width-1"},
				{Name: "height", Type: "integer", Doc: "the board's height: rows 0 to height-1"},
				{Name: "settings", Type: "table<string, mod2048.SettingValue>", Doc: "this mod's settings, by name, from mod.toml's [settings.NAME]"},
			},
		},
		Functions: []Func{
			{
				Name: "on",
				Doc:  "Registers handler for event. Only while the mod loads (at the top level of its files); at most 64 handlers per event. A handler gets a fresh table (the event's payload) and returns nothing or a request table; a request with an unknown key, a value of the wrong type, NaN or a position off the board is an error of the mod. A spawn or tick handler may take a filter (API version 2): a spawn handler's {near = NAME} runs it only for a spawn next to a mark of this mod's hazard NAME; a tick handler's {every = N} only after the turns N divides.",
				Params: []Param{
					{Name: "event", Type: "mod2048.Event", Doc: "the event's name"},
					{Name: "handler", Type: "fun(ev: table): table?", Doc: "called with the payload; returns nothing or a request"},
					{Name: "filter", Type: "mod2048.SpawnFilter|mod2048.TickFilter", Optional: true, Doc: "spawn and tick only: the events the handler runs for"},
				},
				Overloads: onOverloads(events),
			},
			{
				Name: "hazard",
				Doc:  "Defines a hazard, a kind of mark this mod puts on cells with a tick request. Only while the mod loads. Returns its full name, \"modid:name\".",
				Params: []Param{
					{Name: "spec", Type: "mod2048.HazardSpec", Doc: "name, glyph, and optional color, blocks and description"},
				},
				Returns: []Param{
					{Name: "name", Type: "string", Doc: "the hazard's full name, \"modid:name\""},
				},
			},
			{
				Name: "cell",
				Doc:  "Returns the cell at row and col (both from 0) of the game as it stands: in after_merge and spawn, the board the move has built so far. Classic: a number (0 for empty); cellular: a notation string (\".\" for empty). An error off the board. Only in event handlers.",
				Params: []Param{
					{Name: "row", Type: "integer", Doc: "the row, from 0 at the top"},
					{Name: "col", Type: "integer", Doc: "the column, from 0 at the left"},
				},
				Returns: []Param{
					{Name: "cell", Type: "mod2048.Cell", Doc: "the cell's content"},
				},
			},
			{
				Name: "marks",
				Doc:  "Returns the marks on the board, with row and col the marks on that cell, or with {hazard = NAME} the marks of one of this mod's hazards (\"name\" or \"modid:name\"), as a list of {row=, col=, name=, turns=, blocks=, count=}. Only in event handlers.",
				Params: []Param{
					{Name: "row", Type: "integer|{hazard: string}", Optional: true, Doc: "the row, from 0; or {hazard = NAME}"},
					{Name: "col", Type: "integer", Optional: true, Doc: "the column, from 0"},
				},
				Returns: []Param{
					{Name: "marks", Type: "mod2048.Mark[]", Doc: "the marks, in position and name order"},
				},
			},
			{
				Name:    "cells",
				Version: 2,
				Doc:     "Returns the cells of the board that pass every filter given, as cell numbers (row * game.width + col, from 0) in reading order: one call for what a scan of game.cell and game.marks asks of every cell. API version 2. Only in event handlers.",
				Params: []Param{
					{Name: "filter", Type: "mod2048.CellsFilter", Doc: "cell, marked, hazard, without"},
				},
				Returns: []Param{
					{Name: "cells", Type: "integer[]", Doc: "the cells' numbers, in reading order"},
				},
			},
			{
				Name: "turn",
				Doc:  "Returns the number of turns finished. In before_move, after_merge and spawn the turn being played is game.turn() + 1; in tick, game.turn() is the turn just finished. Only in event handlers.",
				Returns: []Param{
					{Name: "turn", Type: "integer", Doc: "turns finished"},
				},
			},
			{
				Name: "score",
				Doc:  "Returns the score as a string (\"2048\"; cellular scores may have a fraction: \"12.25\"). Scores can exceed what a Lua number holds exactly. Only in event handlers.",
				Returns: []Param{
					{Name: "score", Type: "string", Doc: "the score so far"},
				},
			},
			{
				Name: "status",
				Doc:  "Returns the game's status. Only in event handlers.",
				Returns: []Param{
					{Name: "status", Type: "mod2048.Status", Doc: "\"Playing\", \"Won\", \"Won (continue)\" or \"Lost\""},
				},
			},
			{
				Name: "random",
				Doc:  "Draws from this mod's own random stream, as Lua 5.1's math.random: no argument, a number in [0, 1); one, an integer from 1 to m; two, an integer from m to n. The stream comes from the game's seed and the mod's id, is saved with the game and is restored by undo: a replay draws the same numbers. math.random is the same function.",
				Params: []Param{
					{Name: "m", Type: "integer", Optional: true, Doc: "with n: the lowest value; alone: the highest (from 1)"},
					{Name: "n", Type: "integer", Optional: true, Doc: "the highest value"},
				},
				Returns: []Param{
					{Name: "value", Type: "number", Doc: "a number in [0, 1), or an integer in the range"},
				},
				Overloads: []string{
					"fun(): number",
					"fun(m: integer): integer",
					"fun(m: integer, n: integer): integer",
				},
			},
			{
				Name: "log",
				Doc:  "Writes its arguments, separated by tabs, as one line of this mod's log (print does the same). A table, function or other value that is not a string, number, boolean or nil is written as its type: \"(table)\".",
				Params: []Param{
					{Name: "...", Type: "any", Doc: "the values to write"},
				},
			},
			{
				Name:    "notify",
				Version: 2,
				Doc:     "Shows the player a short message (API version 2): on the terminal's status line, as a toast in the browser. It is shown once the move it was sent in is played; a move that fails or is refused, a dry run (the legal moves, the lab's searches) and a replay show nothing. 1 to 200 bytes; at most 4 messages a move.",
				Params: []Param{
					{Name: "text", Type: "string", Doc: "the message"},
				},
			},
			{
				Name:    "set",
				Version: 2,
				Doc:     "Puts cell on the board at row and col, as an entry of a tick request's set list does (API version 2): 0 in classic, \".\" in cellular, empties the cell. Only in tick, start and expire handlers; the turn's requests made by calls come before those of the table the handler returns. A call costs far less than a table entry.",
				Params: []Param{
					{Name: "row", Type: "integer", Doc: "the row, from 0"},
					{Name: "col", Type: "integer", Doc: "the column, from 0"},
					{Name: "cell", Type: "mod2048.Cell", Doc: "the cell to put there"},
				},
			},
			{
				Name:    "mark",
				Version: 2,
				Doc:     "Puts a mark of one of this mod's hazards on the cell at row and col, as an entry of a tick request's mark list does (API version 2). Only in tick, start and expire handlers.",
				Params: []Param{
					{Name: "row", Type: "integer", Doc: "the row, from 0"},
					{Name: "col", Type: "integer", Doc: "the column, from 0"},
					{Name: "name", Type: "string", Doc: "the hazard, \"name\" or \"modid:name\""},
					{Name: "turns", Type: "integer", Optional: true, Doc: "turns the mark lasts; 0 or none: until removed"},
					{Name: "count", Type: "integer", Optional: true, Doc: "the count the mark shows (a hazard with counter = \"count\")"},
				},
			},
			{
				Name:    "unmark",
				Version: 2,
				Doc:     "Removes this mod's mark of hazard name from the cell at row and col, as an entry of a tick request's unmark list does (API version 2); removing a mark that is not there does nothing. Only in tick, start and expire handlers.",
				Params: []Param{
					{Name: "row", Type: "integer", Doc: "the row, from 0"},
					{Name: "col", Type: "integer", Doc: "the column, from 0"},
					{Name: "name", Type: "string", Doc: "the hazard, \"name\" or \"modid:name\""},
				},
			},
		},
		Globals: []Field{
			{Name: "storage", Type: "table<string|number, any>", Doc: "This mod's storage: plain data (numbers, strings, booleans and tables of them, with number or string keys) saved with the game at the end of every turn and restored exactly by undo, redo and loading a save. Other globals are not saved. At most 256 KiB encoded."},
		},
		GlobalFuncs: []Func{
			{
				Name: "require",
				Doc:  "Runs NAME.lua from this mod's own folder once and returns what it returned (true if nothing); later calls return the same value. NAME uses letters, digits, _ and / (\"util\", \"lib/grid\"); nothing outside the mod's folder can be loaded, and a mod loads at most 64 modules.",
				Params: []Param{
					{Name: "name", Type: "string", Doc: "the module's path in the mod's folder, without .lua"},
				},
				Returns: []Param{
					{Name: "module", Type: "any", Doc: "what the module returned, or true"},
				},
			},
		},
	}

}
