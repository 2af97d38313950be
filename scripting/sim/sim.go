// Package sim is the balance lab: it plays many seeded games of a
// configuration and its mods through the play session (the one door every
// frontend uses) with a policy, and reports what they did: wins, losses
// and unfinished games with confidence intervals, score and length
// distributions, the highest tile or energy reached, and each mod's
// errors, refusals and disables.
//
// The same options give the same results byte for byte whatever the
// number of workers: game i's seed comes from the run's seed and i alone,
// each game has a policy of its own seeded from it, and results are kept
// in game order. Only the mods' time per move is wall-clock, and it is
// kept apart (Result.HookNanos, left out of the report unless asked).
package sim

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/session"
)

// GCPercent is the garbage collector's GOGC while the lab (2048 sim) runs,
// unless the user sets GOGC: it makes a game, and a modded game's Lua
// state, for every game and throws it away a few hundred microseconds
// later, a batch run that trades memory for time.
const GCPercent = 400

// Options say what a run plays.
type Options struct {
	Setup    session.Setup
	Policy   string // its name, for the report
	Make     PolicyMaker
	Games    int    // games in the whole run
	From     int    // the first game to play (games From to Games−1): a batch of a run played in batches
	Seed     uint64 // the run's seed: game i's is GameSeed(Seed, i)
	MaxTurns int    // a game that reaches it is unfinished
	Jobs     int    // workers; 0 is every core
	// Gate, when set, is a pool of slots that runs going on at once
	// share, a slot a buffered channel's place: a game takes one before
	// it starts and gives it back when it ends, and Jobs is not read.
	// Runs side by side with workers of their own leave a core idle
	// while the last game of one is played alone; runs through one gate
	// keep every core busy until their last games. The results are the
	// same either way.
	Gate chan struct{}
	// Shard plays the games i with i % Shards == Shard only (0-based), so
	// that Shards runs share a run's games; 0 Shards is the whole run.
	Shard, Shards int
	// Progress, when set, is called after each game with the games done.
	Progress func(done int)
	// Batch, when set, is called by RunPrecise after each batch with the
	// games done and the win rate's half-width so far.
	Batch func(done int, halfWidth float64)
	// Budget, when above 0, is the most work the run's games may do, in
	// moves (Result.Work: their moves, their players' searches included,
	// and their mods' Lua instructions), counted in game order: the run
	// ends with the game at which the games before it and it reach the
	// budget, and the games after it are dropped, even those under way;
	// a game whose own work reaches the budget stops there, unfinished
	// (EndBudget).
	// The work is the same on every machine, so the same options end with
	// the same games, whatever Jobs is.
	Budget uint64
	// Played, when set, has the work of the games added as they are
	// played (Result.Work), those under way too: a run's progress between
	// the games' ends.
	Played *atomic.Uint64
	// Pending, when set with a budget, is kept at the most work the
	// run's games under way may still do (each at most the budget's work
	// by itself), those the budget is sure to drop left out: once the
	// games have played the budget's work, no other game starts, and the
	// run ends within it. It is looked at again as each game ends and
	// every few hundred moves of each.
	Pending *atomic.Uint64
	// Stop, when closed, stops the run at once: no game starts, the games
	// under way are dropped at their next move, and Run returns the games
	// finished, with ErrStopped (Ctrl-C, SIGTERM).
	Stop <-chan struct{}
	// Timing measures the wall-clock time of the policy and of the moves
	// with mods (Result.PolicyNanos, HookNanos); off, the lab reads no
	// clock.
	Timing bool
	// Observe, when set, is shown every position a game reaches before its
	// policy chooses, with the game's index (Collect's data). It is called
	// from the workers at once.
	Observe func(game int, v View)
}

// header is what the report of o's run says of it.
func (o Options) header() Header {
	return Header{Config: string(o.Setup.Config.TOML()), Policy: o.Policy, Ruleset: o.Setup.Config.Ruleset, Difficulty: o.Setup.Config.Preset, Seed: o.Seed, MaxTurns: o.MaxTurns,
		RunGames: o.Games, Shard: o.Shard, Shards: o.Shards}
}

// Outcome is how a game ended.
type Outcome string

// The outcomes.
const (
	Won        Outcome = "won"
	Lost       Outcome = "lost"
	Unfinished Outcome = "unfinished"
)

