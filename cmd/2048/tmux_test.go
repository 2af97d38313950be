package main

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// pane is a shell in a tmux session of its own, for the end-to-end tests
// that run the real binary as a person would: keys in, the screen out.
type pane struct {
	t    *testing.T
	tmux string
	sock string
}

// newPane starts sh in a w×h tmux pane in folder dir (the test skips
// without tmux) and waits for its prompt.
func newPane(t *testing.T, dir string, w, h int) *pane {
	t.Helper()
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed")
	}
	shell, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	p := &pane{t: t, tmux: tmux, sock: filepath.Join(t.TempDir(), "tmux.sock")}
	p.run("-f", "/dev/null", "new-session", "-d", "-x", strconv.Itoa(w), "-y", strconv.Itoa(h), "-c", dir, "env", "PS1=PROMPT$ ", "TERM=xterm-256color", shell)
	t.Cleanup(func() { exec.Command(tmux, "-S", p.sock, "kill-server").Run() })
	p.waitFor("the prompt", func(s string) bool { return strings.Contains(s, "PROMPT$") })
	return p
}

// run runs a tmux command on the pane's server.
func (p *pane) run(args ...string) string {
	p.t.Helper()
	out, err := exec.Command(p.tmux, append([]string{"-S", p.sock}, args...)...).CombinedOutput()
	if err != nil {
		p.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// typeLine types a command line and Enter.
func (p *pane) typeLine(line string) {
	p.t.Helper()
	p.run("send-keys", "-l", line)
	p.run("send-keys", "Enter")
}

// keys sends keys by tmux's names (Left, Enter, q).
func (p *pane) keys(keys ...string) {
	p.t.Helper()
	p.run(append([]string{"send-keys"}, keys...)...)
}

// screen returns the pane's text, wrapped lines joined.
func (p *pane) screen() string { return p.run("capture-pane", "-p", "-J") }

// waitFor waits up to 15 s for the screen to satisfy ok.
func (p *pane) waitFor(what string, ok func(string) bool) string {
	p.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		text := p.screen()
		if ok(text) {
			return text
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("waiting for %s; the pane shows:\n%s", what, text)
		}
		time.Sleep(30 * time.Millisecond)
	}
}
