package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// SaveFormat names the JSON document Marshal writes; SaveVersion is its
// version. A reader ignores fields it does not know, so a later version of
// format 1 that only adds fields stays readable; a document of a higher
// version is refused rather than misread.
const (
	SaveFormat  = "2048-game"
	SaveVersion = 1
)

type saveDoc struct {
	Format  string          `json:"format"`
	Version int             `json:"version"`
	Ruleset string          `json:"ruleset"`
	Rules   json.RawMessage `json:"rules"`
	Options saveOptions     `json:"options"`
	State   saveState       `json:"state"`
	Queue   []saveSpawn     `json:"queue"`
	History []saveState     `json:"history"`
	Future  []saveState     `json:"future"`
}

type saveOptions struct {
	Width        int    `json:"width"`
	Height       int    `json:"height"`
	Seed         string `json:"seed"`
	UndoLimit    int    `json:"undo_limit"`
	ScriptedOnly bool   `json:"scripted_only,omitempty"`
}

type saveState struct {
	Board  []string          `json:"board"`
	Score  string            `json:"score"`
	Status string            `json:"status"`
	Turn   int               `json:"turn"`
	RNG    string            `json:"rng"`
	Next   int               `json:"next"`
	Vars   map[string]int64  `json:"vars,omitempty"`
	Data   map[string]string `json:"data,omitempty"`
	Marks  []saveMark        `json:"marks,omitempty"`
	Faults []saveFault       `json:"faults,omitempty"`
	// Tiles and NextTile are the tiles' identities (State.Tiles), kept by a
	// game that tracks motions; saves from before them, or of a game that
	// does not, have none.
	Tiles    []uint32 `json:"tiles,omitempty"`
	NextTile uint32   `json:"next_tile,omitempty"`
}

// saveFault is a Fault as saves keep it. The field is optional: saves from
// before it load with no faults, and a save without faults is the same
// bytes as before it.
type saveFault struct {
	Turn    int    `json:"turn"`
	Hook    string `json:"hook"`
	Event   string `json:"event,omitempty"`
	Kind    string `json:"kind"`
	Message string `json:"message,omitempty"`
}

type saveMark struct {
	Row   int    `json:"row"`
	Col   int    `json:"col"`
	Name  string `json:"name"`
	Turns int    `json:"turns,omitempty"`
	Block bool   `json:"block,omitempty"`
	// Follow and OnMerge: a mark bound to its tile (saves from before them
	// have none).
	Follow  bool   `json:"follow,omitempty"`
	OnMerge string `json:"on_merge,omitempty"`
	// Count: a mark's number (saves from before it have none).
	Count int `json:"count,omitempty"`
}

type saveSpawn struct {
	Row  int    `json:"row"`
	Col  int    `json:"col"`
	Cell string `json:"cell"`
}

// Marshal writes the whole game as stable, versioned JSON: the rules and
// options, the current state, the spawn queue, the random source's state and
// the undo and redo history. The same game always gives the same bytes.
// Hooks are not saved.
func (g *Game) Marshal() ([]byte, error) {
	g.sync()
	rules, err := json.Marshal(g.rules.Config())
	if err != nil {
		return nil, fmt.Errorf("save rules: %w", err)
	}
	doc := saveDoc{
		Format:  SaveFormat,
		Version: SaveVersion,
		Ruleset: g.rules.Name(),
		Rules:   rules,
		Options: saveOptions{
			Width: g.opt.Width, Height: g.opt.Height,
			Seed:         strconv.FormatUint(g.opt.Seed, 10),
			UndoLimit:    g.opt.UndoLimit,
			ScriptedOnly: g.opt.ScriptedOnly,
		},
		State:   g.saveState(g.cur),
		Queue:   make([]saveSpawn, len(g.queue)),
		History: make([]saveState, g.history.len()),
		Future:  make([]saveState, len(g.future)),
	}
	for i, e := range g.queue {
		text := g.rules.FormatCell(e.Cell)
		if e.Invalid != nil {
			text = e.Text
		}
		doc.Queue[i] = saveSpawn{Row: e.Pos.Row, Col: e.Pos.Col, Cell: text}
	}
	for i := range g.history.len() {
		doc.History[i] = g.saveState(g.history.at(i))
	}
	for i := range g.future {
		doc.Future[i] = g.saveState(&g.future[i])
	}
	return json.MarshalIndent(doc, "", "  ")
}

