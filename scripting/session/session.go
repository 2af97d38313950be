// Package session is the one door to a game of 2048: a configuration, the
// mods and the game they make, built one way and played one way. Every
// frontend plays through it: the terminal game, the fixture runner, the
// balance lab, replays and the browser; so does a Go program that embeds
// the host.
//
// An embedder builds a configuration with package config (config.Build, or
// config.Preset and Config.Set), loads mods with mod.Load, and
// starts a Session with New (a new game, or a given board) or Resume (the
// bytes of Save). Moves, undo and redo go through the Session, which runs
// the mods when there are any and reports their errors (TakeReports)
// without stopping the game. Legal and Status are the player's view: a
// direction a mod refuses is not legal, and a game whose every move is
// refused is lost.
//
// StatusMessage says why a game is over, in the player's words ("the
// colony died out", "every move is refused by One Way"); TakeNotices gives
// the mods' messages to the player (game.notify).
//
// The package's Example (example_test.go, run by go test) is a whole
// program that plays a modded game through a Session. To print a board,
// engine.FormatRows writes its rows in the ruleset's notation (as fixtures
// and the terminal write them), engine.ParseRows reads them back,
// engine.FormatScore writes a score as the rules do (cellular keeps quarter
// points) and engine.FormatMarks writes the marks.
//
// A Session is not safe for concurrent use. Close ends its mods' Lua
// states.
package session

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
)

// Setup is what every game of a session is made from: its configuration
// and its mods.
type Setup struct {
	// Config is the game's configuration; it must be valid.
	Config *config.Config
	// Mods are the mods to run, loaded (mod.Load) with their
	// settings applied; none for a game without mods.
	Mods []*mod.Mod
	// Limits are the mods' budgets; the zero value means
	// scripting.DefaultLimits().
	Limits scripting.Limits
	// Deterministic is for the runs whose result must be the same on every
	// machine (the lab, replays, fixtures, mod check): a mod's call that
	// the wall-clock failsafe stops (Limits.FailsafeTime) would make the
	// result depend on the machine's speed, so it ends the game's run
	// instead of counting as the mod's failure: New, Move, NewGame, Reload
	// and Play fail with a *scripting.CostModelError (errors.As finds it),
	// the game stays as it was, and Err keeps the error. The frontends for
	// play leave it off: there the failsafe stops the mod's call and the
	// game goes on without the mod's effects on the turn
	// (scripting.Deterministic).
	Deterministic bool
}

// Start says how a new game begins.
type Start struct {
	// Seed seeds the game's random source, and the mods' streams.
	Seed uint64
	// Scripted makes the game spawn only from its spawn queue, as fixtures
	// without a seed do.
	Scripted bool
	// Board is a given starting board (a fixture's Given:); nil starts a
	// new game with the ruleset's initial spawns.
	Board *engine.Board
	// Spawns is the spawn queue the game starts with.
	Spawns []engine.SpawnEntry
	// NoUndo keeps no history for undo and redo, whatever the
	// configuration's undo_limit: a game that never takes a move back (the
	// lab's) then copies no state a move. The game plays the same.
	NoUndo bool
}

// Session is a game being played with its configuration and mods.
type Session struct {
	setup Setup
	g     *engine.Game
	host  *scripting.Host // nil without mods

	reports []scripting.Report
	// The player's view of the current state, worked out after every
	// change: the legal directions (a mod's refusal makes one illegal) and
	// whether the mods refuse every move the rules allow.
	// It is worked out lazily (known tells what is), so a frontend that
	// never asks pays nothing for it.
	known   uint8
	legal   engine.DirSet
	stuck   bool
	refusal string // why the game is stuck: the last refusal's reason
	refuser string // and the mod that refused

	journal *journal  // what was played, while recording (Record)
	spy     *spawnSpy // the spawns of the last move, while watched (WatchSpawns)
	// tracking: the games record their moves' motions (TrackMotions).
	tracking bool
	// origin: the board the game was made with, before the mods' start
	// handlers; nil for a resumed game.
	origin *engine.Board
}

// ModsError is the error of mods that could not be loaded for a game (a
// Lua error in an entry file, a missing dependency, ...): the game itself
// was fine.
type ModsError struct{ Err error }

