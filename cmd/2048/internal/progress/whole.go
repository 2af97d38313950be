package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mod2048/mod2048/scripting/sim"
	"golang.org/x/term"
)

// Whole is the progress of a whole study or tune on stderr, one line for
// all of it: its phase (a study's run i of n, a tune's screen, search or
// check), the work done of the whole budget, and the time left for all
// of it, at the pace of the work played so far. A run's work counts up
// to its share of the budget; a run whose games play past its share (the
// budget counts in game order: the games under way play on until those
// before them are known to spend it, each at most the share's work by
// itself) says so, by how much and how much more they may do (Pending),
// and so does a total that grows (a tune's screen that needs a second
// pass), with why. When a line is
// written is the caller's (Go's ticker, or Line); nothing it says but
// the time left reads the clock, which is injected (now).
type Whole struct {
	w    io.Writer
	now  func() time.Time
	what string // "study", "tune"
	unit string // "moves", "games"
	// upTo: the total is the most the work may come to (a budget, runs
	// played to a precision), not the work it will come to.
	upTo bool
	// term: stderr is a terminal, where the line is drawn again in place
	// (Writer clears it for the lines written around it).
	term bool

	// Live is the work of the run under way so far (its games' moves with
	// a budget, else its games done): sim.Options.Played, or Games.
	// Pending is the most work its games under way may still do, with a
	// budget (sim.Options.Pending).
	Live, Pending atomic.Uint64

	mu         sync.Mutex
	start      time.Time
	phase      string
	run, runs  int
	done       uint64 // the work counted of the runs and phases ended
	played     uint64 // the work played of the runs ended (past their shares too)
	total      uint64
	share      uint64 // the run under way's share of the total (0: none)
	grew       string // why the total last grew
	shown      bool   // a line is drawn in place (term)
	ended      bool
	stopTicker chan struct{}
}

// NewWhole returns the progress of a study or tune (what) on w, counting
// its work in unit ("moves", "games") of total; upTo says the total is a
// most (a budget). now is the clock, time.Now but in tests.
func NewWhole(w io.Writer, what, unit string, total uint64, upTo bool, now func() time.Time) *Whole {
	p := &Whole{w: w, now: now, what: what, unit: unit, total: total, upTo: upTo, start: now()}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.term = true
	}
	return p
}

// Run says that run i of n (label) starts, with its share of the total
// (0: the total's, a run of games, not of a budget).
func (p *Whole) Run(i, n int, label string, share uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.run, p.runs, p.phase, p.share = i, n, label, share
	p.Live.Store(0)
	p.Pending.Store(0)
}

// RunDone says that the run under way ended, its work counted (what the
// budget counted: sim.Spent; or its games) and played (every game's, those
// the budget then dropped too).
func (p *Whole) RunDone(counted, played uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += counted
	p.played += played
	p.Live.Store(0)
	p.share = 0
}

// Games is sim.Options.Progress for a run counted in games.
func (p *Whole) Games(done int) { p.Live.Store(uint64(done)) }

// Phase says the phase under way: "screening the levers", "exploring,
// generation 3 of 6".
func (p *Whole) Phase(phase string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.phase = phase
}

// Add counts work done (a tune's games, as they end).
func (p *Whole) Add(n uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += n
	p.played += n
}

// Plan sets the total: the work planned in all, done or not. A total
// that grows says why (why), as the lines after it do.
func (p *Whole) Plan(total uint64, why string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if total > p.total && why != "" {
		p.grew = fmt.Sprintf("the plan grew by %s %s: %s", sim.Count(total-p.total), p.unit, why)
	}
	p.total = total
}

// Line is the progress line (without "2048 sim: " and the line's end).
func (p *Whole) Line() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.line()
}

