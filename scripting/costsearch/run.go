package costsearch

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/metrics"
	"time"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/internal/sandbox"
	"github.com/mod2048/mod2048/scripting/internal/workcount"
	"github.com/mod2048/mod2048/scripting/mod"
)

// modID is the id of every program's mod.
const modID = "costsearch"

// manifest is every program's mod.toml: API version 2, for game.notify,
// game.cells and game.mark.
const manifest = "id = \"" + modID + "\"\nname = \"Cost search\"\nversion = \"1.0.0\"\napi_version = 2\n"

// The measures' floors. A turn's time is divided by at least
// minInstructions a turn: the host's own work of a turn for a mod that
// no count charges is bounded by a constant instead (encoding its storage,
// and decoding it to go back a state, at most MaxStorage, 256 KiB, each;
// a failed turn played again without it), some 15 ms at its worst on the
// machine the limits were measured on, which this counts as 100,000
// instructions (150 ns each, under MaxNsPerInstruction); a program that
// runs next to nothing does not rank by it, nor by the noise of the turn
// around it. The heap's ratio
// counts only for a program that holds at least HeapFloor more than an
// empty mod (below it, fixed overheads and the heap's noise dominate),
// and divides by at least minWeighed.
const (
	minInstructions = 100_000
	HeapFloor       = 2 << 20
	minWeighed      = 64 << 10
)

// Result is what running a program measured.
type Result struct {
	// Err: the mod did not load (a syntax error, a top level that failed
	// or passed the load's budget). The other fields are then zero.
	Err error
	// Instructions the host charged the handler calls of the turns played
	// (Host.Instructions), and the time of those turns less an empty
	// mod's: the CPU time of the thread that played them (on Linux;
	// sandbox.ThreadTime), so that other work on the machine does not
	// count.
	Instructions int64
	Time         time.Duration
	// Work is the loop iterations of the turns (package workcount), in a
	// build with the tag workcount, less an empty mod's (the host's own
	// loops of a turn); 0 in others.
	Work int64
	// Held is what the process's live heap grew by from before the host
	// was made to after the turns, the host and its game alive; Weighed
	// what the host's memory budget weighs of the mod's values
	// (Host.Weighed); Leaked what the heap still holds of the growth once
	// the host is closed and it and its game are dropped: what outlives
	// the mod. All three are net of an empty mod's.
	Held, Weighed, Leaked int64
	// Reports are the distinct messages of the mod's reports (a spent
	// budget, an error), the first few.
	Reports []string
}

// NsPerInstruction is the turns' time per charged instruction.
func (r Result) NsPerInstruction(turns int) float64 {
	return float64(r.Time.Nanoseconds()) / float64(max(r.Instructions, int64(turns)*minInstructions))
}

// HeapRatio is what the heap holds per byte weighed: 0 for a program that
// holds less than HeapFloor.
func (r Result) HeapRatio() float64 {
	if r.Held < HeapFloor {
		return 0
	}
	return float64(r.Held) / float64(max(r.Weighed, minWeighed))
}

// Runner runs programs as mods of a classic 4×4 game, one host each, and
// measures them against an empty mod's figures.
type Runner struct {
	Limits scripting.Limits
	Turns  int
	// Deterministic makes each host with scripting.Deterministic: a call
	// the failsafe stops ends the run with a *scripting.CostModelError
	// (Result.Err), where a host for play would report it as the mod's.
	Deterministic bool
	// The empty mod's: the least time of a turn, and the heap held and
	// weighed.
	baseTurn                          time.Duration
	baseWork                          int64
	baseHeld, baseWeighed, baseLeaked int64
}

// emptyMod is the program the runner's figures are net of.
const emptyMod = `game.on("tick", function() end)`

