package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// ClassicName is the classic ruleset's name.
const ClassicName = "classic"

// KindTile is a classic tile, of value 2^Level.
const KindTile Kind = 1

// MaxLevel bounds classic tiles at 2^MaxLevel: tiles of that value do not
// merge. A 16 × 16 board can reach at most 2^257, so no game ever meets the
// bound; it keeps the exact score (384 bits: 2^63 merges of the largest
// tile would not overflow it) from overflowing on boards
// written by hand.
const MaxLevel = 320

// Classic is the classic 2048 ruleset of seeds/000 §3–§6, seeds/001 and
// seeds/003: tiles slide toward the move, equal neighbours merge once per
// move from the side the move goes toward, the score grows by each merged
// value, and every move that changes the board spawns one tile.
type Classic struct {
	// WinValue: creating a tile at or above it by a merge wins the game. It
	// is at least 8, above any spawn, so only a merge can reach it.
	WinValue uint64 `json:"win_value"`
	// StopOnWin makes a win stop the game (status Won, no spawn) until
	// KeepPlaying; otherwise the game goes on as Won (continue).
	StopOnWin bool `json:"stop_on_win"`
	// InitialSpawns is the number of tiles a new game starts with.
	InitialSpawns int `json:"initial_spawns"`
	// FourProbability is the chance that a random spawn is a 4 (else a 2).
	FourProbability float64 `json:"four_probability"`
}

// NewClassic returns the classic rules with the original game's settings:
// win at 2048 and stop, two initial tiles, a 4 one time in ten.
func NewClassic() *Classic {
	return &Classic{WinValue: 2048, StopOnWin: true, InitialSpawns: 2, FourProbability: 0.1}
}

// Validate checks the settings.
func (c *Classic) Validate() error {
	if c.WinValue < 8 || c.WinValue > 1<<62 {
		return fmt.Errorf("win_value %d: must be from 8 to 2^62", c.WinValue)
	}
	if c.InitialSpawns < 0 {
		return fmt.Errorf("initial_spawns %d: must not be negative", c.InitialSpawns)
	}
	if math.IsNaN(c.FourProbability) || c.FourProbability < 0 || c.FourProbability > 1 {
		return fmt.Errorf("four_probability %v: must be from 0 to 1", c.FourProbability)
	}
	return nil
}

func loadClassic(config json.RawMessage) (Rules, error) {
	c := NewClassic()
	if len(config) > 0 {
		if err := json.Unmarshal(config, c); err != nil {
			return nil, fmt.Errorf("classic rules: %w", err)
		}
	}
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("classic rules: %w", err)
	}
	return c, nil
}

// Name returns "classic".
func (c *Classic) Name() string { return ClassicName }

// Config returns the rules' settings for saving.
func (c *Classic) Config() any { return *c }

// winLevel is the smallest level whose tile is at or above WinValue.
func (c *Classic) winLevel() uint16 {
	return uint16(bits.Len64(c.WinValue - 1))
}

// Setup places the initial spawns and settles the status.
func (c *Classic) Setup(t *Turn) error {
	if n := len(t.State.Board.Cells); c.InitialSpawns > n {
		return fmt.Errorf("initial_spawns %d: the board has only %d cells", c.InitialSpawns, n)
	}
	for i := 0; i < c.InitialSpawns; i++ {
		if _, err := t.Spawn(); err != nil {
			return err
		}
	}
	c.Settle(t.State)
	return nil
}

// line describes one row or column in the order a move resolves it: from the
// edge the move goes toward, backward.
type line struct{ start, step, n int }

// lineOf returns the k-th line of a width × height board for direction d.
func lineOf(d Direction, k, width, height int) line {
	switch d {
	case Left:
		return line{k * width, 1, width}
	case Right:
		return line{k*width + width - 1, -1, width}
	case Up:
		return line{k, width, height}
	default: // Down
		return line{(height-1)*width + k, -width, height}
	}
}

// lineCount returns how many lines a move in direction d resolves.
func lineCount(d Direction, width, height int) int {
	if d == Left || d == Right {
		return height
	}
	return width
}

