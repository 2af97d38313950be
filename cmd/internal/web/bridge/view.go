package bridge

import (
	"fmt"
	"strconv"

	"github.com/mod2048/mod2048/cellular"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
)

// View is the game as the page draws it, after a call.
type View struct {
	// Key names the setup (configuration and mod set), for the page's
	// storage of the game and the best score.
	Key        string `json:"key"`
	Ruleset    string `json:"ruleset"`
	Difficulty string `json:"difficulty"`
	Seed       string `json:"seed"`
	Width      int    `json:"width"`
	Height     int    `json:"height"`
	// Cells are the board's cells, row by row from the top.
	Cells []Cell `json:"cells"`
	// Marks are the mods' hazards on the board, in position order.
	Marks []Mark `json:"marks"`
	// Score, Best and Gained (by the last move) are written as the rules
	// write scores: cellular keeps quarter points ("12.25").
	Score  string `json:"score"`
	Best   string `json:"best"`
	Gained string `json:"gained,omitempty"`
	// Changed says the call changed the board (a move that changed
	// nothing is no error).
	Changed bool `json:"changed"`
	// Status is "playing", "won", "continuing" (won, playing on) or
	// "lost"; Message says why a game is lost when the mods refuse every
	// move.
	Status  string `json:"status"`
	Message string `json:"message,omitempty"`
	// WinValue is the tile that wins (classic).
	WinValue string `json:"winValue,omitempty"`
	// Standing is how a cellular game stands against its goal, for the
	// page's goal line.
	Standing *Standing `json:"standing,omitempty"`
	// Legal are the directions a move may go.
	Legal []string `json:"legal"`
	// Undo and Redo are how many moves undo and redo can take back and
	// replay.
	Undo int `json:"undo"`
	Redo int `json:"redo"`
	// Motions are what the last move did to the tiles, for the page to
	// animate: present only on a move that changed the board.
	Motions *Motions `json:"motions,omitempty"`
	// Spawns are the cells the last move spawned.
	Spawns []Spawn `json:"spawns,omitempty"`
	// Reports are the mods' errors since the last call: the game goes on
	// without the failing mod's effects.
	Reports []Report `json:"reports,omitempty"`
	// Notice is a refused move's reason.
	Notice string `json:"notice,omitempty"`
	// Notices are the mods' messages to the player (game.notify) since
	// the last call, for the page's toasts.
	Notices []Notice `json:"notices,omitempty"`
	// Hazards are the kinds of marks the mods defined; Mods the loaded
	// mods.
	Hazards []Hazard  `json:"hazards,omitempty"`
	Mods    []ModInfo `json:"mods,omitempty"`
}

// Standing is cellular.Standing as the page shows it: the turn, the alive
// energy against the goal (0: none), whether a turn has been played and
// the last was stable, its multiplier (×1.25), the turns left (-1: no
// limit), and the stable turns at the goal held of the hold a win takes.
type Standing struct {
	Turn       int    `json:"turn"`
	Energy     int    `json:"energy"`
	Goal       int    `json:"goal"`
	Played     bool   `json:"played"`
	Stable     bool   `json:"stable"`
	Multiplier string `json:"multiplier"`
	TurnsLeft  int    `json:"turnsLeft"`
	Hold       int    `json:"hold"`
	Held       int    `json:"held"`
	// Base is the alive energy the last turn scored (what a stable turn
	// is judged by): the page keeps the best stable one.
	Base int `json:"base"`
}

// Cell is one cell. Kind is "" (empty), "tile" (classic), "alive" or
// "dormant" (cellular); Token is "", "catalyst", "blight" or "incoming"
// (cellular). Value is a classic tile's value, or a cellular cell's
// energy; Level is log2 of a tile's value, or the energy; Text is the
// cell in the ruleset's notation.
type Cell struct {
	Kind    string `json:"kind,omitempty"`
	Token   string `json:"token,omitempty"`
	Value   string `json:"value,omitempty"`
	Level   int    `json:"level,omitempty"`
	Charges int    `json:"charges,omitempty"`
	Text    string `json:"text,omitempty"`
}

