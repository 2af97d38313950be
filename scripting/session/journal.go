package session

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
)

// ActionKind says what a player did.
type ActionKind string

// The actions a recording keeps.
const (
	ActionMove        ActionKind = "move" // a move that made a turn
	ActionUndo        ActionKind = "undo" // Undo
	ActionRedo        ActionKind = "redo" // Redo
	ActionKeepPlaying ActionKind = "keep" // KeepPlaying
	ActionNew         ActionKind = "new"  // NewGame, with its seed
	// ActionReload is Reload (a mod edited under --watch), with the mods'
	// files as they were loaded.
	ActionReload ActionKind = "reload"
)

// ModFiles is a mod as a recording keeps it: the mod, and its own files
// (mod.Mod.Sources) as they were when it was loaded, so that a
// replay carries the code that ran.
type ModFiles struct {
	Mod   *mod.Mod
	Files map[string]string
}

// snapshot gathers the files of mods.
func snapshot(mods []*mod.Mod) ([]ModFiles, error) {
	out := make([]ModFiles, 0, len(mods))
	for _, m := range mods {
		files, err := m.Sources()
		if err != nil {
			return nil, err
		}
		out = append(out, ModFiles{Mod: m, Files: files})
	}
	return out, nil
}

// Summary is what a recording keeps of the state after an action, beside
// its Digest, so that a replay that diverges can say what differs and
// show it: the board's rows and the score as the rules write them, and
// digests of the marks, the mods' storage and the faults.
type Summary struct {
	Board                  []string
	Score                  string
	Marks, Storage, Faults string
}

// Summarize is the Summary of a state.
func Summarize(r engine.Rules, st *engine.State) Summary {
	b := st.Board
	part := func(write func(w io.Writer)) string {
		h := sha256.New()
		write(h)
		return hex.EncodeToString(h.Sum(nil)[:4])
	}
	return Summary{
		Board: engine.FormatRows(r, &b),
		Score: engine.FormatScore(r, st.Score),
		Marks: part(func(w io.Writer) {
			for _, m := range st.Marks {
				fmt.Fprintf(w, "mark %+v\n", m)
			}
		}),
		Storage: part(func(w io.Writer) {
			for _, k := range slices.Sorted(maps.Keys(st.Data)) {
				fmt.Fprintf(w, "data %q=%q\n", k, st.Data[k])
			}
		}),
		Faults: part(func(w io.Writer) {
			for _, f := range st.Faults {
				fmt.Fprintf(w, "fault %d %q %q %v %q\n", f.Turn, f.Hook, f.Event, f.Kind, f.Message)
			}
		}),
	}
}

// Action is one thing a player did to a session's game, as a recording
// keeps it: what a replay plays again.
type Action struct {
	Kind ActionKind
	Dir  engine.Direction // ActionMove
	Seed uint64           // ActionNew
	// Faults are the faults of the move's turn (ActionMove): the mods'
	// failures the turn's state recorded. A replay honours the failsafe
	// stops among them (scripting.Host.MoveAsRecorded).
	Faults []engine.Fault
	// Mods are the mods an ActionReload loaded, with their files.
	Mods []ModFiles
	// Turn and Digest say where the action left the game: its turn, and
	// Digest of its state; Summary what a diverging replay shows of it.
	// Recording fills them in; Play ignores them.
	Turn    int
	Digest  string
	Summary Summary
}

// journal is what a recording session keeps: the game it started from and
// what was played since.
type journal struct {
	start   []byte // the game's save when recording began
	seed    uint64 // and its seed
	origin  *engine.Board
	mods    []ModFiles // the mods when recording began
	actions []Action
}

// Record starts recording: from now on the session keeps the game as it is
// (its save) and every action played (moves that make a turn, undo, redo,
// keep playing, new games), for Recording. Recording again starts afresh.
func (s *Session) Record() error {
	start, err := s.Save()
	if err != nil {
		return err
	}
	mods, err := snapshot(s.setup.Mods)
	if err != nil {
		return err
	}
	s.journal = &journal{start: start, seed: s.g.Options().Seed, mods: mods}
	if u, r := s.g.HistoryLen(); s.origin != nil && s.g.State().Turn == 0 && u == 0 && r == 0 {
		o := s.origin.Clone()
		s.journal.origin = &o
	}
	return nil
}

// Recording is what a session recorded since Record.
type Recording struct {
	Start []byte // the save of the game it started from
	Seed  uint64 // that game's seed
	// Origin is the board that game was made with, before the mods' start
	// handlers, when recording began as the game did (Origin); nil
	// otherwise.
	Origin *engine.Board
	// Mods are the mods when recording began, with their files.
	Mods    []ModFiles
	Actions []Action
}