func (g *Game) saveState(s *State) saveState {
	return saveState{
		Board:  FormatRows(g.rules, &s.Board),
		Score:  FormatScore(g.rules, s.Score),
		Status: s.Status.String(),
		Turn:   s.Turn,
		RNG:    fmt.Sprintf("%016x", s.RNG.State),
		Next:   s.Next,
		Vars:   s.Vars,
		Data:   s.Data,
		Marks:  saveMarks(s.Marks),
		Faults: saveFaults(s.Faults),

		Tiles:    s.Tiles,
		NextTile: s.NextTile,
	}
}

func saveFaults(faults []Fault) []saveFault {
	if len(faults) == 0 {
		return nil
	}
	out := make([]saveFault, len(faults))
	for i, f := range faults {
		out[i] = saveFault{Turn: f.Turn, Hook: f.Hook, Event: f.Event, Kind: f.Kind.String(), Message: f.Message}
	}
	return out
}

// loadFaults reads a state's faults and checks them against the state.
func loadFaults(s *State, faults []saveFault) error {
	if len(faults) > MaxFaults+MaxFaultHooks {
		return fmt.Errorf("faults: %d faults, more than %d", len(faults), MaxFaults+MaxFaultHooks)
	}
	for i, f := range faults {
		kind, err := ParseFaultKind(f.Kind)
		if err != nil {
			return fmt.Errorf("faults[%d]: %w", i, err)
		}
		s.Faults = append(s.Faults, Fault{Turn: f.Turn, Hook: f.Hook, Event: f.Event, Kind: kind, Message: f.Message})
	}
	return s.checkFaults()
}

// loadTiles checks and sets a state's tile identities: none, or one for
// each cell, 0 exactly where no tile stands, each other one different and
// below next_tile.
func loadTiles(s *State, tiles []uint32, next uint32) error {
	if tiles == nil {
		if next != 0 {
			return fmt.Errorf("next_tile: %d with no tiles", next)
		}
		return nil
	}
	if len(tiles) != len(s.Board.Cells) {
		return fmt.Errorf("tiles: %d identities for %d cells", len(tiles), len(s.Board.Cells))
	}
	seen := make(map[uint32]bool, len(tiles))
	for i, id := range tiles {
		tile := s.Board.Cells[i].Kind != KindEmpty
		switch {
		case tile && id == 0:
			return fmt.Errorf("tiles[%d]: the tile at %v has no identity", i, s.Board.PosOf(i))
		case !tile && id != 0:
			return fmt.Errorf("tiles[%d]: identity %d on %v, which holds no tile", i, id, s.Board.PosOf(i))
		case id != 0 && id >= next:
			return fmt.Errorf("tiles[%d]: identity %d is not below next_tile (%d)", i, id, next)
		case id != 0 && seen[id]:
			return fmt.Errorf("tiles[%d]: identity %d is there twice", i, id)
		}
		seen[id] = true
	}
	s.Tiles, s.NextTile = tiles, next
	return nil
}

func saveMarks(marks []Mark) []saveMark {
	if len(marks) == 0 {
		return nil
	}
	out := make([]saveMark, len(marks))
	for i, m := range marks {
		out[i] = saveMark{Row: m.Pos.Row, Col: m.Pos.Col, Name: m.Name, Turns: m.Turns, Block: m.Block, Follow: m.Follow, OnMerge: string(m.OnMerge), Count: m.Count}
	}
	return out
}