// NewRunner returns a runner that plays turns turns of each program under
// limits (scripting.DefaultLimits for the sandbox's own), and measures the
// empty mod it nets the figures of. The game's turn (GameTurnInstructions)
// is not applied: the search is for the cost of an instruction, which a
// mod's own budgets let it spend more of.
func NewRunner(limits scripting.Limits, turns int) (*Runner, error) {
	if turns < 1 {
		return nil, fmt.Errorf("costsearch: %d turns: at least 1", turns)
	}
	limits.GameTurnInstructions = 0
	r := &Runner{Limits: limits, Turns: turns}
	r.baseTurn = time.Duration(1<<63 - 1)
	for range 3 {
		p, err := r.play(Files(emptyMod))
		if err != nil {
			return nil, fmt.Errorf("costsearch: the empty mod: %w", err)
		}
		r.baseTurn = min(r.baseTurn, p.minTurn)
		r.baseWork = p.work
		r.baseHeld, r.baseWeighed, r.baseLeaked = p.held, p.weighed, p.leaked
	}
	return r, nil
}

// played is what play measured.
type played struct {
	instructions  int64
	work          int64
	time, minTurn time.Duration
	held, weighed int64
	leaked        int64
	reports       []string
}

// PlayedTurns is the turns the runner plays of each program (Measurer).
func (r *Runner) PlayedTurns() int { return r.Turns }

// Files returns the files of the mod whose main.lua is src: the runner's
// manifest and src.
func Files(src string) map[string]string {
	return map[string]string{mod.ManifestName: manifest, "main.lua": src}
}

// ErrNoLegalMove is Result.Err when the game has no legal move left before
// the runner's turns are played (the mod refused them all, or the game is
// lost).
var ErrNoLegalMove = errors.New("costsearch: no legal move")

// Run plays src, a mod's main.lua, and measures it.
func (r *Runner) Run(src string) Result { return r.RunFiles(Files(src)) }

// RunFiles plays the mod of files (Files, and the Lua files its main.lua
// may require), and measures it as Run does.
func (r *Runner) RunFiles(files map[string]string) Result {
	p, err := r.play(files)
	if err != nil {
		return Result{Err: err}
	}
	return r.result(p)
}

// RunQuick plays the mod of files as RunFiles does, but reads no heap (so
// runs no collection): Held and Leaked are 0. It is what a fuzz target
// can afford on every input.
func (r *Runner) RunQuick(files map[string]string) Result {
	var p played
	if _, err := r.playHeld(files, &p, false); err != nil {
		return Result{Err: err}
	}
	res := r.result(p)
	res.Held, res.Leaked = 0, 0
	return res
}

// result is p's figures, net of the empty mod's.
func (r *Runner) result(p played) Result {
	t := p.time - time.Duration(r.Turns)*r.baseTurn
	return Result{
		Instructions: p.instructions,
		Work:         max(p.work-r.baseWork, 0),
		Time:         max(t, 0),
		Held:         p.held - r.baseHeld,
		Weighed:      p.weighed - r.baseWeighed,
		Leaked:       p.leaked - r.baseLeaked,
		Reports:      p.reports,
	}
}

// maxReports bounds Result.Reports.
const maxReports = 4

// play loads the mod of files, plays the runner's turns, weighs the mod,
// and measures the heap before the host is made, with it alive after the
// turns, and once it is closed and dropped.
func (r *Runner) play(files map[string]string) (played, error) {
	var p played
	idleWatchdog()
	before := settledHeap() // the last run's dropped values' cleanups may still be running
	with, err := r.playHeld(files, &p, true)
	if err != nil {
		return p, err
	}
	idleWatchdog()
	p.held = int64(with) - int64(before)
	p.leaked = int64(settledHeap()) - int64(before)
	return p, nil
}

