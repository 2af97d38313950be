// Package tui is the terminal game: it draws a game's board, header, status
// and overlays on a tcell screen, turns keys into moves, undo, redo and new
// games of a play session (package session, the one door every frontend
// plays through), and autosaves through a Store after each of them.
//
// The pieces, one file each: theme.go (colors for every color mode),
// cells.go (how a cell is written in a few columns), draw.go (the frame),
// help.go (the help overlay), keys.go (input) and this file (the game loop).
package tui

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/mod2048/mod2048/cellular"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
)

// Store keeps a game's save and best score; saves.Slot implements it.
type Store interface {
	// Save writes the game's save, the bytes of session.Session.Save (the
	// autosave).
	Save(game []byte) error
	// Best returns the best score so far (0 for none). An error comes with
	// a usable score: the game reports it and goes on.
	Best(r engine.Rules) (engine.Score, error)
	// SetBest records a score that beats the best.
	SetBest(r engine.Rules, s engine.Score) error
}

// Config is what the terminal game plays.
type Config struct {
	// Ruleset and Difficulty are shown in the header.
	Ruleset, Difficulty string
	// Session is the game to play, with its configuration and mods. The
	// terminal game closes it when it ends (Close).
	Session *session.Session
	// Seed gives the seed of each new game the r key starts; nil: r starts
	// none.
	Seed func() uint64
	// Store saves the game after every change; nil saves nothing.
	Store Store
	// Record, when set, is called after every change of the game (and
	// once at the start), to write the recording (2048 play --record).
	Record func(*session.Session) error
	// Fixture, when set, writes the game so far as a fixture (the f key)
	// and returns the file's path.
	Fixture func(*session.Session) (string, error)
	// Replay, when set, plays a replay back instead of taking moves:
	// Session is then ignored, and nothing is saved.
	Replay Replayer
	// Watch, when set, says that the mods' files changed (--watch); the
	// game then calls Reload between two moves, and shows what came of it.
	Watch  <-chan struct{}
	Reload func(*session.Session) error
	// Advisor suggests moves, for the t key's tip and the p key's
	// autoplay; nil: neither. Autoplay starts the game in autoplay.
	Advisor  Advisor
	Autoplay bool
	// Message is shown in the status line at the start (a save that could
	// not be read, say).
	Message string
	// Unsaved is the error of the game's first save, when it failed: the
	// game starts marked as not saved.
	Unsaved error
	// Colors is the color mode; ColorAuto decides from NO_COLOR and the
	// terminal.
	Colors ColorMode
	// NoAnim turns the slide animation off (--no-anim).
	NoAnim bool
}

type overlay int

const (
	overlayNone overlay = iota
	overlayHelp
	overlayConfirm
	overlayQuit // quit with the game not saved?
	overlayLog  // the mods' logs and the recent messages (L)
)

// App is a running terminal game.
type App struct {
	scr tcell.Screen
	cfg Config
	s   *session.Session
	th  *theme

	overlay overlay
	helpTop int // the first line of the help (or log) the box shows
	msg     string
	msgErr  bool
	// history keeps the status line's messages, whole, for the log view
	// (the L key).
	history []string
	best    engine.Score
	// stableBest is the best stable energy of the cellular game on screen
	// (updateStableBest).
	stableBest int
	quit       bool
	// unsaved is the error of the last autosave while it fails: the game
	// on screen is not the one on disk. The key line says so until a save
	// succeeds.
	unsaved error
	rp      *replayState // playback, when the game plays a replay
	// Autoplay: on or off, its speed (an index in autoSpeeds), and the
	// number of the timer that counts.
	auto      bool
	autoSpeed int
	autoTick  int
	// The slide being shown, if any, and the number of its timer.
	anim  *animation
	animN int
}

// NotSavedError is what Run returns when the player quits while the game
// is not saved: the last autosave failed, and so did one more try.
type NotSavedError struct {
	Err error // the last save's error
}

func (e *NotSavedError) Error() string {
	return "quit with the game not saved: the changes since the last good save are lost (autosave failed: " + e.Err.Error() + ")"
}