// Error names an error in a mod's file by its place, as compilers do:
// the mod's folder as it was given, the file, line and column
// (broken/main.lua:11:3: 'end' expected ...; *mod.FileError's Error), so
// that every front end that loads a mod from a folder says it alike. Any
// other error is as it is.
func (e *ModsError) Error() string {
	if fe := (*mod.FileError)(nil); errors.As(e.Err, &fe) && fe.File != "" {
		return fe.Error()
	}
	return e.Err.Error()
}
func (e *ModsError) Unwrap() error { return e.Err }

// ErrNoGame is returned by a Setup without a configuration.
var ErrNoGame = errors.New("session: no configuration")

// newHost loads mods for a game of rules and opt as the setup says.
func (s Setup) newHost(mods []*mod.Mod, rules engine.Rules, opt engine.Options) (*scripting.Host, error) {
	var options []scripting.HostOption
	if s.Deterministic {
		options = append(options, scripting.Deterministic())
	}
	return scripting.NewHost(mods, rules, opt, s.limits(), options...)
}

func (s Setup) limits() scripting.Limits {
	if s.Limits == (scripting.Limits{}) {
		return scripting.DefaultLimits()
	}
	return s.Limits
}

// New starts a new game of setup as st says.
func New(setup Setup, st Start) (*Session, error) {
	if setup.Config == nil {
		return nil, ErrNoGame
	}
	s := &Session{setup: setup}
	g, host, origin, err := s.build(st)
	if err != nil {
		return nil, err
	}
	s.g, s.host, s.origin = g, host, origin
	if host != nil {
		s.reports = host.TakeReports()
	}
	s.settle()
	return s, nil
}

// build makes a game and its host as st says, touching nothing of s's
// current game; it returns the board the game was made with, before the
// mods' start handlers too.
func (s *Session) build(st Start) (*engine.Game, *scripting.Host, *engine.Board, error) {
	rules, opt, err := s.setup.Config.Game(st.Seed, st.Scripted)
	if err != nil {
		return nil, nil, nil, err
	}
	if st.NoUndo {
		opt.UndoLimit = 0
	}
	var g *engine.Game
	if st.Board != nil {
		if g, err = engine.NewFromBoard(rules, opt, *st.Board); err != nil {
			return nil, nil, nil, err
		}
		g.AddSpawns(st.Spawns...)
	} else if g, err = engine.New(rules, opt, st.Spawns...); err != nil {
		return nil, nil, nil, err
	}
	origin := g.Board()
	host, err := s.attach(g)
	if err != nil {
		return nil, nil, nil, err
	}
	if host != nil {
		// A new game begins: the mods' start handlers place what they
		// place on its first state.
		// Their errors wait in the host for TakeReports.
		if err := host.Start(g); err != nil {
			host.Close()
			return nil, nil, nil, err
		}
	}
	return g, host, &origin, nil
}

// Origin returns the board the current game was made with, before the
// mods' start handlers placed anything (a fixture's Given: is this board:
// the runner's game runs the start handlers again); false for a resumed
// game, whose beginning the session did not see.
func (s *Session) Origin() (engine.Board, bool) {
	if s.origin == nil {
		return engine.Board{}, false
	}
	return s.origin.Clone(), true
}

// attach loads the mods for g and hooks them in; no mods, no host.
func (s *Session) attach(g *engine.Game) (*scripting.Host, error) {
	if len(s.setup.Mods) == 0 {
		return nil, nil
	}
	host, err := s.setup.newHost(s.setup.Mods, g.Rules(), g.Options())
	if err != nil {
		return nil, &ModsError{err}
	}
	host.Attach(g)
	return host, nil
}

// Resume continues the game that Save wrote, under setup. A save that
// cannot be read, or whose game does not match setup's configuration (its
// ruleset, rules, board size or undo limit), is an error; nothing is
// started.
func Resume(setup Setup, save []byte) (*Session, error) {
	if setup.Config == nil {
		return nil, ErrNoGame
	}
	g, err := engine.Unmarshal(save)
	if err != nil {
		return nil, err
	}
	if err := Matches(setup.Config, g); err != nil {
		return nil, err
	}
	s := &Session{setup: setup, g: g}
	if s.host, err = s.attach(g); err != nil {
		return nil, err
	}
	s.settle()
	return s, nil
}

