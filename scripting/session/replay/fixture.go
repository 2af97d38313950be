package replay

import (
	"errors"
	"fmt"
	"maps"
	"math/big"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
)

// FixtureOptions say how Fixture writes its case.
type FixtureOptions struct {
	ID, Title string
	// Mods are the folders the case's Mods: line names, one for each mod
	// of the setup, in its order: relative to the fixture file.
	Mods []string
}

// Fixture writes the game a replay recorded as a fixture case (the .cases
// format of FIXTURES.md, with this project's Mods:, ModSet:, Marks: and
// Notice:, and the "# Recorded for:" comment of package fixture, which
// names the mods' files as they are now): the configuration, the mods and
// their settings, the seed, the board the last game started from as
// Given:, then each move that stands, with the spawns it had as its
// SpawnScript: and its board, score change,
// status, marks and the mods' messages to the player (Notice:, each run of
// white space in a message one space) as what to expect. Moves taken back
// by undo (and not redone) are left out: undo restores the random source,
// so the moves that stand, played from the start, are the game. `2048
// test` passes the case as written; a mod author then edits an expectation
// into what the mod should have done.
func (f *File) Fixture(setup session.Setup, o FixtureOptions) ([]byte, error) {
	if len(o.Mods) != len(setup.Mods) {
		return nil, fmt.Errorf("%d mod folders for %d mods", len(o.Mods), len(setup.Mods))
	}
	// The actions that stand: the moves of the last game, less those undone.
	first, line, err := f.standing()
	if err != nil {
		return nil, err
	}
	s, err := f.Resume(setup)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	if first > 0 {
		// The last game starts afresh at its new game, under the setup's
		// mods: what came before it (other games, reloads) leaves nothing
		// in it, and is not played again.
		if err := f.Apply(s, first-1); err != nil {
			return nil, err
		}
	}
	start := s.State()
	given := start.Board
	if first == 0 && f.Origin != nil {
		// The recording began with its game: the board before the mods'
		// start handlers, which the runner's game runs again.
		b, err := engine.ParseRows(s.Rules(), f.Origin, given.Width, given.Height)
		if err != nil {
			return nil, fmt.Errorf("the replay's origin: %w", err)
		}
		given = b
	} else if origin, ok := s.Origin(); ok && first > 0 {
		// The board before the mods' start handlers: the runner's game
		// runs them again, as this one did.
		given = origin
	} else if len(start.Marks) > 0 {
		return nil, errors.New("the game starts with marks on the board, and a fixture's Given: cannot set them: start a new game and write the fixture from it")
	}
	s.WatchSpawns()
	s.TakeNotices() // the messages of what came before the case's moves

	var b strings.Builder
	r := s.Rules()
	c := setup.Config
	fmt.Fprintf(&b, "Case: %s %s\n", o.ID, o.Title)
	fmt.Fprintf(&b, "# Written by 2048 from a recording; moves taken back by undo are left out.\n")
	// The mods' files as they are now, the code the case's moves were
	// played under: the runner says when the case fails on other code. A
	// mod whose files cannot all be read so (past the limits of a replay's
	// sources) leaves the comment out, and the case is written as before.
	recorded := map[string]string{}
	for i, m := range setup.Mods {
		src, err := m.Sources()
		if err != nil {
			recorded = nil
			break
		}
		mod.RecordedFiles(recorded, o.Mods[i], src)
	}
	b.WriteString(mod.RecordedComment(recorded))
	if c.Ruleset != engine.ClassicName {
		fmt.Fprintf(&b, "Ruleset: %s\n", c.Ruleset)
	}
	fmt.Fprintf(&b, "Difficulty: %s\n", c.Preset)
	base, err := config.Preset(c.Preset)
	if err != nil {
		return nil, err
	}
	changes, err := c.Changes(base)
	if err != nil {
		return nil, err
	}
	if len(changes) > 0 {
		fmt.Fprintf(&b, "Config: %s\n", strings.Join(changes, " "))
	}
	if len(setup.Mods) > 0 {
		fmt.Fprintf(&b, "Mods: %s\n", strings.Join(o.Mods, " "))
		var sets []string
		for _, m := range setup.Mods {
			for _, k := range slices.Sorted(maps.Keys(m.Values)) {
				if v := m.Values[k]; v != m.Manifest.Settings[k].Default {
					sets = append(sets, fmt.Sprintf("%s.%s=%s", m.ID(), k, tomlValue(v)))
				}
			}
		}
		if len(sets) > 0 {
			fmt.Fprintf(&b, "ModSet: %s\n", strings.Join(sets, " "))
		}
	}
	fmt.Fprintf(&b, "Seed: %d\n", s.Options().Seed)
	b.WriteString("Given:\n")
	writeBoard(&b, r, &engine.State{Board: given})
	score := start.Score
	for _, i := range line {
		a, err := f.Actions[i].action()
		if err != nil {
			return nil, err
		}
		if err := s.Play(a); err != nil {
			return nil, &Divergence{Action: i + 1, Turn: f.Actions[i].Turn, What: fmt.Sprintf("%s cannot be played again under the mods as they stand (%v): start a new game and record it again", describe(f.Actions[i]), err)}
		}
		st := s.State()
		if d := f.Actions[i].Digest; d != "" && session.Digest(r, st) != d {
			return nil, &Divergence{Action: i + 1, Turn: f.Actions[i].Turn, What: fmt.Sprintf("after %s the game differs from the recording: %s", describe(f.Actions[i]), differences(f.Actions[i].State, session.Summarize(r, st), st))}
		}
		fmt.Fprintf(&b, "Move: %s\n", a.Dir)
		if sp := s.LastSpawns(); len(sp) > 0 {
			parts := make([]string, len(sp))
			for j, e := range sp {
				parts[j] = fmt.Sprintf("{%d,%d,%s}", e.Pos.Row, e.Pos.Col, r.FormatCell(e.Cell))
			}
			fmt.Fprintf(&b, "SpawnScript: [%s]\n", strings.Join(parts, ", "))
		} else {
			b.WriteString("SpawnScript: []\n")
		}
		b.WriteString("Expect:\n")
		writeBoard(&b, r, st)
		delta, err := scoreDelta(r, score, st.Score)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "ScoreΔ: %s\n", delta)
		fmt.Fprintf(&b, "Status: %s\n", s.Status()) // the mods' refusals count, as the runner counts them
		if len(setup.Mods) > 0 {
			fmt.Fprintf(&b, "Marks: %s\n", engine.FormatMarks(st.Marks))
			notices := s.TakeNotices()
			for _, n := range notices {
				fmt.Fprintf(&b, "Notice: %s: %s\n", n.Mod, strings.Join(strings.Fields(n.Text), " "))
			}
			if len(notices) == 0 {
				b.WriteString("Notice: none\n")
			}
		}
		score = st.Score
	}
	return []byte(b.String()), nil
}

