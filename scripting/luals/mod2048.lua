---@meta

-- LuaLS annotations for the mod API of the 2048 modding host, API version 1.
--
-- Put this file where your editor's Lua language server finds it: `2048 mod
-- new` copies it to the mod's .luals folder, and the mod's .luarc.json names
-- that folder in workspace.library. The file only describes the API; the
-- game provides the real `game`, `storage` and `require`.
--
-- The modding guide is MODDING.md at the top of the repository. The test
-- scripting/luals_test.go keeps this file in step with the host.

---A cell's content, as the ruleset writes it. Classic: a tile's value as a
---number, 0 for an empty cell (2, 4, 8, ...). Cellular: the notation of
---cellular/RULES.md as a string: "." empty, "a3" alive with energy 3,
---"a1/2" alive (energy 1) with 2 turns without a merge, "d2" dormant, "C" a
---catalyst, "a2+C" an occupant on a catalyst, "B" or "B2" active blight,
---"b" or "b2" incoming blight. A request may give a cell as a number or as
---a notation string.
---@alias mod2048.Cell number|string

---A move's direction, in lower case.
---@alias mod2048.Direction
---| "left"
---| "right"
---| "up"
---| "down"

---A game's status, as game.status() returns it.
---@alias mod2048.Status
---| "Playing" # the game goes on
---| "Won" # a win stopped the game, until the player keeps going
---| "Won (continue)" # won, and play goes on
---| "Lost" # no move is left (cellular: or no alive cell)

---The rulesets a game can use.
---@alias mod2048.Ruleset
---| "classic" # classic 2048: cells are numbers
---| "cellular" # Cellular 2048: cells are notation strings

---The events a mod can handle with game.on.
---@alias mod2048.Event
---| "before_move" # before a move is played; may refuse it
---| "after_merge" # after each merge of the move; may change the merge's result
---| "spawn" # before each new cell is placed; may move, change or cancel it
---| "tick" # once per finished turn; may set cells, and set or remove marks
---| "start" # API version 2: once when a new game begins; may set cells, and set or remove marks
---| "expire" # API version 2: once for each of this mod's marks whose turns ran out this turn, before tick; may answer as tick

---The color names a hazard may use.
---@alias mod2048.ColorName
---| "black"
---| "red"
---| "green"
---| "yellow"
---| "blue"
---| "magenta"
---| "cyan"
---| "white"
---| "gray"
---| "orange"
---| "purple"
---| "brown"

---A hazard's color: a color name, or "#rrggbb".
---@alias mod2048.Color mod2048.ColorName|string

---A setting's value: as mod.toml declares it, an int, a number, a bool or a
---string.
---@alias mod2048.SettingValue integer|number|boolean|string

---A cell's position on the board.
---@class mod2048.Pos
---@field row integer # the row, from 0 at the top
---@field col integer # the column, from 0 at the left

---What game.features tells: each feature this host offers is true.
---@class mod2048.Features
---@field hooks boolean # game.on and the four events
---@field markers boolean # game.hazard, game.marks and the mark and unmark requests
---@field storage boolean # the storage table, saved with the game and restored by undo
---@field random boolean # game.random and math.random, deterministic per mod
---@field settings boolean # game.settings, from mod.toml's [settings.NAME]
---@field require boolean # require(name) of the mod's own Lua files
---@field log boolean # game.log and print, to the mod's log
---@field motions? boolean # API version 2: the tick payload's moves and merged
---@field start? boolean # API version 2: the start event, when a new game begins
---@field follow? boolean # API version 2: game.hazard's follow and on_merge, marks that move with their tiles
---@field counters? boolean # API version 2: game.hazard's counter, a mark's count
---@field expire? boolean # API version 2: the expire event
---@field notify? boolean # API version 2: game.notify
---@field cells? boolean # API version 2: game.cells, the board's cells that pass filters
---@field edits? boolean # API version 2: game.set, game.mark and game.unmark, a handler's requests as calls

---The table game.hazard takes.
---@class mod2048.HazardSpec
---@field name string # the hazard's name: lower-case letters, digits and _, from a letter, at most 32; its full name is "modid:name"
---@field glyph string # the one character the board shows on a marked cell
---@field color? mod2048.Color # the glyph's color: a color name or "#rrggbb"
---@field blocks? boolean # true makes marked cells walls: an empty one takes no tile and no spawn, a tile on one neither moves nor merges; default false
---@field description? string # what the hazard does, for the player (at most 200 bytes)
---@field follow? boolean # API version 2: true binds each mark to the tile on its cell: it moves with the tile and goes when the tile goes; default false
---@field on_merge? mod2048.MergeRule # API version 2, with follow: what a merge does to the marks of its two tiles; default "keep"
---@field counter? mod2048.Counter # API version 2: the number a marked cell shows in place of the glyph; default none

---The number a hazard's marks show in place of its glyph.
---@alias mod2048.Counter
---| "turns" # the turns the mark has left
---| "count" # the count the mod keeps on the mark (a mark request's count)

---What a merge does to the follow marks of its two tiles.
---@alias mod2048.MergeRule
---| "keep" # the merged tile carries the mark (the front tile's, when both had one)
---| "drop" # the merge takes the mark away
---| "spread" # the merged tile carries it, and so does every tile next to it (up, down, left, right)

---A mark on a cell, as game.marks returns it.
---@class mod2048.Mark
---@field row integer # the marked cell's row, from 0
---@field col integer # the marked cell's column, from 0
---@field name string # the hazard's full name, "modid:name"
---@field turns integer # turns left before the mark goes; 0: it stays until removed
---@field blocks boolean # whether the mark makes its cell a wall
---@field count integer # the count the mod keeps on the mark (0 unless it set one)

---The payload of before_move: a move is about to be played.
---@class mod2048.BeforeMoveEvent
---@field dir mod2048.Direction # the move's direction
---@field turn integer # the number of the turn the move would be, from 1 (game.turn() + 1)

---What a before_move handler may return.
---@class mod2048.BeforeMoveRequest
---@field refuse? string # refuses the move, with a reason of 1 to 200 bytes; the player sees "<mod name>: <reason>"

---The payload of after_merge: two cells merged.
---@class mod2048.AfterMergeEvent
---@field row integer # the row where the result stands
---@field col integer # the column where the result stands
---@field from mod2048.Pos[] # where the two cells stood: from[1] nearer the edge the move goes toward, then from[2]
---@field sources mod2048.Cell[] # the two cells that merged, in the order of from
---@field result mod2048.Cell # the merge's result, as the rules made it

---What an after_merge handler may return.
---@class mod2048.AfterMergeRequest
---@field result? mod2048.Cell # replaces the merge's result (not with an empty cell); the score counts the result that stands

---The payload of spawn: a new cell is about to be placed.
---@class mod2048.SpawnEvent
---@field row integer # the row it would be placed at
---@field col integer # the column it would be placed at
---@field cell mod2048.Cell # the cell that would be placed
---@field scripted boolean # true when it comes from the spawn queue (a fixture's SpawnScript), false when drawn at random

---What a spawn handler may return: cancel, or any of row, col and cell.
---@class mod2048.SpawnRequest
---@field cancel? boolean # true places nothing; later mods' spawn handlers are not called
---@field row? integer # moves the spawn to this row (the new cell must be empty and not blocked)
---@field col? integer # moves the spawn to this column
---@field cell? mod2048.Cell # places this cell instead (one the ruleset can spawn)

---The payload of tick: a turn has finished, its spawns included.
---@class mod2048.TickEvent
---@field turn integer # the number of the turn just finished, from 1 (game.turn() gives the same)
---@field dir mod2048.Direction # the turn's direction
---@field gained string # the score the turn gained, as a string ("12", or "12.25" in cellular)
---@field merges integer # how many merges the turn made
---@field spawns integer # how many cells the turn spawned
---@field moves mod2048.Motion[] # API version 2 (absent for a version-1 mod): where each tile went this turn (the two tiles of a merge both go into its cell)
---@field merged mod2048.MergeMotion[] # API version 2 (absent for a version-1 mod): each merge of the turn, with the cells of the two tiles it was made from

---A tile's motion in a turn (API version 2): cells before and after.
---@class mod2048.Motion
---@field from mod2048.Pos # where the tile stood before the move
---@field to mod2048.Pos # where it stands after the move

---A merge of a turn (API version 2).
---@class mod2048.MergeMotion
---@field into mod2048.Pos # the cell the result stands on
---@field from mod2048.Pos[] # the cells, before the move, of the two tiles merged (the one nearer the edge first)

---The payload of start (API version 2): a new game begins, before its
---first turn, its initial spawns placed.
---@class mod2048.StartEvent
---@field turn integer # 0

---What a start handler may return: the lists a tick request takes, applied
---to the game's first state.
---@class mod2048.StartRequest
---@field set? mod2048.SetEntry[] # cells to put on the board
---@field mark? mod2048.MarkEntry[] # marks to set
---@field unmark? mod2048.UnmarkEntry[] # marks to remove

---The payload of expire (API version 2): one of this mod's marks whose turns
---ran out this turn. The mark is off the board already.
---@class mod2048.ExpireEvent
---@field turn integer # the number of the turn just finished, from 1
---@field row integer # the mark's row, from 0 (where it stood when it went)
---@field col integer # the mark's column, from 0
---@field name string # the hazard's full name, "modid:name"
---@field count integer # the mark's count

---What an expire handler may return: the lists a tick request takes.
---@class mod2048.ExpireRequest
---@field set? mod2048.SetEntry[] # cells to put on the board
---@field mark? mod2048.MarkEntry[] # marks to set
---@field unmark? mod2048.UnmarkEntry[] # marks to remove

---What a tick handler may return: lists of edits, applied in this order
---(set, then mark, then unmark) after the handler returns.
---@class mod2048.TickRequest
---@field set? mod2048.SetEntry[] # cells to put on the board
---@field mark? mod2048.MarkEntry[] # marks to set (replacing the same hazard's mark on that cell)
---@field unmark? mod2048.UnmarkEntry[] # marks to remove

---One entry of a tick request's set list.
---@class mod2048.SetEntry
---@field row integer # the cell's row, from 0
---@field col integer # the cell's column, from 0
---@field cell mod2048.Cell # what to put there (0 or "." empties the cell)

---One entry of a tick request's mark list.
---@class mod2048.MarkEntry
---@field row integer # the cell's row, from 0
---@field col integer # the cell's column, from 0
---@field name string # one of this mod's hazards: "name" or its full "modid:name" (what game.hazard returned)
---@field turns? integer # 0 or absent: until removed; N: the mark goes after N more turns (at most 1000000), and the expire event tells the mod
---@field count? integer # a number the mod keeps on the mark, 0 to 999999 (a hazard with counter = "count" shows it)

---One entry of a tick request's unmark list.
---@class mod2048.UnmarkEntry
---@field row integer # the cell's row, from 0
---@field col integer # the cell's column, from 0
---@field name string # one of this mod's hazards: "name" or "modid:name"

---The mod API: the game table.
---@class mod2048.Game
---@field api_version integer # the version of the mod API this host offers: 1
---@field features mod2048.Features # the features this host offers, each true
---@field mod_id string # this mod's id, from mod.toml
---@field ruleset mod2048.Ruleset # the game's ruleset
---@field width integer # the board's width: columns 0 to width-1
---@field height integer # the board's height: rows 0 to height-1
---@field settings table<string, mod2048.SettingValue> # this mod's settings, by name, from mod.toml's [settings.NAME]
game = {}

---Registers handler for event. Only while the mod loads (at the top level of
---its files); at most 64 handlers per event. A handler gets a fresh table
---(the event's payload) and returns nothing or a request table; a request
---with an unknown key, a value of the wrong type, NaN or a position off the
---board is an error of the mod. A spawn or tick handler may take a filter
---(API version 2): a spawn handler's {near = NAME} runs it only for a spawn
---next to a mark of this mod's hazard NAME; a tick handler's {every = N}
---only after the turns N divides.
---@param event mod2048.Event # the event's name
---@param handler fun(ev: table): table? # called with the payload; returns nothing or a request
---@param filter? mod2048.SpawnFilter|mod2048.TickFilter # spawn and tick only: the events the handler runs for
---@overload fun(event: "before_move", handler: fun(ev: mod2048.BeforeMoveEvent): mod2048.BeforeMoveRequest?)
---@overload fun(event: "after_merge", handler: fun(ev: mod2048.AfterMergeEvent): mod2048.AfterMergeRequest?)
---@overload fun(event: "spawn", handler: fun(ev: mod2048.SpawnEvent): mod2048.SpawnRequest?, filter?: mod2048.SpawnFilter)
---@overload fun(event: "tick", handler: fun(ev: mod2048.TickEvent): mod2048.TickRequest?, filter?: mod2048.TickFilter)
---@overload fun(event: "start", handler: fun(ev: mod2048.StartEvent): mod2048.StartRequest?)
---@overload fun(event: "expire", handler: fun(ev: mod2048.ExpireEvent): mod2048.ExpireRequest?)
function game.on(event, handler, filter) end

---A spawn handler's filter (API version 2): the host runs the handler only
---for the spawns that pass it.
---@class mod2048.SpawnFilter
---@field near string # the spawn's cell is next to (above, below, left or right of) a mark of this mod's hazard ("name" or "modid:name"), defined before

---A tick handler's filter (API version 2): the host runs the handler only
---after the turns it passes, as Factorio's on_nth_tick.
---@class mod2048.TickFilter
---@field every integer # the handler runs after turns every, 2 × every, ... (1 to 1000000)

---Defines a hazard, a kind of mark this mod puts on cells with a tick
---request. Only while the mod loads. Returns its full name, "modid:name".
---@param spec mod2048.HazardSpec # name, glyph, and optional color, blocks and description
---@return string name # the hazard's full name, "modid:name"
function game.hazard(spec) end

---Returns the cell at row and col (both from 0) of the game as it stands:
---in after_merge and spawn, the board the move has built so far. Classic:
---a number (0 for empty); cellular: a notation string ("." for empty).
---An error off the board. Only in event handlers.
---@param row integer # the row, from 0 at the top
---@param col integer # the column, from 0 at the left
---@return mod2048.Cell cell # the cell's content
function game.cell(row, col) end

---Returns the marks on the board, with row and col the marks on that cell,
---or with {hazard = NAME} the marks of one of this mod's hazards ("name" or
---"modid:name"), as a list of {row=, col=, name=, turns=, blocks=,
---count=}. Only in event handlers.
---@param row? integer|{hazard: string} # the row, from 0; or {hazard = NAME}
---@param col? integer # the column, from 0
---@return mod2048.Mark[] marks # the marks, in position and name order
function game.marks(row, col) end

---The filters game.cells takes (API version 2); a cell must pass every one
---given.
---@class mod2048.CellsFilter
---@field cell? string # a Lua pattern the cell's text matches, as string.find finds it ("^%.$": empty cellular cell; "^a": alive)
---@field marked? boolean # true: the cell carries a mark, any mod's; false: none
---@field hazard? string # the cell carries a mark of this mod's hazard ("name" or "modid:name")
---@field without? string # the cell carries no mark of this mod's hazard

---Returns the cells of the board that pass every filter given, as cell
---numbers (row * game.width + col, from 0) in reading order: one call for
---what a scan of game.cell and game.marks asks of every cell. API version 2.
---Only in event handlers.
---@param filter mod2048.CellsFilter # cell, marked, hazard, without
---@return integer[] cells # the cells' numbers, in reading order
function game.cells(filter) end

---Returns the number of turns finished. In before_move, after_merge and
---spawn the turn being played is game.turn() + 1; in tick, game.turn() is
---the turn just finished. Only in event handlers.
---@return integer turn # turns finished
function game.turn() end

---Returns the score as a string ("2048"; cellular scores may have a
---fraction: "12.25"). Scores can exceed what a Lua number holds exactly.
---Only in event handlers.
---@return string score # the score so far
function game.score() end

---Returns the game's status. Only in event handlers.
---@return mod2048.Status status # "Playing", "Won", "Won (continue)" or "Lost"
function game.status() end

---Draws from this mod's own random stream, as Lua 5.1's math.random: no
---argument, a number in [0, 1); one, an integer from 1 to m; two, an
---integer from m to n. The stream comes from the game's seed and the mod's
---id, is saved with the game and is restored by undo: a replay draws the
---same numbers. math.random is the same function.
---@param m? integer # with n: the lowest value; alone: the highest (from 1)
---@param n? integer # the highest value
---@return number value # a number in [0, 1), or an integer in the range
---@overload fun(): number
---@overload fun(m: integer): integer
---@overload fun(m: integer, n: integer): integer
function game.random(m, n) end

---Writes its arguments, separated by tabs, as one line of this mod's log
---(print does the same). A table, function or other value that is not a
---string, number, boolean or nil is written as its type: "(table)".
---@param ... any # the values to write
function game.log(...) end

---Shows the player a short message (API version 2): on the terminal's
---status line, as a toast in the browser. It is shown once the move it was
---sent in is played; a move that fails or is refused, a dry run (the legal
---moves, the lab's searches) and a replay show nothing. 1 to 200 bytes; at
---most 4 messages a move.
---@param text string # the message
function game.notify(text) end

---Puts cell on the board at row and col, as an entry of a tick request's
---set list does (API version 2): 0 in classic, "." in cellular, empties
---the cell. Only in tick, start and expire handlers; the turn's requests
---made by calls come before those of the table the handler returns. A
---call costs far less than a table entry.
---@param row integer # the row, from 0
---@param col integer # the column, from 0
---@param cell mod2048.Cell # the cell to put there
function game.set(row, col, cell) end

---Puts a mark of one of this mod's hazards on the cell at row and col, as
---an entry of a tick request's mark list does (API version 2). Only in
---tick, start and expire handlers.
---@param row integer # the row, from 0
---@param col integer # the column, from 0
---@param name string # the hazard, "name" or "modid:name"
---@param turns? integer # turns the mark lasts; 0 or none: until removed
---@param count? integer # the count the mark shows (a hazard with counter = "count")
function game.mark(row, col, name, turns, count) end

---Removes this mod's mark of hazard name from the cell at row and col, as
---an entry of a tick request's unmark list does (API version 2); removing
---a mark that is not there does nothing. Only in tick, start and expire
---handlers.
---@param row integer # the row, from 0
---@param col integer # the column, from 0
---@param name string # the hazard, "name" or "modid:name"
function game.unmark(row, col, name) end

---This mod's storage: plain data (numbers, strings, booleans and tables of
---them, with number or string keys) saved with the game at the end of every
---turn and restored exactly by undo, redo and loading a save. Other globals
---are not saved. At most 256 KiB encoded.
---@type table<string|number, any>
storage = {}

---Runs NAME.lua from this mod's own folder once and returns what it
---returned (true if nothing); later calls return the same value. NAME uses
---letters, digits, _ and / ("util", "lib/grid"); nothing outside the mod's
---folder can be loaded, and a mod loads at most 64 modules.
---@param name string # the module's path in the mod's folder, without .lua
---@return any module # what the module returned, or true
function require(name) end