// playHeld does play's work but the last reading of the heap: it returns
// the live heap while the host and its game are alive (if heap; 0
// otherwise), and closes the host.
func (r *Runner) playHeld(files map[string]string, p *played, heap bool) (uint64, error) {
	m, err := mod.LoadSources(files, modID)
	if err != nil {
		return 0, err
	}
	rules := engine.NewClassic()
	rules.StopOnWin = false
	g, err := engine.New(rules, engine.Options{Width: 4, Height: 4, Seed: 1})
	if err != nil {
		return 0, err
	}
	var opts []scripting.HostOption
	if r.Deterministic {
		opts = append(opts, scripting.Deterministic())
	}
	h, err := scripting.NewHost([]*mod.Mod{m}, g.Rules(), g.Options(), r.Limits, opts...)
	if err != nil {
		return 0, err
	}
	defer h.Close()
	h.Attach(g)
	if err := h.Start(g); err != nil {
		return 0, err
	}
	p.minTurn = time.Duration(1<<63 - 1)
	// A turn's time is the CPU time of the thread that plays it, held for
	// the turns (sandbox.ThreadTime): what the turn itself costs, however
	// busy the machine is.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	seen := map[string]bool{}
	work := workcount.Count()
	dirs := [4]engine.Direction{engine.Left, engine.Up, engine.Right, engine.Down}
	for i := range r.Turns {
		d, ok := engine.Direction(0), false
		for k := range 4 {
			if dd := dirs[(i+k)%4]; g.Legal(dd) {
				d, ok = dd, true
				break
			}
		}
		if !ok {
			return 0, ErrNoLegalMove
		}
		start := sandbox.ThreadTime()
		_, err := h.Move(g, d)
		dt := sandbox.ThreadTime() - start
		if err != nil && !errors.As(err, new(*engine.Refusal)) {
			return 0, fmt.Errorf("costsearch: turn %d: %w", i+1, err)
		}
		p.time += dt
		p.minTurn = min(p.minTurn, dt)
		for _, rep := range h.TakeReports() {
			if !seen[rep.Message] && len(p.reports) < maxReports {
				seen[rep.Message] = true
				p.reports = append(p.reports, rep.Message)
			}
		}
	}
	p.instructions = h.Instructions()
	p.work = workcount.Count() - work
	p.weighed = h.Weighed(modID)
	if !heap {
		return 0, nil
	}
	idleWatchdog()
	// Settled, as the heap before: the values the mod dropped during its
	// turns are garbage whose cleanups (the names the sandbox forgets)
	// run after the collection that finds them dead, late on a loaded
	// machine; read at once, the heap held their names too (1.66× the
	// weight where 1.4× was read on an idle machine).
	with := settledHeap()
	runtime.KeepAlive(g)
	runtime.KeepAlive(h)
	return with, nil
}

// liveHeap is the heap's live bytes after a collection: what is
// reachable (a value a cleanup frees, settledHeap waits for).
func liveHeap() uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// settledHeap is the heap's live bytes once what was dropped is freed:
// the cleanups of values that died (the sandbox forgets the names of
// dropped values in cleanups) run after the collection that found them
// dead, so it collects until the live heap stops shrinking.
// Each round waits for the cleanups its collection queued (cleanupsRun)
// rather than for time to pass: on a loaded machine the cleanups'
// goroutine may not run for many milliseconds, and the names of a
// million dropped closures were still held when the heap was read.
func settledHeap() uint64 {
	cleanupsRun()
	last := liveHeap()
	for range 20 {
		cleanupsRun()
		now := liveHeap()
		if now >= last-last/1000 {
			return min(now, last)
		}
		last = now
	}
	return last
}

// cleanupsRun collects, and waits (a second at the most) until a cleanup
// that collection queued has run: the cleanups queued before it have run
// too, as they run in the order they are queued.
func cleanupsRun() {
	done := make(chan struct{})
	p := new([32]byte)
	runtime.AddCleanup(p, func(c chan struct{}) { close(c) }, done)
	p = nil
	runtime.GC()
	select {
	case <-done:
	case <-time.After(time.Second):
	}
}

// idleWatchdog waits, a second at the most, until the process's watchdog
// sleeps: it then holds no call's budget, and so no state.
func idleWatchdog() {
	for range 1000 {
		if sandbox.TheWatchdog().Asleep() {
			return
		}
		time.Sleep(time.Millisecond)
	}
}