// EndUnfinished is the ending of a game still going at the run's turn
// limit (Options.MaxTurns); EndBudget of one still going when its own
// work reached the run's whole budget (Options.Budget).
const (
	EndUnfinished engine.Ending = "unfinished"
	EndBudget     engine.Ending = "budget"
)

// Result is one game's.
type Result struct {
	Game    int     `json:"game"` // its index in the run, from 0
	Seed    uint64  `json:"seed"`
	Outcome Outcome `json:"outcome"`
	Score   string  `json:"score"` // as the ruleset writes it
	// ScoreValue is the score as a number, for the statistics.
	ScoreValue float64 `json:"score_value"`
	Turns      int     `json:"turns"`
	// End is why the game ended (Session.Ending, or EndUnfinished), and
	// EndMod and EndHazard the mod whose doing ended it and its hazard,
	// when a mod's did.
	End       engine.Ending `json:"end"`
	EndMod    string        `json:"end_mod,omitempty"`
	EndHazard string        `json:"end_hazard,omitempty"`
	Top       int           `json:"top"` // the highest level reached: a tile's exponent, or a cell's energy
	// Refused counts the directions the rules allowed and the mods
	// refused, over the game's moves.
	Refused int `json:"refused,omitempty"`
	// Moves counts the moves the game and its policy's searches played
	// through the engine's rules (engine.Game.CountMoves): its work, the
	// same on every machine. The packed classic search (classic 4×4, no
	// mods) plays none of its own: its games count their turns.
	Moves uint64 `json:"moves"`
	// Instructions counts the Lua instructions charged to the mods'
	// handlers in the game, its policy's searches included
	// (Session.ModInstructions): the mods' work, the same on every machine.
	Instructions uint64 `json:"instructions,omitempty"`
	// Nodes counts the positions its player's packed search evaluated
	// (the classic expert on a 4×4 board without mods, whose search plays
	// no moves through the engine's rules).
	Nodes     uint64        `json:"nodes,omitempty"`
	Mods      []ModStats    `json:"mods,omitempty"`
	HookNanos time.Duration `json:"-"` // wall-clock time of the moves with mods: never in the byte-identical output
	// PolicyNanos is the wall-clock time the policy took to choose, kept
	// apart as HookNanos is.
	PolicyNanos time.Duration `json:"-"`
}

// ModStats count what a mod did in one game (or a run).
type ModStats struct {
	Mod    string `json:"mod"`
	Errors int    `json:"errors"`
	// Failsafes is what the lab counted before a failsafe's stop ended
	// the run (Setup.Deterministic): kept so that an older report reads
	// and merges; the lab writes none.
	Failsafes int `json:"failsafes,omitempty"`
	Refusals  int `json:"refusals"`
	Disables  int `json:"disables"`
	// FirstError is the first error's report, to look into.
	FirstError string `json:"first_error,omitempty"`
}

// GameSeed is the seed of game i of a run seeded seed: SplitMix64's
// finalizer of both, so that neighbouring games are unrelated.
func GameSeed(seed uint64, i int) uint64 {
	return engine.Mix(seed ^ (uint64(i)+1)*0x9e3779b97f4a7c15)
}

// MaxGames is the most games a run may have. Its report keeps every
// game's result (for the JSON, the CSV and the merge of shards): a million
// games take about 0.5 GB while the report is made, and 0.9 GB allocated in
// all; a larger run is refused before it plays rather than running out of
// memory on the way.
const MaxGames = 1_000_000

// MaxFirstError is the most bytes of a mod's first error a game's result
// keeps: a mod's error may be as long as a Lua string, and a run keeps one
// for each game.
const MaxFirstError = 512

// ErrTooManyGames is the error (with errors.Is) of a run of more than
// MaxGames games.
var ErrTooManyGames = fmt.Errorf("a run plays at most %d games (its report keeps each game's result in memory)", MaxGames)

// ErrStopped is Run's error when Options.Stop stopped the run: the results
// it returns with it are the games that finished.
var ErrStopped = errors.New("the run was stopped")

