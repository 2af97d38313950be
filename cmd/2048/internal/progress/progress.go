// Package progress is the progress of 2048 sim's runs on stderr: a bar
// on a terminal, else a line every few seconds (a log, a CI job, a pipe).
package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mod2048/mod2048/scripting/sim"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/term"
)

// Bar is the progress of a run: a bar on a terminal, else a line every
// Every on stderr (a log, a CI job, a pipe), with the games done of
// the total, the rate and the time left, so that a long run is never
// silent.
type Bar struct {
	p     *mpb.Progress
	b     *mpb.Bar
	start time.Time
	total int
	shown bool
	w     io.Writer
	// Lines, where stderr is not a terminal: the label and when the last
	// line was written.
	lines bool
	label string
	last  time.Time
	// A run played to a precision (--precision): the half-width wanted,
	// and the one its batches reached so far (0 before the first).
	precision, half float64
	halfAt          int // the games the half-width was of
	// The moves played so far, and the run's budget of them (--budget).
	Played atomic.Uint64
	budget uint64
	jobs   int // the games under way at once, each of which may do the budget's work
	// mu guards the lines, which the workers and the ticker write, and
	// what they read; games is the games done so far; stop ends the
	// ticker.
	mu    sync.Mutex
	games int
	stop  chan struct{}
	ended bool // done: no line after it
}

// Every is how often a run off a terminal says how far it is.
var Every = 5 * time.Second

// New returns the progress of a run of games on stderr: a bar on a
// terminal, shown once the run has gone on for a second, else lines.
func New(stderr io.Writer, label string, games, shards int) *Bar {
	if shards > 0 {
		games = (games + shards - 1) / shards
	}
	now := time.Now()
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return &Bar{start: now, total: games, w: f}
	}
	b := &Bar{start: now, total: games, w: stderr, lines: true, label: label, last: now, stop: make(chan struct{})}
	if Every > 0 {
		// A line every Every, though no game ends in it: a
		// searching player's game can take minutes.
		go func() {
			t := time.NewTicker(Every)
			defer t.Stop()
			for {
				select {
				case <-b.stop:
					return
				case <-t.C:
					b.mu.Lock()
					b.line(b.games)
					b.mu.Unlock()
				}
			}
		}()
	}
	return b
}

// Batch is told the games done and the win rate's half-width after each
// batch of a run played to a precision. The bar then runs to the end of
// the next batch, the most the run plays unless that batch is short of
// the precision.
func (b *Bar) Batch(done int, half float64) {
	b.mu.Lock()
	b.half, b.halfAt = half, done
	b.mu.Unlock()
	if b.b != nil && half > b.precision {
		b.b.SetTotal(int64(min(done+sim.PrecisionBatch, b.total)), false)
	}
}

// Update is told the games done so far.
func (b *Bar) Update(done int) {
	if b.lines {
		b.mu.Lock()
		b.games = done
		b.line(done)
		b.mu.Unlock()
		return
	}
	if !b.shown {
		if time.Since(b.start) < time.Second {
			return
		}
		b.shown = true
		b.p = mpb.New(mpb.WithOutput(b.w), mpb.WithWidth(40))
		total := b.total
		if b.precision > 0 { // to the end of the batch
			total = min(b.total, (done/sim.PrecisionBatch+1)*sim.PrecisionBatch)
		}
		b.b = b.p.AddBar(int64(total),
			mpb.PrependDecorators(decor.Name("playing "), decor.CountersNoUnit("%d / %d games")),
			mpb.AppendDecorators(decor.Percentage(), decor.Name(" "), decor.EwmaETA(decor.ET_STYLE_GO, 30)))
	}
	b.b.SetCurrent(int64(done))
}

