package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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
		History: make([]saveState, len(g.history)),
		Future:  make([]saveState, len(g.future)),
	}
	for i, e := range g.queue {
		text := g.rules.FormatCell(e.Cell)
		if e.Invalid != nil {
			text = e.Text
		}
		doc.Queue[i] = saveSpawn{Row: e.Pos.Row, Col: e.Pos.Col, Cell: text}
	}
	for i := range g.history {
		doc.History[i] = g.saveState(&g.history[i])
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

func saveMarks(marks []Mark) []saveMark {
	if len(marks) == 0 {
		return nil
	}
	out := make([]saveMark, len(marks))
	for i, m := range marks {
		out[i] = saveMark{Row: m.Pos.Row, Col: m.Pos.Col, Name: m.Name, Turns: m.Turns, Block: m.Block}
	}
	return out
}

// Unmarshal reads a game written by Marshal. Every field is checked: a
// document that is not a save, of an unknown version or ruleset, or with a
// board, score, status or cursor that does not fit, is an error that says
// which field is wrong. It never panics.
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
		g.history = append(g.history, s)
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
	return g, nil
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
		mark := Mark{Pos: Pos{m.Row, m.Col}, Name: m.Name, Turns: m.Turns, Block: m.Block}
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