// Matches reports whether g is a game of configuration c: the same
// ruleset with the same settings, board size, undo limit and spawn mode
// (engine.Game.CheckConfig). A save made under another configuration is
// refused rather than played under the wrong rules.
func Matches(c *config.Config, g *engine.Game) error {
	rules, opt, err := c.Game(g.Options().Seed, false)
	if err != nil {
		return err
	}
	if err := g.CheckConfig(rules, opt); err != nil {
		return fmt.Errorf("not a game of this configuration: %w", err)
	}
	return nil
}

// Close ends the mods' Lua states.
func (s *Session) Close() {
	if s.host != nil {
		s.host.Close()
	}
}

// NewGame replaces the game with a new one of the same configuration and
// mods, seeded with seed. On an error the session keeps the game it had.
func (s *Session) NewGame(seed uint64) error {
	g, host, origin, err := s.build(Start{Seed: seed})
	if err != nil {
		return err
	}
	s.Close()
	s.g, s.host, s.reports, s.origin = g, host, nil, origin
	if host != nil {
		s.reports = host.TakeReports()
	}
	if s.spy != nil {
		s.hook(g)
	}
	g.TrackMotions(s.tracking || host != nil && host.WantsMotions())
	s.settle()
	s.note(Action{Kind: ActionNew, Seed: seed})
	return nil
}

// Move plays one move. A move that changes nothing, and a move in a game
// that is over (Status), is a no-op that returns a zero Result and no
// error. A move a mod refuses returns its *engine.Refusal; a mod's error
// does not fail the move: the move is played without the mod's effects and
// the error is kept for TakeReports. Any other error leaves the game as it
// was.
func (s *Session) Move(d engine.Direction) (engine.Result, error) {
	if s.stuckNow() {
		return engine.Result{}, nil
	}
	var res engine.Result
	var err error
	if s.host != nil {
		res, err = s.host.Move(s.g, d)
		s.reports = append(s.reports, s.host.TakeReports()...)
	} else {
		res, err = s.g.Move(d)
	}
	if res.Changed || s.host != nil {
		// A mod's failure can disable it, which changes what it refuses.
		s.settle()
	}
	if res.Changed && s.journal != nil {
		s.note(Action{Kind: ActionMove, Dir: d, Faults: s.turnFaults()})
	}
	return res, err
}

// Undo takes back the last move.
func (s *Session) Undo() error { return s.travel(s.g.Undo, ActionUndo) }

// Redo plays again the last move taken back.
func (s *Session) Redo() error { return s.travel(s.g.Redo, ActionRedo) }

// KeepPlaying goes on after a win, when the game stops on a win.
func (s *Session) KeepPlaying() error { return s.travel(s.g.KeepPlaying, ActionKeepPlaying) }

func (s *Session) travel(step func() error, kind ActionKind) error {
	if err := step(); err != nil {
		return err
	}
	s.settle()
	s.note(Action{Kind: kind})
	return nil
}

// settle marks the player's view as stale, after a change of the game.
func (s *Session) settle() { s.known = 0 }

// What of the player's view is worked out for the current state.
const (
	knowStuck = 1 << iota // stuck and refusal
	knowLegal             // legal
)

// check works out whether the mods refuse every move the rules allow. It
// stops at the first direction they let through, so a move under a mod
// that refuses costs one dry run, not four.
func (s *Session) check() {
	if s.known&knowStuck != 0 {
		return
	}
	s.known |= knowStuck
	s.stuck, s.refusal, s.refuser = false, "", ""
	legal := s.g.LegalMoves()
	if legal == 0 {
		return
	}
	for _, d := range engine.Directions {
		if !legal.Has(d) {
			continue
		}
		ref := s.host.Refused(s.g, d)
		if ref == nil {
			return
		}
		s.refusal, s.refuser = ref.Reason, ref.By
	}
	s.stuck = true
}

// stuckNow reports whether the mods refuse every move the rules allow:
// never without a mod that handles before_move.
func (s *Session) stuckNow() bool {
	if s.host == nil || !s.host.HasRefusers(s.g) {
		return false
	}
	s.check()
	return s.stuck
}

// Save writes the game as a save (engine.Game.Marshal): the same game
// always gives the same bytes.
func (s *Session) Save() ([]byte, error) { return s.g.Marshal() }