func (p *Whole) line() string {
	var b strings.Builder
	b.WriteString(p.what)
	if p.runs > 0 {
		fmt.Fprintf(&b, ", run %d of %d", p.run, p.runs)
	}
	if p.phase != "" {
		b.WriteString(", " + p.phase)
	}
	live := p.Live.Load()
	counted := live
	if p.share > 0 {
		counted = min(live, p.share)
	}
	done := p.done + counted
	of := "of "
	if p.upTo {
		of = "of at most "
	}
	fmt.Fprintf(&b, ": %s %s%s %s", sim.Count(done), of, sim.Count(p.total), p.unit)
	if p.share > 0 {
		fmt.Fprintf(&b, " (this run's share %s)", sim.Count(p.share))
	}
	past := p.share > 0 && live > p.share
	remaining := uint64(0) // the most work left, done and played apart
	if done < p.total {
		remaining = p.total - done
	}
	if past {
		pending := p.Pending.Load()
		remaining += pending
		fmt.Fprintf(&b, "; its games have played %s %s past its share: the budget counts in game order, so the games under way play on until those before them are known to spend it, each at most the share's work by itself, at most %s %s more", sim.Count(live-p.share), p.unit, sim.Count(pending), p.unit)
		if p.run < p.runs {
			b.WriteString("; the runs after it share what is left")
		}
	}
	if p.grew != "" {
		b.WriteString("; " + p.grew)
	}
	played := p.played + live
	took := p.now().Sub(p.start)
	switch {
	case remaining == 0 && p.total > 0:
		if p.upTo && p.unit == "moves" { // a budget
			b.WriteString("; the budget is spent: the games under way finish")
		}
	case played == 0 || took <= 0:
		b.WriteString(", time left unknown")
	default:
		left := time.Duration(float64(remaining) / float64(played) * float64(took)).Round(time.Second)
		if p.upTo {
			fmt.Fprintf(&b, ", at most about %s left", left)
		} else {
			fmt.Fprintf(&b, ", about %s left", left)
		}
	}
	return b.String()
}

// Tick writes the line: on a terminal in place of the last, else a line
// of its own. No line comes after Stop.
func (p *Whole) Tick() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended {
		return
	}
	if p.term {
		fmt.Fprintf(p.w, "\r\x1b[K%s", p.fit("2048 sim: "+p.line()))
		p.shown = true
		return
	}
	fmt.Fprintf(p.w, "2048 sim: %s\n", p.line())
}

// Ticker returns the ticker of the line (for Go), or nil for none: every
// second on a terminal, where the line is drawn in place; else every
// Every (none when Every is 0).
func (p *Whole) Ticker() *time.Ticker {
	switch {
	case p.term:
		return time.NewTicker(time.Second)
	case Every > 0:
		return time.NewTicker(Every)
	}
	return nil
}

// Go writes the line on every tick until Stop: a line at least every
// tick's period, though no game ends in it (a searching player's game, a
// tune's pass of long candidates). release, when set, is called at Stop
// (a time.Ticker's Stop).
func (p *Whole) Go(tick <-chan time.Time, release func()) {
	p.mu.Lock()
	p.stopTicker = make(chan struct{})
	stop := p.stopTicker
	p.mu.Unlock()
	go func() {
		if release != nil {
			defer release()
		}
		for {
			select {
			case <-stop:
				return
			case <-tick:
				p.Tick()
			}
		}
	}()
}

// Stop ends the progress: no line after it; on a terminal the line drawn
// is cleared.
func (p *Whole) Stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended {
		return
	}
	p.ended = true
	if p.stopTicker != nil {
		close(p.stopTicker)
	}
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// Writer is w with the line drawn in place cleared before each write and
// drawn again after it, on a terminal: the tune's lines around it.
func (p *Whole) Writer() io.Writer { return wholeWriter{p} }

type wholeWriter struct{ p *Whole }

func (ww wholeWriter) Write(b []byte) (int, error) {
	p := ww.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.shown || p.ended {
		return p.w.Write(b)
	}
	fmt.Fprint(p.w, "\r\x1b[K")
	n, err := p.w.Write(b)
	fmt.Fprint(p.w, p.fit("2048 sim: "+p.line()))
	return n, err
}

// fit cuts a line drawn in place to the terminal's width, less a column:
// a line that wrapped would leave its first rows behind when drawn again.
func (p *Whole) fit(line string) string {
	f, ok := p.w.(*os.File)
	if !ok {
		return line
	}
	width, _, err := term.GetSize(int(f.Fd()))
	if err != nil || width < 2 {
		return line
	}
	if r := []rune(line); len(r) > width-1 {
		return string(r[:width-2]) + "…"
	}
	return line
}