// Unmarshal reads a game written by Marshal. Every field is checked: a
// document that is not a save, of an unknown version or ruleset, or with a
// board, score, status or cursor that does not fit, is an error that says
// which field is wrong. It never panics.
//
// Beyond each field on its own, these checks hold every state the engine
// makes, so a save that fails one was not written by it (or was edited):
//
//   - The status fits the board, in the current state and in every history
//     and future state: settling it again (Rules.Settle) leaves it as it is,
//     so Lost on a board with a move left, Playing on a lost board, or
//     Playing with a winning tile on the board is refused; and rules with a
//     CheckStatus method (classic) check it further: Won only with
//     stop_on_win, and Won and Won (continue) only with a tile at or above
//     the win value (Won: and a score at or above it too).
//   - The history leads to the state: every move that is recorded added
//     exactly one turn, so the turns of history, state and future (the
//     future in redo order, last entry first) count up by one from state to
//     state (Turn saturates at the largest int, where it stays); and a move
//     only takes spawn-queue entries, so the queue cursor (next) never goes
//     back along that chain.
//
// A save that is sound on its own may still be of another game than the one
// a caller wants: CheckConfig compares it with a configuration.
func Unmarshal(data []byte) (*Game, error) {
	var doc saveDoc
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("save: %w", jsonError(data, err))
	}
	if off := dec.InputOffset(); len(bytes.TrimSpace(data[off:])) > 0 {
		line := bytes.Count(data[:off], []byte("\n")) + 1
		return nil, fmt.Errorf("save: line %d: data after the end of the document", line)
	}
	if doc.Format != SaveFormat {
		return nil, fmt.Errorf("save: format is %q, want %q", doc.Format, SaveFormat)
	}
	if doc.Version < 1 || doc.Version > SaveVersion {
		return nil, fmt.Errorf("save: version %d; this program reads versions 1 to %d", doc.Version, SaveVersion)
	}
	rules, err := LoadRules(doc.Ruleset, doc.Rules)
	if err != nil {
		return nil, fmt.Errorf("save: %w", err)
	}
	seed, err := strconv.ParseUint(doc.Options.Seed, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("save: options.seed %q is not a whole number from 0 to 2^64-1", doc.Options.Seed)
	}
	opt := Options{
		Width: doc.Options.Width, Height: doc.Options.Height, Seed: seed,
		UndoLimit: doc.Options.UndoLimit, ScriptedOnly: doc.Options.ScriptedOnly,
	}
	if err := opt.check(); err != nil {
		return nil, fmt.Errorf("save: options: %w", err)
	}
	g := &Game{rules: rules, opt: opt}
	g.cur, g.next = &g.bufs[0], &g.bufs[1]
	g.queue = make([]SpawnEntry, len(doc.Queue))
	for i, e := range doc.Queue {
		if len(e.Cell) > 64 {
			return nil, fmt.Errorf("save: queue[%d]: a cell of %d bytes", i, len(e.Cell))
		}
		cell, err := rules.ParseCell(e.Cell)
		if err != nil {
			// Kept as the queue had it: the step that uses it fails.
			g.queue[i] = InvalidSpawn(Pos{e.Row, e.Col}, e.Cell, err)
			continue
		}
		g.queue[i] = SpawnEntry{Pos: Pos{e.Row, e.Col}, Cell: cell}
	}
	if *g.cur, err = g.loadState(&doc.State); err != nil {
		return nil, fmt.Errorf("save: state: %w", err)
	}
	for i := range doc.History {
		s, err := g.loadState(&doc.History[i])
		if err != nil {
			return nil, fmt.Errorf("save: history[%d]: %w", i, err)
		}
		g.history.push(s, 0)
	}
	for i := range doc.Future {
		s, err := g.loadState(&doc.Future[i])
		if err != nil {
			return nil, fmt.Errorf("save: future[%d]: %w", i, err)
		}
		g.future = append(g.future, s)
	}
	if opt.UndoLimit == 0 && len(doc.History) == 0 && len(doc.Future) > 0 {
		return nil, errors.New("save: future holds states but undo is disabled")
	}
	if n := len(doc.History) + len(doc.Future); opt.UndoLimit >= 0 && n > opt.UndoLimit {
		return nil, fmt.Errorf("save: history and future hold %d states, more than undo_limit %d", n, opt.UndoLimit)
	}
	if err := g.checkStates(); err != nil {
		return nil, fmt.Errorf("save: %w", err)
	}
	return g, nil
}