// Run plays the run's games (its shard's) and returns their results in
// game order. Workers beyond the machine's cores are not started (with
// no Gate): they would not play faster, and each holds a game and its
// mods.
func Run(o Options) ([]Result, error) {
	if o.Games < 1 || o.MaxTurns < 1 {
		return nil, fmt.Errorf("want at least one game and one turn, got %d games of %d turns", o.Games, o.MaxTurns)
	}
	if o.Games > MaxGames {
		return nil, fmt.Errorf("%d games: %w", o.Games, ErrTooManyGames)
	}
	if o.Shards < 0 || o.Shards > 0 && (o.Shard < 0 || o.Shard >= o.Shards) {
		return nil, fmt.Errorf("shard %d of %d: want 0 ≤ shard < shards", o.Shard, o.Shards)
	}
	var games []int
	for i := max(o.From, 0); i < o.Games; i++ {
		if o.Shards == 0 || i%o.Shards == o.Shard {
			games = append(games, i)
		}
	}
	jobs := o.Jobs
	switch {
	case o.Gate != nil:
		jobs = len(games) // each waits for a slot
	case jobs <= 0 || jobs > runtime.NumCPU():
		jobs = runtime.NumCPU()
	}
	results := make([]Result, len(games))
	errs := make([]error, len(games))
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	// The budget, counted in game order (ledger); over is closed once no
	// game is to start.
	led := newLedger(o.Budget, len(games), o.Pending)
	over := make(chan struct{})
	closeOver := sync.OnceFunc(func() { close(over) })
	for w := 0; w < min(jobs, len(games)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				moves := 0
				dropped := func() bool {
					// Every so many moves, the games before it are
					// looked at again: they may have done the budget's
					// work while none ended.
					if moves++; o.Budget > 0 && moves%ledgerEvery == 0 {
						mu.Lock()
						led.update()
						mu.Unlock()
					}
					return led.dropped(k)
				}
				if o.Gate != nil {
					select {
					case o.Gate <- struct{}{}:
					case <-o.Stop:
						errs[k] = ErrStopped
						continue
					}
				}
				results[k], errs[k] = playGame(o, games[k], dropped, &led.work[k])
				if o.Gate != nil {
					<-o.Gate
				}
				if errs[k] == nil {
					led.work[k].Store(results[k].Work())
				}
				mu.Lock()
				led.ended(k, errs[k] == nil)
				if led.cut.Load() < int64(len(games)) {
					closeOver()
				}
				if o.Progress != nil && errs[k] == nil && !led.dropped(k) {
					done++
					o.Progress(done)
				}
				mu.Unlock()
			}
		}()
	}
	stopped := false
	for k := range games {
		mu.Lock()
		ok := led.start(k)
		mu.Unlock()
		if !ok {
			break
		}
		select {
		case next <- k:
			continue
		case <-over:
		case <-o.Stop: // a nil Stop never fires
			stopped = true
		}
		break
	}
	close(next)
	wg.Wait()
	select {
	case <-o.Stop:
		stopped = true
	default:
	}
	last := min(int(led.cut.Load()), len(games)-1)
	finished := led.finished
	results, errs, finished = results[:last+1], errs[:last+1], finished[:last+1]
	for _, err := range errs {
		if err != nil && !errors.Is(err, ErrStopped) {
			return nil, err
		}
	}
	if stopped {
		var done []Result
		for k, r := range results {
			if finished[k] {
				done = append(done, r)
			}
		}
		return done, ErrStopped
	}
	return results, nil
}

// ledgerEvery is how many moves of a game go by between its looks at the
// work of the games before it (ledger.update), besides those at each
// game's end.
const ledgerEvery = 256

// InstructionsPerMove is how many Lua instructions charged to the mods
// count as one move of a run's work (Result.Work), so that a budget of
// moves bounds the time of a run whose mods do much in Lua as it bounds
// one whose player searches much. A unit of work costs about 1 µs of a
// modded classic game (an instruction about 50 ns, a move through the
// mods' handlers about 1 µs), 0.2 µs of an unmodded classic search and up
// to 2.8 µs of a cellular one (BenchmarkWorkUnit, 28 November, 2 cores):
// a budget bounds a run's time by its units times 2.8 µs at most.
const InstructionsPerMove = 20

// Work is the game's work in moves, the unit a budget counts: its moves
// through the engine's rules, its player's searches included, and one
// more for every InstructionsPerMove Lua instructions its mods were
// charged.
func (r Result) Work() uint64 {
	return r.Moves + r.Instructions/InstructionsPerMove + r.Nodes/NodesPerMove
}