// Recording returns what was recorded since Record; ok is false when the
// session does not record. Its slices are the session's: read them before
// the next action.
func (s *Session) Recording() (r Recording, ok bool) {
	if s.journal == nil {
		return r, false
	}
	return Recording{Start: s.journal.start, Seed: s.journal.seed, Origin: s.journal.origin, Mods: s.journal.mods, Actions: s.journal.actions}, true
}

func (s *Session) note(a Action) {
	if s.journal != nil {
		st := s.g.State()
		a.Turn, a.Digest, a.Summary = st.Turn, Digest(s.g.Rules(), st), Summarize(s.g.Rules(), st)
		s.journal.actions = append(s.journal.actions, a)
	}
}

// Digest is a short digest of what a state holds for the player and the
// mods: board, score, status, turn, spawn cursor, random source, counters,
// mod storage, marks and faults. Two states with the same digest are the
// same game; a replay compares them step by step.
func Digest(r engine.Rules, st *engine.State) string {
	h := sha256.New()
	b := st.Board
	fmt.Fprintf(h, "%s|%s|%s|%d|%d|%v\n", strings.Join(engine.FormatRows(r, &b), "/"), engine.FormatScore(r, st.Score), st.Status, st.Turn, st.Next, st.RNG)
	for _, k := range slices.Sorted(maps.Keys(st.Vars)) {
		fmt.Fprintf(h, "var %q=%d\n", k, st.Vars[k])
	}
	for _, k := range slices.Sorted(maps.Keys(st.Data)) {
		fmt.Fprintf(h, "data %q=%q\n", k, st.Data[k])
	}
	for _, m := range st.Marks {
		fmt.Fprintf(h, "mark %+v\n", m)
	}
	for _, f := range st.Faults {
		fmt.Fprintf(h, "fault %d %q %q %v %q\n", f.Turn, f.Hook, f.Event, f.Kind, f.Message)
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// turnFaults returns the faults the current state recorded on its turn.
func (s *Session) turnFaults() []engine.Fault {
	st := s.g.State()
	var out []engine.Fault
	for _, f := range st.Faults {
		if f.Turn == st.Turn {
			out = append(out, f)
		}
	}
	return out
}

// ErrDiverged is the error of an action a replay cannot play as recorded.
var ErrDiverged = errors.New("the game does not go as recorded")

// Play plays one recorded action, as the recording says it went: a move's
// mods that a failsafe stopped on the recorded turn are stopped again
// (whether a failsafe fires depends on the machine); the rest is played and
// measured as ever. A move that now makes no turn, or an undo, redo or
// keep playing that is now refused, is an error wrapping ErrDiverged; in a
// deterministic session a call the failsafe stops is the
// *scripting.CostModelError, not a divergence.
func (s *Session) Play(a Action) error {
	switch a.Kind {
	case ActionMove:
		if s.stuckNow() {
			return fmt.Errorf("%w: move %v: the mods refuse every move", ErrDiverged, a.Dir)
		}
		var res engine.Result
		var err error
		if s.host != nil {
			res, err = s.host.MoveAsRecorded(s.g, a.Dir, a.Faults)
			s.reports = append(s.reports, s.host.TakeReports()...)
		} else {
			res, err = s.g.Move(a.Dir)
		}
		s.settle()
		if cm := (*scripting.CostModelError)(nil); errors.As(err, &cm) {
			return cm // the machine, not the replay, stops here
		}
		if err != nil {
			return fmt.Errorf("%w: move %v: %v", ErrDiverged, a.Dir, err)
		}
		if !res.Changed {
			return fmt.Errorf("%w: move %v changes nothing", ErrDiverged, a.Dir)
		}
		s.note(Action{Kind: ActionMove, Dir: a.Dir, Faults: s.turnFaults()})
		return nil
	case ActionUndo, ActionRedo, ActionKeepPlaying:
		step := map[ActionKind]func() error{ActionUndo: s.Undo, ActionRedo: s.Redo, ActionKeepPlaying: s.KeepPlaying}[a.Kind]
		if err := step(); err != nil {
			return fmt.Errorf("%w: %s: %v", ErrDiverged, a.Kind, err)
		}
		return nil
	case ActionNew:
		return s.NewGame(a.Seed)
	case ActionReload:
		mods := make([]*mod.Mod, len(a.Mods))
		for i, m := range a.Mods {
			mods[i] = m.Mod
		}
		return s.Reload(mods)
	}
	return fmt.Errorf("unknown action %q", a.Kind)
}