// checkStates checks that the status of every state fits its board and
// that the history leads to the current state (see Unmarshal).
func (g *Game) checkStates() error {
	// The chain of states in the order they were played: history (oldest
	// first), the current state, the future (next redo first).
	type link struct {
		name string
		s    *State
	}
	chain := make([]link, 0, g.history.len()+1+len(g.future))
	for i := range g.history.len() {
		chain = append(chain, link{fmt.Sprintf("history[%d]", i), g.history.at(i)})
	}
	chain = append(chain, link{"state", g.cur})
	for i := len(g.future) - 1; i >= 0; i-- {
		chain = append(chain, link{fmt.Sprintf("future[%d]", i), &g.future[i]})
	}
	for i, l := range chain {
		if err := g.checkStatus(l.s); err != nil {
			return fmt.Errorf("%s: %w", l.name, err)
		}
		if i == 0 {
			continue
		}
		prev := chain[i-1]
		want := prev.s.Turn + 1
		if prev.s.Turn == math.MaxInt {
			want = math.MaxInt
		}
		if l.s.Turn != want {
			return fmt.Errorf("%s: turn %d does not follow %s's turn %d: the history does not lead to the state", l.name, l.s.Turn, prev.name, prev.s.Turn)
		}
		if l.s.Next < prev.s.Next {
			return fmt.Errorf("%s: next %d is before %s's next %d: the history does not lead to the state", l.name, l.s.Next, prev.name, prev.s.Next)
		}
	}
	return nil
}

// StatusChecker is implemented by rules that know more of what a status
// requires than Settle works out (classic: a won game holds a winning tile).
// CheckStatus must accept the status of every state the rules make; the
// engine asks it of every loaded state and after a hook's edits.
type StatusChecker interface {
	CheckStatus(s *State) error
}

// checkStatus checks that the status of s fits its board: Settle leaves it
// as it is, and the rules' CheckStatus, if any, accepts it. Settle changes
// only the status; it is put back.
func (g *Game) checkStatus(s *State) error {
	st := s.Status
	g.rules.Settle(s)
	settled := s.Status
	s.Status = st
	if settled != st {
		return fmt.Errorf("status %s does not fit the board: the rules make it %s", st, settled)
	}
	if c, ok := g.rules.(StatusChecker); ok {
		if err := c.CheckStatus(s); err != nil {
			return err
		}
	}
	return nil
}

// ConfigError reports a game that does not match the configuration it is
// loaded under: Field names what differs, Game is what the game has and
// Want what the configuration asks for.
type ConfigError struct {
	Field      string
	Game, Want string
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("%s: the game has %s, the configuration %s", e.Field, e.Game, e.Want)
}

// CheckConfig reports whether g is a game of rules and opt, as a caller
// that loads a save for a configuration must ask: the same ruleset with the
// same settings, the same board size, undo limit and spawn mode. The seed is
// the game's own and is not compared. A mismatch is a *ConfigError.
func (g *Game) CheckConfig(rules Rules, opt Options) error {
	g.sync()
	if rules == nil {
		return errors.New("no rules")
	}
	if a, b := g.rules.Name(), rules.Name(); a != b {
		return &ConfigError{Field: "ruleset", Game: strconv.Quote(a), Want: strconv.Quote(b)}
	}
	a, err := json.Marshal(g.rules.Config())
	if err != nil {
		return fmt.Errorf("the game's rules: %w", err)
	}
	b, err := json.Marshal(rules.Config())
	if err != nil {
		return fmt.Errorf("the configuration's rules: %w", err)
	}
	if !bytes.Equal(a, b) {
		return &ConfigError{Field: "rules", Game: string(a), Want: string(b)}
	}
	switch o := g.opt; {
	case o.Width != opt.Width || o.Height != opt.Height:
		return &ConfigError{Field: "board size", Game: fmt.Sprintf("%d×%d", o.Width, o.Height), Want: fmt.Sprintf("%d×%d", opt.Width, opt.Height)}
	case o.UndoLimit != opt.UndoLimit:
		return &ConfigError{Field: "undo limit", Game: strconv.Itoa(o.UndoLimit), Want: strconv.Itoa(opt.UndoLimit)}
	case o.ScriptedOnly != opt.ScriptedOnly:
		return &ConfigError{Field: "scripted-only spawns", Game: strconv.FormatBool(o.ScriptedOnly), Want: strconv.FormatBool(opt.ScriptedOnly)}
	}
	return nil
}