// NodesPerMove is how many positions the packed classic search evaluates
// for one move of a run's work (Result.Work): at about 10 ns a position,
// a unit of 1 µs, as a modded classic move's (BenchmarkWorkUnit).
const NodesPerMove = 100

// Spent is the work of results (Result.Work), what a budget counts.
func Spent(results []Result) uint64 {
	var n uint64
	for _, r := range results {
		n += r.Work()
	}
	return n
}

// shorten cuts s to at most n bytes, at a character's start, with "…"
// when it was cut.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// playGame plays game i of the run through a session.
// dropped, checked every move, says that the run no longer needs the game
// (its budget is spent): it then stops, with ErrStopped.
// work, when the run has a budget, is kept at the game's work so far.
func playGame(o Options, i int, dropped func() bool, work *atomic.Uint64) (Result, error) {
	seed := GameSeed(o.Seed, i)
	r := Result{Game: i, Seed: seed, Outcome: Unfinished}
	policy, err := o.Make(seed)
	if err != nil {
		return r, err
	}
	// The mods are read, never changed, by the games' hosts: the workers
	// share them.
	// The lab never takes a move back: its games keep no undo history.
	// The lab's results are the same on every machine: a mod's call that
	// the wall-clock failsafe stops ends the run (a
	// *scripting.CostModelError), never counts as the mod's error.
	setup := o.Setup
	setup.Deterministic = true
	s, err := session.New(setup, session.Start{Seed: seed, NoUndo: true})
	if err != nil {
		return r, err
	}
	defer s.Close()
	s.CountMoves(&r.Moves)
	stats := map[string]*ModStats{}
	for _, m := range s.Mods() {
		stats[m.ID()] = &ModStats{Mod: m.ID()}
	}
	top := func() {
		for _, c := range s.State().Board.Cells {
			r.Top = max(r.Top, int(c.Level))
		}
	}
	// What every view holds, made once a game: a method value allocates.
	rules, fork := s.Rules(), s.Fork
	var seen engine.State // what the policy sees of the state: no random source
	top()
	// A game that stops on a win ends there; one that goes on after a win
	// (stop_on_win = false) is played on to its end, for its highest
	// tile, and counts as won.
	won := false
	counted := uint64(0) // the work added to o.Played
	cut := false         // the game's own work reached the run's budget
	for s.State().Turn < o.MaxTurns {
		select {
		case <-o.Stop:
			return r, ErrStopped
		default:
		}
		if dropped() {
			return r, ErrStopped
		}
		if o.Budget > 0 && r.Work() >= o.Budget {
			// One game may do no more than the whole run: an endless
			// game stops here, unfinished, whatever the others did
			// (so the same game stops at the same turn on every
			// machine), and a run does at most its budget and the
			// games under way at most their own.
			cut = true
			break
		}
		st := s.Status()
		won = won || st == engine.WonContinue
		if st == engine.Won || st == engine.Lost {
			break
		}
		v := View{State: playerState(s.State(), &seen), Rules: rules, Legal: s.Legal(), Fork: fork, Modded: len(stats) > 0}
		if len(stats) > 0 {
			r.Refused += bits.OnesCount8(uint8(s.RulesLegal() &^ v.Legal))
		}
		if v.Legal == 0 {
			r.Outcome = Lost
			break
		}
		if o.Observe != nil {
			o.Observe(i, v)
		}
		var start time.Time
		if o.Timing {
			start = time.Now()
		}
		d := policy.Choose(v)
		if o.Timing {
			r.PolicyNanos += time.Since(start)
			start = time.Now()
		}
		if nc, ok := policy.(nodeCounter); ok {
			r.Nodes = nc.Nodes()
		}
		res, err := s.Move(d)
		r.Instructions = uint64(s.ModInstructions())
		if o.Played != nil {
			o.Played.Add(r.Work() - counted)
			counted = r.Work()
		}
		if o.Budget > 0 {
			work.Store(r.Work())
		}
		if o.Timing && len(stats) > 0 {
			r.HookNanos += time.Since(start)
		}
		var ref *engine.Refusal
		switch {
		case errors.As(err, &ref):
			// The session's legal moves leave refused ones out, so only
			// a policy that ignores them meets a refusal.
			if m := stats[ref.By]; m != nil {
				m.Refusals++
			}
		case err != nil:
			return r, fmt.Errorf("game %d (seed %d): %w", i, seed, err)
		case !res.Changed:
			return r, fmt.Errorf("game %d (seed %d): the policy chose %v, which changes nothing", i, seed, d)
		}
		for _, rep := range s.TakeReports() {
			m := stats[rep.Mod]
			if m == nil {
				continue
			}
			m.Errors++
			if m.FirstError == "" {
				m.FirstError = shorten(rep.Error(), MaxFirstError)
			}
			if rep.Disabled {
				m.Disables++
			}
		}
		top()
	}
	// A game that ended on its last allowed turn still ended.
	st := s.Status()
	if err := s.Err(); err != nil {
		// The failsafe stopped a dry run or a search's fork.
		return r, fmt.Errorf("game %d (seed %d): %w", i, seed, err)
	}
	switch {
	case st == engine.Won || won || st == engine.WonContinue:
		r.Outcome = Won
	case st == engine.Lost:
		r.Outcome = Lost
	}
	r.End = EndUnfinished
	if cut {
		r.End = EndBudget
	}
	if end, mod, hazard := s.Ending(); end != "" {
		r.End, r.EndMod, r.EndHazard = end, mod, hazard
	}
	if r.Outcome == Won && r.End != engine.EndGoal {
		// Won, then played on (stop_on_win = false) to another end: the
		// goal is what ended it as a win.
		r.End, r.EndMod, r.EndHazard = engine.EndGoal, "", ""
	}
	r.Turns = s.State().Turn
	r.Score = engine.FormatScore(s.Rules(), s.Score())
	r.ScoreValue = scoreValue(s.Rules(), s.Score())
	for _, m := range s.Mods() {
		r.Mods = append(r.Mods, *stats[m.ID()])
	}
	return r, nil
}