// line writes the progress line of done games, unless one was written
// less than Every ago or the run is over. b.mu is held.
func (b *Bar) line(done int) {
	now := time.Now()
	if b.ended || now.Sub(b.last) < Every || done >= b.total {
		return
	}
	b.last = now
	took := now.Sub(b.start)
	if b.precision == 0 {
		line := Line(b.label, done, b.total, took)
		if b.budget > 0 {
			line += BudgetLine(b.Played.Load(), b.budget, took)
		}
		fmt.Fprintf(b.w, "2048 sim: %s\n", line)
		return
	}
	line := PreciseLine(b.label, done, b.total, took, b.half, b.precision)
	played := b.Played.Load()
	if b.budget > 0 {
		line += fmt.Sprintf("; %s of %s moves", sim.Count(played), sim.Count(b.budget)) + pastBudget(played, b.budget)
	}
	if left, ok := sim.PreciseLeft(done, b.total, took, b.half, b.halfAt, b.precision, played, b.budget, b.jobs); ok {
		line += ", about " + left.Round(time.Second).String() + " left"
	}
	fmt.Fprintf(b.w, "2048 sim: %s\n", line)
}

// BudgetLine says how much of a run's budget of moves (--budget) its games
// have played, and when the rest would be played at the rate so far. The
// run then ends as soon as the games before the one that reached it have
// finished (a long game can keep it a while).
func BudgetLine(played, budget uint64, took time.Duration) string {
	out := fmt.Sprintf("; %s of %s moves", sim.Count(played), sim.Count(budget)) + pastBudget(played, budget)
	if played > 0 && played < budget {
		out += ", the budget spent in about " + sim.AtRate(played, budget, took).Round(time.Second).String()
	}
	return out
}

// pastBudget says why a run's games have played past its budget, when
// they have: the budget counts in game order, so the games under way play
// on until those before them are known to spend it, each at most the
// budget's work by itself (the ledger in package sim drops the others as
// soon as it is sure to).
func pastBudget(played, budget uint64) string {
	if played <= budget {
		return ""
	}
	return fmt.Sprintf(" (%s past it: the budget counts in game order, so the games under way play on until those before them are known to spend it, each at most the budget's work by itself)", sim.Count(played-budget))
}

// Line says how far a run is: the games done of the total, the
// rate so far, and the time left at that rate.
func Line(label string, done, total int, took time.Duration) string {
	if label != "" {
		label += ": "
	}
	rate := float64(done) / took.Seconds()
	left := "time left unknown"
	if rate > 0 {
		left = "about " + (time.Duration(float64(total-done)/rate) * time.Second).Round(time.Second).String() + " left"
	}
	return fmt.Sprintf("playing %s%d / %d games (%d%%), %.2f games/s, %s", label, done, total, 100*done/max(total, 1), rate, left)
}

// PreciseLine says how far a run played to a precision is: the games
// done, the most it plays, the half-width its batches reached so far
// against the one wanted, and the rate; its end is not known before it
// comes.
func PreciseLine(label string, done, most int, took time.Duration, half, want float64) string {
	if label != "" {
		label += ": "
	}
	so := "none yet"
	if half > 0 {
		so = fmt.Sprintf("±%.1f so far", 100*half)
	}
	return fmt.Sprintf("playing %s%d games (at most %d) until the win rate is known to ±%.1f points (%s), %.2f games/s",
		label, done, most, 100*want, so, float64(done)/took.Seconds())
}

// Done ends the progress: the bar drawn whole, no line after it.
func (b *Bar) Done() {
	if b.stop != nil {
		close(b.stop)
		b.mu.Lock()
		b.ended = true
		b.mu.Unlock()
	}
	if b.p != nil {
		if b.precision > 0 {
			b.b.SetTotal(-1, true) // the games played are the whole
		} else {
			b.b.SetCurrent(int64(b.total))
		}
		b.p.Wait()
	}
}

// Set says what the run is: its budget of moves (0: none), the precision
// it plays to (0: its games), and the games it plays at once.
func (b *Bar) Set(budget uint64, precision float64, jobs int) {
	b.mu.Lock() // the ticker reads them
	b.budget, b.precision, b.jobs = budget, precision, jobs
	b.mu.Unlock()
}