func (e *NotSavedError) Unwrap() error { return e.Err }

// New makes the game for screen s, which must be initialized. It reads the
// best score; it does not draw.
func New(s tcell.Screen, cfg Config) (*App, error) {
	if cfg.Replay != nil {
		cfg.Session, cfg.Store, cfg.Record, cfg.Fixture = cfg.Replay.Session(), nil, nil, nil
	}
	if cfg.Session == nil {
		return nil, errors.New("tui: no game")
	}
	a := &App{scr: s, cfg: cfg, s: cfg.Session, th: newTheme(detectColors(cfg.Colors, s))}
	if !cfg.NoAnim {
		a.s.TrackMotions()
	}
	if cfg.Replay != nil {
		a.startReplay()
	}
	a.autoSpeed = autoDefaultSpeed
	if cfg.Autoplay && cfg.Replay == nil {
		a.toggleAuto()
	}
	if cfg.Message != "" {
		a.setError(cfg.Message)
	}
	if cfg.Unsaved != nil {
		a.unsaved = cfg.Unsaved
		a.addError("autosave failed: " + describe(cfg.Unsaved))
	}
	a.record()
	if cfg.Store != nil {
		best, err := cfg.Store.Best(a.s.Rules())
		if err != nil {
			a.addError(err.Error())
		}
		a.best = best
		a.updateBest()
	}
	return a, nil
}

// Run plays cfg on screen s until the player quits: it initializes the
// screen and always restores the terminal, on a panic too (the panic goes
// on once the terminal is back).
func Run(s tcell.Screen, cfg Config) (err error) {
	if err := s.Init(); err != nil {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			s.Fini()
			panic(r)
		}
		s.Fini()
	}()
	a, err := New(s, cfg)
	if err != nil {
		return err
	}
	defer a.Close()
	if cfg.Watch != nil {
		stop := make(chan struct{})
		defer close(stop)
		go func() {
			for {
				select {
				case <-stop:
					return
				case _, ok := <-cfg.Watch:
					if !ok {
						return
					}
					ev := &reloadEvent{}
					ev.SetEventNow()
					s.PostEvent(ev)
				}
			}
		}()
	}
	return a.Run()
}

// Run draws the game and handles events until the player quits. It
// returns a *NotSavedError when the player quit with the game not saved.
func (a *App) Run() error {
	a.Draw()
	for {
		ev := a.scr.PollEvent()
		if ev == nil || !a.HandleEvent(ev) {
			if err := a.Unsaved(); err != nil {
				return &NotSavedError{Err: err}
			}
			return nil
		}
		a.Draw()
	}
}

// Unsaved returns the error of the last autosave if it failed, nil when
// the game on screen is saved.
func (a *App) Unsaved() error { return a.unsaved }

// Session returns the session being played.
func (a *App) Session() *session.Session { return a.s }

// Mode returns the color mode in use.
func (a *App) Mode() ColorMode { return a.th.mode }

// HandleEvent handles one event and reports whether to go on; false once
// the player quits. The caller draws afterwards.
func (a *App) HandleEvent(ev tcell.Event) bool {
	switch ev := ev.(type) {
	case *tcell.EventResize:
		a.scr.Sync()
	case *tcell.EventKey:
		a.key(ev)
	case *replayTick:
		a.onReplayTick(ev)
	case *reloadEvent:
		a.reload()
	case *autoTick:
		a.onAutoTick(ev)
	case *animTick:
		a.onAnimTick(ev)
	}
	return !a.quit
}

func (a *App) setInfo(msg string)  { a.msg, a.msgErr = msg, false; a.remember(msg, false) }
func (a *App) setError(msg string) { a.msg, a.msgErr = msg, true; a.remember(msg, true) }

// addInfo adds msg to the status line, after what is there.
func (a *App) addInfo(msg string) {
	if a.msg != "" {
		a.msg += "; " + msg
		a.remember(msg, false)
		return
	}
	a.setInfo(msg)
}