func (g *Game) loadState(d *saveState) (State, error) {
	var s State
	b, err := ParseRows(g.rules, d.Board, g.opt.Width, g.opt.Height)
	if err != nil {
		return s, fmt.Errorf("board: %w", err)
	}
	for i, c := range b.Cells {
		if err := g.rules.CheckCell(c); err != nil {
			return s, fmt.Errorf("board: cell %v: %w", b.PosOf(i), err)
		}
	}
	s.Board = b
	if s.Score, err = ParseScoreFor(g.rules, d.Score); err != nil {
		return s, err
	}
	if s.Status, err = ParseStatus(d.Status); err != nil {
		return s, err
	}
	if d.Turn < 0 {
		return s, fmt.Errorf("turn %d is negative", d.Turn)
	}
	s.Turn = d.Turn
	if len(d.RNG) != 16 {
		return s, fmt.Errorf("rng %q is not 16 hexadecimal digits", d.RNG)
	}
	if s.RNG.State, err = strconv.ParseUint(d.RNG, 16, 64); err != nil {
		return s, fmt.Errorf("rng %q is not 16 hexadecimal digits", d.RNG)
	}
	if d.Next < 0 || d.Next > len(g.queue) {
		return s, fmt.Errorf("next %d is outside the spawn queue of %d entries", d.Next, len(g.queue))
	}
	s.Next = d.Next
	if len(d.Vars) > 0 {
		s.Vars = d.Vars
	}
	if len(d.Data) > 0 {
		size := 0
		for k, v := range d.Data {
			if k == "" || v == "" {
				return s, errors.New("data: empty keys and values are not kept")
			}
			size += len(k) + len(v)
		}
		if size > MaxData {
			return s, fmt.Errorf("data holds %d bytes, more than %d", size, MaxData)
		}
		s.Data = d.Data
	}
	if len(d.Marks) > MaxMarks {
		return s, fmt.Errorf("marks: %d marks, more than %d", len(d.Marks), MaxMarks)
	}
	for i, m := range d.Marks {
		mark := Mark{Pos: Pos{m.Row, m.Col}, Name: m.Name, Turns: m.Turns, Block: m.Block, Follow: m.Follow, OnMerge: MergeRule(m.OnMerge), Count: m.Count}
		if err := CheckMark(&s.Board, mark); err != nil {
			return s, fmt.Errorf("marks[%d]: %w", i, err)
		}
		for _, prev := range s.Marks {
			if prev.Pos == mark.Pos && prev.Name == mark.Name {
				return s, fmt.Errorf("marks[%d]: %s at %v is there twice", i, mark.Name, mark.Pos)
			}
		}
		s.Marks = append(s.Marks, mark)
	}
	sortMarks(s.Marks)
	if err := loadFaults(&s, d.Faults); err != nil {
		return s, err
	}
	if err := loadTiles(&s, d.Tiles, d.NextTile); err != nil {
		return s, err
	}
	return s, nil
}

// jsonError adds the line and column to a JSON syntax or type error.
func jsonError(data []byte, err error) error {
	var off int64 = -1
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
	case errors.As(err, &typ):
		off = typ.Offset
	}
	if off < 0 || off > int64(len(data)) {
		return err
	}
	// The offset counts the bytes read, the offending one included.
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - (bytes.LastIndexByte(before, '\n') + 1)
	return fmt.Errorf("line %d, column %d: %s", line, max(col, 1), strings.TrimPrefix(err.Error(), "json: "))
}