// Pos is a cell's row and column, from 0 at the top left.
type Pos [2]int

func posOf(p engine.Pos) Pos { return Pos{p.Row, p.Col} }

// Mark is a mod's hazard on a cell, with how the page draws it: Glyph is
// the hazard's glyph, or its counter's number (the turns left, or the
// mark's count).
type Mark struct {
	At    Pos    `json:"at"`
	Name  string `json:"name"`
	Turns int    `json:"turns,omitempty"`
	Count int    `json:"count,omitempty"`
	Block bool   `json:"block,omitempty"`
	Glyph string `json:"glyph"`
	Color string `json:"color,omitempty"`
}

// Notice is a mod's message to the player, with the mod's name.
type Notice struct {
	Mod  string `json:"mod"`
	Name string `json:"name"`
	Text string `json:"text"`
}

// Motions are the motions of a move (engine.Motions).
type Motions struct {
	Moves  []Motion `json:"moves"`
	Merged []Merge  `json:"merged"`
}

// Motion is where a tile went; a tile that stayed has From equal to To.
type Motion struct {
	From Pos `json:"from"`
	To   Pos `json:"to"`
}

// Merge is a merge: its cell, and the cells its two tiles came from.
type Merge struct {
	Into Pos    `json:"into"`
	From [2]Pos `json:"from"`
}

// Spawn is a spawned cell.
type Spawn struct {
	At   Pos    `json:"at"`
	Cell string `json:"cell"`
}

// Report is a mod's error (scripting.Report).
type Report struct {
	Mod      string `json:"mod"`
	Event    string `json:"event"`
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Message  string `json:"message"`
	Disabled bool   `json:"disabled,omitempty"`
	Text     string `json:"text"`
}

// Hazard is a kind of mark a mod defined (scripting.Hazard).
type Hazard struct {
	Name        string `json:"name"`
	Mod         string `json:"mod"`
	Glyph       string `json:"glyph"`
	Color       string `json:"color,omitempty"`
	Blocks      bool   `json:"blocks,omitempty"`
	Description string `json:"description,omitempty"`
	// Counter is "turns" or "count" for a hazard whose marks show a
	// number, else "".
	Counter string `json:"counter,omitempty"`
}

// ModInfo is a loaded mod.
type ModInfo struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Version  string `json:"version"`
	Disabled bool   `json:"disabled,omitempty"`
}

// Status names, as View.Status writes them.
var statusNames = map[engine.Status]string{
	engine.Playing:     "playing",
	engine.Won:         "won",
	engine.WonContinue: "continuing",
	engine.Lost:        "lost",
}

// dirNames are the directions as the page names them.
var dirNames = map[engine.Direction]string{engine.Left: "left", engine.Right: "right", engine.Up: "up", engine.Down: "down"}

func parseDir(s string) (engine.Direction, error) {
	for d, name := range dirNames {
		if name == s {
			return d, nil
		}
	}
	return 0, &Error{Kind: KindInput, Message: fmt.Sprintf("%q is not a direction (left, right, up, down)", s)}
}