// addError adds msg to the status line's error, after what is there.
func (a *App) addError(msg string) {
	a.remember(msg, true)
	if a.msg != "" {
		msg = a.msg + "; " + msg
	}
	a.msg, a.msgErr = msg, true
}

// move plays one move and reports what went wrong, if anything.
func (a *App) move(d engine.Direction) {
	switch a.s.Status() {
	case engine.Won:
		a.setInfo("you won: c or Enter to keep playing, r for a new game")
		return
	case engine.Lost:
		a.setInfo(a.lostMessage())
		return
	}
	was := a.s.Status()
	before := a.s.Board()
	res, err := a.s.Move(d)
	var ref *engine.Refusal
	switch {
	case errors.As(err, &ref):
		a.setInfo(ref.Reason)
	case err != nil:
		a.setError(err.Error())
	}
	for _, r := range a.s.TakeReports() {
		a.addError(r.Error())
	}
	a.notices()
	switch now := a.s.Status(); {
	case was == engine.Playing && now == engine.WonContinue && a.msg == "":
		a.setInfo("You win! Play goes on.")
	}
	if res.Changed {
		a.animate(before)
		a.changed()
	}
}

// lostMessage is what a move in a lost game says.
func (a *App) lostMessage() string {
	if m := a.s.StatusMessage(); m != "" {
		return m + ": u to undo, r for a new game"
	}
	return "the game is over: u to undo, r for a new game"
}

// changed autosaves after any change of the game, keeps the best score
// and writes the recording.
func (a *App) changed() {
	a.updateBest()
	a.record()
	if a.cfg.Store == nil {
		return
	}
	a.save()
}

// record writes the recording, when the game is recorded.
func (a *App) record() {
	if a.cfg.Record == nil {
		return
	}
	if err := a.cfg.Record(a.s); err != nil {
		a.addError("recording not written: " + describe(err))
	}
}

// reloadEvent says that the mods' files changed.
type reloadEvent struct{ tcell.EventTime }

// ReloadEvent is the event that makes the game reload its mods, as Watch
// does: for tests that drive HandleEvent.
func ReloadEvent() tcell.Event {
	ev := &reloadEvent{}
	ev.SetEventNow()
	return ev
}

// reload reads the mods again (--watch): between two moves, as events
// come between keys.
func (a *App) reload() {
	if a.cfg.Reload == nil {
		return
	}
	if err := a.cfg.Reload(a.s); err != nil {
		// Every error at once, as the lab and mod check say them: the
		// first on the status line, all of them in the log view.
		errs := reloadErrors(err)
		say := errs[0]
		if len(errs) > 1 {
			say = fmt.Sprintf("%d errors (L lists them), the first: %s", len(errs), errs[0])
		}
		a.setError("mods not reloaded, the last good version runs: " + say)
		for _, e := range errs[1:] {
			a.remember(e, true)
		}
		return
	}
	a.setInfo("mods reloaded")
	for _, m := range a.s.Mods() {
		if a.s.Disabled(m.ID()) {
			a.addInfo(m.Manifest.Name + " stays off in this game: u undoes to before its errors, r starts a new game with it")
		}
	}
}

// reloadErrors are the errors of a reload's err, each as reloadError says
// it: a manifest's several (errors.Join of them) one by one.
func reloadErrors(err error) []string {
	list, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return []string{reloadError(err)}
	}
	var out []string
	for _, e := range list.Unwrap() {
		out = append(out, reloadErrors(e)...)
	}
	if len(out) == 0 {
		return []string{reloadError(err)}
	}
	return out
}

// reloadError is what the status line says of a reload's error: an error
// in a mod's file by the mod and the place in its folder, read from the
// error's values (a full path would not fit the line), any other as it is.
func reloadError(err error) string {
	var fe *mod.FileError
	if !errors.As(err, &fe) || fe.File == "" {
		return err.Error()
	}
	id := fe.Mod
	if id == "" {
		id = filepath.Base(fe.Dir)
	}
	place := fe.File
	if fe.Line > 0 {
		place += fmt.Sprintf(":%d", fe.Line)
		if fe.Column > 0 {
			place += fmt.Sprintf(":%d", fe.Column)
		}
	}
	if fe.Key != "" {
		place += ": " + fe.Key
	}
	return fmt.Sprintf("%s %s: %s", id, place, fe.Message)
}