// Play slides and merges every line toward t.Dir, then, if the board
// changed: a merge that reached the win value wins (with stop on win, the
// game stops there, before the spawn); one tile spawns; a board with no move
// left is lost.
func (c *Classic) Play(t *Turn) (bool, error) {
	s := t.State
	b := &s.Board
	win := c.winLevel()
	changed, won := false, false
	var small uint64 // the gain of merges below 2^63, added up without carries
	n := lineCount(t.Dir, b.Width, b.Height)
	length := len(b.Cells) / n
	blocks := s.HasBlocks()
	fast := length == 4 && !t.Hooked() && !blocks && !t.g.recording
	if fast {
		lineTableOnce.Do(buildLineTable)
	}
	empties := 0 // counted by the table, while every line takes it
	for k := 0; k < n; k++ {
		l := lineOf(t.Dir, k, b.Width, b.Height)
		if blocks {
			var buf [maxSegments]line
			for _, seg := range segmentsOf(s, l, buf[:0]) {
				ch, w, err := c.slide(t, seg, win, &small)
				if err != nil {
					return false, err
				}
				changed = changed || ch
				won = won || w
			}
			continue
		}
		if fast {
			if ch, top, ok := slide4(t, l, &small, &empties); ok {
				changed = changed || ch
				won = won || top >= win
				continue
			}
			fast = false // a tile above the table: count the usual way
		}
		ch, w, err := c.slide(t, l, win, &small)
		if err != nil {
			return false, err
		}
		changed = changed || ch
		won = won || w
	}
	if !changed {
		return false, nil
	}
	t.Gained.AddUint64(small)
	s.Score.AddUint64(small)
	if won && s.Status == Playing {
		if c.StopOnWin {
			s.Status = Won
			return true, nil
		}
		s.Status = WonContinue
	}
	if fast {
		t.emptyHint = empties
	}
	if _, err := t.Spawn(); err != nil {
		return false, err
	}
	// With two empty cells before the spawn, one is left after it, and an
	// empty cell beside a tile is a move.
	if !(fast && empties >= 2) && c.lost(s) {
		s.Status = Lost
	}
	return true, nil
}

// lost reports whether the board of s is lost: no move changes it and it
// holds a tile. A board without any tile has no move either, but it is
// Playing (see Settle): this is the one exception to seeds/000 §7.4's "Lost
// iff legal_moves is empty". A board after a move that changed it always
// holds a tile.
func (c *Classic) lost(s *State) bool {
	if c.canMove(s) {
		return false
	}
	for _, cell := range s.Board.Cells {
		if cell.Kind != KindEmpty {
			return true
		}
	}
	return false
}

// segmentsOf splits a line at the cells blocking marks stand on: each part
// slides on its own, toward its own front. It appends the parts to out, a
// caller's buffer (an array of maxSegments on its stack holds them for a
// line of up to 2 × maxSegments cells, so a move allocates nothing).
func segmentsOf(s *State, l line, out []line) []line {
	start, n := l.start, 0
	for i, at := 0, l.start; i < l.n; i, at = i+1, at+l.step {
		if s.Blocked(at) {
			if n > 0 {
				out = append(out, line{start, l.step, n})
			}
			start, n = at+l.step, 0
			continue
		}
		n++
	}
	if n > 0 {
		out = append(out, line{start, l.step, n})
	}
	return out
}

// maxSegments is the size of segmentsOf's buffers.
const maxSegments = 8

// canMove reports whether any move would change the board of s.
func (c *Classic) canMove(s *State) bool {
	if !s.HasBlocks() {
		return c.anyMove(&s.Board)
	}
	for _, d := range Directions {
		if c.Changes(s, d) {
			return true
		}
	}
	return false
}

// slide resolves one line as seeds/000 §3 says: compress its tiles toward
// the front, merge equal neighbours from the front (each tile at most once,
// so a merged tile never merges again this move), compress again. It reports
// whether the line changed and whether a merge reached the win level. It adds
// the gain of small merges to *small, which Play adds to the score and
// t.Gained once the swipe is done, and of the rest to both at once.
//
// The first compression is branch-free (classic kinds are 0 and 1, so adding
// the kind counts the tiles) and a line is unchanged exactly when nothing
// merged and its last tile already stood where compression puts it: this is
// what keeps a 4×4 move under 100 ns.
func (c *Classic) slide(t *Turn, l line, win uint16, small *uint64) (changed, won bool, err error) {
	s := t.State
	cells := s.Board.Cells
	var levelBuf [16]uint16
	var fromBuf [16]int
	level, from := levelBuf[:], fromBuf[:]
	if l.n > len(levelBuf) {
		level, from = make([]uint16, l.n), make([]int, l.n)
	}
	k := 0
	for i, at := 0, l.start; i < l.n; i, at = i+1, at+l.step {
		// Fields are read one by one: a cell written field by field and
		// read back whole would stall the CPU's store forwarding.
		level[k], from[k] = cells[at].Level, at
		k += int(cells[at].Kind)
	}
	merged := false
	at := l.start
	for i := 0; i < k; at += l.step {
		// The result is carried as a level, not a Cell: a Cell built in
		// memory field by field and stored whole stalls the CPU. A classic
		// cell is exactly {KindTile, Level} (CheckCell sees to it, for
		// hooks' results too).
		lv := level[i]
		if i+1 < k && level[i+1] == lv && lv < MaxLevel {
			if t.g.recording {
				b := &s.Board
				to := b.PosOf(at)
				t.Moved(b.PosOf(from[i]), to)
				t.Moved(b.PosOf(from[i+1]), to)
				t.Merged(to, b.PosOf(from[i]), b.PosOf(from[i+1]))
			}
			lv++
			if t.Hooked() {
				if lv, err = c.hookMerge(t, l, at, from[i], from[i+1], lv); err != nil {
					return false, false, err
				}
			} else {
				t.Merges++
			}
			if lv < 62 && *small < 1<<62 {
				*small += 1 << lv
			} else {
				t.Gained.AddPow2(int(lv))
				s.Score.AddPow2(int(lv))
			}
			won = won || lv >= win
			merged = true
			i += 2
		} else {
			if t.g.recording {
				t.Moved(s.Board.PosOf(from[i]), s.Board.PosOf(at))
			}
			i++
		}
		cells[at] = Cell{Kind: KindTile, Level: lv}
	}
	for ; at != l.start+l.n*l.step; at += l.step {
		cells[at] = Cell{}
	}
	changed = merged || (k > 0 && from[k-1] != l.start+(k-1)*l.step)
	return changed, won, nil
}