// view writes the game as it stands; res is the move just played, if any.
func (b *Bridge) view(res *engine.Result) View {
	s := b.s
	rules := s.Rules()
	board := s.Board()
	v := View{
		Key:        b.key,
		Ruleset:    rules.Name(),
		Difficulty: b.setup.Config.Preset,
		Seed:       strconv.FormatUint(b.seed, 10),
		Width:      board.Width,
		Height:     board.Height,
		Cells:      make([]Cell, len(board.Cells)),
		Marks:      []Mark{},
		Score:      engine.FormatScore(rules, s.Score()),
		Best:       engine.FormatScore(rules, b.best),
		Status:     statusNames[s.Status()],
		Message:    s.StatusMessage(),
		Legal:      []string{},
	}
	for i, c := range board.Cells {
		v.Cells[i] = cellOf(rules, c)
	}
	if _, ok := rules.(*engine.Classic); ok {
		v.WinValue = strconv.FormatInt(b.setup.Config.Classic.WinValue, 10)
	}
	if r, ok := rules.(*cellular.Rules); ok {
		st := s.State()
		g := r.Standing(st)
		v.Standing = &Standing{Turn: st.Turn, Energy: g.Energy, Goal: g.Goal, Played: g.Played, Stable: g.Stable,
			Multiplier: g.Multiplier(), TurnsLeft: g.TurnsLeft, Hold: g.Hold, Held: g.Held, Base: int(st.Vars[cellular.VarBase])}
	}
	for _, m := range s.State().Marks {
		mk := Mark{At: posOf(m.Pos), Name: m.Name, Turns: m.Turns, Count: m.Count, Block: m.Block, Glyph: "!"}
		if hz, ok := s.Hazard(m.Name); ok {
			mk.Glyph, mk.Color = hz.Shown(m), hz.Color
		}
		v.Marks = append(v.Marks, mk)
	}
	for _, d := range s.Legal().List() {
		v.Legal = append(v.Legal, dirNames[d])
	}
	v.Undo, v.Redo = s.HistoryLen()
	if res != nil && res.Changed {
		v.Changed = true
		v.Gained = engine.FormatScore(rules, res.Gained)
		m := s.LastMotions()
		mo := &Motions{Moves: make([]Motion, len(m.Moves)), Merged: make([]Merge, len(m.Merged))}
		for i, x := range m.Moves {
			mo.Moves[i] = Motion{From: posOf(x.From), To: posOf(x.To)}
		}
		for i, x := range m.Merged {
			mo.Merged[i] = Merge{Into: posOf(x.Into), From: [2]Pos{posOf(x.From[0]), posOf(x.From[1])}}
		}
		v.Motions = mo
		for _, sp := range s.LastSpawns() {
			v.Spawns = append(v.Spawns, Spawn{At: posOf(sp.Pos), Cell: rules.FormatCell(sp.Cell)})
		}
	}
	for _, r := range s.TakeReports() {
		v.Reports = append(v.Reports, reportOf(r))
	}
	for _, n := range s.TakeNotices() {
		name := n.Mod
		for _, m := range s.Mods() {
			if m.ID() == n.Mod {
				name = m.Manifest.Name
			}
		}
		v.Notices = append(v.Notices, Notice{Mod: n.Mod, Name: name, Text: n.Text})
	}
	for _, hz := range s.Hazards() {
		v.Hazards = append(v.Hazards, Hazard{Name: hz.Name, Mod: hz.Mod, Glyph: hz.Glyph, Color: hz.Color, Blocks: hz.Blocks, Description: hz.Description, Counter: hz.Counter})
	}
	for _, m := range s.Mods() {
		v.Mods = append(v.Mods, ModInfo{ID: m.ID(), Name: m.Manifest.Name, Version: m.Manifest.Version, Disabled: s.Disabled(m.ID())})
	}
	return v
}

func reportOf(r scripting.Report) Report {
	return Report{Mod: r.Mod, Event: r.Event, File: r.File, Line: r.Line, Message: r.Message, Disabled: r.Disabled, Text: r.Error()}
}

// cellOf writes one cell for the page.
func cellOf(rules engine.Rules, c engine.Cell) Cell {
	if c.IsEmpty() {
		return Cell{}
	}
	out := Cell{Level: int(c.Level), Text: rules.FormatCell(c)}
	switch c.Kind {
	case engine.KindEmpty:
	case engine.KindTile:
		if _, ok := rules.(*engine.Classic); ok {
			out.Kind, out.Value = "tile", out.Text
		}
	case cellular.KindAlive:
		out.Kind, out.Value = "alive", strconv.Itoa(int(c.Level))
	case cellular.KindDormant:
		out.Kind, out.Value = "dormant", strconv.Itoa(int(c.Level))
	}
	if out.Kind == "" && c.Kind != engine.KindEmpty {
		out.Kind = "other"
	}
	if _, ok := rules.(*cellular.Rules); ok {
		switch c.Token {
		case cellular.TokenCatalyst:
			out.Token = "catalyst"
		case cellular.TokenBlight:
			out.Token, out.Charges = "blight", int(c.Charges)
		case cellular.TokenIncoming:
			out.Token, out.Charges = "incoming", int(c.Charges)
		}
	}
	return out
}