// Legal returns the directions a move may go: those that change the board
// and that no mod refuses. None when the game is over.
func (s *Session) Legal() engine.DirSet {
	if s.host == nil || !s.host.HasRefusers(s.g) {
		return s.g.LegalMoves()
	}
	if s.known&knowLegal == 0 {
		s.known |= knowLegal
		s.legal = 0
		for _, d := range s.g.LegalMoves().List() {
			if s.host.Refused(s.g, d) == nil {
				s.legal = s.legal.With(d)
			}
		}
	}
	return s.legal
}

// RulesLegal returns the directions the rules allow, refused or not:
// beside Legal, it says which moves the mods refuse.
func (s *Session) RulesLegal() engine.DirSet { return s.g.LegalMoves() }

// closedNow reports whether no move changes the board while the rules
// say the game goes on: a board emptied of every tile, where no spawn
// comes (the rules spawn after a move that changes the board). The rules
// keep such a game Playing (an empty board is, in the classic spec); the
// player can do nothing but start again, and Ending says so.
func (s *Session) closedNow() bool {
	return s.g.Status() == engine.Playing && s.g.LegalMoves() == 0
}

// Status returns where the game stands for the player: the engine's
// status, except that a game whose every move the mods refuse is Lost
// (StatusMessage says why).
func (s *Session) Status() engine.Status {
	if s.stuckNow() {
		return engine.Lost
	}
	return s.g.Status()
}

// StatusMessage says why the game is won or lost, in a player's words
// ("" while it goes on): the mods refuse every move the rules allow (the
// refusing mod's reason), or what the rules say (engine.Explainer): no
// move left, the colony died out, the turn limit ran out, the goal
// reached.
func (s *Session) StatusMessage() string {
	if s.stuckNow() {
		name, reason, ok := strings.Cut(s.refusal, ": ")
		if !ok {
			return "no move left: every move is refused (" + s.refusal + ")"
		}
		return "no move left: every move is refused by " + name + " (" + reason + ")"
	}
	if e, ok := s.g.Rules().(engine.Explainer); ok {
		return e.Explain(s.g.State())
	}
	return ""
}

// EndRefused is the ending of a game whose every move the mods refuse
// (Session.Ending): the rules would play on.
const EndRefused engine.Ending = "refused"

// Ending says why the game is over, as values ("" while it goes on): the
// mods refuse every move the rules allow (EndRefused, by the last mod to
// refuse), or the rules' ending (engine.Explainer). A game no move
// changes, though the rules play on (a board a mod emptied of every
// tile), ended for its player: engine.EndNoMove. A game lost names the mod
// whose doing lost it, when a mod's did (engine.Blame): the blocking marks
// of its hazard, or the cells it set on the last turn.
func (s *Session) Ending() (end engine.Ending, mod, hazard string) {
	if s.stuckNow() {
		return EndRefused, s.refuser, ""
	}
	e, ok := s.g.Rules().(engine.Explainer)
	if !ok {
		return "", "", ""
	}
	st := s.g.State()
	end = e.Ending(st)
	if s.closedNow() {
		// Lost for the player, though not for the rules.
		c := st.Clone()
		c.Status, st, end = engine.Lost, &c, engine.EndNoMove
	}
	if end == engine.EndNoMove || end == engine.EndDiedOut {
		if b, ok := engine.Blame(s.g.Rules(), st, s.g.LastEdits()); ok {
			mod, hazard = b.Mod, b.Hazard
		}
	}
	return end, mod, hazard
}

// TakeNotices returns the mods' messages to the player (game.notify) of
// the moves played since the last call, oldest first: for the terminal's
// status line, the browser's toasts.
func (s *Session) TakeNotices() []scripting.Notice {
	if s.host == nil {
		return nil
	}
	return s.host.TakeNotices()
}

// Err returns the *scripting.CostModelError that ended a deterministic
// session (Setup.Deterministic), or nil. Move returns it too; Err is for a
// frontend that ends without a move after asking Legal or Status, whose
// dry runs of the mods can meet the failsafe, as can a search's forks.
func (s *Session) Err() error {
	if s.host == nil {
		return nil
	}
	return s.host.Err()
}