// hookMerge reports the merge of the tiles from a and b into a tile of level
// lv at to the hooks, and returns the level of the result that stands.
func (c *Classic) hookMerge(t *Turn, l line, to, a, b int, lv uint16) (uint16, error) {
	board := &t.State.Board
	ev := &t.g.mergeEv
	src := Cell{Kind: KindTile, Level: lv - 1}
	*ev = MergeEvent{
		Pos:     board.PosOf(to),
		From:    [2]Pos{board.PosOf(a), board.PosOf(b)},
		Sources: [2]Cell{src, src},
		Result:  Cell{Kind: KindTile, Level: lv},
	}
	if err := t.Merge(ev); err != nil {
		return 0, err
	}
	return ev.Result.Level, nil
}

// Changes reports whether a move in direction d would change the board: some
// line has a gap in front of a tile, or two equal tiles next to each other
// once the gaps are closed.
func (c *Classic) Changes(s *State, d Direction) bool {
	b := &s.Board
	for k, n := 0, lineCount(d, b.Width, b.Height); k < n; k++ {
		var buf [maxSegments]line
		lines := append(buf[:0], lineOf(d, k, b.Width, b.Height))
		if s.HasBlocks() {
			lines = segmentsOf(s, lines[0], buf[:0])
		}
		for _, l := range lines {
			if c.lineChanges(b, l) {
				return true
			}
		}
	}
	return false
}

// lineChanges reports whether a line has a gap in front of a tile, or two
// equal tiles next to each other once the gaps are closed.
func (c *Classic) lineChanges(b *Board, l line) bool {
	gap := false
	prev := uint16(0)
	for i, at := 0, l.start; i < l.n; i, at = i+1, at+l.step {
		cell := b.Cells[at]
		if cell.Kind == KindEmpty {
			gap = true
			continue
		}
		if gap || (cell.Level == prev && cell.Level < MaxLevel) {
			return true
		}
		prev = cell.Level
	}
	return false
}

// anyMove reports whether any move would change the board: there is a tile
// and an empty cell (a row or column then holds both, and a tile in it can
// slide), or two equal tiles side by side. An empty board has no move.
func (c *Classic) anyMove(b *Board) bool {
	w, cells := b.Width, b.Cells
	empty, tile := false, false
	for i := range cells {
		if cells[i].Kind == KindEmpty {
			empty = true
		} else {
			tile = true
		}
		if empty && tile {
			return true
		}
	}
	if empty {
		return false // no tile at all
	}
	// A full board: look for equal neighbours. Fields are read one by
	// one (see slide).
	for i := range cells {
		lv := cells[i].Level
		if lv >= MaxLevel {
			continue
		}
		if i%w+1 < w && cells[i+1].Level == lv {
			return true
		}
		if i+w < len(cells) && cells[i+w].Level == lv {
			return true
		}
	}
	return false
}

// Settle works out the status of a board that did not come from a move: a
// board with no move left is Lost, unless it holds no tile at all (an empty
// board is Playing: seeds/000 §3.7 loses only with "no empty cells", and so
// do seeds/001 §3.1, seeds/002 Property 11 and the original game's
// movesAvailable); one that holds a tile at or above the win value counts as
// already won, and play goes on (Won (continue)), whatever StopOnWin says: a
// win is a merge that reaches the win value, which this game has not seen. A
// Won game (stopped) stays Won.
func (c *Classic) Settle(s *State) {
	if s.Status == Won {
		return
	}
	if c.lost(s) {
		s.Status = Lost
		return
	}
	if s.Status == Lost {
		s.Status = Playing
	}
	if s.Status == Playing {
		win := c.winLevel()
		for _, cell := range s.Board.Cells {
			if cell.Kind == KindTile && cell.Level >= win {
				s.Status = WonContinue
				return
			}
		}
	}
}

