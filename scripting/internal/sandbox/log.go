package sandbox

import (
	"fmt"
	"github.com/mod2048/mod2048/scripting/internal/workcount"
	"io"
	"sync"
)

// maxLogLine is the longest line a mod's log keeps, in bytes; longer ones
// are cut (Printable).
const maxLogLine = 1024

// Log keeps the last bytes a mod printed, up to a limit. Each line
// counts one byte more than its text (its newline), so that empty lines
// cannot pile up without bound.
type Log struct {
	mu    sync.Mutex
	max   int
	lines []string
	size  int
	out   io.Writer // also copies each line here, if set
	// discard drops what is printed, while the host asks the mods a
	// question that must leave no trace (Host.Refused).
	discard bool
}

// Println keeps s as a line, made printable and cut to maxLogLine bytes
// (Printable): a mod's log reaches the player's terminal.
func (b *Log) Println(s string) {
	s = Printable(s, maxLogLine)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.discard {
		return
	}
	b.lines = append(b.lines, s)
	b.size += len(s) + 1
	for b.size > b.max && len(b.lines) > 1 {
		workcount.Step()
		b.size -= len(b.lines[0]) + 1
		b.lines[0] = ""
		b.lines = b.lines[1:]
	}
	if b.out != nil {
		fmt.Fprintln(b.out, s)
	}
}

// Discarding reports whether the log drops what is printed: the host is
// asking a question that must leave no trace.
func (b *Log) Discarding() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.discard
}

// SetDiscard turns discarding on or off.
func (b *Log) SetDiscard(on bool) {
	b.mu.Lock()
	b.discard = on
	b.mu.Unlock()
}

// Lines returns the kept log lines.
func (b *Log) Lines() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.lines...)
}

// NewLog returns a log that keeps the last max bytes printed.
func NewLog(max int) *Log { return &Log{max: max} }