// TakeReports returns the mods' errors since the last call.
func (s *Session) TakeReports() []scripting.Report {
	r := s.reports
	s.reports = nil
	return r
}

// State returns the current state: read it, do not change it, and do not
// keep it across calls that change the game.
func (s *Session) State() *engine.State { return s.g.State() }

// Board returns a copy of the current board.
func (s *Session) Board() engine.Board { return s.g.Board() }

// Score returns the current score.
func (s *Session) Score() engine.Score { return s.g.Score() }

// Rules returns the game's ruleset.
func (s *Session) Rules() engine.Rules { return s.g.Rules() }

// Options returns the game's options.
func (s *Session) Options() engine.Options { return s.g.Options() }

// Config returns the session's configuration.
func (s *Session) Config() *config.Config { return s.setup.Config }

// HistoryLen returns how many moves Undo and Redo can take back and replay.
func (s *Session) HistoryLen() (undo, redo int) { return s.g.HistoryLen() }

// AddSpawns appends entries to the spawn queue.
func (s *Session) AddSpawns(entries ...engine.SpawnEntry) { s.g.AddSpawns(entries...) }

// Remaining returns the number of spawn-queue entries not yet used.
func (s *Session) Remaining() int { return s.g.Remaining() }

// Mods returns the loaded mods, in load order; none without mods.
func (s *Session) Mods() []*mod.Mod {
	if s.host == nil {
		return nil
	}
	return s.host.Mods()
}

// Disabled reports whether the mod with the given id has been disabled
// for failing too often.
func (s *Session) Disabled(id string) bool { return s.host != nil && s.host.Disabled(id) }

// Hazards returns the hazards the mods defined, in load order.
func (s *Session) Hazards() []scripting.Hazard {
	if s.host == nil {
		return nil
	}
	return s.host.Hazards()
}

// Hazard returns the hazard of a mark's name.
func (s *Session) Hazard(name string) (scripting.Hazard, bool) {
	if s.host == nil {
		return scripting.Hazard{}, false
	}
	return s.host.Hazard(name)
}

// Log returns the lines a mod printed.
func (s *Session) Log(id string) []string {
	if s.host == nil {
		return nil
	}
	return s.host.Log(id)
}

// Reload replaces the session's mods with mods, the same mods read again
// from their files (a mod being edited), between two moves. The game goes
// on where it is, and each mod keeps its storage and random stream: they
// live in the game's state. On an error (a Lua error in the new files,
// say) the session keeps the mods it had, running.
func (s *Session) Reload(mods []*mod.Mod) error {
	if len(mods) == 0 {
		return errors.New("session: no mods to reload")
	}
	var files []ModFiles
	if s.journal != nil {
		var err error
		if files, err = snapshot(mods); err != nil {
			return &ModsError{err}
		}
	}
	host, err := s.setup.newHost(mods, s.g.Rules(), s.g.Options())
	if err != nil {
		return &ModsError{err}
	}
	old := s.host
	s.setup.Mods, s.host = mods, host
	s.hook(s.g)
	s.g.TrackMotions(s.tracking || host.WantsMotions())
	if old != nil {
		old.Close()
	}
	s.settle()
	s.note(Action{Kind: ActionReload, Mods: files})
	return nil
}

// Fork returns a copy of the game at its current state for search (an AI,
// a lookahead policy): no history, its random source reseeded with seed
// (engine.Game.Fork), and the mods' hooks as a dry run
// (scripting.Host.ForkHooks), so that a search sees what the mods do as
// the player does. Playing it never touches the session's game; play it
// before the session's next move, not beside it.
func (s *Session) Fork(seed uint64) *engine.Game { return s.g.Fork(seed) }

// ModInstructions returns how many Lua instructions the mods' handlers
// have been charged on this session's host, its game's forks and dry runs
// included (scripting.Host.Instructions): their work, the same on every
// machine. 0 without mods; a reload or a new game starts a new host, and
// the count again.
func (s *Session) ModInstructions() int64 {
	if s.host == nil {
		return 0
	}
	return s.host.Instructions()
}

// CountMoves counts in *n the moves the session's game and its forks play
// (engine.Game.CountMoves): a policy's work, searches included, in moves.
// A reload that replaces the game stops the count.
func (s *Session) CountMoves(n *uint64) { s.g.CountMoves(n) }