// fixture writes the game so far as a fixture (the f key).
func (a *App) fixture() {
	if a.cfg.Fixture == nil {
		a.setError("no fixture: this game is not recorded")
		return
	}
	path, err := a.cfg.Fixture(a.s)
	if err != nil {
		a.setError("no fixture: " + err.Error())
		return
	}
	a.setInfo("fixture written: " + path + " (run it: 2048 test " + path + ")")
}

// save writes the game through the store and keeps whether it failed. The
// status line tells the first failure (and a new reason); the key line
// then says "NOT SAVED" until a save succeeds.
func (a *App) save() {
	data, err := a.s.Save()
	if err == nil {
		err = a.cfg.Store.Save(data)
	}
	if err != nil {
		if a.unsaved == nil || a.unsaved.Error() != err.Error() {
			a.addError("autosave failed: " + describe(err))
		}
		a.unsaved = err
		return
	}
	if a.unsaved != nil {
		a.addInfo("saved again")
	}
	a.unsaved = nil
}

// quitKey is q: it quits, but while the game is not saved, it tries once
// more and, if that fails too, asks first.
func (a *App) quitKey() {
	if a.unsaved != nil && a.cfg.Store != nil {
		a.save()
	}
	if a.unsaved == nil || !a.fits() {
		// Saved; or the screen is too small to ask: Run's error says it.
		a.quit = true
		return
	}
	a.overlay = overlayQuit
}

func (a *App) updateBest() {
	a.updateStableBest()
	score := a.s.Score()
	if score.Cmp(a.best) <= 0 {
		return
	}
	a.best = score
	if a.cfg.Store != nil {
		if err := a.cfg.Store.SetBest(a.s.Rules(), score); err != nil {
			a.addError("best score not saved: " + err.Error())
		}
	}
}

func (a *App) undo() {
	if err := a.s.Undo(); err != nil {
		a.setInfo(err.Error())
		return
	}
	a.changed()
}

func (a *App) redo() {
	if err := a.s.Redo(); err != nil {
		a.setInfo(err.Error())
		return
	}
	a.changed()
}

func (a *App) keepPlaying() {
	if a.s.Status() != engine.Won {
		return
	}
	if err := a.s.KeepPlaying(); err != nil {
		a.setError(err.Error())
		return
	}
	a.setInfo("keep going!")
	a.changed()
}

func (a *App) newGame() {
	if a.cfg.Seed == nil {
		a.setError("no new game: nothing to make one from")
		return
	}
	if err := a.s.NewGame(a.cfg.Seed()); err != nil {
		a.setError(fmt.Sprintf("new game: %v", err))
		return
	}
	a.setInfo("new game")
	a.changed()
}

// updateStableBest keeps the best stable energy of the cellular game on
// screen: the alive energy of its best stable turn, which the goal line
// shows when the game is over (how close it came). A new game, or one
// undone to its start, starts it again; a game opened from a save starts
// from its last turn.
func (a *App) updateStableBest() {
	st := a.s.State()
	if st.Turn == 0 {
		a.stableBest = 0
		return
	}
	if st.Vars[cellular.VarStreak] > 0 {
		a.stableBest = max(a.stableBest, int(st.Vars[cellular.VarBase]))
	}
}

// Close ends the mods' Lua states.
func (a *App) Close() {
	if a.rp != nil {
		a.rp.r.Session().Close()
		return
	}
	a.s.Close()
}

// modNames returns the loaded mods' names, in load order.
func (a *App) modNames() string {
	var names []string
	for _, m := range a.s.Mods() {
		name := m.Manifest.Name
		if a.s.Disabled(m.ID()) {
			name += " (off)"
		}
		names = append(names, name)
	}
	return strings.Join(names, ", ")
}