// CheckStatus checks what a won status requires beyond Settle: Won only
// with StopOnWin, and a tile at or above the win value on the board for Won
// and Won (continue), or, for Won (continue) only, a score at or above it
// (the game was won by a merge, which scored at least that much, and a
// hook's edit has taken the tile since). A Won game also has such a score:
// only a merge wins with stop on win. The engine refuses a hook's edits that
// would break this, so every game it makes passes.
func (c *Classic) CheckStatus(s *State) error {
	if !s.Status.HasWon() {
		return nil
	}
	if s.Status == Won && !c.StopOnWin {
		return errors.New("status Won, but stop_on_win is false: a won game goes on as Won (continue)")
	}
	win := c.winLevel()
	tile := false
	for _, cell := range s.Board.Cells {
		if cell.Kind == KindTile && cell.Level >= win {
			tile = true
			break
		}
	}
	scored := s.Score.Cmp(ScoreOf(c.WinValue)) >= 0
	switch {
	case s.Status == Won && !tile:
		return fmt.Errorf("status Won, but no tile reaches the win value %d", c.WinValue)
	case s.Status == Won && !scored:
		return fmt.Errorf("status Won, but the score %s is below the win value %d that the winning merge scored", s.Score, c.WinValue)
	case !tile && !scored:
		return fmt.Errorf("status %s, but no tile reaches the win value %d and the score %s is below it", s.Status, c.WinValue, s.Score)
	}
	return nil
}

// ParseCell reads a classic cell: 0 or . is empty, else a tile value, a
// power of two from 2 to 2^MaxLevel.
func (c *Classic) ParseCell(text string) (Cell, error) {
	if text == "" || strings.TrimSpace(text) != text {
		return Cell{}, fmt.Errorf("cell %q is not a tile value (a power of two) or 0 or .", text)
	}
	if text == "0" || text == "." {
		return Cell{}, nil
	}
	if u, err := strconv.ParseUint(text, 10, 64); err == nil {
		if u < 2 || u&(u-1) != 0 {
			return Cell{}, fmt.Errorf("tile %s is not a power of two from 2 up", text)
		}
		return Cell{Kind: KindTile, Level: uint16(bits.TrailingZeros64(u))}, nil
	}
	n, err := ParseScore(text)
	if err != nil {
		return Cell{}, fmt.Errorf("cell %q is not a tile value (a power of two) or 0 or .", text)
	}
	big := n.Big()
	level := big.BitLen() - 1
	if level < 0 || big.TrailingZeroBits() != uint(level) {
		return Cell{}, fmt.Errorf("tile %s is not a power of two from 2 up", text)
	}
	if level > MaxLevel {
		return Cell{}, fmt.Errorf("tile %s is above the largest tile, 2^%d", text, MaxLevel)
	}
	return Cell{Kind: KindTile, Level: uint16(level)}, nil
}

// FormatCell writes a tile's value, or 0 for an empty cell.
func (c *Classic) FormatCell(cell Cell) string {
	if cell.Kind == KindEmpty {
		return "0"
	}
	if cell.Level < 64 {
		return strconv.FormatUint(uint64(1)<<cell.Level, 10)
	}
	var s Score
	s.AddPow2(int(cell.Level))
	return s.String()
}

// TileValue returns the value of a classic tile as a Score (0 for empty).
func TileValue(cell Cell) Score {
	var s Score
	if cell.Kind == KindTile {
		s.AddPow2(int(cell.Level))
	}
	return s
}

var errNotClassic = errors.New("not a classic cell")

// CheckCell accepts empty cells and tiles from 2 to 2^MaxLevel.
func (c *Classic) CheckCell(cell Cell) error {
	if cell == (Cell{}) {
		return nil
	}
	if cell.Kind != KindTile || cell.Token != 0 || cell.Counter != 0 || cell.Charges != 0 {
		return errNotClassic
	}
	if cell.Level < 1 || cell.Level > MaxLevel {
		return fmt.Errorf("tile 2^%d is outside 2 to 2^%d", cell.Level, MaxLevel)
	}
	return nil
}

// CheckSpawn accepts the tiles the rules spawn: 2 and 4.
func (c *Classic) CheckSpawn(cell Cell) error {
	if cell.Kind != KindTile || (cell.Level != 1 && cell.Level != 2) || cell.Token != 0 || cell.Counter != 0 || cell.Charges != 0 {
		return fmt.Errorf("classic spawns only 2 or 4, not %s", c.FormatCell(cell))
	}
	return nil
}

// RandomSpawn draws a 4 with FourProbability, else a 2.
func (c *Classic) RandomSpawn(r *RNG) Cell {
	if r.Chance(c.FourProbability) {
		return Cell{Kind: KindTile, Level: 2}
	}
	return Cell{Kind: KindTile, Level: 1}
}
