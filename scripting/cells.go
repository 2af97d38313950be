package scripting

import (
	lua "github.com/mod2048/mod2048/scripting/internal/lua"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/internal/workcount"
)

// game.cells{cell = PATTERN, marked = BOOL, hazard = NAME, without = NAME}
// (API version 2): the cells that pass every filter given, as cell numbers
// (row * game.width + col) in reading order. It asks of the whole board in
// one call what a scan of game.cell and game.marks asks of each cell, and
// makes one table of numbers where the scan makes a table for every mark
// it reads: a query in the manner of Factorio's find_entities_filtered.
//   - cell: the cell's text (game.cell's value; a classic number as its
//     digits) matches this Lua pattern, as string.find would find it;
//   - marked: true, the cell carries a mark (any mod's); false, none;
//   - hazard: the cell carries a mark of this mod's hazard NAME;
//   - without: the cell carries no mark of this mod's hazard NAME.
//
// It is charged an instruction for every cell and every mark, and the
// pattern's steps as string.find charges them.
func (m *modRun) luaCells(L *lua.LState) int {
	spec, ok := L.Get(1).(*lua.LTable)
	if !ok || L.GetTop() != 1 {
		L.RaiseError("game.cells: want one table of filters {cell =, marked =, hazard =, without =}, got %s", describe(L.Get(1)))
	}
	f := m.cellsFilter(L, spec)

	s := m.state()
	b := &s.Board
	n := b.Width * b.Height
	m.budget.Spend(L, n+len(s.Marks))
	// flags[i]: bit 1 any mark, 2 a mark of with, 4 a mark of without.
	if cap(m.cellFlags) < n {
		m.cellFlags = make([]uint8, n)
	}
	flags := m.cellFlags[:n]
	clear(flags)
	for k := range s.Marks {
		workcount.Step()
		mk := &s.Marks[k]
		i := mk.Pos.Row*b.Width + mk.Pos.Col
		if i < 0 || i >= n {
			continue
		}
		flags[i] |= 1
		if mk.Name == f.with {
			flags[i] |= 2
		}
		if mk.Name == f.without {
			flags[i] |= 4
		}
	}
	need, want := f.flags()
	out := m.cellsOut[:0]
	var last engine.Cell // the cell matched last, and its answer: runs of equal cells are common
	var lastAnswer cellMatch
	haveLast := false
	for i := range n {
		workcount.Step()
		if fl := flags[i]; fl&need != need || fl&^want != 0 {
			continue
		}
		if f.hasPattern {
			c := b.Cells[i]
			if haveLast && c == last {
				m.budget.Spend(L, lastAnswer.steps)
			} else {
				last, lastAnswer, haveLast = c, m.cellMatch(L, c, f.pattern), true
			}
			if !lastAnswer.ok {
				continue
			}
		}
		out = append(out, i)
	}
	m.cellsOut = out[:0]
	L.Push(numberList(L, out))
	return 1
}

// cellMatch reports whether the text of c matches pattern, as string.find
// would find it, and charges the matching's steps. The answers are kept
// for every game of the process: a board holds few different cells, a mod
// asks with the same few patterns turn after turn, and a game's answers
// are the next game's (the lab plays thousands). An answer and its steps
// depend on the pattern and the cell's text alone, so a game sees the
// same whether its answer was kept or worked out, and the charge is the
// same either way: the budget runs out at the same call.
//
// Only the answers of a pattern of at most maxSharedPattern bytes are
// kept: the cache lives as long as the process, outside every mod's
// budget, so what of a mod's it holds must be small (4096 answers of short
// patterns, under a megabyte). A longer pattern is matched every time, at
// the same charge.
func (m *modRun) cellMatch(L *lua.LState, c engine.Cell, pattern string) cellMatch {
	var r cellMatch
	if len(pattern) > maxSharedPattern {
		r.ok, r.steps = lua.FindPattern(L, m.host.cellString(c), pattern)
		return r
	}
	k := answerKey{pattern, m.host.rulesName(), c}
	if r, found := sharedAnswers.get(k); found {
		m.budget.Spend(L, r.steps)
		return r
	}
	r.ok, r.steps = lua.FindPattern(L, m.host.cellString(c), pattern)
	return sharedAnswers.put(k, r)
}

// maxSharedPattern is the longest pattern whose answers cellMatch keeps.
const maxSharedPattern = 64

// cellMatch is an answer of cellMatch: whether the pattern matched, and in
// how many steps.
type cellMatch struct {
	ok    bool
	steps int
}

// answerKey is a pattern and a cell of a ruleset (whose FormatCell writes
// the cell's text).
type answerKey struct {
	pattern, rules string
	cell           engine.Cell
}

// sharedAnswers holds cellMatch's answers.
var sharedAnswers sharedCache[answerKey, cellMatch]

// cellString is a cell's text as game.cells matches it, made once per
// cell.
func (h *Host) cellString(c engine.Cell) string {
	if s, ok := h.texts[c]; ok {
		return s
	}
	s := sharedStrings.getOr(ruleCell{h.rulesName(), c}, func() string { return h.rules.FormatCell(c) })
	return h.texts.keep(c, s)
}