// scoreValue is a score as a number (cellular's quarter points included).
func scoreValue(r engine.Rules, sc engine.Score) float64 {
	v, err := strconv.ParseFloat(engine.FormatScore(r, sc), 64)
	if err != nil {
		return math.Inf(1)
	}
	return v
}

// RunPrecise plays the run's games in batches of batch games, from the
// first, until the win rate's 95% interval is within ±precision (0.05: ±5
// points), o.Games games are played or o.Budget is spent (Run's budget,
// across the batches), and returns their results. Game i
// is the same game as in a run of o.Games, so the same options give the
// same games, and the answer stops where it is known. o.Progress, if set,
// is told the games done across the batches, and o.Batch each batch's
// half-width.
func RunPrecise(o Options, precision float64, batch int) ([]Result, error) {
	if precision <= 0 || batch < 1 {
		return nil, fmt.Errorf("want a precision above 0 and batches of at least one game, got ±%v in batches of %d", precision, batch)
	}
	var all []Result
	progress := o.Progress
	for from := 0; from < o.Games; from += batch {
		b := o
		b.From, b.Games = from, min(from+batch, o.Games)
		if o.Budget > 0 {
			b.Budget = o.Budget - Spent(all)
		}
		if progress != nil {
			done := len(all)
			b.Progress = func(n int) { progress(done + n) }
		}
		rs, err := Run(b)
		all = append(all, rs...)
		if err != nil {
			return all, err
		}
		hw := HalfWidth(all)
		if o.Batch != nil {
			o.Batch(len(all), hw)
		}
		if hw <= precision || Cut(o, all) {
			break
		}
	}
	return all, nil
}

// Cut reports whether the results of a run of o ended at its budget.
func Cut(o Options, results []Result) bool {
	return o.Budget > 0 && Spent(results) >= o.Budget
}

// HalfWidth is the half-width of the 95% interval of results' win rate
// (0.5 for no results).
func HalfWidth(results []Result) float64 {
	if len(results) == 0 {
		return 0.5
	}
	_, ci := rate(Wins(results), len(results))
	return (ci[1] - ci[0]) / 2
}

// Wins counts the won games of results.
func Wins(results []Result) int {
	wins := 0
	for _, r := range results {
		if r.Outcome == Won {
			wins++
		}
	}
	return wins
}