// standing returns the index of the first action of the last game (after
// its last new game) and the indexes of the moves that stand at the end.
func (f *File) standing() (first int, line []int, err error) {
	var undone []int
	for i, st := range f.Actions {
		switch session.ActionKind(st.Action) {
		case session.ActionNew:
			first, line, undone = i+1, nil, nil
		case session.ActionMove:
			line, undone = append(line, i), nil
		case session.ActionUndo:
			if len(line) == 0 {
				return 0, nil, fmt.Errorf("action %d undoes a move from before the recording: a fixture starts where the recording does", i+1)
			}
			undone = append(undone, line[len(line)-1])
			line = line[:len(line)-1]
		case session.ActionRedo:
			if len(undone) == 0 {
				return 0, nil, fmt.Errorf("action %d redoes a move from before the recording", i+1)
			}
			line = append(line, undone[len(undone)-1])
			undone = undone[:len(undone)-1]
		case session.ActionKeepPlaying:
			return 0, nil, fmt.Errorf("action %d keeps playing after a win, which a fixture cannot write", i+1)
		}
	}
	return first, line, nil
}

func writeBoard(b *strings.Builder, r engine.Rules, st *engine.State) {
	board := st.Board
	for _, row := range engine.FormatRows(r, &board) {
		b.WriteString(row)
		b.WriteByte('\n')
	}
}

// tomlValue writes a mod setting's value for ModSet:.
func tomlValue(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(v)
}

// scoreDelta writes to-from as the ruleset writes scores, with a minus
// sign when it is negative.
func scoreDelta(r engine.Rules, from, to engine.Score) (string, error) {
	d := new(big.Int).Sub(to.Big(), from.Big())
	abs, err := engine.ScoreFromBig(new(big.Int).Abs(d))
	if err != nil {
		return "", err
	}
	if d.Sign() < 0 {
		return "-" + engine.FormatScore(r, abs), nil
	}
	return engine.FormatScore(r, abs), nil
}

// FixtureFile writes the last game of f as a fixture case for the file at
// path (Fixture), its id the file's name, its mods named by folders
// relative to the file's.
func (f *File) FixtureFile(setup session.Setup, path string) ([]byte, error) {
	at, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	var mods []string
	for _, m := range setup.Mods {
		abs, err := filepath.Abs(m.Dir)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(at, abs)
		if err != nil {
			rel = abs
		}
		if strings.ContainsAny(rel, " \t") {
			return nil, fmt.Errorf("the folder of mod %s (%s) has a space in it, which a fixture's Mods: line cannot name", m.ID(), rel)
		}
		mods = append(mods, filepath.ToSlash(rel))
	}
	id := strings.TrimSuffix(filepath.Base(path), ".cases")
	return f.Fixture(setup, FixtureOptions{ID: id, Title: "written from play", Mods: mods})
}
